// The contract screen (features/trade/contract): the preview's figures are tradingMath's; the
// take-profit and stop-loss are checked against the side and the price as they are typed; the
// screen is off with its reason offline and while the market is closed; one clientOrderId per
// confirmation, sent again on retry; demo orders say so; a receipt shows every figure and finds
// its exit tick among the recorded ticks.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDecimal } from '../../src/lib/number.ts';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { i18n } from '../../src/lib/i18n.ts';
import { api, configureApiClient } from '../../src/api/api.ts';
import { userSlice } from '../../src/entities/session/userSlice.ts';
import { marketSlice } from '../../src/entities/market/marketSlice.ts';
import type { Ticker } from '../../src/api/contract/market.ts';
import type { Position, PositionReceipt, SymbolTradeSettings, TickRef } from '../../src/api/contract/trading.ts';
import { formatAmount } from '../../src/api/contract/amounts.ts';
import {
  feeOf, liquidationPrice, marginFor, notional, quantityForMargin, settle, yieldPercent,
} from '../../src/api/contract/tradingMath.ts';
import ContractTrading, { tradingOffReason } from '../../src/features/trade/contract/ContractTrading.tsx';
import { livePnl, maxMarginFor, previewOrder, quoteOf, sizeForPercent } from '../../src/features/trade/contract/preview.ts';
import { PositionReceiptView } from '../../src/features/trade/contract/PositionReceiptView.tsx';
import ContractPage, { modeOf } from '../../src/features/trade/ContractPage.tsx';
import { lastSymbolKey } from '../../src/lib/lastSymbol.ts';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));
vi.mock('../../src/features/trade/options/OptionsTrading.tsx', () => ({
  default: ({ demo }: { demo?: boolean }) => <p>options panel {demo ? 'demo' : 'real'}</p>,
}));

const btc: SymbolTradeSettings = {
  symbol: 'BTCUSDT', enabled: true, leverages: [5, 10, 20], pricePrecision: 2, quantityPrecision: 4,
  quantityMin: '0.0010', quantityMax: '100.0000', marginMin: '5.000000', marginMax: '100000.000000',
  feeRate: '0.0005', maintenanceMarginRate: '0.005', spread: '1.00', open: true,
};
const eur: SymbolTradeSettings = {
  ...btc, symbol: 'EURUSD', pricePrecision: 5, quantityPrecision: 0, quantityMin: '1000', quantityMax: '10000000',
  leverages: [50, 100], spread: '0.00020', open: false, reopensAt: Date.UTC(2026, 10, 29, 22),
};
const units = { pricePrecision: 2, quantityPrecision: 4 };
const ticker = (symbol: string, last: string, precision = 2): Ticker => ({
  symbol, displayName: symbol, base: symbol.slice(0, 3), quote: 'USDT', class: 'crypto', pricePrecision: precision, last,
  open24h: last, high24h: last, low24h: last, volume24h: '1', quoteVolume24h: '1', change24h: '0', changePercent24h: '1.25',
  open: true, time: Date.now(),
});
const summary = (available = '1000.000000') => ({
  demo: false, available, margin: '0.000000', unrealisedPnl: '0.000000', equity: '0.000000', openPositions: 0,
});
const page = <T,>(records: T[], pages = 1) => ({ records, total: records.length, size: 20, current: 1, pages });

const tick = (id: string, price: string, time: number): TickRef => ({ id, symbol: 'BTCUSDT', price, time, source: 'binance' });
const receipt: PositionReceipt = {
  reason: 'take_profit', entryTick: tick('101', '50000.00', 1_700_000_000_000), exitTick: tick('205', '51000.00', 1_700_000_060_123),
  entryPrice: '50000.50', exitPrice: '50999.50', quantity: '0.0099', margin: '99.000990', grossPnl: '9.890100', pnl: '9.890100',
  shortfall: '0.000000', openFee: '0.247502', closeFee: '0.252447', fee: '0.499949', payout: '108.638643', balanceChange: '9.390151',
};
const position = (overrides: Partial<Position> = {}): Position => ({
  id: '42', symbol: 'BTCUSDT', direction: 'long', leverage: 5, quantity: '0.0099', margin: '99.000990', openPrice: '50000.50',
  closePrice: null, takeProfit: '52000.00', stopLoss: '49000.00', liquidationPrice: '40248.51', openFee: '0.247502',
  feeRate: '0.0005', maintenanceMarginRate: '0.005', spread: '1.00', status: 'running', pnl: null, demo: false,
  clientOrderId: 'abcdefgh12', entryTick: receipt.entryTick, createTime: 1_700_000_000_000, closeTime: null, receipt: null, ...overrides,
});

