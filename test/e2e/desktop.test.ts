// A wide desktop window outside a frame is sent to pc.html (sys_set.isPcLimite is seeded on),
// which shows the app in a phone frame and a QR code to open it on a phone.
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
