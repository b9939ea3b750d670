// Asset centre (issue 9): the total in a display currency is usdt / rate cut toward zero, exactly
// (bigint), the choice of currency and the hidden amounts are remembered, an unpriced currency
// says it is not valued.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { api } from '../../src/api/api.ts';
import { walletPaths, type CurrencyInfo, type CurrencyRate, type UserAssets } from '../../src/api/contract/wallet.ts';
import { userSlice } from '../../src/entities/session/userSlice.ts';
import AssetCentrePage, {
  convertFromUsdt, displayCurrencyKey, hideAmountsKey, orderCurrencies, pickDisplayCurrency,
} from '../../src/features/wallet/AssetCentrePage.tsx';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

describe('convertFromUsdt', () => {
  it('divides exactly and cuts toward zero at the scale', () => {
    expect(convertFromUsdt('922.500000', '67250.5', 8)).toBe('0.01371737');
    // 922.5 / 67250.5 = 0.0137173701...
    expect(convertFromUsdt('100.000000', '3', 6)).toBe('33.333333');
    expect(convertFromUsdt('2.000000', '3', 2)).toBe('0.66');
    expect(convertFromUsdt('250.000000', '1', 6)).toBe('250.000000');
  });

  it('keeps digits a binary float would lose', () => {
    // 123456789012345678.123456 USDT at par: more digits than a double holds.
    expect(convertFromUsdt('123456789012345678.123456', '1', 6)).toBe('123456789012345678.123456');
    expect(convertFromUsdt('0.300000', '0.1', 8)).toBe('3.00000000');
    expect(convertFromUsdt('1.000000', '0.000000000000000001', 0)).toBe('1000000000000000000');
  });

  it('cuts a negative total toward zero, and refuses a zero or malformed rate', () => {
    expect(convertFromUsdt('-2.000000', '3', 2)).toBe('-0.66');
    expect(convertFromUsdt('1', '0', 2)).toBeUndefined();
    expect(convertFromUsdt('1', '-5', 2)).toBeUndefined();
    expect(convertFromUsdt('1e3', '1', 2)).toBeUndefined();
  });
});

describe('pickDisplayCurrency', () => {
  it('keeps a stored choice still offered, else BTC, else the first that is not USDT', () => {
    expect(pickDisplayCurrency('ETH', ['USDT', 'BTC', 'ETH'])).toBe('ETH');
    expect(pickDisplayCurrency('XYZ', ['USDT', 'BTC', 'ETH'])).toBe('BTC');
    expect(pickDisplayCurrency(null, ['USDT', 'ETH'])).toBe('ETH');
    expect(pickDisplayCurrency(null, ['USDT'])).toBe('USDT');
    expect(pickDisplayCurrency(null, [])).toBeUndefined();
  });
});

describe('orderCurrencies', () => {
  it('puts held currencies first by USDT value (compared exactly), unvalued after, then the rest in list order', () => {
    const row = (currency: string, spot: string, valueUsdt: string | null) => ({
      currency, valueUsdt, amounts: { spot, frozen: '0', position: '0', product: '0', loan: '0', demo: '0' },
    });
    const rows = [
      row('USDT', '0.000000', '0.000000'), row('DOGE', '5.00000000', null), row('ETH', '0.000000000000000000', '0.000000'),
      row('BTC', '0.01000000', '672.505000'), row('USDC', '672.505001', '672.505001'),
    ];
    expect(orderCurrencies(rows, ['USDT', 'BTC', 'ETH', 'USDC', 'DOGE']).map((entry) => entry.currency))
      .toEqual(['USDC', 'BTC', 'DOGE', 'USDT', 'ETH']);
  });
});

const currencies: CurrencyInfo[] = [
  { currency: 'USDT', name: 'Tether USD', scale: 6, networks: [] },
  { currency: 'BTC', name: 'Bitcoin', scale: 8, networks: [] },
  { currency: 'USDC', name: 'USD Coin', scale: 6, networks: [] },
  { currency: 'DOGE', name: 'Dogecoin', scale: 8, networks: [] },
];
const rates: Record<string, CurrencyRate> = {
  BTC: { currency: 'BTC', rate: '67250.5', source: 'feed', time: Date.UTC(2026, 10, 20, 8, 30) },
  USDC: { currency: 'USDC', rate: '0.999', source: 'operator', time: Date.UTC(2026, 10, 1) },
};
const zeroKinds = { spot: '0.000000', frozen: '0.000000', position: '0.000000', product: '0.000000', loan: '0.000000', demo: '0.000000' };
const assets: UserAssets = {
  totalUsdt: '922.505000',
  byKind: { ...zeroKinds, spot: '912.505000', frozen: '10.000000', demo: '10000.000000' },
  currencies: [
    { currency: 'USDT', scale: 6, amounts: { ...zeroKinds, spot: '240.000000', frozen: '10.000000', demo: '10000.000000' }, rate: '1', valueUsdt: '250.000000' },
    { currency: 'BTC', scale: 8, amounts: { spot: '0.01000000', frozen: '0.00000000', position: '0.00000000', product: '0.00000000', loan: '0.00000000', demo: '0.00000000' }, rate: '67250.5', valueUsdt: '672.505000' },
    { currency: 'DOGE', scale: 8, amounts: { spot: '5.00000000', frozen: '0.00000000', position: '0.00000000', product: '0.00000000', loan: '0.00000000', demo: '0.00000000' }, rate: null, valueUsdt: null },
  ],
  unpriced: ['DOGE'],
};

