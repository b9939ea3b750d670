// The asset centre offline (issue 19 #6): the figures of the last visit, kept on the device for the
// user they belong to, are shown with their age when the assets cannot be read, converted at the
// kept rate; another user's copy is never shown, and while the first answer is on its way online
// the page shows its skeleton rather than the copy.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { api, configureApiClient } from '../../src/api/api.ts';
import { walletPaths, type CurrencyInfo, type UserAssets } from '../../src/api/contract/wallet.ts';
import { userInfoReceived, userSlice } from '../../src/entities/session/userSlice.ts';
import type { UserInfo } from '../../src/api/contract/accounts.ts';
import AssetCentrePage from '../../src/features/wallet/AssetCentrePage.tsx';

// idb-keyval over a Map: the page's copy survives between renders as it would in IndexedDB.
const idb = vi.hoisted(() => new Map<string, unknown>());
vi.mock('idb-keyval', () => ({
  createStore: () => 'store',
  get: async (key: string) => structuredClone(idb.get(key)),
  set: async (key: string, value: unknown) => {
    idb.set(key, structuredClone(value));
  },
}));
vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const kinds = { spot: '250.000000', frozen: '0.000000', position: '0.000000', product: '0.000000', loan: '0.000000', demo: '0.000000' };
const assets: UserAssets = {
  totalUsdt: '250.000000', byKind: kinds, unpriced: [],
  currencies: [{ currency: 'USDT', scale: 6, amounts: kinds, rate: '1', valueUsdt: '250.000000' }],
};
const currencies: CurrencyInfo[] = [
  { currency: 'USDT', name: 'Tether USD', scale: 6, networks: [] }, { currency: 'BTC', name: 'Bitcoin', scale: 8, networks: [] },
];
const btcRate = { currency: 'BTC', rate: '50000', source: 'feed', time: Date.UTC(2026, 10, 27, 3) };

/** A server that answers (online) or a network that fails (offline). */
function network(up: boolean) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    if (!up) throw new TypeError('Failed to fetch');
    const path = new URL(String(url), 'https://bourse.test').pathname.replace(/^\/api/, '');
    const reply = (result: unknown) => new Response(JSON.stringify({ success: true, code: 200, message: '', result, timestamp: 0 }));
    if (path === walletPaths.userAssets) return reply(assets);
    if (path === walletPaths.currencyList) return reply(currencies);
    if (path === walletPaths.rateByCurrency) return reply(btcRate);
    return reply([]);
  }));
}

function renderPage(userId: string) {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  store.dispatch(userInfoReceived({ id: userId } as UserInfo));
  render(<Provider store={store}><I18nProvider i18n={i18n}><MemoryRouter><AssetCentrePage /></MemoryRouter></I18nProvider></Provider>);
}

describe('the asset centre offline', () => {
  beforeEach(() => {
    idb.clear();
    localStorage.clear();
    configureApiClient({ notify: vi.fn() });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the last figures received, with their age, at the kept rate', async () => {
    network(true);
    renderPage('42');
    await waitFor(() => expect(screen.getByTestId('asset-total-display').textContent).toBe('≈ 0.00500000'));
    await waitFor(() => expect((idb.get('last') as { rate: unknown } | undefined)?.rate).toEqual(btcRate));
    expect(screen.queryByTestId('asset-kept-note')).toBeNull();
    cleanup();
    api.util.resetApiState();

    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    network(false);
    renderPage('42');
    const note = await screen.findByTestId('asset-kept-note', {}, { timeout: 5_000 });
    expect(note.textContent).toMatch(/^Offline\. Balances updated (now|\d+ sec\. ago)\.$/);
    expect(screen.getByTestId('asset-total-usdt').textContent).toBe('250.00');
    expect(screen.getByTestId('asset-total-display').textContent).toBe('≈ 0.00500000');
    expect(screen.queryByText('Could not load your assets')).toBeNull();
  });

  it('never shows another user\'s copy, and says the assets could not be loaded', async () => {
    network(true);
    renderPage('42');
    await waitFor(() => expect(idb.has('last')).toBe(true));
    cleanup();
    api.util.resetApiState();

    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    network(false);
    renderPage('43');
    expect(await screen.findByText('Could not load your assets', {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.queryByTestId('asset-kept-note')).toBeNull();
    expect(screen.queryByTestId('asset-total-usdt')).toBeNull();
  });

  it('shows the skeleton, not the copy, while the first answer is on its way online', async () => {
    network(true);
    renderPage('42');
    await waitFor(() => expect(idb.has('last')).toBe(true));
    cleanup();
    api.util.resetApiState();

    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => { answer = resolve; });
    const online = vi.fn(async (url: string) => {
      await held;
      const path = new URL(String(url), 'https://bourse.test').pathname.replace(/^\/api/, '');
      const result = path === walletPaths.userAssets ? assets : path === walletPaths.currencyList ? currencies : btcRate;
      return new Response(JSON.stringify({ success: true, code: 200, message: '', result, timestamp: 0 }));
    });
    vi.stubGlobal('fetch', online);
    renderPage('42');
    expect(await screen.findByTestId('asset-skeleton')).toBeTruthy();
    // The device's copy has been read meanwhile; still no stale figures while the answer is awaited.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByTestId('asset-kept-note')).toBeNull();
    answer();
    await waitFor(() => expect(screen.getByTestId('asset-total-usdt').textContent).toBe('250.00'));
    expect(screen.queryByTestId('asset-kept-note')).toBeNull();
  });
});