const ok = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 0 });
const refused = (error: string, message: string) => ({ success: false, code: 400, message, result: { error }, timestamp: 0 });

type Answer = unknown | ((body: unknown, url: URL) => unknown);
/** Answers each path with its envelope (or throws, for a network failure); records the POST bodies. */
function serve(answers: Record<string, Answer>) {
  const posted: Array<{ path: string; body: Record<string, unknown>; query: string }> = [];
  vi.stubGlobal('fetch', vi.fn(async (target: string, init?: RequestInit) => {
    const url = new URL(String(target), 'http://test');
    const path = url.pathname.replace(/^\/api/, '');
    if (path.includes('getPublicKey')) return new Response(JSON.stringify(ok('PEM')));
    let body: Record<string, unknown> = {};
    if (init?.method === 'POST') {
      const { _ts: _stamp, ...rest } = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>;
      body = rest;
      posted.push({ path, body, query: url.search });
    }
    const answer = answers[path];
    const value = typeof answer === 'function' ? (answer as (body: unknown, url: URL) => unknown)(body, url) : answer;
    if (value instanceof Error) throw value;
    return new Response(JSON.stringify(value ?? { success: false, code: 404, message: 'no', result: null }));
  }));
  return posted;
}

const base = (overrides: Record<string, Answer> = {}) => ({
  '/trade/appSymbol/tradeSettings': ok([btc, eur]),
  '/public/getTicketList': ok([ticker('BTCUSDT', '50000.00'), ticker('EURUSD', '1.08000', 5)]),
  '/trade/appTradePositions/summary': ok(summary()),
  '/trade/appTradePositions/listMy': ok(page([])),
  ...overrides,
});

function renderWith(node: ReactNode, at = '/heyue') {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer, market: marketSlice.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  return render(
    <Provider store={store}>
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={[at]}>
          <Routes><Route path="*" element={node} /></Routes>
        </MemoryRouter>
      </I18nProvider>
    </Provider>,
  );
}

const sizeInput = () => screen.getByLabelText('Margin (USDT)', { selector: 'input' });
const typeInto = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });
const money = (atomic: bigint) => formatAmount(atomic, 6);

beforeEach(() => configureApiClient({ notify: vi.fn() }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  // A test's symbol is remembered as the last viewed (lib/lastSymbol.ts): each test starts without one.
  localStorage.removeItem(lastSymbolKey);
});

