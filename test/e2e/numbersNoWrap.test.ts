// No number wraps (issue 19 #2): on the asset centre, the demo page, the swap page and the
// contract page, at 390 × 844 and 320 × 640 in English, Chinese (Taiwan) and Spanish, every amount
// (`[data-amount]`, the shared <Amount> figure) lays out as one line box and stays on the screen.
// One funded account; one browser context per language and width, each page a route change. A
// shortened balance shows its full value on a tap, and its short one again on a second tap.
import { mkdirSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserForFile, localizedPage, settled } from './browser.ts';
import { fundAccount, newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const shotsDir = process.env.SHOTS_DIR ?? '/tmp/shots-numbers';
const screenshots = process.env.E2E_SCREENSHOTS === '1';

/** The pages with money on them and what shows when each is ready. */
const pages = [
  { name: 'asset-centre', path: '/zichanCenter', ready: '[data-testid="asset-total-usdt"] [data-amount]' },
  { name: 'demo', path: '/demotrading', ready: '[data-testid="demo-balance"] [data-amount]' },
  { name: 'swap', path: '/shandui', ready: '.swap-available [data-amount]' },
  { name: 'contract', path: '/heyue?symbol=BTCUSDT', ready: '.order-available [data-amount]' },
] as const;

interface Measured { count: number; broken: string[] }

/** Every visible amount: how many, and those laid out on more than one line or off the screen. */
function measureAmounts(page: Page): Promise<Measured> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const broken: string[] = [];
    let count = 0;
    for (const element of document.querySelectorAll<HTMLElement>('[data-amount]')) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || element.closest('[aria-hidden="true"], .adm-skeleton')) continue;
      count += 1;
      // One rect per line box the element spans (fragments on one line share their top).
      const lines = new Set([...element.getClientRects()].map((part) => Math.round(part.top))).size;
      const text = (element.textContent ?? '').trim();
      if (lines !== 1) broken.push(`"${text}" on ${lines} lines`);
      else if (rect.right > width + 1 || rect.left < -1) broken.push(`"${text}" at ${Math.round(rect.left)}..${Math.round(rect.right)} of ${width}`);
    }
    return { count, broken };
  });
}

async function visit(page: Page, path: string, ready: string) {
  await page.evaluate((hash) => { window.location.hash = hash; }, `#${path}`);
  await page.locator(ready).first().waitFor();
  await settled(page);
}

describe('amounts never wrap', () => {
  it('lays out every amount of the money pages on one line, in three languages at two phone widths', async () => {
    const { token } = await newAccount(baseUrl, dataDir, 'numbers');
    // Digits past USDT's two shown decimals, so the balances are shortened and a tap shows the rest.
    await fundAccount(baseUrl, token, '9876.543219');
    if (screenshots) mkdirSync(shotsDir, { recursive: true });
    for (const lang of ['en-us', 'zh-tw', 'xi']) {
      for (const width of [390, 320]) {
        const page = await localizedPage(browser(), { token, lang, width });
        await page.goto(`${baseUrl}/#/home`);
        await settled(page);
        for (const { name, path, ready } of pages) {
          await visit(page, path, ready);
          const measured = await measureAmounts(page);
          expect(measured.count, `${name} ${lang} ${width}`).toBeGreaterThan(0);
          expect(measured.broken, `${name} ${lang} ${width}`).toEqual([]);
          if (screenshots) await page.screenshot({ path: `${shotsDir}/${name}-${lang}-${width}.png`, fullPage: true });
        }
        await page.context().close();
      }
    }
  });

  it('shows the full value of a shortened balance on a tap and the short one on the next', async () => {
    const { token } = await newAccount(baseUrl, dataDir, 'numbers');
    await fundAccount(baseUrl, token, '1234.567891');
    const page = await localizedPage(browser(), { token });
    await page.goto(`${baseUrl}/#/zichanCenter`);
    await settled(page);
    const total = page.locator('[data-testid="asset-total-usdt"] [data-amount]');
    await total.waitFor();
    expect(await total.textContent()).toBe('1,234.56');
    expect(await total.getAttribute('data-amount')).toBe('1234.567891');
    await total.click();
    expect(await total.textContent()).toBe('1,234.567891');
    expect(await total.evaluate((element) => element.getClientRects().length)).toBe(1);
    await total.press('Enter');
    expect(await total.textContent()).toBe('1,234.56');
    await page.context().close();
  });
});
