// Options (second contracts, issue 10): the figures shown before buying are exact (a win pays
// amount × (1 + rate), truncated to the micro-USDT), the stake is checked against the set's bounds
// and the balance, a retried order keeps its clientOrderId while a changed one gets a new key, a
// refusal is shown in place, and an open contract counts down, waits for its entry tick, then
// shows its result with both ticks of the receipt.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { i18n } from '../../src/lib/i18n.ts';
import { api, configureApiClient } from '../../src/api/api.ts';
import { userSlice } from '../../src/entities/session/userSlice.ts';
import { marketSlice } from '../../src/entities/market/marketSlice.ts';
import type { SecondContractSet, SecondOrder } from '../../src/api/contract/trading.ts';
import OptionsTrading, { buyableSets } from '../../src/features/trade/options/OptionsTrading.tsx';
import { SecondOrderCard } from '../../src/features/trade/options/SecondOrderCard.tsx';
import { lastSymbolKey } from '../../src/lib/lastSymbol.ts';
import {
  checkStake, countdownText, formatAtomic, parseAtomic, ratePercent, shownDecimals, winPayoutAtomic,
} from '../../src/features/trade/options/optionsMath.ts';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));
vi.mock('../../src/components/feedback.tsx', () => ({ confirmDialog: vi.fn(), showToast: vi.fn(), alertDialog: vi.fn() }));

describe('options arithmetic', () => {
  it('pays amount × (1 + rate) on a win, truncated to 6 decimals', () => {
    expect(formatAtomic(winPayoutAtomic(parseAtomic('10')!, '0.85')!)).toBe('18.500000');
    expect(formatAtomic(winPayoutAtomic(parseAtomic('33.333333')!, '0.85')!)).toBe('61.666666');
    expect(formatAtomic(winPayoutAtomic(parseAtomic('0.000001')!, '0.9')!)).toBe('0.000001');
    expect(formatAtomic(winPayoutAtomic(parseAtomic('50000')!, '0.95')!)).toBe('97500.000000');
    expect(winPayoutAtomic(10n, 'abc')).toBeUndefined();
  });

  it('reads typed amounts exactly and refuses more than 6 decimals', () => {
    expect(parseAtomic('12.5')).toBe(12_500_000n);
    expect(parseAtomic('0.1234567')).toBeUndefined();
    expect(parseAtomic('1e3')).toBeUndefined();
    expect(parseAtomic('-1')).toBeUndefined();
  });

  it('checks a stake against the bounds and the balance', () => {
    expect(checkStake('', '10', '100', '50')).toBe('empty');
    expect(checkStake('abc', '10', '100', '50')).toBe('invalid');
    expect(checkStake('0', '10', '100', '50')).toBe('invalid');
    expect(checkStake('9.999999', '10', '100', '500')).toBe('below_min');
    expect(checkStake('100.000001', '10', '100', '500')).toBe('above_max');
    expect(checkStake('50.000001', '10', '100', '50.000000')).toBe('above_balance');
    expect(checkStake('50', '10', '100', '50.000000')).toBe('ok');
  });

  it('shows rates as percentages and countdowns as m:ss', () => {
    expect(ratePercent('0.85')).toBe('85');
    expect(ratePercent('0.875')).toBe('87.5');
    expect(ratePercent('1.2')).toBe('120');
    expect(shownDecimals('61.666666')).toBe(6);
    expect(shownDecimals('37.000000')).toBe(2);
    expect(shownDecimals('18.500000')).toBe(2);
    expect(countdownText(65_000)).toBe('1:05');
    expect(countdownText(64_001)).toBe('1:05');
    expect(countdownText(0)).toBe('0:00');
    expect(countdownText(-5_000)).toBe('0:00');
    expect(countdownText(3_600_000 + 61_000)).toBe('1:01:01');
  });

  it('offers only enabled sets with durations', () => {
    const base: SecondContractSet = { symbol: 'BTCUSDT', enabled: true, durations: [{ seconds: 30, payoutRate: '0.8' }], amountMin: '10', amountMax: '100', open: true };
    expect(buyableSets([base, { ...base, symbol: 'ETHUSDT', enabled: false }, { ...base, symbol: 'XAUUSD', durations: [] }]).map((set) => set.symbol))
      .toEqual(['BTCUSDT']);
  });
});

