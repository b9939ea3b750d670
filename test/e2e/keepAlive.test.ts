// End-to-end journeys of the kept-alive pages (spec §2) in Chromium at a phone viewport, against
// the real server: the chart keeps its period and indicators when the user goes to the market
// tab and comes back (by history and by a link), the login form keeps what was typed, and the
// in-app back of a page opened directly goes to its parent instead of leaving the app.
import { describe, expect, inject, it, onTestFailed } from 'vitest';
import type { Page } from 'playwright-core';
import { browserForFile, chartInk, phonePage, settled } from './browser.ts';

const baseUrl = inject('baseUrl');
const browser = browserForFile();

const marketList = (page: Page) => page.getByRole('list', { name: 'Markets' });
/** A market's row link ("BTC /USDT Vol 1.52B 67,219.26 -0.25%"). */
const marketRow = (page: Page, base: string) => marketList(page).getByRole('link', { name: new RegExp(`^${base}\\s*/USDT\\b`) });
const periods = (page: Page) => page.getByRole('radiogroup', { name: 'Chart period' });
const checked = (page: Page, name: string) => periods(page).getByRole('radio', { name }).getAttribute('aria-checked');
const macd = (page: Page) => page.getByRole('button', { name: /^MACD/ });

/** Marks the chart page's element, so that seeing the mark again proves it was not rebuilt. */
const markChartPage = (page: Page) => page.evaluate(() => {
  (document.querySelector('.kline-page') as HTMLElement & { keepAliveMark?: string }).keepAliveMark = 'first visit';
});
const chartPageMark = (page: Page) => page.evaluate(() =>
  (document.querySelector('.kline-page') as (HTMLElement & { keepAliveMark?: string }) | null)?.keepAliveMark ?? null);

describe('kept-alive pages in the browser', () => {
  it('keeps the chart period and indicators when the user goes to the market tab and comes back', async () => {
    const { page } = await phonePage(browser());
    onTestFailed(async () => {
      await page.screenshot({ path: 'test-results/keep-alive-chart.png' });
    });
    await page.goto(`${baseUrl}/#/hangqing`);
    await settled(page);
    await marketRow(page, 'BTC').click();
    await page.waitForURL(/#\/kline\?symbol=BTCUSDT$/);
    await settled(page);
    await periods(page).waitFor();
    expect(await page.title()).toBe('Bourse');
    await markChartPage(page);

    await periods(page).getByRole('radio', { name: '1 hour' }).click();
    await expect.poll(() => checked(page, '1 hour')).toBe('true');
    await macd(page).click();
    await expect.poll(() => macd(page).getAttribute('aria-pressed')).toBe('true');

    // Back to the market tab with the page's own back button: the chart stays, hidden.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(/#\/hangqing$/);
    await settled(page);
    await marketList(page).waitFor();
    expect(await periods(page).isVisible()).toBe(false);
    await page.getByRole('tablist', { name: 'Market classes' }).getByRole('tab', { name: 'Metals' }).click();
    await page.waitForURL(/#\/hangqing\?tab=metal$/);
    // The hidden chart still shows its own address, not the market tab's.
    expect(await page.evaluate(() => {
      const kept = document.querySelector<HTMLElement>('[data-kept-page="kline"]')!;
      return { hidden: kept.hidden, title: kept.querySelector('h1')?.textContent,
        period: kept.querySelector('[role="radio"][aria-checked="true"]')?.getAttribute('aria-label') };
    })).toEqual({ hidden: true, title: 'BTC/USDT', period: '1 hour' });

    // Forward through the history: the same page, period and indicators as they were left.
    await page.goForward();
    await page.waitForURL(/#\/kline\?symbol=BTCUSDT&period=1h$/);
    await settled(page);
    await expect.poll(() => checked(page, '1 hour')).toBe('true');
    expect(await macd(page).getAttribute('aria-pressed')).toBe('true');
    expect(await chartPageMark(page)).toBe('first visit');

    // To the market tab again, and back through the row's link, which names the symbol only.
    await page.goBack();
    await page.waitForURL(/#\/hangqing/);
    await settled(page);
    await page.getByRole('tablist', { name: 'Market classes' }).getByRole('tab', { name: 'All' }).click();
    await marketRow(page, 'BTC').click();
    await page.waitForURL(/#\/kline\?symbol=BTCUSDT&period=1h$/);
    await settled(page);
    await expect.poll(() => checked(page, '1 hour')).toBe('true');
    expect(await macd(page).getAttribute('aria-pressed')).toBe('true');
    expect(await chartPageMark(page)).toBe('first visit');
    await page.getByRole('img', { name: /Candlestick chart of BTC\/USDT, 1 hour candles/ }).waitFor();
    // Its effects were stopped while it was hidden; shown again, the chart is drawn again.
    await expect.poll(() => chartInk(page), { timeout: 15_000 }).toBeGreaterThan(2_000);

    // Another symbol is what its link names: its own chart, at the default period.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(/#\/hangqing/);
    await settled(page);
    await marketRow(page, 'ETH').click();
    await page.waitForURL(/#\/kline\?symbol=ETHUSDT$/);
    await settled(page);
    await page.getByRole('heading', { level: 1, name: 'ETH/USDT' }).waitFor();
    await expect.poll(() => checked(page, '15 minutes')).toBe('true');
  });

  it('keeps what was typed on /login when the user goes home and comes back', async () => {
    const { page } = await phonePage(browser());
    onTestFailed(async () => {
      await page.screenshot({ path: 'test-results/keep-alive-login.png' });
    });
    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    // The hero's button (the logged-out shortcuts have a "Log in" of their own further down).
    await page.getByRole('button', { name: 'Log in', exact: true }).first().click();
    await page.waitForURL(/#\/login$/);
    await settled(page);
    expect(await page.title()).toBe('Bourse');
    const account = page.getByRole('textbox', { name: 'E-mail, mobile or account' });
    await account.fill('kept@example.com');

    await page.getByRole('button', { name: 'Home', exact: true }).click();
    await page.waitForURL(/#\/home$/);
    await settled(page);
    expect(await account.isVisible()).toBe(false);
    expect(await page.title()).toBe('Home · Bourse');

    // The hero's button (the logged-out shortcuts have a "Log in" of their own further down).
    await page.getByRole('button', { name: 'Log in', exact: true }).first().click();
    await page.waitForURL(/#\/login$/);
    await settled(page);
    await expect.poll(() => account.inputValue()).toBe('kept@example.com');

    await page.goBack();
    await page.waitForURL(/#\/home$/);
    await settled(page);
    await page.goForward();
    await page.waitForURL(/#\/login$/);
    await settled(page);
    await expect.poll(() => account.inputValue()).toBe('kept@example.com');
  });

  it("goes back to the page's parent, not out of the app, when the page was opened directly", async () => {
    const { page } = await phonePage(browser());
    // Something else was open in the tab before: the browser's history is not empty.
    await page.goto(`${baseUrl}/favicon.svg`);
    await page.goto(`${baseUrl}/#/kline?symbol=BTCUSDT`);
    await settled(page);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(/#\/hangqing$/);
    await settled(page);
    await marketList(page).waitFor();

    await page.goto(`${baseUrl}/#/outlink?url=${encodeURIComponent('https://example.com/')}`);
    await page.reload(); // a fresh start on the outside-link page
    await settled(page);
    await page.getByText('example.com', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Back' }).first().click();
    await page.waitForURL(/#\/home$/);
  });
});