describe('preview arithmetic', () => {
  it('is tradingMath: bid and ask, quantity by margin, margin, fee, notional, liquidation', () => {
    const quote = quoteOf(btc, '50000.00')!;
    expect(quote).toEqual({ last: 5_000_000n, bid: 4_999_950n, ask: 5_000_050n });
    const preview = previewOrder(btc, '50000.00', { direction: 'long', leverage: 5, sizeMode: 'margin', size: '100', takeProfit: '', stopLoss: '' }, 1_000_000_000n)!;
    const quantity = quantityForMargin(units, 100_000_000n, 5_000_050n, 5);
    expect(preview.entry).toBe(5_000_050n);
    expect(preview.quantity).toBe(quantity);
    expect(preview.margin).toBe(marginFor(units, quantity, 5_000_050n, 5));
    expect(preview.margin).toBeLessThanOrEqual(100_000_000n);
    expect(preview.notional).toBe(notional(units, quantity, 5_000_050n));
    expect(preview.fee).toBe(feeOf(preview.notional, 500));
    expect(preview.liquidation).toBe(liquidationPrice(units, 'long', quantity, 5_000_050n, preview.margin, 5000));
    expect(preview.cost).toBe(preview.margin + preview.fee);
    expect(preview.sizeProblem).toBeUndefined();

    const short = previewOrder(btc, '50000.00', { direction: 'short', leverage: 20, sizeMode: 'quantity', size: '0.5', takeProfit: '', stopLoss: '' }, 10n ** 12n)!;
    expect(short.entry).toBe(4_999_950n);
    expect(short.quantity).toBe(5000n);
    expect(short.margin).toBe(marginFor(units, 5000n, 4_999_950n, 20));
    expect(short.liquidation).toBe(liquidationPrice(units, 'short', 5000n, 4_999_950n, short.margin, 5000));
  });

  it('names the first problem of a size', () => {
    const at = (size: string, available = 10n ** 12n, sizeMode: 'margin' | 'quantity' = 'margin', settings = btc) =>
      previewOrder(settings, '50000.00', { direction: 'long', leverage: 5, sizeMode, size, takeProfit: '', stopLoss: '' }, available)!.sizeProblem;
    expect(at('')).toBe('size_required');
    expect(at('abc')).toBe('size_invalid');
    expect(at('1.0000001')).toBe('size_invalid');
    expect(at('0.0001', 10n ** 12n, 'quantity')).toBe('quantity_too_small');
    expect(at('101', 10n ** 12n, 'quantity')).toBe('quantity_too_large');
    // Sized by margin, a margin that buys less than the minimum quantity is a margin too small.
    expect(at('4')).toBe('margin_too_small');
    expect(at('12', 10n ** 12n, 'margin', { ...btc, marginMin: '20' })).toBe('margin_too_small');
    expect(at('30', 10n ** 12n, 'margin', { ...btc, marginMax: '20' })).toBe('margin_too_large');
    // 100 USDT at 5× buys 0.0099 BTC: margin 99.000990 and fee 0.247502 leave 99.248492.
    expect(at('100', 99_248_491n)).toBe('balance_insufficient');
    expect(at('100', 99_248_492n)).toBeUndefined();
  });

  it('fills the slider share of what the balance covers, fee included', () => {
    const max = maxMarginFor(1_000_000_000n, 5, 500);
    expect(max).toBe((1_000_000_000n * 1_000_000n) / 1_002_500n);
    expect(sizeForPercent(btc, '50000.00', 'long', 5, 'margin', 1_000_000_000n, 50)).toBe(money(max / 2n));
    const full = previewOrder(btc, '50000.00', {
      direction: 'long', leverage: 5, sizeMode: 'quantity', takeProfit: '', stopLoss: '',
      size: sizeForPercent(btc, '50000.00', 'long', 5, 'quantity', 1_000_000_000n, 100),
    }, 1_000_000_000n)!;
    expect(full.sizeProblem).toBeUndefined();
    expect(full.cost).toBeLessThanOrEqual(1_000_000_000n);
  });

  it('checks take-profit and stop-loss against the side and the current exit price', () => {
    const sides = (direction: 'long' | 'short', takeProfit: string, stopLoss: string) => {
      const preview = previewOrder(btc, '50000.00', { direction, leverage: 5, sizeMode: 'margin', size: '100', takeProfit, stopLoss }, 10n ** 12n)!;
      return [preview.takeProfitValid && preview.takeProfitOk, preview.stopLossValid && preview.stopLossOk];
    };
    // A long closes at the bid, 49999.50.
    expect(sides('long', '51000', '49000')).toEqual([true, true]);
    expect(sides('long', '49000', '51000')).toEqual([false, false]);
    expect(sides('long', '49999.50', '49999.50')).toEqual([false, false]);
    // A short closes at the ask, 50000.50.
    expect(sides('short', '49000', '51000')).toEqual([true, true]);
    expect(sides('short', '51000', '49000')).toEqual([false, false]);
    expect(sides('long', '51000.001', '')).toEqual([false, true]);
  });

  it('gives a running position the profit or loss of settle at the current exit price', () => {
    const live = livePnl(position(), units, '51000.00')!;
    const expected = settle(units, { direction: 'long', quantity: 99n, entryPrice: 5_000_050n, margin: 99_000_990n, openFee: 247_502n, feePpm: 500 }, 5_099_950n);
    expect(live.exit).toBe(5_099_950n);
    expect(live.pnl).toBe(expected.pnl);
    expect(live.yieldPercent).toBe(yieldPercent(expected.pnl, 99_000_990n));
  });

  it('says why trading is off', () => {
    const texts = { offline: 'offline', closed: 'closed', closedUntil: (when: number) => `closed until ${when}` };
    expect(tradingOffReason(false, btc, texts)).toBe('offline');
    expect(tradingOffReason(true, eur, texts)).toBe(`closed until ${eur.reopensAt}`);
    expect(tradingOffReason(true, { ...eur, reopensAt: undefined }, texts)).toBe('closed');
    expect(tradingOffReason(true, btc, texts)).toBeUndefined();
  });
});

