// The push offer (issue 21: push is offered after a first deposit, trade or chat message, never at
// first visit): the card shows only in a browser that can take push, whose permission is still
// "default", on a device where the offer was never made; "Not now" and "Turn on" close it and are
// remembered; "Turn on" leads to the notification settings page and asks no permission itself; the
// deposit result page offers it only right after the deposit page sent a request.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import type { Messages } from '@lingui/core';
import { i18n, loadFeatureCatalog } from '../../src/lib/i18n.ts';
import { storageKeys } from '../../src/lib/storage.ts';
import { api, configureApiClient } from '../../src/api/api.ts';
import type { PageOf, RechargeRecord } from '../../src/api/contract/wallet.ts';
import { loggedIn, userSlice } from '../../src/entities/session/userSlice.ts';
import PushOffer, { pushOfferWanted, type PushOfferReason } from '../../src/components/PushOffer.tsx';
import ResultPage from '../../src/features/wallet/ResultPage.tsx';

const requestPermission = vi.fn(async () => 'granted');

/** A browser with Notification, PushManager and a service worker, at the given permission. */
function pushBrowser(permission: NotificationPermission = 'default', without?: 'Notification' | 'PushManager' | 'serviceWorker') {
  if (without !== 'Notification') vi.stubGlobal('Notification', Object.assign(function Notification() {}, { permission, requestPermission }));
  if (without !== 'PushManager') vi.stubGlobal('PushManager', function PushManager() {});
  if (without !== 'serviceWorker') {
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { getRegistration: async () => undefined } });
  }
}

function mountOffer(reason: PushOfferReason = 'deposit') {
  const location = { current: '' };
  function Where() {
    location.current = useLocation().pathname;
    return null;
  }
  render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter initialEntries={['/heyue']}>
        <Where />
        <Routes>
          <Route path="/heyue" element={<PushOffer reason={reason} />} />
          <Route path="/notificationSettings" element={<p>settings page</p>} />
        </Routes>
      </MemoryRouter>
    </I18nProvider>,
  );
  return location;
}

const offer = () => screen.findByRole('region', { name: 'Turn on notifications?' });

