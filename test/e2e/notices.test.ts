// Notices, help and pop-up announcements in the phone app (issue 21), in Chromium against the real
// server: a notice the operator publishes through the back office's API appears in home's notice
// strip and opens (its hostile parts gone); notices and help seen before open offline from the
// worker's copy with their age; a pop-up announcement meant for one user shows to them once; a
// deposit the operator approves arrives as an internal message behind the bell and on the My tab.
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SpecClient, type Answer } from '../conformance/specClient.ts';
import { browserForFile, localizedPage, settled } from './browser.ts';
import { fundAccount, newAccount, operatorSession } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const client = new SpecClient(baseUrl);

function resultOf<T>(answer: Answer<T>, what: string): T {
  if (answer.envelope?.code !== 200) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer.envelope.result;
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function publishNotice(title: string, body: string): Promise<string> {
  const operator = await operatorSession(baseUrl);
  return resultOf(await client.post<{ id: string }>('/admin/content/notices', { title, body }, operator), 'notice').id;
}

async function createItem(body: object): Promise<string> {
  const operator = await operatorSession(baseUrl);
  return resultOf(await client.post<{ id: string }>('/admin/content/items', body, operator), 'item').id;
}

/**
 * Marks read every pop-up announcement the account can already see (the demo seed publishes one
 * for everybody), so the journey's own pop-up is the one that shows, and nothing covers the page.
 */
async function readPublishedPopups(token: string) {
  const list = resultOf(await client.get<{ records: Array<{ id: string; popup: boolean }> }>('/sys/annountCement/listByUser', {}, token), 'announcements');
  for (const item of list.records.filter((entry) => entry.popup)) {
    resultOf(await client.post('/sys/annountCement/read', { id: item.id }, token), 'read');
  }
}

/** Opens `route` and, once the service worker is ready, reloads under it (a first visit is not controlled). */
async function openControlled(page: Page, route: string) {
  await page.goto(`${baseUrl}/#${route}`);
  await settled(page);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await settled(page);
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

describe('notices in the phone app', () => {
  it('shows a notice published by the operator on home, and opens it without its hostile parts', async () => {
    const title = `Trading hours change ${unique()}`;
    const id = await publishNotice(title, `<p>Markets close early <strong>on Friday</strong>.</p><script>window.hacked = 1</script>
      <img src="x" onerror="window.hacked = 2"><a href="javascript:window.hacked = 3">tap</a> <a href="https://example.com/hours">hours</a>`);
    const page = await localizedPage(browser());
    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    const strip = page.getByRole('region', { name: 'Platform notices' });
    const link = strip.locator(`a[data-notice-id="${id}"]`);
    await link.waitFor({ state: 'attached' });
    expect(await link.textContent()).toBe(title);
    // Once it has moved on from its first title, the title it presents lies inside its window,
    // where the user sees it (the list moves by one row, not by its whole height).
    await expect.poll(() => page.evaluate(() => {
      const frame = document.querySelector('.notice-strip-window')!.getBoundingClientRect();
      const links = [...document.querySelectorAll('.notice-strip-titles a')];
      const shown = links.findIndex((anchor) => anchor.getAttribute('tabindex') === '0');
      const box = links[shown]!.getBoundingClientRect();
      return shown > 0 && box.top >= frame.top - 1 && box.bottom <= frame.bottom + 1;
    }), { timeout: 30_000 }).toBe(true);
    // The strip moves on by itself; the notice opens from the list the strip's "More" leads to.
    await strip.getByRole('link', { name: 'More' }).click();
    await page.waitForURL(/#\/notice$/);
    await page.getByRole('link', { name: new RegExp(title) }).click();
    await page.waitForURL(new RegExp(`#/noticeDetail\\?id=${id}$`));
    await page.getByRole('heading', { name: title }).waitFor();
    expect(await page.locator('.rich-text strong').textContent()).toBe('on Friday');
    expect(await page.locator('.rich-text').getByRole('link', { name: 'hours' }).getAttribute('href'))
      .toBe(`#/outlink?url=${encodeURIComponent('https://example.com/hours')}`);
    expect(await page.locator('.rich-text').innerHTML()).not.toMatch(/script|onerror|javascript/i);
    expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
  });

  it('opens notices and help seen before while offline, saying how old they are', async () => {
    const noticeTitle = `Offline notice ${unique()}`;
    await publishNotice(noticeTitle, '<p>Seen before going offline.</p>');
    const helpTitle = `How to deposit ${unique()}`;
    const helpId = await createItem({
      kind: 'help', category: 'e2e_offline', translations: [{ lang: 'en-us', title: helpTitle, body: '<p>Open <em>Deposit</em> from home.</p>' }],
    });
    const page = await localizedPage(browser());
    await openControlled(page, '/notice');
    await page.getByRole('link', { name: new RegExp(noticeTitle) }).waitFor();
    await page.goto(`${baseUrl}/#/helpCentre`);
    await page.getByRole('link', { name: new RegExp(helpTitle) }).waitFor();
    await page.goto(`${baseUrl}/#/helpDetail?id=${helpId}`);
    await page.getByRole('heading', { name: helpTitle }).waitFor();

    await page.context().setOffline(true);
    await page.goto(`${baseUrl}/#/notice`);
    await page.reload();
    await settled(page);
    await page.getByRole('link', { name: new RegExp(noticeTitle) }).waitFor();
    expect(await page.getByTestId('content-saved').textContent()).toMatch(/^Offline copy, saved /);

    await page.goto(`${baseUrl}/#/helpDetail?id=${helpId}`);
    await page.reload();
    await settled(page);
    await page.getByRole('heading', { name: helpTitle }).waitFor();
    expect(await page.locator('.rich-text em').textContent()).toBe('Deposit');
    expect(await page.getByTestId('content-saved').textContent()).toMatch(/^Offline copy, saved /);
    await page.context().setOffline(false);
  });

  it('shows a pop-up announcement to the user it is meant for once, and marks it read', async () => {
    const { token } = await newAccount(baseUrl, dataDir, 'popup');
    await readPublishedPopups(token);
    const me = resultOf(await client.get<{ id: string }>('/user/appUser/getMyUserInfo', {}, token), 'me');
    const title = `Welcome gift ${unique()}`;
    const id = await createItem({
      kind: 'announcement', popup: true, audience: { kind: 'users', userIds: [me.id] },
      translations: [{ lang: 'en-us', title, body: '<p>Your first deposit earns a bonus.</p>' }],
    });
    const page = await localizedPage(browser(), { token });
    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    const dialog = page.getByRole('dialog').filter({ hasText: title });
    await dialog.waitFor();
    expect(await dialog.locator(`[data-announcement-id="${id}"]`).textContent()).toContain('Your first deposit earns a bonus.');
    await dialog.getByRole('button', { name: 'Got it' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => {
      const list = resultOf(await client.get<{ records: Array<{ id: string; readAt?: number }> }>('/sys/annountCement/listByUser', {}, token), 'list');
      return list.records.find((item) => item.id === id)?.readAt !== undefined;
    }).toBe(true);

    // A new start (a new tab: a fresh session) does not show it again: it has been read.
    const again = await localizedPage(browser(), { token });
    await again.goto(`${baseUrl}/#/home`);
    await settled(again);
    await again.getByTestId('popup-checked').waitFor({ state: 'attached' });
    expect(await again.getByRole('dialog').filter({ hasText: title }).count()).toBe(0);
  });

  it('brings a credited deposit as a message: bell and My tab count it, tapping opens the records and reads it', async () => {
    const { token } = await newAccount(baseUrl, dataDir, 'inbox');
    await readPublishedPopups(token);
    await fundAccount(baseUrl, token, '75', 'USDT', 'TRC20');
    const page = await localizedPage(browser(), { token });
    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    const bell = page.getByRole('button', { name: 'Messages, 1 unread' });
    await bell.waitFor();
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('status', { name: '1 unread messages' }).waitFor();
    await bell.click();
    await page.waitForURL(/#\/messages$/);
    const row = page.getByRole('button', { name: /Deposit credited/ });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/75(\.0+)? USDT has been credited to your account\./);
    await row.click();
    await page.waitForURL(/#\/chongzhitixianRecord/);
    await expect.poll(async () => resultOf(await client.get<{ messages: number }>('/content/appNotice/unread', {}, token), 'unread').messages).toBe(0);
    await page.getByRole('link', { name: 'My' }).click();
    await page.getByTestId('my-account').waitFor();
    await expect.poll(() => page.getByRole('navigation', { name: 'Main navigation' }).getByRole('status').count()).toBe(0);
  });

  it('queues a content read that failed offline and replays it into the cache when the network returns', async () => {
    const helpTitle = `Replayed help ${unique()}`;
    const helpId = await createItem({ kind: 'help', translations: [{ lang: 'en-us', title: helpTitle, body: '<p>Read later.</p>' }] });
    const page = await localizedPage(browser());
    await openControlled(page, '/home');
    await page.context().setOffline(true);
    await page.goto(`${baseUrl}/#/helpDetail?id=${helpId}`);
    await page.getByRole('alert').filter({ hasText: 'This could not be loaded.' }).waitFor();
    const cached = () => page.evaluate(async (id) => {
      const keys = await (await caches.open('bourse-content')).keys();
      return keys.some((request) => request.url.includes('/appHelpInfo/queryById') && request.url.includes(`id=${id}`));
    }, helpId);
    expect(await cached()).toBe(false);
    // A POST that fails offline is never queued; the failed GET is, once.
    await page.evaluate(() => fetch('/api/content/appNotice/read', { method: 'POST', body: '{}' }).catch(() => undefined));
    const queued = await page.evaluate(() => new Promise<string[]>((resolve) => {
      const open = indexedDB.open('workbox-background-sync');
      open.onerror = () => resolve([]);
      open.onsuccess = () => {
        const db = open.result;
        const all = db.transaction('requests').objectStore('requests').getAll();
        all.onsuccess = () => {
          db.close();
          resolve((all.result as Array<{ queueName: string; requestData: { url: string; method?: string } }>)
            .map((entry) => `${entry.queueName} ${entry.requestData.method ?? 'GET'} ${entry.requestData.url}`));
        };
      };
    }));
    expect(queued.filter((entry) => entry.includes(`queryById?id=${helpId}`))).toHaveLength(1);
    expect(queued.filter((entry) => !entry.startsWith('bourse-content-reads GET '))).toEqual([]);
    // Away from the page, so the app's own refetch on reconnection does not fill the cache instead.
    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    await page.context().setOffline(false);
    await expect.poll(cached, { timeout: 30_000 }).toBe(true);
    // Offline again, the page opens from the replayed copy.
    await page.context().setOffline(true);
    await page.goto(`${baseUrl}/#/helpDetail?id=${helpId}`);
    await page.reload();
    await settled(page);
    await page.getByRole('heading', { name: helpTitle }).waitFor();
    await page.context().setOffline(false);
  });
});
