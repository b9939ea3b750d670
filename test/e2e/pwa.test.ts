// The app is installable and, after one visit, its shell opens without a network.
import { describe, expect, inject, it } from 'vitest';
import { browserForFile, persistentPhoneContext, phonePage, settled } from './browser.ts';

const baseUrl = inject('baseUrl');
const browser = browserForFile();

describe('the installable PWA', () => {
  it('has a manifest Chromium accepts for installation', async () => {
    const context = await persistentPhoneContext();
    const page = context.pages()[0] ?? await context.newPage();
    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    await page.evaluate(() => navigator.serviceWorker.ready);
    const manifest = await (await fetch(`${baseUrl}/manifest.webmanifest`)).json() as {
      display: string; icons: Array<{ sizes: string; purpose: string }>; start_url: string; name: string;
    };
    expect(manifest.display).toBe('standalone');
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual(
      expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
    const session = await context.newCDPSession(page);
    const { installabilityErrors } = await session.send('Page.getInstallabilityErrors') as {
      installabilityErrors: Array<{ errorId: string }>;
    };
    expect(installabilityErrors.map((error) => error.errorId)).toEqual([]);
  });

  it('opens the shell offline after one visit', async () => {
    const { context, page } = await phonePage(browser());
    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The first visit is not controlled yet; a reload puts the page under the worker.
    await page.reload();
    await settled(page);
    await context.setOffline(true);
    await page.reload();
    await settled(page);
    await page.getByRole('heading', { name: 'Trade crypto, gold and forex' }).waitFor({ state: 'visible' });
  });

  it('leaves the back office to the server once the phone app\'s worker controls the origin', async () => {
    const { page } = await phonePage(browser());
    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await settled(page);
    expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    // Without the worker's denylist entry its navigation fallback would answer with the phone app.
    await page.goto(`${baseUrl}/admin.html`);
    await page.getByLabel('Authenticator code').waitFor();
    expect(await page.locator('#app .home').count()).toBe(0);
  });
});