/** Lets the card's catalog load settle: a card that would show has shown after this. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

// The card loads the notifications catalog before it shows; loaded here first, so that a card that
// wrongly shows does so before `settled` resolves, and the "not shown" checks can fail.
beforeAll(() => loadFeatureCatalog('notifications',
  (code) => import(`../../src/locales/${code}/notifications.po`) as Promise<{ messages: Messages }>));

beforeEach(() => {
  localStorage.clear();
  requestPermission.mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  localStorage.clear();
});

describe('PushOffer', () => {
  it('shows what a notification would bring after a first deposit, and remembers that it was offered', async () => {
    pushBrowser();
    expect(pushOfferWanted()).toBe(true);
    mountOffer('deposit');
    const card = await offer();
    expect(card.textContent).toContain('Get a notification when your deposit is credited.');
    expect(screen.getByRole('button', { name: 'Turn on' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Not now' })).toBeTruthy();
    await waitFor(() => expect(localStorage.getItem(storageKeys.pushOfferDone)).toMatch(/^offered \d{4}-/));
    expect(requestPermission).not.toHaveBeenCalled();
  });

  it.each([
    ['trade', 'Get a notification when a take-profit or stop-loss is hit.'],
    ['option', 'Get a notification when your option settles.'],
    ['chat', 'Get a notification when support replies.'],
  ] as const)('says what a %s brings', async (reason, line) => {
    pushBrowser();
    mountOffer(reason);
    expect((await offer()).textContent).toContain(line);
  });

  it.each([
    ['notifications already allowed', () => pushBrowser('granted')],
    ['notifications blocked', () => pushBrowser('denied')],
    ['no Notification API', () => pushBrowser('default', 'Notification')],
    ['no PushManager (an iPhone outside the installed app)', () => pushBrowser('default', 'PushManager')],
    ['no service worker', () => pushBrowser('default', 'serviceWorker')],
    ['the offer made before on this device', () => { pushBrowser(); localStorage.setItem(storageKeys.pushOfferDone, 'offered 2026-11-01T00:00:00.000Z'); }],
  ])('is not shown with %s', async (_case, arrange) => {
    arrange();
    expect(pushOfferWanted()).toBe(false);
    mountOffer('trade');
    await settled();
    expect(screen.queryByRole('region', { name: 'Turn on notifications?' })).toBeNull();
  });

  it('closes on "Not now", remembers it, and is never offered again on this device', async () => {
    pushBrowser();
    mountOffer('chat');
    await offer();
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('region', { name: 'Turn on notifications?' })).toBeNull();
    expect(localStorage.getItem(storageKeys.pushOfferDone)).toMatch(/^dismissed \d{4}-/);
    cleanup();
    expect(pushOfferWanted()).toBe(false);
    mountOffer('deposit');
    await settled();
    expect(screen.queryByRole('region', { name: 'Turn on notifications?' })).toBeNull();
  });

  it('is not offered again after it was shown and left unanswered', async () => {
    pushBrowser();
    mountOffer('trade');
    await offer();
    cleanup();
    expect(pushOfferWanted()).toBe(false);
  });

  it('"Turn on" leads to the notification settings page without asking for permission itself', async () => {
    pushBrowser();
    const location = mountOffer('trade');
    await offer();
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(location.current).toBe('/notificationSettings');
    expect(await screen.findByText('settings page')).toBeTruthy();
    expect(localStorage.getItem(storageKeys.pushOfferDone)).toMatch(/^accepted \d{4}-/);
    expect(requestPermission).not.toHaveBeenCalled();
    expect(pushOfferWanted()).toBe(false);
  });
});

describe('the deposit result page', () => {
  const deposit = (id: string, status: 0 | 1 | -1): RechargeRecord => ({
    id, currency: 'USDT', network: 'TRC20', amount: '1250.500000', depositAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', txHash: null,
    proofFileId: id.padStart(32, '0'), proofUrl: `/api/sys/common/file/${id.padStart(32, '0')}`, status,
    reason: null, createTime: Date.UTC(2026, 10, 20, 8, 0), decideTime: null,
  });

  function mountResult(status: 0 | 1 | -1, state: unknown) {
    configureApiClient({ notify: vi.fn(), getToken: () => 'token-123' });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:proof'), revokeObjectURL: vi.fn() }));
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      const parsed = new URL(String(url), 'https://bourse.test');
      const reply = (result: unknown) => new Response(JSON.stringify({ success: true, code: 200, message: '', result, timestamp: 0 }));
      if (parsed.pathname === '/api/finance/appRecharge/listMy') {
        return reply({ records: [deposit('3', status)], total: 1, size: 20, current: 1, pages: 1 } satisfies PageOf<RechargeRecord>);
      }
      if (parsed.pathname.startsWith('/api/sys/common/file/')) return new Response(new Blob(['png'], { type: 'image/png' }));
      throw new Error(`no answer scripted for ${parsed.pathname}`);
    }));
    const store = configureStore({
      reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer },
      middleware: (getDefault) => getDefault().concat(api.middleware),
    });
    store.dispatch(loggedIn({ token: 'token-123' }));
    render(
      <Provider store={store}><I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={[{ pathname: '/chongzhitixianResult', search: '?kind=deposit&id=3', state }]}>
          <Routes><Route path="/chongzhitixianResult" element={<ResultPage />} /></Routes>
        </MemoryRouter>
      </I18nProvider></Provider>,
    );
  }

  it('offers push right after the deposit page sent the request', async () => {
    pushBrowser();
    mountResult(0, { justSubmitted: true });
    expect((await offer()).textContent).toContain('Get a notification when your deposit is credited.');
  });

  it('does not offer it for a result opened from the records, nor for a deposit already decided', async () => {
    pushBrowser();
    mountResult(0, null);
    expect(await screen.findByRole('heading', { name: 'Deposit submitted, under review' })).toBeTruthy();
    await settled();
    expect(screen.queryByRole('region', { name: 'Turn on notifications?' })).toBeNull();
    cleanup();
    mountResult(1, { justSubmitted: true });
    expect(await screen.findByRole('heading', { name: 'Deposit arrived' })).toBeTruthy();
    await settled();
    expect(screen.queryByRole('region', { name: 'Turn on notifications?' })).toBeNull();
    expect(localStorage.getItem(storageKeys.pushOfferDone)).toBeNull();
  });
});
