// Notification settings and price alerts (issue 21) in jsdom: permission is asked only from the
// switch, the subscription the browser makes is sent with the categories chosen, a browser without
// push says so, and the price alert form sends what the user set.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { api, configureApiClient } from '../../src/api/api.ts';
import NotificationSettingsPage from '../../src/features/notifications/NotificationSettingsPage.tsx';
import PriceAlertsPage from '../../src/features/notifications/PriceAlertsPage.tsx';
import { isAppleMobile, keyBytes } from '../../src/entities/push/webPush.ts';
import { forgetThisBrowsersPush } from '../../src/entities/push/pushApi.ts';

const feedback = vi.hoisted(() => ({ confirm: vi.fn(async () => true), toast: vi.fn(async () => undefined) }));
vi.mock('../../src/components/feedback.tsx', () => ({
  confirmDialog: feedback.confirm, showToast: feedback.toast, alertDialog: vi.fn(async () => undefined),
}));
vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const success = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 0 });
const vapidKey = `B${'A'.repeat(86)}`;

function serve(results: Record<string, (body: Record<string, unknown>) => unknown>) {
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(String(url), 'http://localhost').pathname;
    const body = typeof init?.body === 'string' && init.body.startsWith('{') ? JSON.parse(init.body) as Record<string, unknown> : {};
    calls.push({ path, body });
    const answer = Object.entries(results).find(([suffix]) => path.endsWith(suffix));
    return new Response(JSON.stringify(success(answer ? answer[1](body) : 'PEM')), { status: 200 });
  }));
  return calls;
}

function renderPage(page: React.ReactElement, at = '/') {
  configureApiClient({ notify: vi.fn() });
  const store = configureStore({ reducer: { [api.reducerPath]: api.reducer }, middleware: (getDefault) => getDefault().concat(api.middleware) });
  render(<Provider store={store}><I18nProvider i18n={i18n}><MemoryRouter initialEntries={[at]}>{page}</MemoryRouter></I18nProvider></Provider>);
}

/** A browser with push: a worker registration whose push manager makes one subscription. */
function pushBrowser() {
  const subscription = {
    endpoint: 'https://push.example.net/send/abc', options: { applicationServerKey: null },
    toJSON: () => ({ endpoint: 'https://push.example.net/send/abc', keys: { p256dh: 'BPk', auth: 'c2VjcmV0' } }),
    unsubscribe: vi.fn(async () => true),
  };
  const pushManager = { getSubscription: vi.fn(async () => null as typeof subscription | null), subscribe: vi.fn(async () => subscription) };
  const registration = { pushManager };
  const requestPermission = vi.fn(async () => 'granted');
  const notification = Object.assign(function Notification() {}, { permission: 'default', requestPermission });
  vi.stubGlobal('Notification', notification);
  vi.stubGlobal('PushManager', function PushManager() {});
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true, value: { getRegistration: async () => registration, ready: Promise.resolve(registration) },
  });
  return { pushManager, requestPermission, subscription };
}

