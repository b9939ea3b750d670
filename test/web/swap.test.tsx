// Flash swap (issue 10): the amount is checked against the wallet balance (All fills it exactly),
// a quote shows its rate, fee and receive with a countdown, an expired quote cannot be confirmed
// and a new one is offered, a quote the server calls used or expired is said in place with a new
// quote offered, a swap's result links to the records, and the records page shows each receipt.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { i18n } from '../../src/lib/i18n.ts';
import { api, configureApiClient } from '../../src/api/api.ts';
import { userSlice } from '../../src/entities/session/userSlice.ts';
import type { SwapQuote, SwapRecord } from '../../src/api/contract/trading.ts';
import SwapPage from '../../src/features/swap/SwapPage.tsx';
import SwapOrdersPage, { flattenSwaps } from '../../src/features/swap/SwapOrdersPage.tsx';
import { checkSwapAmount, parseAmountAtomic, secondsLeft, trimAmount } from '../../src/features/swap/swapAmounts.ts';

// The quote's countdown reads the server clock: the test moves it instead of waiting.
const clock = vi.hoisted(() => ({ nowMs: 1_800_000_000_000 }));
vi.mock('../../src/api/serverClock.ts', () => ({
  serverNow: () => clock.nowMs, learnServerTime: () => undefined, serverOffsetMs: () => 0,
}));
const serverNow = () => clock.nowMs;
vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

describe('swap amounts', () => {
  it('reads amounts at the currency scale and checks them against the balance', () => {
    expect(parseAmountAtomic('0.5', 8)).toBe(50_000_000n);
    expect(parseAmountAtomic('0.123456789', 8)).toBeUndefined();
    expect(checkSwapAmount('0.123456789', 8, '1.00000000')).toBe('invalid');
    expect(checkSwapAmount('1.00000001', 8, '1.00000000')).toBe('above_balance');
    expect(checkSwapAmount('1', 8, '1.00000000')).toBe('ok');
    expect(checkSwapAmount('', 8, '1.00000000')).toBe('empty');
    expect(trimAmount('150.250000')).toBe('150.25');
    expect(trimAmount('150.000000')).toBe('150');
    expect(secondsLeft(10_500, 10_000)).toBe(1);
    expect(secondsLeft(10_000, 10_001)).toBe(0);
  });

  it('keeps each record once across pages', () => {
    const row = { id: '1' } as SwapRecord;
    expect(flattenSwaps([{ records: [row], total: 2, size: 1, current: 1, pages: 2 }, { records: [row], total: 2, size: 1, current: 2, pages: 2 }]))
      .toHaveLength(1);
  });
});

const ok = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 0 });
const refused = (error: string, message: string, code = 409) => ({ success: false, code, message, result: { error }, timestamp: 0 });
const tick = { id: '77', symbol: 'BTCUSDT', price: '67000.00', time: 1_000, source: 'binance' };
const quote = (expiresAt: number, quoteId = 'q-aaaaaaaaaaaaaaaa'): SwapQuote => ({
  quoteId, from: 'USDT', to: 'BTC', amount: '150.250000', rate: '0.0000148', fee: '0.150250', receive: '0.00222148', expiresAt, ticks: [tick],
});
const record: SwapRecord = {
  id: '5', quoteId: 'q-aaaaaaaaaaaaaaaa', from: 'USDT', to: 'BTC', amount: '150.250000', fee: '0.150250', rate: '0.0000148',
  receive: '0.00222148', ticks: [tick], createTime: 2_000,
};

function serve(quotes: unknown[], swaps: unknown[], records: SwapRecord[] = []) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const parsed = new URL(String(url), 'http://test');
    const path = parsed.pathname.replace(/^\/api/, '');
    if (path.includes('getPublicKey')) return new Response(JSON.stringify(ok('PEM')));
    calls.push(`${init?.method ?? 'GET'} ${path}${parsed.search}${init?.method === 'POST' ? ` ${String(init.body)}` : ''}`);
    if (path === '/trade/appFlashExchangeLog/currencies') {
      return new Response(JSON.stringify(ok({ currencies: [{ currency: 'USDT', scale: 6 }, { currency: 'BTC', scale: 8 }, { currency: 'ETH', scale: 8 }],
        feeRate: '0.001', spreadRate: '0.002', quoteTtlSeconds: 10 })));
    }
    if (path === '/finance/appWallet/queryUserBalance') {
      return new Response(JSON.stringify(ok([{ currency: 'USDT', scale: 6, available: '150.250000', frozen: '0.000000' },
        { currency: 'BTC', scale: 8, available: '0.00000000', frozen: '0.00000000' }])));
    }
    if (path === '/trade/appFlashExchangeLog/quote') return new Response(JSON.stringify(quotes.shift()));
    if (path === '/trade/appFlashExchangeLog/flashExchange') return new Response(JSON.stringify(swaps.shift()));
    if (path === '/trade/appFlashExchangeLog/listMy') return new Response(JSON.stringify(ok({ records, total: records.length, size: 20, current: 1, pages: 1 })));
    return new Response(JSON.stringify(refused('not_found', 'no', 404)));
  }));
  return calls;
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname}</p>;
}

function wrap(node: ReactNode) {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  return render(<Provider store={store}><I18nProvider i18n={i18n}><MemoryRouter initialEntries={['/shandui']}>{node}<Where /></MemoryRouter></I18nProvider></Provider>);
}