describe('AssetCentrePage', () => {
  let rateRequests: string[];

  beforeEach(() => {
    localStorage.clear();
    rateRequests = [];
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      const parsed = new URL(String(url), 'https://bourse.test');
      const path = parsed.pathname.replace(/^\/api/, '');
      const reply = (result: unknown) => new Response(JSON.stringify({ success: true, code: 200, message: '', result, timestamp: 0 }));
      if (path === walletPaths.userAssets) return reply(assets);
      if (path === walletPaths.currencyList) return reply(currencies);
      if (path === walletPaths.rateByCurrency) {
        const currency = parsed.searchParams.get('currency')!;
        rateRequests.push(currency);
        return reply(rates[currency]);
      }
      throw new Error(`no answer scripted for ${path}`);
    }));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  function renderPage() {
    const store = configureStore({
      reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer },
      middleware: (getDefault) => getDefault().concat(api.middleware),
    });
    render(<Provider store={store}><I18nProvider i18n={i18n}><MemoryRouter><AssetCentrePage /></MemoryRouter></I18nProvider></Provider>);
  }

  it('shows the total in USDT and in BTC at the feed rate, the kinds and each currency', async () => {
    renderPage();
    expect(await screen.findByTestId('asset-total-usdt')).toHaveProperty('textContent', '922.50');
    // 922.505 / 67250.5 = 0.0137174445...: 8 decimals, cut.
    await waitFor(() => expect(screen.getByTestId('asset-total-display').textContent).toBe('≈ 0.01371744'));
    expect(screen.getByTestId('asset-rate').textContent).toMatch(/^1 BTC = 67,250\.5 USDT · market price · /);
    expect(screen.getByTestId('asset-kind-spot').textContent).toBe('Spot balance912.50');
    expect(screen.getByTestId('asset-kind-frozen').textContent).toBe('Frozen assets10.00');
    expect(screen.getByTestId('asset-kind-position').textContent).toBe('Position assets0.00');
    expect(screen.getByTestId('asset-kind-demo').textContent).toBe('Virtual (demo) assets10,000.00');
    expect(screen.queryByTestId('asset-kind-product')).toBeNull();
    expect(screen.getByTestId('asset-BTC-spot').textContent).toBe('Available0.01000000');
    expect(screen.getByTestId('asset-USDT-demo').textContent).toBe('Virtual10,000.00');
    expect(within(screen.getByTestId('asset-currency-BTC')).getByText(/672\.50 USDT/)).toBeTruthy();
    expect(within(screen.getByTestId('asset-currency-DOGE')).getByText('Not valued')).toBeTruthy();
    expect(screen.getByText('Not valued (no rate): DOGE')).toBeTruthy();
    expect([...document.querySelectorAll('[data-testid^="asset-currency-"]')].map((element) => element.getAttribute('data-testid')))
      .toEqual(['asset-currency-BTC', 'asset-currency-USDT', 'asset-currency-DOGE']);
  });

  it('converts at the chosen currency and remembers the choice', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByTestId('asset-total-display').textContent).toBe('≈ 0.01371744'));
    fireEvent.click(screen.getByRole('button', { name: 'Display currency: BTC' }));
    fireEvent.click(await screen.findByText('USD Coin'));
    // 922.505 / 0.999 = 923.4284284...: USDC has 6 decimals.
    await waitFor(() => expect(screen.getByTestId('asset-total-display').textContent).toBe('≈ 923.42'));
    expect(screen.getByTestId('asset-rate').textContent).toMatch(/^1 USDC = 0\.999 USDT · rate set by the platform · /);
    expect(localStorage.getItem(displayCurrencyKey)).toBe('USDC');
    expect(rateRequests).toEqual(['BTC', 'USDC']);

    cleanup();
    renderPage();
    await waitFor(() => expect(screen.getByTestId('asset-total-display').textContent).toBe('≈ 923.42'));
  });

  it('hides every amount behind the eye, and remembers it', async () => {
    renderPage();
    await screen.findByTestId('asset-total-usdt');
    fireEvent.click(screen.getByRole('button', { name: 'Hide amounts' }));
    expect(screen.getByTestId('asset-total-usdt').textContent).toBe('****');
    expect(screen.getByTestId('asset-BTC-spot').textContent).toBe('Available****');
    expect(document.body.textContent).not.toMatch(/922|0\.0137|672/);
    expect(localStorage.getItem(hideAmountsKey)).toBe('1');
    cleanup();
    renderPage();
    expect((await screen.findByTestId('asset-total-usdt')).textContent).toBe('****');
    fireEvent.click(screen.getByRole('button', { name: 'Show amounts' }));
    expect(screen.getByTestId('asset-total-usdt').textContent).toBe('922.50');
  });
});
