// Home's balance card (issue 19): none for a visitor; for a user, the total in USDT and in the
// display currency, and an eye that hides the amounts on home and in the asset centre alike (one
// stored flag).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { walletPaths, type CurrencyInfo, type UserAssets } from '../../src/api/contract/wallet.ts';
import { userInfoReceived } from '../../src/entities/session/userSlice.ts';
import type { UserInfo } from '../../src/api/contract/accounts.ts';
import HomePage, { provideBalanceCard } from '../../src/features/home/HomePage.tsx';
import AssetCentrePage from '../../src/features/wallet/AssetCentrePage.tsx';
import { hideAmountsKey } from '../../src/features/wallet/assetTotals.ts';
import { testStore } from './testStore.ts';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));
// The market card and the install offer are other features' and talk to the market feed.
vi.mock('../../src/features/home/HomeMarkets.tsx', () => ({ default: () => null, prepare: async () => undefined }));
vi.mock('../../src/features/home/later.ts', async () => ({
  loadLanguagePicker: async () => ({ default: () => null }),
  loadInstallOffer: async () => ({ default: () => null }),
  loadHomeNotices: async () => ({ default: () => null, HomeBell: () => null }),
}));

// As the app's route table hands it in (app/routes.ts).
provideBalanceCard(() => import('../../src/features/wallet/HomeBalanceCard.tsx').then(async (card) => {
  await card.prepare();
  return card;
}));

const assets: UserAssets = {
  totalUsdt: '1234.567891',
  byKind: { spot: '1234.567891', position: '0', frozen: '0', demo: '0', product: '0', loan: '0' },
  currencies: [{
    currency: 'USDT', scale: 6, rate: '1', valueUsdt: '1234.567891',
    amounts: { spot: '1234.567891', position: '0', frozen: '0', demo: '0', product: '0', loan: '0' },
  }],
  unpriced: [],
};
const currencies = [
  { currency: 'USDT', name: 'Tether', scale: 6 },
  { currency: 'BTC', name: 'Bitcoin', scale: 8 },
] as CurrencyInfo[];

const user = { id: '7', account: 'ana@example.com', firstName: 'Ana', loginCount: 2 } as unknown as UserInfo;

describe('Home balance card', () => {
  let assetRequests = 0;
  beforeEach(() => {
    localStorage.clear();
    i18n.activate('en-us');
    assetRequests = 0;
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      const parsed = new URL(String(url), 'https://bourse.test');
      const path = parsed.pathname.replace(/^\/api/, '');
      const reply = (result: unknown) => new Response(JSON.stringify({ success: true, code: 200, message: '', result, timestamp: 0 }));
      if (path === walletPaths.userAssets) {
        assetRequests += 1;
        return reply(assets);
      }
      if (path === walletPaths.currencyList) return reply(currencies);
      if (path === walletPaths.rateByCurrency) return reply({ currency: 'BTC', rate: '61728.3945', source: 'feed', time: 0 });
      return reply(null);
    }));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  function renderHome(loggedIn: boolean) {
    const store = testStore(loggedIn ? 'token' : undefined);
    if (loggedIn) store.dispatch(userInfoReceived(user));
    render(<Provider store={store}><I18nProvider i18n={i18n}><MemoryRouter><HomePage /></MemoryRouter></I18nProvider></Provider>);
    return store;
  }

  it('is not shown to a visitor, who is not asked for assets', async () => {
    renderHome(false);
    await screen.findByRole('heading', { level: 1 });
    // A card being loaded would show its placeholder from the first render on.
    expect(screen.queryByTestId('home-balance')).toBeNull();
    expect(document.querySelector('.home-balance-placeholder')).toBeNull();
    expect(assetRequests).toBe(0);
  });

  it('shows the total in USDT and in the display currency to a user', async () => {
    renderHome(true);
    expect((await screen.findByTestId('home-balance-total', {}, { timeout: 10_000 })).textContent).toBe('1,234.56');
    // 1234.567891 / 61728.3945 = 0.0200000...: BTC at 8 decimals, cut.
    await waitFor(() => expect(screen.getByTestId('home-balance-display').textContent).toBe('0.02000000 BTC'));
  });

  it('hides the amounts with its eye, on home and in the asset centre', async () => {
    renderHome(true);
    await screen.findByTestId('home-balance-total', {}, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Hide amounts' }));
    expect(screen.getByTestId('home-balance-total').textContent).toBe('****');
    expect(document.body.textContent).not.toMatch(/1,234/);
    expect(localStorage.getItem(hideAmountsKey)).toBe('1');
    cleanup();

    const store = testStore('token');
    render(<Provider store={store}><I18nProvider i18n={i18n}><MemoryRouter><AssetCentrePage /></MemoryRouter></I18nProvider></Provider>);
    expect((await screen.findByTestId('asset-total-usdt')).textContent).toBe('****');
    fireEvent.click(screen.getByRole('button', { name: 'Show amounts' }));
    cleanup();
    renderHome(true);
    expect((await screen.findByTestId('home-balance-total', {}, { timeout: 10_000 })).textContent).toBe('1,234.56');
  });
});
