// Dark theme, colour convention and home balance card (issue 19) in Chromium against the real
// server, at 390 × 844: with the system dark, home and the market use the dark background and the
// browser bar follows; choosing Light in My changes it and is remembered; zh-tw shows rises in
// red (en-us in green); a funded user's home card shows the server's total, and its eye hides the
// amounts on home and in the asset centre alike. Screenshots in /tmp/shots-theme (look at them).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it, onTestFailed, onTestFinished } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import type { UserAssets } from '../../src/api/contract/wallet.ts';
import { formatDecimal } from '../../src/lib/number.ts';
import { browserForFile, settled } from './browser.ts';
import { fundAccount, newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const shotsDir = process.env.SHOTS_DIR ?? '/tmp/shots-theme';
fs.mkdirSync(shotsDir, { recursive: true });

let token: string;
beforeAll(async () => {
  ({ token } = await newAccount(baseUrl, dataDir, 'theme'));
  await fundAccount(baseUrl, token, '321.5', 'USDT', 'TRC20');
});

/** A phone page with the system's colour scheme given, in a language, logged in with `token`. */
async function schemePage(target: Browser, { colorScheme = 'light', lang = 'en-us', token: seeded = '' }:
  { colorScheme?: 'light' | 'dark'; lang?: string; token?: string }): Promise<Page> {
  const context = await target.newContext({
    viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, colorScheme,
  });
  context.setDefaultTimeout(20_000);
  onTestFinished(() => context.close());
  await context.addInitScript(({ lang: language, token: stored }) => {
    if (sessionStorage.getItem('seeded')) return;
    localStorage.setItem('lang', language);
    if (stored) localStorage.setItem('token', stored);
    sessionStorage.setItem('seeded', '1');
  }, { lang, token: seeded });
  const page = await context.newPage();
  onTestFailed(() => page.screenshot({ path: path.join(shotsDir, `failed-${Date.now()}.png`) }).then(() => undefined, () => undefined));
  return page;
}

/** Relative luminance (0 black … 1 white) of a CSS colour as computed ("rgb(r, g, b)"). */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[0-9.]+/g) ?? []).slice(0, 3).map(Number).map((value) => {
    const channel = value / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
};

/** The colours the page shows: the app's background, its text, the scheme attribute and the bar colour. */
const look = (page: Page) => page.evaluate(() => {
  const app = getComputedStyle(document.querySelector('#app')!);
  return {
    background: app.backgroundColor,
    text: getComputedStyle(document.body).color,
    scheme: document.documentElement.dataset.prefersColorScheme,
    // The browser bar's colour: the theme-color meta that applies (index.html has one per system scheme).
    bar: [...document.querySelectorAll<HTMLMetaElement>('meta[name=theme-color]')]
      .find((meta) => !meta.media || matchMedia(meta.media).matches)?.content,
  };
});

/** Waits for a rising market row and returns its change badge's background colour. */
async function risingColour(page: Page): Promise<string> {
  const rising = page.locator('.change-badge.up').first();
  await rising.waitFor({ state: 'visible', timeout: 30_000 });
  return rising.evaluate((element) => getComputedStyle(element).backgroundColor);
}
const channels = (color: string) => (color.match(/[0-9.]+/g) ?? []).slice(0, 3).map(Number);

describe('theme', () => {
  it('follows a dark system on home and the market, readable, with a dark browser bar', async () => {
    const page = await schemePage(browser(), { colorScheme: 'dark' });
    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    const home = await look(page);
    expect(home.scheme).toBe('dark');
    expect(luminance(home.background)).toBeLessThan(0.05);
    expect(contrast(home.text, home.background)).toBeGreaterThan(7);
    expect(home.bar).toBe('#16191e');
    await page.locator('.ticker-link').first().waitFor();
    await page.screenshot({ path: path.join(shotsDir, 'dark-home-390.png') });

    await page.goto(`${baseUrl}/#/hangqing`);
    await settled(page);
    await page.locator('.ticker-link').first().waitFor();
    const market = await look(page);
    expect(luminance(market.background)).toBeLessThan(0.05);
    // The rows' prices are readable on the dark page: the first row's price, read between ticks (a
    // tick flashes it for 0.6 s, and a colour mid-transition may come in another colour syntax),
    // as plain rgb through a canvas once nothing on it is animating.
    // A row re-rendered while this waits leaves a detached element with no computed colour: then
    // the first row is found again.
    let priceColour: { raw: string; rgb: string } | null = null;
    await expect.poll(async () => {
      priceColour = await page.getByTestId('ticker-price').first().evaluate(async (element) => {
        for (let frame = 0; frame < 600; frame += 1) {
          if (!/\bflash-/.test(element.className) && element.getAnimations().length === 0) break;
          await new Promise((resolve) => requestAnimationFrame(resolve));
        }
        if (!element.isConnected) return null;
        const raw = getComputedStyle(element).color;
        const context = document.createElement('canvas').getContext('2d')!;
        // A colour the canvas cannot read leaves the sentinel: then the raw text is measured.
        context.fillStyle = '#010203';
        context.fillStyle = raw;
        if (context.fillStyle === '#010203') return { raw, rgb: raw };
        context.fillRect(0, 0, 1, 1);
        const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
        return { raw, rgb: `rgb(${r}, ${g}, ${b})` };
      });
      return priceColour !== null;
    }, { timeout: 20_000 }).toBe(true);
    if (!priceColour) throw new Error('no price colour read');
    const { raw, rgb } = priceColour as { raw: string; rgb: string };
    expect(contrast(rgb, market.background), JSON.stringify({ raw, rgb, background: market.background }))
      .toBeGreaterThan(4.5);
    await page.screenshot({ path: path.join(shotsDir, 'dark-market-390.png') });
  });

  it('switches to Light in My over a dark system, and keeps it after a reload', async () => {
    const page = await schemePage(browser(), { colorScheme: 'dark', token });
    await page.goto(`${baseUrl}/#/my`);
    await settled(page);
    const choice = page.getByTestId('theme-choice');
    await choice.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shotsDir, 'dark-my-390.png') });
    expect(luminance((await look(page)).background)).toBeLessThan(0.05);
    await choice.locator('[data-value=light]').click();
    await expect.poll(async () => (await look(page)).scheme).toBe('light');
    expect(luminance((await look(page)).background)).toBeGreaterThan(0.9);
    expect(await choice.locator('[aria-checked=true]').getAttribute('data-value')).toBe('light');

    await page.reload();
    await settled(page);
    const after = await look(page);
    expect(after.scheme).toBe('light');
    expect(luminance(after.background)).toBeGreaterThan(0.9);
    // The bar's colour follows once the app is idle (lib/themeFollow.ts).
    await expect.poll(async () => (await look(page)).bar).toBe('#0b3d91');
  });
});