describe('SwapPage', () => {
  beforeEach(() => configureApiClient({ notify: vi.fn(), getToken: () => 'token-123' }));
  afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

  it('counts a quote down, refuses to confirm it once expired and offers a new one', async () => {
    const calls = serve([ok(quote(serverNow() + 9_500)), ok(quote(serverNow() + 60_000, 'q-bbbbbbbbbbbbbbbb'))], [ok(record)]);
    wrap(<SwapPage />);
    // "All" is disabled until the balances have arrived.
    const all = await screen.findByRole('button', { name: 'All' });
    await waitFor(() => expect((all as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(all);
    const amount = screen.getByLabelText('Amount to swap') as HTMLInputElement;
    expect(amount.value).toBe('150.25');
    fireEvent.click(screen.getByRole('button', { name: 'Get a quote' }));
    const panel = await screen.findByRole('region', { name: 'Quote' });
    // The rate at BTC's precision and its inverse, exact (issue 19 #10).
    expect(within(panel).getByTestId('swap-rate').textContent).toBe('1 USDT = 0.00001480 BTC');
    expect(within(panel).getByTestId('swap-rate-inverse').textContent).toBe('1 BTC ≈ 67,567.56 USDT');
    expect(within(panel).getByText('0.15025 USDT')).toBeTruthy();
    expect(within(panel).getByText('0.00222148 BTC')).toBeTruthy();
    expect(within(panel).getByRole('timer').textContent).toBe('Valid for 10 s');
    expect(screen.getByRole('button', { name: 'Confirm swap' })).toBeTruthy();
    // The quote lapses: no confirming it, and a new one is offered.
    clock.nowMs += 9_500;
    expect(await screen.findByText('The quote has expired. Please ask for a new one.', undefined, { timeout: 4_000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm swap' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Refresh quote' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm swap' }));
    expect(await screen.findByText('Swap completed')).toBeTruthy();
    expect(calls.filter((call) => call.startsWith('GET /trade/appFlashExchangeLog/quote'))).toEqual([
      'GET /trade/appFlashExchangeLog/quote?from=USDT&to=BTC&amount=150.25', 'GET /trade/appFlashExchangeLog/quote?from=USDT&to=BTC&amount=150.25',
    ]);
    const posted = calls.filter((call) => call.startsWith('POST'));
    expect(posted).toHaveLength(1);
    expect(posted[0]).toContain('"quoteId":"q-bbbbbbbbbbbbbbbb"');
    fireEvent.click(screen.getByRole('button', { name: 'View records' }));
    expect(screen.getByTestId('where').textContent).toBe('/shanduiOrder');
  }, 15_000);

  it('says in place when the server finds the quote used, and offers a new one', async () => {
    serve([ok(quote(serverNow() + 60_000))], [refused('quote_used', 'This quote has already been used.')]);
    wrap(<SwapPage />);
    fireEvent.change(await screen.findByLabelText('Amount to swap'), { target: { value: '100' } });
    fireEvent.click(screen.getByRole('button', { name: 'Get a quote' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm swap' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This quote has already been used.');
    expect(screen.queryByRole('region', { name: 'Quote' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Refresh quote' })).toBeTruthy();
  });

  it('refuses an amount above the balance before asking, and turns the pair round', async () => {
    const calls = serve([], []);
    wrap(<SwapPage />);
    fireEvent.change(await screen.findByLabelText('Amount to swap'), { target: { value: '150.250001' } });
    expect(screen.getByText('The amount is more than your available balance.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Get a quote' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Swap direction' }));
    expect((screen.getByLabelText('From') as HTMLSelectElement).value).toBe('BTC');
    expect((screen.getByLabelText('To') as HTMLSelectElement).value).toBe('USDT');
    expect(calls.some((call) => call.includes('/quote'))).toBe(false);
  });
});

describe('SwapOrdersPage', () => {
  beforeEach(() => configureApiClient({ notify: vi.fn(), getToken: () => 'token-123' }));
  afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

  it('shows each swap with its rate, fee, receive and ticks', async () => {
    serve([], [], [record]);
    wrap(<SwapOrdersPage />);
    const list = await screen.findByRole('list', { name: 'Swap records' });
    const row = list.querySelector('li.swap-record') as HTMLElement;
    expect(within(row).getByText('USDT → BTC')).toBeTruthy();
    expect(within(row).getByTestId('swap-rate').textContent).toBe('1 USDT = 0.00001480 BTC');
    expect(within(row).getByTestId('swap-rate-inverse').textContent).toBe('1 BTC ≈ 67,567.56 USDT');
    // The receipt keeps the exact quoted rate; its tick's price is grouped and its symbol a pair.
    expect(within(row).getByTestId('swap-exact-rate').textContent).toBe('1 USDT = 0.0000148 BTC');
    expect(within(row).getByText('0.15025 USDT')).toBeTruthy();
    expect(within(row).getByText('0.00222148 BTC')).toBeTruthy();
    expect(within(row).getByText(/BTC\/USDT 67,000.00 .* Tick #77 · Binance/)).toBeTruthy();
  });

  it('has an empty state leading to the swap page', async () => {
    serve([], [], []);
    wrap(<SwapOrdersPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Swap now' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/shandui'));
  });
});
