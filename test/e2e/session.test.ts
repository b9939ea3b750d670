// Where the session comes from at start (spec §4): the persisted store, else localStorage `token`,
// else the `token` cookie. A token found in either of the last two alone keeps the user logged in,
// and in-app back on a deep-linked page stays in the app (issue 8 #2, #5).
import { describe, expect, inject, it } from 'vitest';
import { browserForFile, demoToken, phoneContext, settled } from './browser.ts';

const baseUrl = inject('baseUrl');
const browser = browserForFile();

async function freshContext() {
  const context = await phoneContext(browser());
  return context;
}

describe('where the session comes from at start', () => {
  it('keeps a session whose token is only in localStorage, with IndexedDB empty', async () => {
    const token = await demoToken(browser(), baseUrl);

    const context = await freshContext();
    try {
      await context.addInitScript((value) => {
        if (!sessionStorage.getItem('seeded')) {
          localStorage.setItem('token', value);
          sessionStorage.setItem('seeded', '1');
        }
      }, token);
      const page = await context.newPage();
      await page.goto(`${baseUrl}/#/my`);
      await settled(page);
      await expect.poll(() => page.getByTestId('my-account').textContent()).toBe('demo@bourse.local');
      expect(page.url()).toMatch(/#\/my/);
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(token);
    } finally {
      await context.close();
    }
  });

  it('keeps a session whose token is only in the token cookie, and mirrors it to localStorage', async () => {
    const token = await demoToken(browser(), baseUrl);

    const context = await freshContext();
    try {
      const { hostname } = new URL(baseUrl);
      await context.addCookies([{ name: 'token', value: encodeURIComponent(token), domain: hostname, path: '/' }]);
      const page = await context.newPage();
      await page.goto(`${baseUrl}/#/my`);
      await settled(page);
      await expect.poll(() => page.getByTestId('my-account').textContent()).toBe('demo@bourse.local');
      expect(page.url()).toMatch(/#\/my/);
      await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBe(token);

      // The session survives a reload, now from the persisted store.
      await page.reload();
      await settled(page);
      await expect.poll(() => page.getByTestId('my-account').textContent()).toBe('demo@bourse.local');
    } finally {
      await context.close();
    }
  });

  it('sends a made-up cookie token to /login and forgets it, so it is not tried again', async () => {
    const context = await freshContext();
    try {
      const { hostname } = new URL(baseUrl);
      await context.addCookies([{ name: 'token', value: 'f'.repeat(64), domain: hostname, path: '/' }]);
      const page = await context.newPage();
      await page.goto(`${baseUrl}/#/my`);
      await page.waitForURL(/#\/login/);
      await settled(page);
      await expect.poll(() => page.evaluate(() => document.cookie.includes('token='))).toBe(false);
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    } finally {
      await context.close();
    }
  });
});

describe('back on a deep-linked page', () => {
  it('goes to the page\'s parent inside the app, not out of it', async () => {
    const context = await freshContext();
    try {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/#/kline?symbol=BTCUSDT`);
      await settled(page);
      await page.getByRole('button', { name: 'Back' }).first().click();
      await page.waitForURL(/#\/hangqing/);
      expect(page.url().startsWith(baseUrl)).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe('changes that stay on the page', () => {
  it('switches the chart period without the page loading overlay', async () => {
    const context = await freshContext();
    try {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/#/kline?symbol=BTCUSDT&period=15m`);
      await settled(page);
      await page.evaluate(() => {
        const seen = { overlay: false };
        (window as unknown as { overlaySeen: typeof seen }).overlaySeen = seen;
        new MutationObserver(() => {
          if (document.querySelector('.page-loading')) seen.overlay = true;
        }).observe(document.body, { childList: true, subtree: true });
      });
      await page.getByRole('radio', { name: '1 hour' }).click();
      await page.waitForURL(/period=1h/);
      await page.getByRole('radio', { name: '1 day' }).click();
      await page.waitForURL(/period=1d/);
      await expect.poll(() => page.getByRole('radio', { name: '1 day' }).getAttribute('aria-checked')).toBe('true');
      expect(await page.evaluate(() => (window as unknown as { overlaySeen: { overlay: boolean } }).overlaySeen.overlay)).toBe(false);
    } finally {
      await context.close();
    }
  });
});
