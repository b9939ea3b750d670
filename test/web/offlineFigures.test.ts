// Figures shown offline (issue 19 #6): the chart's kept candles end on the price the header shows,
// and the asset centre's kept snapshot is read back only whole.
import { describe, expect, it } from 'vitest';
import type { Candle } from '../../src/api/contract/market.ts';
import { periodStartMs, withLastTick } from '../../src/features/kline/candleCache.ts';
import { parseKeptAssets, type KeptAssets } from '../../src/features/wallet/keptAssets.tsx';

const minuteMs = 60_000;
const candle = (time: number, open: string, high: string, low: string, close: string): Candle => ({ time, open, high, low, close, volume: '1.5' });

describe('periodStartMs', () => {
  it('follows the server grid: UTC multiples, weeks from Monday, months from the first', () => {
    const at = Date.UTC(2026, 10, 26, 16, 17, 51); // Thursday 2026-11-26 16:17:51 UTC
    expect(periodStartMs('1m', at)).toBe(Date.UTC(2026, 10, 26, 16, 17));
    expect(periodStartMs('15m', at)).toBe(Date.UTC(2026, 10, 26, 16, 15));
    expect(periodStartMs('4h', at)).toBe(Date.UTC(2026, 10, 26, 16, 0));
    expect(periodStartMs('1d', at)).toBe(Date.UTC(2026, 10, 26));
    expect(periodStartMs('1w', at)).toBe(Date.UTC(2026, 10, 23)); // the Monday before
    expect(new Date(periodStartMs('1w', at)).getUTCDay()).toBe(1);
    expect(periodStartMs('1M', at)).toBe(Date.UTC(2026, 10, 1));
  });
});

describe('withLastTick', () => {
  const base = Date.UTC(2026, 10, 26, 16, 0);
  const candles = [
    candle(base, '67300.00', '67400.00', '67250.00', '67380.00'),
    candle(base + 15 * minuteMs, '67380.00', '67420.00', '67370.00', '67397.09'),
  ];

  it('closes the tick\'s own candle at the tick, stretching its high or low to it', () => {
    const inside = withLastTick(candles, { price: '67390.45', timeMs: base + 20 * minuteMs }, '15m');
    expect(inside).toHaveLength(2);
    expect(inside[1]).toEqual(candle(base + 15 * minuteMs, '67380.00', '67420.00', '67370.00', '67390.45'));
    const below = withLastTick(candles, { price: '67360.10', timeMs: base + 29 * minuteMs }, '15m');
    expect(below[1]).toMatchObject({ low: '67360.10', high: '67420.00', close: '67360.10' });
    const above = withLastTick(candles, { price: '67500', timeMs: base + 16 * minuteMs }, '15m');
    expect(above[1]).toMatchObject({ low: '67370.00', high: '67500', close: '67500' });
    expect(candles[1].close).toBe('67397.09'); // the input is not changed
  });

  it('drops candles newer than the tick, and starts a candle for a tick after the last', () => {
    const older = withLastTick(candles, { price: '67333.33', timeMs: base + 5 * minuteMs }, '15m');
    expect(older).toEqual([candle(base, '67300.00', '67400.00', '67250.00', '67333.33')]);
    const newer = withLastTick(candles, { price: '67401.00', timeMs: base + 31 * minuteMs }, '15m');
    expect(newer).toHaveLength(3);
    expect(newer[2]).toEqual({ time: base + 30 * minuteMs, open: '67401.00', high: '67401.00', low: '67401.00', close: '67401.00', volume: '0' });
  });

  it('leaves candles alone for a tick before all of them, and for none', () => {
    expect(withLastTick(candles, { price: '1', timeMs: base - minuteMs }, '15m')).toBe(candles);
    expect(withLastTick([], { price: '1', timeMs: base }, '15m')).toEqual([]);
  });
});

describe('parseKeptAssets', () => {
  const amounts = { spot: '100.000000', frozen: '0', position: '0', product: '0', loan: '0', demo: '0' };
  const snapshot: KeptAssets = {
    userId: '42', savedAtMs: 1_764_000_000_000,
    assets: {
      totalUsdt: '100.000000', byKind: amounts, unpriced: [],
      currencies: [{ currency: 'USDT', scale: 6, amounts, rate: '1', valueUsdt: '100.000000' }],
    },
    currencies: [{ currency: 'USDT', name: 'Tether', scale: 6 }],
    rate: { currency: 'BTC', rate: '67390.45', source: 'feed', time: 1_764_000_000_000 },
  };

  it('reads back a whole snapshot, keeping only what the page shows of the currencies', () => {
    expect(parseKeptAssets(snapshot)).toEqual(snapshot);
    const withNetworks = { ...snapshot, currencies: [{ ...snapshot.currencies[0], networks: [{ network: 'TRC20' }] }] };
    expect(parseKeptAssets(withNetworks)).toEqual(snapshot);
    expect(parseKeptAssets({ ...snapshot, rate: null })?.rate).toBeNull();
  });

  it('refuses anything half-read or malformed', () => {
    expect(parseKeptAssets(undefined)).toBeUndefined();
    expect(parseKeptAssets({ ...snapshot, userId: '' })).toBeUndefined();
    expect(parseKeptAssets({ ...snapshot, savedAtMs: 0 })).toBeUndefined();
    expect(parseKeptAssets({ ...snapshot, assets: { ...snapshot.assets, totalUsdt: '1e9' } })).toBeUndefined();
    expect(parseKeptAssets({ ...snapshot, assets: { ...snapshot.assets, byKind: { ...amounts, spot: undefined } } })).toBeUndefined();
    const row = snapshot.assets.currencies[0];
    expect(parseKeptAssets({ ...snapshot, assets: { ...snapshot.assets, currencies: [{ ...row, valueUsdt: 12 }] } })).toBeUndefined();
    expect(parseKeptAssets({ ...snapshot, currencies: [{ currency: 'USDT' }] })).toBeUndefined();
    expect(parseKeptAssets({ ...snapshot, rate: { ...snapshot.rate, source: 'guess' } })).toBeUndefined();
  });
});
