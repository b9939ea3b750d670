// End-to-end journeys of market data in Chromium at a phone viewport, against the real server:
// live prices on /hangqing (over the socket, and over REST polling when the socket is refused),
// the market page's tabs, search, sorting and favourites, the home rankings, the candlestick
// chart and its periods, and the saved list with its age when the network is down.
import { describe, expect, inject, it, onTestFailed } from 'vitest';
import type { Page } from 'playwright-core';
import { browserForFile, chartInk, phonePage, settled } from './browser.ts';

const baseUrl = inject('baseUrl');
const browser = browserForFile();

const marketList = (page: Page) => page.getByRole('list', { name: 'Markets' });
const prices = (page: Page) => marketList(page).getByTestId('ticker-price').allTextContents();
const rowNames = async (page: Page) =>
  (await marketList(page).locator('.ticker-pair strong').allTextContents()).map((name) => name.trim());
const asNumber = (text: string) => Number(text.replace(/,/g, ''));

async function openMarket(page: Page, hash = '/hangqing') {
  await page.goto(`${baseUrl}/#${hash}`);
  await settled(page);
  await marketList(page).waitFor({ state: 'visible' });
}

const chartPicture = (page: Page) => page.evaluate(() =>
  [...document.querySelectorAll<HTMLCanvasElement>('[data-testid="kline-chart"] canvas')].map((canvas) => canvas.toDataURL()).join('|'));