const tick = (id: string, price: string, time: number) => ({ id, symbol: 'BTCUSDT', price, time, source: 'binance' });
const order = (extra: Partial<SecondOrder> = {}): SecondOrder => ({
  id: '41', symbol: 'BTCUSDT', direction: 'up', duration: 60, payoutRate: '0.85', amount: '10.000000', status: 'open', demo: false,
  clientOrderId: 'so-abcdefgh', acceptTime: 1_000_000, expireTime: 1_060_000, entryTick: null, exitTick: null, payout: null, pnl: null,
  settleTime: null, ...extra,
});

function wrap(node: ReactNode) {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer, market: marketSlice.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  return render(<Provider store={store}><I18nProvider i18n={i18n}><MemoryRouter>{node}</MemoryRouter></I18nProvider></Provider>);
}

describe('SecondOrderCard', () => {
  afterEach(cleanup);

  it('waits for the entry tick, counts down to expiry, then waits for the exit tick', () => {
    const { rerender } = wrap(<ul><SecondOrderCard order={order()} nowMs={1_000_500} /></ul>);
    expect(screen.getByText('Waiting for the entry price')).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toBe('1:00');
    const withEntry = order({ entryTick: tick('900', '67000.50', 1_000_120) });
    rerender(<Provider store={configureStore({ reducer: { [api.reducerPath]: api.reducer } })}><I18nProvider i18n={i18n}>
      <ul><SecondOrderCard order={withEntry} nowMs={1_035_000} /></ul></I18nProvider></Provider>);
    expect(screen.queryByText('Waiting for the entry price')).toBeNull();
    expect(screen.getByRole('timer').textContent).toBe('0:25');
    expect(screen.getByText('67,000.50')).toBeTruthy();
    rerender(<Provider store={configureStore({ reducer: { [api.reducerPath]: api.reducer } })}><I18nProvider i18n={i18n}>
      <ul><SecondOrderCard order={withEntry} nowMs={1_060_001} /></ul></I18nProvider></Provider>);
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByText('Waiting for the exit price')).toBeTruthy();
  });

  it('shows a settled result with its payout, P/L, both ticks and the rule', () => {
    wrap(<ul><SecondOrderCard nowMs={2_000_000} order={order({
      status: 'won', entryTick: tick('900', '67000.50', 1_000_120), exitTick: tick('955', '67010.00', 1_060_030),
      payout: '18.500000', pnl: '8.500000', settleTime: 1_060_100,
    })} /></ul>);
    const card = screen.getByRole('listitem');
    expect(within(card).getByText('Won')).toBeTruthy();
    expect(within(card).getByText('18.50 USDT')).toBeTruthy();
    expect(within(card).getByText('+8.50 USDT')).toBeTruthy();
    expect(within(card).getByText(/Tick #900/)).toBeTruthy();
    expect(within(card).getByText(/Tick #955/)).toBeTruthy();
    expect(within(card).getAllByText(/Source: Binance/)).toHaveLength(2);
    expect(within(card).getByText('67,010.00')).toBeTruthy();
    expect(within(card).getByText(/first recorded tick at or after expiry/)).toBeTruthy();
  });
});

const ok = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 0 });
const refused = (error: string, message: string) => ({ success: false, code: 400, message, result: { error }, timestamp: 0 });
const sets: SecondContractSet[] = [
  { symbol: 'BTCUSDT', enabled: true, amountMin: '10.000000', amountMax: '50000.000000', open: true,
    durations: [{ seconds: 30, payoutRate: '0.8' }, { seconds: 60, payoutRate: '0.85' }] },
  { symbol: 'EURUSD', enabled: true, amountMin: '10.000000', amountMax: '1000.000000', open: false, reopensAt: Date.UTC(2026, 10, 29, 22),
    durations: [{ seconds: 30, payoutRate: '0.8' }] },
];
const emptyPage = { records: [], total: 0, size: 20, current: 1, pages: 0 };

function serve(buyAnswers: unknown[]) {
  const posted: Array<Record<string, unknown>> = [];
  const gets: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const parsed = new URL(String(url), 'http://test');
    const path = parsed.pathname.replace(/^\/api/, '');
    if (path.includes('getPublicKey')) return new Response(JSON.stringify(ok('PEM')));
    if (init?.method === 'POST') {
      const { _ts: _stamp, ...body } = JSON.parse(String(init.body)) as Record<string, unknown>;
      posted.push(body);
      return new Response(JSON.stringify(buyAnswers.shift()));
    }
    gets.push(`${path}${parsed.search}`);
    if (path === '/trade/appSecondContractSet/list') return new Response(JSON.stringify(ok(sets)));
    if (path === '/trade/appSecondContractOrder/head') return new Response(JSON.stringify(ok({ demo: false, balance: '120.000000', openOrders: 0, todayPnl: '-2.500000' })));
    if (path === '/trade/appSecondContractOrder/listMy') return new Response(JSON.stringify(ok(emptyPage)));
    return new Response(JSON.stringify(ok([])));
  }));
  return { posted, gets };
}

