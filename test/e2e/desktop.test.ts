// A wide desktop window outside a frame is sent to pc.html (sys_set.isPcLimite is seeded on),
// which shows the app in a phone frame and a QR code to open it on a phone; pc.html opened on a
// phone-wide screen sends it back into the app instead of showing a phone inside the phone.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { browserForFile } from './browser.ts';

const baseUrl = inject('baseUrl');
const browser = browserForFile();

describe('the desktop page', () => {
  it('sends a wide window to pc.html, with the app framed and a QR code drawn', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/#/home`);
    await page.waitForURL(/\/pc\.html/);
    const frame = page.frameLocator('iframe[title="Bourse"]');
    await frame.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    await expect.poll(() => page.locator('#pc-qr').evaluate((canvas: HTMLCanvasElement) => {
      const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let dark = 0;
      for (let i = 0; i < pixels.length; i += 4) if (pixels[i] < 128) dark += 1;
      return dark;
    })).toBeGreaterThan(100);
    // Inside the frame the app is not redirected again.
    expect(page.frames().some((child) => child.url().includes('/index.html#/home') || child.url().endsWith('#/home'))).toBe(true);
    await context.close();
  });

  it('sends pc.html on a phone back to the page the visitor was sent from', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(20_000);
    try {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/#/kline?symbol=ETHUSDT`);
      await page.waitForURL(/\/pc\.html/);
      // The same tab at a phone's width (a phone, or the window narrowed) opens pc.html again.
      await page.setViewportSize({ width: 390, height: 844 });
      const entries = await page.evaluate(() => history.length);
      await page.reload();
      await page.waitForURL(`${baseUrl}/#/kline?symbol=ETHUSDT`);
      await page.getByRole('region', { name: 'Chart', exact: true }).waitFor({ state: 'visible' });
      expect(await page.locator('iframe').count()).toBe(0);
      const screenshots = path.resolve(import.meta.dirname, 'screenshots');
      fs.mkdirSync(screenshots, { recursive: true });
      await page.screenshot({ path: path.join(screenshots, 'pc-on-phone-390.png') });
      // pc.html's entry was replaced, not stacked: back does not bring the phone frame up again.
      expect(await page.evaluate(() => history.length)).toBe(entries);
    } finally {
      await context.close();
    }
  });

  it.each([390, 320])('sends pc.html opened directly on a %i px phone to the app\'s home', async (width) => {
    const context = await browser().newContext({ viewport: { width, height: 700 }, isMobile: true, hasTouch: true });
    context.setDefaultTimeout(20_000);
    try {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/pc.html`);
      await page.waitForURL(`${baseUrl}/#/home`);
      await page.locator('.layout-tabs').waitFor({ state: 'visible' });
      expect(await page.locator('#pc-frame').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('keeps a phone-sized window in the app', async () => {
    const context = await browser().newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/#/home`);
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    await page.waitForTimeout(500);
    expect(page.url()).toContain('#/home');
    await context.close();
  });
});