describe('market quotes in the browser', () => {
  it('moves the prices on /hangqing while the page is open (realtime socket)', async () => {
    const { page } = await phonePage(browser());
    onTestFailed(async () => {
      await page.screenshot({ path: 'test-results/market-live.png' });
    });
    let tickerUpdates = 0;
    page.on('websocket', (socket) => socket.on('framereceived', (frame) => {
      if (String(frame.payload).startsWith('{"type":"update","channel":"tickers"')) tickerUpdates += 1;
    }));
    await openMarket(page);
    const first = await prices(page);
    expect(first.length).toBeGreaterThanOrEqual(10);
    await expect.poll(() => prices(page), { timeout: 20_000, interval: 500 }).not.toEqual(first);
    expect(tickerUpdates).toBeGreaterThan(0);
  });

  it('still moves the prices by polling when the socket is refused', async () => {
    const { page } = await phonePage(browser());
    // Every socket to /api/ws is closed at once, as a proxy without WebSocket support would.
    await page.routeWebSocket(/\/api\/ws$/, (socket) => void socket.close({ code: 1011, reason: 'refused by the test' }));
    let tickerCalls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/public/getTicketList')) tickerCalls += 1;
    });
    await openMarket(page);
    const first = await prices(page);
    await expect.poll(() => prices(page), { timeout: 20_000, interval: 500 }).not.toEqual(first);
    expect(tickerCalls).toBeGreaterThanOrEqual(2);
  });

  it('filters by class, searches, sorts by price and keeps a starred market in favourites after a reload', async () => {
    const { page } = await phonePage(browser());
    await openMarket(page);
    const classes = page.getByRole('tablist', { name: 'Market classes' });

    await classes.getByRole('tab', { name: 'Metals' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['XAU', 'XAG']);
    await classes.getByRole('tab', { name: 'All' }).click();

    await page.getByRole('searchbox', { name: 'Search markets' }).fill('eth');
    await expect.poll(() => rowNames(page)).toEqual(['ETH']);
    await page.getByRole('button', { name: 'Add ETH/USDT to favourites' }).click();
    await page.getByRole('button', { name: 'Remove ETH/USDT from favourites' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search markets' }).fill('');

    await page.getByRole('button', { name: 'Sort by Price' }).click();
    await page.getByRole('button', { name: 'Sorted by Price, descending' }).waitFor();
    const sorted = (await prices(page)).map(asNumber);
    expect(sorted).toEqual([...sorted].sort((a, b) => b - a));
    expect(page.url()).toContain('sort=price-desc');

    await page.waitForTimeout(600); // the store's debounced write to IndexedDB
    await page.reload();
    await settled(page);
    await page.getByRole('tablist', { name: 'Market classes' }).getByRole('tab', { name: 'Favourites' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['ETH']);
  });

  it('shows the home rankings and opens the chart of a row, with a way back', async () => {
    const { page } = await phonePage(browser());
    await page.goto(`${baseUrl}/#/home`);
    await settled(page);
    const rankings = page.getByRole('tablist', { name: 'Market rankings' });
    await page.getByRole('list', { name: '24h trading ranking' }).getByRole('listitem').first().waitFor();
    expect(await page.getByRole('list', { name: '24h trading ranking' }).getByRole('listitem').count()).toBe(5);
    await rankings.getByRole('tab', { name: 'Hot' }).click();
    await page.getByRole('list', { name: 'Hot' }).waitFor();
    await page.getByRole('link', { name: 'More: Hot' }).waitFor();

    await page.getByRole('list', { name: 'Hot' }).getByRole('link').first().click();
    await page.waitForURL(/#\/kline\?symbol=[A-Z]+/);
    await page.getByRole('radiogroup', { name: 'Chart period' }).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(/#\/home/);
  });

  it('draws the candlestick chart and reloads it when the period changes', async () => {
    const { page } = await phonePage(browser());
    onTestFailed(async () => {
      await page.screenshot({ path: 'test-results/market-chart.png' });
    });
    const firstLoad = page.waitForResponse((response) => response.url().includes('/api/trade/appSymbol/kline')
      && response.url().includes('period=15m') && response.url().includes('limit=300'));
    await page.goto(`${baseUrl}/#/kline?symbol=BTCUSDT`);
    await settled(page);
    expect((await firstLoad).ok()).toBe(true);
    await page.getByRole('img', { name: /Candlestick chart of BTC\/USDT, 15 minutes candles/ }).waitFor();
    await expect.poll(() => chartInk(page), { timeout: 15_000 }).toBeGreaterThan(2_000);
    expect(await page.getByTestId('kline-last').textContent()).toMatch(/\d{2},\d{3}\.\d{2}$/);
    const before = await chartPicture(page);

    const hourLoad = page.waitForResponse((response) => response.url().includes('/api/trade/appSymbol/kline')
      && response.url().includes('period=1h') && response.url().includes('limit=300'));
    await page.getByRole('radio', { name: '1 hour' }).click();
    expect((await hourLoad).ok()).toBe(true);
    await expect.poll(() => page.getByRole('radio', { name: '1 hour' }).getAttribute('aria-checked')).toBe('true');
    expect(page.url()).toContain('period=1h');
    await expect.poll(() => chartPicture(page), { timeout: 15_000 }).not.toBe(before);
    await expect.poll(() => chartInk(page), { timeout: 15_000 }).toBeGreaterThan(2_000);

    await page.getByRole('button', { name: 'MACD: Moving average convergence divergence' }).click();
    await expect.poll(() => page.getByRole('button', { name: /^MACD/ }).getAttribute('aria-pressed')).toBe('true');
  });

  it('shows the market list with its age when the network is down after one visit', async () => {
    const { context, page } = await phonePage(browser());
    onTestFailed(async () => {
      await page.screenshot({ path: 'test-results/market-offline.png' });
    });
    await openMarket(page);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The first visit is not controlled yet; a reload puts the page under the worker.
    await page.reload();
    await settled(page);
    await marketList(page).waitFor({ state: 'visible' });
    // The worker keeps the market lists (stale-while-revalidate) beside the copy in the store.
    await expect.poll(() => page.evaluate(async () => {
      const cache = await caches.open('bourse-market-lists');
      return (await cache.keys()).map((request) => new URL(request.url).pathname);
    })).toEqual(expect.arrayContaining(['/api/public/getTicketList', '/api/trade/api/getPriceDistribution']));
    await page.waitForTimeout(600); // the store's debounced write to IndexedDB
    const online = await rowNames(page);

    await context.setOffline(true);
    await page.reload();
    await settled(page);
    await marketList(page).waitFor({ state: 'visible' });
    expect(await rowNames(page)).toEqual(online);
    await expect.poll(() => page.getByTestId('stale-notice').textContent())
      .toMatch(/^Offline\. Prices as of \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });
});
