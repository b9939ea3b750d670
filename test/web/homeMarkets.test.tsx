// Home's market card follows the feed: the rows render a step behind the store (a deferred render,
// so that a tick is not one long task), and still show every tick's price once React has caught up.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { api } from '../../src/api/api.ts';
import type { Ticker } from '../../src/api/contract/market.ts';
import { marketSlice } from '../../src/entities/market/marketSlice.ts';
import { userSlice } from '../../src/entities/session/userSlice.ts';

const feed = vi.hoisted(() => ({ listeners: new Map<string, (message: { data: unknown }) => void>() }));
vi.mock('../../src/api/realtime.ts', () => ({
  realtime: () => ({
    subscribe: (channel: string, listener: (message: { data: unknown }) => void) => {
      feed.listeners.set(channel, listener);
      return () => feed.listeners.delete(channel);
    },
    onChange: () => () => undefined,
    isLive: () => true,
  }),
}));

const { default: HomeMarkets, prepare } = await import('../../src/features/home/HomeMarkets.tsx');
const { tickersChannel } = await import('../../src/entities/market/marketApi.ts');

const bitcoin: Ticker = {
  symbol: 'BTCUSDT', displayName: 'BTC/USDT', base: 'BTC', quote: 'USDT', class: 'crypto', pricePrecision: 2,
  last: '64000.00', open24h: '63000.00', high24h: '64500.00', low24h: '62500.00', volume24h: '1200.00', quoteVolume24h: '76800000.00',
  change24h: '1000.00', changePercent24h: '1.59', open: true, time: Date.now(),
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

beforeEach(() => {
  i18n.activate('en-us');
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ code: 200, result: [bitcoin] }), { headers: { 'content-type': 'application/json' } })));
});

describe('HomeMarkets', () => {
  it('shows the listed price, then each tick\'s price', async () => {
    await prepare();
    const store = configureStore({
      reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer, market: marketSlice.reducer },
      middleware: (getDefault) => getDefault().concat(api.middleware),
    });
    render(
      <Provider store={store}>
        <I18nProvider i18n={i18n}><MemoryRouter><HomeMarkets /></MemoryRouter></I18nProvider>
      </Provider>,
    );
    expect(await screen.findByText('64,000.00')).toBeTruthy();
    await vi.waitFor(() => expect(feed.listeners.has(tickersChannel)).toBe(true));
    act(() => feed.listeners.get(tickersChannel)!({ data: [{ ...bitcoin, last: '64250.50', time: Date.now() + 1000 }] }));
    expect(await screen.findByText('64,250.50')).toBeTruthy();
    expect(screen.queryByText('64,000.00')).toBeNull();
  });
});