beforeEach(() => {
  feedback.confirm.mockReset().mockResolvedValue(true);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('web push helpers', () => {
  it('turns the base64url key into its bytes and knows an iPhone, an iPad and a desktop', () => {
    expect([...keyBytes('BAEC_-8')]).toEqual([4, 1, 2, 255, 239]);
    expect(isAppleMobile('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)', 5)).toBe(true);
    expect(isAppleMobile('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 5)).toBe(true);
    expect(isAppleMobile('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 0)).toBe(false);
    expect(isAppleMobile('Mozilla/5.0 (Linux; Android 14)', 5)).toBe(false);
  });
});

describe('logging out', () => {
  it('takes this browser\'s subscription off the account and out of the browser, even when the server call fails', async () => {
    const browser = pushBrowser();
    browser.pushManager.getSubscription.mockResolvedValue(browser.subscription);
    const unsubscribe = vi.fn(async () => { throw new Error('offline'); });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await forgetThisBrowsersPush(unsubscribe);
    expect(unsubscribe).toHaveBeenCalledWith({ endpoint: 'https://push.example.net/send/abc' });
    expect(browser.subscription.unsubscribe).toHaveBeenCalledTimes(1);
  });

  it('does nothing in a browser without a subscription or without workers', async () => {
    const unsubscribe = vi.fn(async () => null);
    await forgetThisBrowsersPush(unsubscribe);
    const browser = pushBrowser();
    await forgetThisBrowsersPush(unsubscribe);
    expect(unsubscribe).not.toHaveBeenCalled();
    expect(browser.subscription.unsubscribe).not.toHaveBeenCalled();
  });
});

describe('notification settings', () => {
  it('says when the browser cannot take notifications, and offers no switch to turn on', async () => {
    serve({});
    renderPage(<NotificationSettingsPage />);
    await screen.findByText('This browser cannot show notifications.');
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Notifications on this device' }).getAttribute('aria-disabled')).toBe('true'));
  });

  it('asks for permission only when the switch is turned on, then sends the subscription with the categories chosen', async () => {
    const calls = serve({ '/public/pushKey': () => ({ publicKey: vapidKey }), '/user/appPush/subscribe': (body) => ({ subscribed: true, categories: body.categories }) });
    const browser = pushBrowser();
    renderPage(<NotificationSettingsPage />);
    const main = await screen.findByRole('switch', { name: 'Notifications on this device' });
    await waitFor(() => expect(main.getAttribute('aria-disabled')).toBe('false'));
    expect(browser.requestPermission).not.toHaveBeenCalled();
    // Chat replies off before turning on: the subscription asks for the other five.
    fireEvent.click(screen.getByRole('switch', { name: 'Chat replies' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Chat replies' }).getAttribute('aria-checked')).toBe('false'));
    fireEvent.click(main);
    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/user/appPush/subscribe'))).toBe(true));
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.pushManager.subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: keyBytes(vapidKey) });
    expect(calls.find((call) => call.path.endsWith('/user/appPush/subscribe'))!.body).toMatchObject({
      endpoint: 'https://push.example.net/send/abc', keys: { p256dh: 'BPk', auth: 'c2VjcmV0' },
      categories: ['notices', 'trading', 'money', 'security', 'price_alerts'],
    });
    await waitFor(() => expect(main.getAttribute('aria-checked')).toBe('true'));
  });

  it('stays off and subscribes nothing when the user refuses permission', async () => {
    const calls = serve({ '/public/pushKey': () => ({ publicKey: vapidKey }) });
    const browser = pushBrowser();
    browser.requestPermission.mockResolvedValue('denied');
    renderPage(<NotificationSettingsPage />);
    const main = await screen.findByRole('switch', { name: 'Notifications on this device' });
    await waitFor(() => expect(main.getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(main);
    await waitFor(() => expect(browser.requestPermission).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(main.getAttribute('aria-checked')).toBe('false'));
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
    expect(calls.some((call) => call.path.endsWith('/user/appPush/subscribe'))).toBe(false);
  });
});

describe('price alerts', () => {
  it('lists the alerts and sends a new one with the symbol, side, price and repeat chosen', async () => {
    const alerts = [{ id: '7', symbol: 'BTCUSDT', direction: 'below', price: '60000.00', repeat: false, active: false, lastFiredAt: Date.UTC(2026, 5, 1), createdAt: Date.UTC(2026, 4, 1) }];
    const calls = serve({
      '/user/appPriceAlert/list': () => alerts,
      '/user/appPriceAlert/create': (body) => ({ id: '8', ...body, active: true, createdAt: 0 }),
      '/public/getTicketList': () => [{ symbol: 'ETHUSDT', displayName: 'ETH/USDT', last: '3180.50', pricePrecision: 2 }],
    });
    renderPage(<PriceAlertsPage />, '/priceAlerts?symbol=ETHUSDT');
    await screen.findByText('BTCUSDT falls below 60000.00');
    const price = await screen.findByRole('textbox', { name: 'Price' }) as HTMLInputElement;
    await waitFor(() => expect(price.value).toBe('3180.50'));
    fireEvent.change(price, { target: { value: '3500' } });
    fireEvent.click(screen.getByText('Every time'));
    fireEvent.click(screen.getByRole('button', { name: 'Set alert' }));
    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/user/appPriceAlert/create'))).toBe(true));
    expect(calls.find((call) => call.path.endsWith('/user/appPriceAlert/create'))!.body)
      .toMatchObject({ symbol: 'ETHUSDT', direction: 'above', price: '3500', repeat: true });
  });
});
