// Web Push in Chromium: a push delivered to the app's service worker through the DevTools protocol
// (ServiceWorker.deliverPushMessage) is shown as a notification by the worker's push handler, and
// its notificationclick handler takes the open app to the notification's route. The settings page
// never asks for permission on its own, says when notifications are blocked, and the price alerts
// page sets and deletes an alert.
import { describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { browserForFile, demoToken, localizedPage, phonePage, settled } from './browser.ts';

const baseUrl = inject('baseUrl');

/** What the worker's scope offers that these tests use (the WebWorker lib is not in the app's tsconfig). */
interface ShownNotification { title: string; body: string; tag: string; data: unknown }
interface WorkerScope {
  registration: { getNotifications(filter?: { tag?: string }): Promise<ShownNotification[]> };
  dispatchEvent(event: Event): boolean;
}
declare const NotificationEvent: new (type: string, init: { notification: ShownNotification }) => Event;
const browser = browserForFile();

/** The page's service worker, once it controls the page, and its registration id for CDP. */
async function controlledWorker(context: BrowserContext, page: Page): Promise<{ worker: Worker; registrationId: string }> {
  const cdp = await context.newCDPSession(page);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }: { registrations: { registrationId: string; scopeURL: string }[] }) => {
    for (const registration of updated) registrations.set(registration.scopeURL, registration.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await page.evaluate(() => navigator.serviceWorker.ready);
  // The first visit is not controlled yet; a reload puts the page under the worker.
  await page.reload();
  await settled(page);
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
  const worker = context.serviceWorkers().find((candidate) => candidate.url().startsWith(baseUrl)) ?? await context.waitForEvent('serviceworker');
  await expect.poll(() => registrations.get(`${baseUrl}/`)).toBeTruthy();
  (page as Page & { cdp?: unknown }).cdp = cdp;
  return { worker, registrationId: registrations.get(`${baseUrl}/`)! };
}

describe('web push in the worker', () => {
  it('shows a pushed notification and a click takes the open app to its route', async () => {
    const { context, page } = await phonePage(browser());
    await context.grantPermissions(['notifications'], { origin: baseUrl });
    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    const { worker, registrationId } = await controlledWorker(context, page);
    const cdp = (page as Page & { cdp?: import('playwright-core').CDPSession }).cdp!;
    const payload = {
      title: 'BTCUSDT rose above 70000.00', body: 'The last price is 70001.00.', route: '/kline?symbol=BTCUSDT',
      category: 'price_alerts', tag: 'message-42', kind: 'price_alert',
    };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: `${baseUrl}/`, registrationId, data: JSON.stringify(payload) });
    const shown = async () => worker.evaluate(async () => (await (self as unknown as WorkerScope).registration.getNotifications())
      .map((notification: ShownNotification) => ({ title: notification.title, body: notification.body, tag: notification.tag, data: notification.data as unknown })));
    await expect.poll(shown).toEqual([{
      title: payload.title, body: payload.body, tag: 'message-42', data: { route: '/kline?symbol=BTCUSDT', category: 'price_alerts' },
    }]);

    // A route outside the app is not followed: it opens home.
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: `${baseUrl}/`, registrationId, data: JSON.stringify({ ...payload, tag: 'evil', route: '//evil.example/x' }),
    });
    await expect.poll(async () => (await shown()).find((notification) => notification.tag === 'evil')?.data).toEqual({ route: '/home', category: 'price_alerts' });

    // Chromium has no protocol call to click a notification: the worker dispatches the click on
    // the notification its push handler showed, and the handler navigates the open window.
    await worker.evaluate(async () => {
      const scope = self as unknown as WorkerScope;
      const [notification] = await scope.registration.getNotifications({ tag: 'message-42' });
      scope.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    });
    await page.waitForURL(/#\/kline\?symbol=BTCUSDT$/);
    await settled(page);
    await expect.poll(async () => (await shown()).map((notification) => notification.tag)).toEqual(['evil']);
  });

  it('never asks for permission on its own; the settings page says when notifications are blocked', async () => {
    const token = await demoToken(browser(), baseUrl);
    const page = await localizedPage(browser(), { token });
    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    await page.goto(`${baseUrl}/#/notificationSettings`);
    await settled(page);
    await page.getByTestId('notification-settings').waitFor();
    expect(await page.evaluate(() => Notification.permission)).toBe('default');
    await page.getByText('On iPhone, notifications arrive only when the app is installed to the home screen.').waitFor();
    for (const label of ['Platform notices', 'Trading results', 'Money movements', 'Chat replies', 'Security alerts', 'Price alerts']) {
      await page.getByRole('switch', { name: label, exact: true }).waitFor();
    }
    await expect.poll(() => page.getByRole('switch', { name: 'Notifications on this device' }).isDisabled()).toBe(false);

    const cdp = await page.context().newCDPSession(page);
    // Playwright grants but cannot deny: the DevTools protocol denies in this page's browser context.
    const { targetInfo } = await cdp.send('Target.getTargetInfo') as { targetInfo: { browserContextId: string } };
    await cdp.send('Browser.setPermission', {
      permission: { name: 'notifications' }, setting: 'denied', origin: baseUrl, browserContextId: targetInfo.browserContextId,
    });
    await page.reload();
    await settled(page);
    await page.getByTestId('push-denied').waitFor();
    expect(await page.getByRole('switch', { name: 'Notifications on this device' }).isDisabled()).toBe(true);
  });

  it('sets a price alert from the chart\'s header and deletes it', async () => {
    const token = await demoToken(browser(), baseUrl);
    const page = await localizedPage(browser(), { token });
    await page.goto(`${baseUrl}/#/kline?symbol=ETHUSDT`);
    await settled(page);
    await page.getByRole('link', { name: 'Price alerts' }).click();
    await page.waitForURL(/#\/priceAlerts\?symbol=ETHUSDT/);
    await settled(page);
    await expect.poll(() => page.getByTestId('alert-price').locator('input').inputValue()).toMatch(/^\d+\.\d{2}$/);
    await page.getByTestId('alert-price').locator('input').fill('99999.5');
    await page.getByText('Every time', { exact: true }).first().click();
    await page.getByTestId('alert-create').click();
    const row = page.getByTestId('price-alert').filter({ hasText: 'ETH/USDT rises above 99999.50' });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('Every time');
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });

    await page.getByTestId('alert-price').locator('input').fill('0');
    await page.getByTestId('alert-create').click();
    await page.getByRole('alert').filter({ hasText: 'Please enter a price above zero.' }).waitFor();
  });
});
