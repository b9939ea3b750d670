// The symbol a trading or chart page opens on (issue 19 #12): the address's, else the one viewed
// last on any page, else BTCUSDT, never simply the first of an alphabetical list.
import { afterEach, describe, expect, it } from 'vitest';
import { lastSymbolKey, pickSymbol, readLastSymbol, rememberSymbol } from '../../src/lib/lastSymbol.ts';

afterEach(() => localStorage.removeItem(lastSymbolKey));

const offered = ['ADAUSDT', 'BTCUSDT', 'ETHUSDT', 'EURUSD'];

describe('pickSymbol', () => {
  it('opens on BTCUSDT before anything is viewed, not on the first offered', () => {
    expect(pickSymbol(offered)).toBe('BTCUSDT');
    expect(pickSymbol(['ADAUSDT', 'ETHUSDT'])).toBe('ADAUSDT');
    expect(pickSymbol([])).toBeUndefined();
  });

  it('opens on the symbol viewed last when offered, and on the address\'s first', () => {
    rememberSymbol('ETHUSDT');
    expect(pickSymbol(offered)).toBe('ETHUSDT');
    expect(pickSymbol(offered, 'eurusd')).toBe('EURUSD');
    expect(pickSymbol(offered, 'NOPEUSDT')).toBe('ETHUSDT');
    rememberSymbol('XAUUSD');
    expect(pickSymbol(offered)).toBe('BTCUSDT');
  });

  it('ignores a malformed stored value', () => {
    localStorage.setItem(lastSymbolKey, '<script>');
    expect(readLastSymbol()).toBeUndefined();
    rememberSymbol('bad symbol');
    expect(localStorage.getItem(lastSymbolKey)).toBe('<script>');
    expect(pickSymbol(offered)).toBe('BTCUSDT');
  });
});
