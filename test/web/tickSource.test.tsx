// A tick's source reads as words on every receipt and tick line (issue 19): the simulator in the
// user's language, a ccxt venue by its own name, never the feed's code ("來源：simulator").
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { tickSourceLabel } from '../../src/components/tickSource.ts';
import { TickRow } from '../../src/features/trade/receipt/TickRow.tsx';

afterEach(cleanup);

describe('tickSourceLabel', () => {
  it('names the simulator in words and a venue by its own name', () => {
    expect(tickSourceLabel('simulator')).toBe('Price simulator');
    expect(tickSourceLabel('ccxt:binance')).toBe('Binance');
    expect(tickSourceLabel('ccxt:okx')).toBe('OKX');
    expect(tickSourceLabel('binance')).toBe('Binance');
    expect(tickSourceLabel('ccxt:somevenue')).toBe('Somevenue');
    expect(tickSourceLabel(undefined)).toBe('—');
  });

  it('is what a receipt tick line shows, with the simulated-prices label beside the simulator', () => {
    render(
      <I18nProvider i18n={i18n}>
        <TickRow tick={{ id: '7', symbol: 'BTCUSDT', price: '67244.89', time: Date.UTC(2026, 10, 25, 8), source: 'simulator' }} />
        <TickRow tick={{ id: '8', symbol: 'BTCUSDT', price: '67244.89', time: Date.UTC(2026, 10, 25, 8), source: 'ccxt:binance' }} />
      </I18nProvider>,
    );
    const sources = [...document.querySelectorAll('.tick-row-fields div:last-child dd')].map((cell) => cell.firstChild?.textContent);
    expect(sources).toEqual(['Price simulator', 'Binance']);
    expect(screen.queryByText('simulator')).toBeNull();
    expect(screen.getAllByTestId('simulated-prices')).toHaveLength(1);
  });
});
