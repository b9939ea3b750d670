// Every built page at 390 and 320 px in English, Spanish and Korean (issue 8): nothing runs off
// the side of the screen, and a screenshot of each lands in test/e2e/screenshots/ (gitignored) for a
// person to look at before a page is called done.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { browserForFile, demoToken, localizedPage, overflowing, settled } from './browser.ts';

const baseUrl = inject('baseUrl');
const browser = browserForFile();
const shotsDir = path.resolve(import.meta.dirname, 'screenshots');

const languages = ['en-us', 'xi', 'ko'] as const;
const widths = [390, 320] as const;
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
  { name: 'ledger', path: '/zhangbianRecord', login: true, ready: '[data-testid="ledger-empty"], [data-testid="ledger-row"]' },
  { name: 'contracts', path: '/heyue?symbol=BTCUSDT', login: true, ready: '.order-form' },
  { name: 'options', path: '/heyue?mode=options', login: true, ready: '.options-form, .options-empty' },
  { name: 'swap', path: '/shandui', login: true, ready: '.swap-form, .swap-empty' },
  { name: 'swap-orders', path: '/shanduiOrder', login: true, ready: '.swap-empty, li.swap-record' },
  { name: 'demo-trading', path: '/demotrading', login: true, ready: '[data-testid="demo-balance"]' },
] as const;

describe('every built page on a narrow phone', () => {
  fs.mkdirSync(shotsDir, { recursive: true });
  let token: string;

  for (const lang of languages) {
    for (const width of widths) {
      it(`fits ${width} px in ${lang}`, async () => {
        token ??= await demoToken(browser(), baseUrl);
        const problems: string[] = [];
        for (const screen of screens) {
          const page = await localizedPage(browser(), { width, lang, token: screen.login ? token : '' });
          try {
            await page.goto(`${baseUrl}/#${screen.path}`);
            await settled(page);
            await page.locator(screen.ready).first().waitFor({ state: 'visible' });
            // Let the market's first prices and the chart's first draw land before the picture.
            await page.waitForTimeout(600);
            await page.screenshot({ path: path.join(shotsDir, `${lang}-${width}-${screen.name}.png`), fullPage: true });
            const result = await overflowing(page);
            if (result.problems) problems.push(`${screen.name}: ${result.problems}`);
          } finally {
            await page.context().close();
          }
        }
        expect(problems).toEqual([]);
      });
    }
  }
});