describe('OptionsTrading', () => {
  beforeEach(() => configureApiClient({ notify: vi.fn(), getToken: () => 'token-123' }));
  afterEach(() => { cleanup(); vi.unstubAllGlobals(); localStorage.removeItem(lastSymbolKey); });

  it('opens on the symbol viewed last on any page, else BTCUSDT, and remembers a choice', async () => {
    serve([]);
    localStorage.setItem(lastSymbolKey, 'EURUSD');
    wrap(<OptionsTrading />);
    const select = await screen.findByLabelText('Symbol');
    expect((select as HTMLSelectElement).value).toBe('EURUSD');
    fireEvent.change(select, { target: { value: 'BTCUSDT' } });
    expect(localStorage.getItem(lastSymbolKey)).toBe('BTCUSDT');
    cleanup();
    // A last symbol this page does not offer: BTCUSDT, not the first of the list.
    localStorage.setItem(lastSymbolKey, 'XAUUSD');
    sets.reverse();
    try {
      wrap(<OptionsTrading />);
      expect(((await screen.findByLabelText('Symbol')) as HTMLSelectElement).value).toBe('BTCUSDT');
    } finally {
      sets.reverse();
    }
  });

  it('previews the win exactly, keeps the clientOrderId on a retry and shows the refusal in place', async () => {
    const { posted } = serve([refused('stake_too_large', 'The amount is above the maximum.'), ok(order())]);
    wrap(<OptionsTrading />);
    expect(await screen.findByText('120.00 USDT')).toBeTruthy();
    expect(screen.getByText('-2.50')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /1 min/ }));
    const amount = screen.getByLabelText('Amount (USDT)');
    fireEvent.change(amount, { target: { value: '33.333333' } });
    expect(screen.getByTestId('options-win').textContent).toBe('61.666666 USDT');
    fireEvent.change(amount, { target: { value: '130' } });
    expect(screen.getByText('The amount is more than your available balance.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Buy Up' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(amount, { target: { value: '20' } });
    expect(screen.getByTestId('options-win').textContent).toBe('37.00 USDT');
    fireEvent.click(screen.getByRole('button', { name: /Down/, pressed: false }));
    fireEvent.click(screen.getByRole('button', { name: 'Buy Down' }));
    const sheet = await screen.findByRole('dialog');
    expect(within(sheet).getByText('37.00 USDT')).toBeTruthy();
    fireEvent.click(within(sheet).getByRole('button', { name: 'Confirm' }));
    expect(await within(sheet).findByRole('alert')).toBeTruthy();
    expect(within(sheet).getByRole('alert').textContent).toBe('The amount is above the maximum.');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[0]).toEqual({ symbol: 'BTCUSDT', direction: 'down', duration: 60, amount: '20.000000', clientOrderId: posted[0].clientOrderId });
    expect(String(posted[0].clientOrderId)).toMatch(/^[A-Za-z0-9_.:-]{8,64}$/);
    expect(posted[1].clientOrderId).toBe(posted[0].clientOrderId);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  }, 15_000);

  it('uses a new clientOrderId for a changed order and sends demo only on the demo page', async () => {
    const { posted, gets } = serve([refused('balance_insufficient', 'No.'), ok(order())]);
    wrap(<OptionsTrading demo />);
    const amount = await screen.findByLabelText('Amount (USDT)');
    fireEvent.change(amount, { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buy Up' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    fireEvent.change(amount, { target: { value: '11' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buy Up' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[0].demo).toBe(true);
    expect(posted[1]).toMatchObject({ amount: '11.000000', demo: true });
    expect(posted[1].clientOrderId).not.toBe(posted[0].clientOrderId);
    expect(gets.some((get) => get.startsWith('/trade/appSecondContractOrder/head') && get.includes('demo=true'))).toBe(true);
  }, 15_000);

  it('says why buying is disabled when the market is closed', async () => {
    serve([]);
    wrap(<OptionsTrading />);
    fireEvent.change(await screen.findByLabelText('Symbol'), { target: { value: 'EURUSD' } });
    fireEvent.change(screen.getByLabelText('Amount (USDT)'), { target: { value: '10' } });
    expect(screen.getByText(/The market is closed. Trading resumes/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Buy Up' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