describe('ContractTrading', { timeout: 30_000 }, () => {
  it('shows bid and ask and a preview equal to tradingMath as the margin is typed', async () => {
    serve(base());
    renderWith(<ContractTrading />);
    await waitFor(() => expect(screen.getByTestId('contract-bid').textContent).toBe('49,999.50'), { timeout: 5_000 });
    expect(screen.getByTestId('contract-ask').textContent).toBe('50,000.50');
    await waitFor(() => expect(screen.getByTestId('summary-available').textContent).toBe('1,000.00'));
    typeInto(sizeInput(), '100');
    const quantity = quantityForMargin(units, 100_000_000n, 5_000_050n, 5);
    const margin = marginFor(units, quantity, 5_000_050n, 5);
    const value = notional(units, quantity, 5_000_050n);
    await waitFor(() => expect(screen.getByTestId('preview-quantity').textContent).toBe(formatAmount(quantity, 4)));
    expect(screen.getByTestId('preview-margin').textContent).toBe(money(margin).slice(0, -4));
    expect(screen.getByTestId('preview-fee').textContent).toBe(money(feeOf(value, 500)).slice(0, -4));
    expect(screen.getByTestId('preview-notional').textContent).toBe(Number(money(value)).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2, roundingMode: 'trunc' } as Intl.NumberFormatOptions));
    const liquidation = liquidationPrice(units, 'long', quantity, 5_000_050n, margin, 5000)!;
    expect(screen.getByTestId('preview-liquidation').textContent?.replace(/,/g, '')).toBe(formatAmount(liquidation, 2));
    expect(screen.getByRole('button', { name: 'Buy long' })).toHaveProperty('disabled', false);
  });

  it('refuses a take-profit or stop-loss on the wrong side as it is typed, for a long and a short', async () => {
    serve(base());
    renderWith(<ContractTrading />);
    await waitFor(() => expect(screen.getByTestId('contract-bid').textContent).toBe('49,999.50'), { timeout: 5_000 });
    typeInto(sizeInput(), '100');
    typeInto(screen.getByLabelText('Take-profit (optional)', { selector: 'input' }), '49000');
    typeInto(screen.getByLabelText('Stop-loss (optional)', { selector: 'input' }), '51000');
    expect(await screen.findByText('For a long, the take-profit must be above the current price.')).toBeTruthy();
    expect(screen.getByText('For a long, the stop-loss must be below the current price.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Buy long' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('radio', { name: 'Sell short' }));
    await waitFor(() => expect(screen.queryByText('For a long, the take-profit must be above the current price.')).toBeNull());
    expect(screen.queryByText(/For a short/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Sell short' })).toHaveProperty('disabled', false);
    typeInto(screen.getByLabelText('Take-profit (optional)', { selector: 'input' }), '50500');
    expect(await screen.findByText('For a short, the take-profit must be below the current price.')).toBeTruthy();
  });

  it('is off while offline, with the reason', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    serve(base());
    renderWith(<ContractTrading />);
    expect(await screen.findByText('You are offline. Trading resumes when you are back online.', {}, { timeout: 5_000 })).toBeTruthy();
    typeInto(sizeInput(), '100');
    expect(screen.getByRole('button', { name: 'Buy long' })).toHaveProperty('disabled', true);
  });

  it('opens on the symbol viewed last on any page without one in the address, and remembers the one shown', async () => {
    serve(base());
    localStorage.setItem(lastSymbolKey, 'EURUSD');
    renderWith(<ContractTrading />);
    await waitFor(() => expect((screen.getByLabelText('Symbol') as HTMLSelectElement).value).toBe('EURUSD'), { timeout: 5_000 });
    cleanup();
    renderWith(<ContractTrading />, '/heyue?symbol=BTCUSDT');
    await waitFor(() => expect((screen.getByLabelText('Symbol') as HTMLSelectElement).value).toBe('BTCUSDT'), { timeout: 5_000 });
    expect(localStorage.getItem(lastSymbolKey)).toBe('BTCUSDT');
  });

  it('is off while the market is closed, and says when it reopens', async () => {
    serve(base());
    renderWith(<ContractTrading />, '/heyue?symbol=EURUSD');
    expect(await screen.findByText(/^The market is closed\. It reopens .+\.$/, {}, { timeout: 5_000 })).toBeTruthy();
    expect((screen.getByLabelText('Symbol') as HTMLSelectElement).value).toBe('EURUSD');
    typeInto(sizeInput(), '100');
    expect(screen.getByRole('button', { name: 'Buy long' })).toHaveProperty('disabled', true);
  });

  it('confirms before sending, and a retry after a network failure sends the same clientOrderId', async () => {
    let calls = 0;
    const posted = serve(base({
      '/trade/appTradePositions/create': () => {
        calls += 1;
        return calls === 1 ? new TypeError('Failed to fetch') : ok(position());
      },
    }));
    renderWith(<ContractTrading />, '/heyue?symbol=BTCUSDT&side=short');
    await waitFor(() => expect(screen.getByTestId('contract-bid').textContent).toBe('49,999.50'), { timeout: 5_000 });
    expect(screen.getByRole('radio', { name: 'Sell short' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByRole('radio', { name: '10×' }));
    typeInto(sizeInput(), '50');
    typeInto(screen.getByLabelText('Stop-loss (optional)', { selector: 'input' }), '52000');
    fireEvent.click(screen.getByRole('button', { name: 'Sell short' }));
    const sheet = await screen.findByRole('dialog');
    expect(posted).toEqual([]);
    expect(within(sheet).getByText('Sell short BTCUSDT 10×')).toBeTruthy();
    fireEvent.click(within(sheet).getByRole('button', { name: 'Confirm' }));
    const retry = await within(sheet).findByRole('button', { name: 'Retry' }, { timeout: 5_000 });
    fireEvent.click(retry);
    await waitFor(() => expect(posted).toHaveLength(2), { timeout: 5_000 });
    expect(posted[0].body).toEqual({
      symbol: 'BTCUSDT', direction: 'short', leverage: 10, margin: '50', stopLoss: '52000', clientOrderId: posted[0].body.clientOrderId,
    });
    expect(posted[0].body.clientOrderId).toMatch(/^[A-Za-z0-9_.:-]{8,64}$/);
    expect(posted[1].body).toEqual(posted[0].body);
  });

  it("shows the server's refusal under the field it concerns", async () => {
    serve(base({ '/trade/appTradePositions/create': refused('stop_loss_wrong_side', 'The stop-loss is on the wrong side.') }));
    renderWith(<ContractTrading />);
    await waitFor(() => expect(screen.getByTestId('contract-bid').textContent).toBe('49,999.50'), { timeout: 5_000 });
    typeInto(sizeInput(), '100');
    typeInto(screen.getByLabelText('Stop-loss (optional)', { selector: 'input' }), '49990');
    fireEvent.click(screen.getByRole('button', { name: 'Buy long' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => {
      const item = screen.getByLabelText('Stop-loss (optional)', { selector: 'input' }).closest('.adm-form-item')!;
      expect(item.querySelector('.adm-form-item-feedback-error')?.textContent).toBe('The stop-loss price is on the wrong side of the current price.');
    }, { timeout: 5_000 });
  });

  it('names the minimum margin, with its value, when a margin buys less than the minimum quantity', async () => {
    serve(base());
    renderWith(<ContractTrading />);
    await waitFor(() => expect(screen.getByTestId('contract-bid').textContent).toBe('49,999.50'), { timeout: 5_000 });
    // 0.0010 BTC at the ask 50,000.50 and 5× costs 10.0001 USDT of margin: 10.01 rounded up to cents.
    expect(sizeInput().getAttribute('placeholder')).toBe('Min 10.01');
    typeInto(sizeInput(), '0.5');
    const item = () => sizeInput().closest('.adm-form-item')!;
    await waitFor(() => expect(item().querySelector('.field-problem')?.textContent).toBe('The minimum margin at 5× is 10.01 USDT.'));
    expect(screen.getByRole('button', { name: 'Buy long' })).toHaveProperty('disabled', true);
    typeInto(sizeInput(), '10.01');
    await waitFor(() => expect(item().querySelector('.field-problem')).toBeNull());
    // By quantity, the minimum quantity is named.
    fireEvent.click(screen.getByRole('radio', { name: 'Quantity (BTC)' }));
    typeInto(screen.getByLabelText('Quantity (BTC)', { selector: 'input' }), '0.0001');
    await waitFor(() => expect(screen.getByLabelText('Quantity (BTC)', { selector: 'input' }).closest('.adm-form-item')!
      .querySelector('.field-problem')?.textContent).toBe('The minimum quantity is 0.0010 BTC.'));
  });

  it("tells the server's quantity refusal of an order sized by margin as its minimum margin", async () => {
    serve(base({
      '/trade/appTradePositions/create': {
        success: false, code: 400, message: 'The quantity must be at least 0.0010 BTC.',
        result: { error: 'quantity_too_small', quantityMin: '0.0010', quantityMax: '100.0000' }, timestamp: 0,
      },
    }));
    renderWith(<ContractTrading />);
    await waitFor(() => expect(screen.getByTestId('contract-bid').textContent).toBe('49,999.50'), { timeout: 5_000 });
    typeInto(sizeInput(), '10.01');
    fireEvent.click(screen.getByRole('button', { name: 'Buy long' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => {
      const item = sizeInput().closest('.adm-form-item')!;
      expect(item.querySelector('.adm-form-item-feedback-error')?.textContent).toBe('The minimum margin at 5× is 10.01 USDT.');
    }, { timeout: 5_000 });
  });

  it('sends demo: true and says Demo in demo trading', async () => {
    const posted = serve(base({ '/trade/appTradePositions/create': ok(position({ demo: true })) }));
    renderWith(<ContractTrading demo />);
    await waitFor(() => expect(screen.getByTestId('contract-bid').textContent).toBe('49,999.50'), { timeout: 5_000 });
    expect(screen.getAllByText('Demo').length).toBeGreaterThan(0);
    typeInto(sizeInput(), '100');
    fireEvent.click(screen.getByRole('button', { name: 'Buy long · Demo' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(posted.map((entry) => entry.path)).toEqual(['/trade/appTradePositions/create']), { timeout: 5_000 });
    expect(posted[0].body.demo).toBe(true);
  });

  it('lists a running position with its live profit or loss and closes it after a confirmation', async () => {
    const posted = serve(base({
      '/trade/appTradePositions/listMy': (_body: unknown, url: URL) => ok(page(url.searchParams.get('status') === 'running' ? [position()] : [])),
      '/public/getTicketList': ok([ticker('BTCUSDT', '51000.00')]),
      '/trade/appTradePositions/close/42': ok(position({ status: 'closed' })),
    }));
    renderWith(<ContractTrading />);
    const expected = settle(units, { direction: 'long', quantity: 99n, entryPrice: 5_000_050n, margin: 99_000_990n, openFee: 247_502n, feePpm: 500 }, 5_099_950n);
    await waitFor(() => expect(screen.getByTestId('live-pnl').textContent).toBe(`+${money(expected.pnl).slice(0, -4)}`), { timeout: 15_000 });
    expect(screen.getByTestId('live-yield').textContent).toBe(`${yieldPercent(expected.pnl, 99_000_990n)}%`);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: 15_000 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(posted.map((entry) => entry.path)).toEqual(['/trade/appTradePositions/close/42']), { timeout: 15_000 });
    expect(posted[0].body).toEqual({});
  });
});

describe('receipt', { timeout: 30_000 }, () => {
  it('shows every figure of the receipt, the ticks and the formula lines', () => {
    serve({});
    renderWith(<PositionReceiptView position={position({ status: 'closed', receipt })} receipt={receipt} units={units} />);
    expect(screen.getByTestId('receipt-reason').textContent).toBe('Take-profit reached');
    const figures: Array<[string, keyof PositionReceipt]> = [
      ['receipt-entry', 'entryPrice'], ['receipt-exit', 'exitPrice'], ['receipt-quantity', 'quantity'], ['receipt-margin', 'margin'],
      ['receipt-gross', 'grossPnl'], ['receipt-pnl', 'pnl'], ['receipt-shortfall', 'shortfall'], ['receipt-open-fee', 'openFee'],
      ['receipt-close-fee', 'closeFee'], ['receipt-fee', 'fee'], ['receipt-payout', 'payout'], ['receipt-balance-change', 'balanceChange'],
    ];
    for (const [testId, key] of figures) {
      // Every decimal the server wrote, grouped as the language groups (issue 19); the exact string in data-amount.
      expect(screen.getByTestId(testId).querySelector('.receipt-value')?.getAttribute('data-amount'), key).toBe(receipt[key]);
      expect(screen.getByTestId(testId).querySelector('.receipt-value')?.textContent, key).toBe(formatDecimal(String(receipt[key]), String(receipt[key]).split('.')[1]?.length ?? 0, 'en-US'));
    }
    const formula = (testId: string) => screen.getByTestId(testId).querySelector('.receipt-formula')?.textContent;
    expect(formula('receipt-entry')).toBe('50,000.00 + 0.50 (half the spread)');
    expect(formula('receipt-exit')).toBe('51,000.00 − 0.50 (half the spread)');
    expect(formula('receipt-gross')).toBe('(50,999.50 − 50,000.50) × 0.0099');
    expect(formula('receipt-open-fee')).toBe('495.004950 × 0.0005 (entry notional × fee rate)');
    expect(formula('receipt-close-fee')).toBe('504.895050 × 0.0005 = 0.252447 (at most what is left of the margin)');
    expect(formula('receipt-payout')).toBe('99.000990 + (9.890100) − 0.252447');
    expect(formula('receipt-balance-change')).toBe('9.890100 − 0.499949');
    // The figures recompute: gross = q × (exit − entry), fee = open + close, payout, balance change.
    expect(99n * (5_099_950n - 5_000_050n)).toBe(9_890_100n);
    expect(247_502n + 252_447n).toBe(499_949n);
    expect(99_000_990n + 9_890_100n - 252_447n).toBe(108_638_643n);
    expect(screen.getByText('#101')).toBeTruthy();
    expect(screen.getByText('#205')).toBeTruthy();
    expect(screen.getAllByText('Binance')).toHaveLength(2);
  });

  it('finds the exit tick among the recorded ticks around it', async () => {
    serve({ '/trade/appSymbol/ticks': ok([tick('204', '50990.00', 1_700_000_059_000), receipt.exitTick, tick('206', '51010.00', 1_700_000_061_000)]) });
    renderWith(<PositionReceiptView position={position({ status: 'closed', receipt })} receipt={receipt} units={units} />);
    fireEvent.click(screen.getByRole('button', { name: 'Check the recorded ticks' }));
    expect(await screen.findByText('The exit tick is among the 3 ticks the server recorded around it.', {}, { timeout: 5_000 })).toBeTruthy();
    expect(document.querySelector('.receipt-tick-list .tick-row.highlight')?.getAttribute('data-tick-id')).toBe('205');
  });

  it('says so when the exit tick is not among them', async () => {
    serve({ '/trade/appSymbol/ticks': ok([tick('204', '50990.00', 1_700_000_059_000)]) });
    renderWith(<PositionReceiptView position={position({ status: 'closed', receipt })} receipt={receipt} units={units} />);
    fireEvent.click(screen.getByRole('button', { name: 'Check the recorded ticks' }));
    expect(await screen.findByText('The exit tick was not found among the recorded ticks.', {}, { timeout: 5_000 })).toBeTruthy();
  });

  it('opens from the history list', async () => {
    const closed = position({ status: 'closed', receipt, pnl: receipt.pnl, closeTime: receipt.exitTick.time, closePrice: receipt.exitPrice });
    serve(base({
      '/trade/appTradePositions/listMy': (_body: unknown, url: URL) => ok(page(url.searchParams.get('status') === 'closed' ? [closed] : [])),
    }));
    renderWith(<ContractTrading />);
    fireEvent.click(await screen.findByRole('tab', { name: 'History' }, { timeout: 5_000 }));
    const row = await screen.findByRole('button', { name: 'Receipt of BTCUSDT position 42' }, { timeout: 5_000 });
    // The row's figure is labelled net of fees, with the profit or loss and the fees it nets (issue 19 #8).
    expect(within(row).getByTestId('history-net').textContent).toBe('+9.39');
    expect(within(row).getByText('Net of fees')).toBeTruthy();
    expect(within(row).getByTestId('history-breakdown').textContent).toBe('Profit or loss +9.89Fees -0.49');
    fireEvent.click(row);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('receipt-balance-change').querySelector('.receipt-value')?.textContent).toBe('9.390151');
  });
});

describe('ContractPage', { timeout: 30_000 }, () => {
  it('switches between contracts and options by ?mode=', async () => {
    serve(base());
    expect(modeOf('options')).toBe('options');
    expect(modeOf(null)).toBe('contracts');
    renderWith(<ContractPage />, '/heyue?mode=options');
    expect(await screen.findByText('options panel real', {}, { timeout: 5_000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Contracts' }));
    expect(await screen.findByTestId('contract-bid', {}, { timeout: 5_000 })).toBeTruthy();
  });
});