describe('colour convention', () => {
  it('shows rises in red in zh-tw and in green in en-us', async () => {
    const chinese = await schemePage(browser(), { lang: 'zh-tw' });
    await chinese.goto(`${baseUrl}/#/hangqing`);
    await settled(chinese);
    const [r, g] = channels(await risingColour(chinese));
    expect(r).toBeGreaterThan(g);

    const english = await schemePage(browser(), { lang: 'en-us' });
    await english.goto(`${baseUrl}/#/hangqing`);
    await settled(english);
    const [r2, g2] = channels(await risingColour(english));
    expect(g2).toBeGreaterThan(r2);
  });
});

describe('dark pages at 320 px in zh-tw', () => {
  it('draws the chart and the contract screen dark, rises in red (Buy long red)', async () => {
    const target = browser();
    const context = await target.newContext({
      viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, colorScheme: 'dark',
    });
    context.setDefaultTimeout(20_000);
    onTestFinished(() => context.close());
    await context.addInitScript(({ stored }) => {
      if (sessionStorage.getItem('seeded')) return;
      localStorage.setItem('lang', 'zh-tw');
      localStorage.setItem('token', stored);
      sessionStorage.setItem('seeded', '1');
    }, { stored: token });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/#/kline?symbol=BTCUSDT`);
    await settled(page);
    const buyLong = page.locator('.kline-trade a').first();
    await buyLong.waitFor();
    const [r, g] = channels(await buyLong.evaluate((element) => getComputedStyle(element).backgroundColor));
    expect(r).toBeGreaterThan(g);
    expect(luminance((await look(page)).background)).toBeLessThan(0.05);
    await page.waitForFunction(() => document.querySelectorAll('.kline-chart canvas, canvas').length > 0);
    await page.screenshot({ path: path.join(shotsDir, 'dark-kline-zh-tw-320.png') });

    await page.goto(`${baseUrl}/#/heyue`);
    await settled(page);
    await page.locator('.direction-button').first().waitFor();
    await page.screenshot({ path: path.join(shotsDir, 'dark-contract-zh-tw-320.png') });
    await page.goto(`${baseUrl}/#/heyue?mode=options`);
    await settled(page);
    await page.locator('.options-head').first().waitFor();
    await page.screenshot({ path: path.join(shotsDir, 'dark-options-zh-tw-320.png') });
    expect(luminance((await look(page)).background)).toBeLessThan(0.05);
  });
});

describe('home balance card', () => {
  it("shows the funded user's total, and its eye hides amounts on home and in the asset centre", async () => {
    const page = await schemePage(browser(), { colorScheme: 'dark', token });
    const assetsAnswer = page.waitForResponse((response: Response) => response.url().includes('/finance/appWallet/queryUserAssets'));
    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    const assets = ((await (await assetsAnswer).json()) as { result: UserAssets }).result;
    expect(assets.totalUsdt).toBe('321.500000');
    const total = page.getByTestId('home-balance-total');
    await expect.poll(() => total.textContent()).toBe(formatDecimal(assets.totalUsdt, 2, 'en-US'));
    await page.screenshot({ path: path.join(shotsDir, 'dark-home-balance-390.png') });

    await page.getByTestId('home-balance-eye').click();
    await expect.poll(() => total.textContent()).toBe('****');
    expect(await page.getByTestId('home-balance').textContent()).not.toMatch(/321/);

    await page.goto(`${baseUrl}/#/zichanCenter`);
    await settled(page);
    await expect.poll(() => page.getByTestId('asset-total-usdt').textContent()).toBe('****');
    await page.screenshot({ path: path.join(shotsDir, 'dark-asset-centre-390.png') });
    await page.getByRole('button', { name: 'Show amounts' }).click();
    await expect.poll(() => page.getByTestId('asset-total-usdt').textContent()).toBe('321.50');

    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    await expect.poll(() => total.textContent()).toBe('321.50');
  });

  it('is not shown to a visitor', async () => {
    const page = await schemePage(browser(), {});
    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    await page.locator('.ticker-link').first().waitFor();
    expect(await page.getByTestId('home-balance').count()).toBe(0);
    expect(await page.locator('.home-balance-placeholder').count()).toBe(0);
  });
});
