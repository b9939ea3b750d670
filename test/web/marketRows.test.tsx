// A market row as the lists draw it: the mark (decoration, hidden from screen readers), the pair
// with its full name and volume, and for a closed market its last session's change with when it
// reopens; a market the app has no name for still gets a mark of its own.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { Ticker } from '../../src/api/contract/market.ts';
import { TickerRow } from '../../src/entities/market/TickerRow.tsx';
import { formatReopening } from '../../src/entities/market/format.ts';
import { markOf } from '../../src/entities/market/assets.ts';

afterEach(cleanup);

const gold: Ticker = {
  symbol: 'XAUUSD', displayName: 'XAU/USD', base: 'XAU', quote: 'USD', class: 'metal', pricePrecision: 2,
  last: '2352.40', open24h: '2330.10', high24h: '2360.00', low24h: '2321.55', volume24h: '160000.00', quoteVolume24h: '376000000.00',
  change24h: '22.30', changePercent24h: '0.95', open: false, time: Date.UTC(2026, 5, 5, 21, 59, 59), reopensAt: Date.UTC(2026, 5, 7, 22),
};

function renderRow(ticker: Ticker) {
  render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter><ul><TickerRow ticker={ticker} intl="en-US" /></ul></MemoryRouter>
    </I18nProvider>,
  );
  return screen.getByRole('link');
}

describe('TickerRow', () => {
  it('shows a closed market with its last session\'s change and when it reopens, in the user\'s time', () => {
    const link = renderRow(gold);
    expect(link.textContent).toBe(`AuXAU/USDGoldVol 376M2,352.40+0.95%Closed — reopens ${formatReopening(gold.reopensAt!, 'en-US')}`);
    expect(screen.getByTestId('ticker-closed').textContent).toMatch(/^Closed — reopens (Sun|Mon) \d{1,2}:00\s(AM|PM)$/);
    expect(link.querySelector('.market-mark')!.getAttribute('aria-hidden')).toBe('true');
  });

  it('says only "Closed" when the server does not say when, and nothing for an open market', () => {
    const { reopensAt: _, ...withoutTime } = gold;
    renderRow(withoutTime);
    expect(screen.getByTestId('ticker-closed').textContent).toBe('Closed');
    cleanup();
    renderRow({ ...gold, open: true, reopensAt: undefined });
    expect(screen.queryByTestId('ticker-closed')).toBeNull();
  });

  it('gives a market it has no name for a mark of its first letter, and no full name', () => {
    const link = renderRow({ ...gold, symbol: 'PEPEUSDT', displayName: 'PEPE/USDT', base: 'PEPE', quote: 'USDT', open: true, reopensAt: undefined });
    expect(markOf('PEPEUSDT', 'PEPE').sign).toBe('P');
    expect(link.querySelector('.ticker-full-name')).toBeNull();
    expect(link.textContent).toMatch(/^PPEPE\/USDTVol 376M/);
  });
});
