// Every built page at 320 px in Spanish, Chinese and Korean and at 390 px in English (issues 8, 20):
// nothing runs off the side of the screen. With E2E_SCREENSHOTS=1 a screenshot of each lands in
// test/e2e/screenshots/ (gitignored) for a person to look at before a page is called done.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { browserForFile, demoToken, localizedPage, overflowing, settled } from './browser.ts';

const baseUrl = inject('baseUrl');
const browser = browserForFile();
const shotsDir = path.resolve(import.meta.dirname, 'screenshots');

/** Built pages: route, whether it needs the demo session, and what shows when the page is ready. */
const screens = [
  { name: 'home', path: '/home', login: false, ready: '.ticker-row' },
  { name: 'market', path: '/hangqing', login: false, ready: '.ticker-row' },
  { name: 'kline', path: '/kline?symbol=BTCUSDT', login: false, ready: 'canvas' },
  { name: 'login', path: '/login', login: false, ready: 'form' },
  { name: 'register', path: '/login?mode=register', login: false, ready: 'form' },
  { name: 'my', path: '/my', login: true, ready: '[data-testid="my-account"]' },
  { name: 'personal-data', path: '/gerenziliao', login: true, ready: 'form' },
  { name: 'asset-centre', path: '/zichanCenter', login: true, ready: '[data-testid="asset-total-usdt"]' },
  { name: 'deposit', path: '/chongzhi', login: true, ready: '[data-testid="deposit-address"]' },
  { name: 'withdraw', path: '/tixian', login: true, ready: 'section.withdraw-card' },
  { name: 'settlement-info', path: '/jiesuanInfo', login: true, ready: '.password-state' },
  { name: 'records', path: '/chongzhitixianRecord', login: true, ready: '.records-empty, li.record-row' },
  { name: 'ledger', path: '/zhangbianRecord', login: true, ready: '[data-testid="ledger-empty"], [data-testid="ledger-event"], [data-testid="ledger-row"]' },
  { name: 'contracts', path: '/heyue?symbol=BTCUSDT', login: true, ready: '.order-form' },
  { name: 'options', path: '/heyue?mode=options', login: true, ready: '.options-form, .options-empty' },
  { name: 'swap', path: '/shandui', login: true, ready: '.swap-form, .swap-empty' },
  { name: 'swap-orders', path: '/shanduiOrder', login: true, ready: '.swap-empty, li.swap-record' },
  { name: 'demo-trading', path: '/demotrading', login: true, ready: '[data-testid="demo-balance"]' },
] as const;

/**
 * Where a layout can break: the narrowest phone in three languages of different lengths (Spanish
 * long words, Korean and Chinese wide glyphs), and the common phone once in English (issue 20: one
 * context per run, not every combination).
 */
const runs = [
  { lang: 'en-us', width: 390 }, { lang: 'xi', width: 320 }, { lang: 'zh-tw', width: 320 }, { lang: 'ko', width: 320 },
] as const;
/** Screenshots on request (E2E_SCREENSHOTS=1): a full-page picture of every screen costs more than the checks. */
const screenshots = Boolean(process.env.E2E_SCREENSHOTS);

describe('every built page on a narrow phone', () => {
  let token: string;

  for (const { lang, width } of runs) {
    it(`fits ${width} px in ${lang}`, async () => {
      token ??= await demoToken(browser(), baseUrl);
      if (screenshots) fs.mkdirSync(shotsDir, { recursive: true });
      const problems: string[] = [];
      // One page for the run: the public screens first, then the same app logged in (the token
      // the spec keeps in localStorage) after one reload; each screen is a route change in it.
      const page = await localizedPage(browser(), { width, lang });
      const ordered = [...screens.filter((screen) => !screen.login), ...screens.filter((screen) => screen.login)];
      let loggedIn = false;
      for (const screen of ordered) {
        if (screen.login && !loggedIn) {
          await page.evaluate((value) => localStorage.setItem('token', value), token);
          loggedIn = true;
          // The app reads the token when it starts: reload first, then change the route. A route
          // change before the reload met the logged-out guard, which could send the page to the
          // login screen before the reload, and the reload then kept it there (failed once here).
          await page.reload();
          await settled(page);
        }
        await page.goto(`${baseUrl}/#${screen.path}`);
        await settled(page);
        await page.locator(screen.ready).first().waitFor({ state: 'visible' });
        if (screenshots) {
          // Let the market's first prices and the chart's first draw land before the picture.
          await page.waitForTimeout(600);
          await page.screenshot({ path: path.join(shotsDir, `${lang}-${width}-${screen.name}.png`), fullPage: true });
        }
        const result = await overflowing(page);
        if (result.problems) problems.push(`${screen.name}: ${result.problems}`);
      }
      expect(problems).toEqual([]);
    });
  }
});
