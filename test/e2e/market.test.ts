// End-to-end journeys of market data in Chromium at a phone viewport, against the real server:
// live prices on /hangqing (over the socket, and over REST polling when the socket is refused),
// the market page's tabs, search (codes, names and aliases in the user's language), sorting and
// favourites, the home rankings, the candlestick chart and its periods, the saved list and its
// distribution with their age when the network is down, and the rows at 320 and 390 px in three
// languages with closed markets: nothing overflows, overlaps or is cut, and a closed market says
// when it reopens in the user's time.
import { describe, expect, inject, it, onTestFailed, onTestFinished } from 'vitest';
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
    // On a busy machine the first move can come from the page's REST refresh while the socket is
    // still opening: the socket's own ticker frames are waited for, not assumed to be there already.
    await expect.poll(() => tickerUpdates, { timeout: 20_000, interval: 500 }).toBeGreaterThan(0);
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
    // Without the worker's copy of the distribution, the card draws the saved list's.
    await page.evaluate(async () => {
      const cache = await caches.open('bourse-market-lists');
      for (const request of await cache.keys()) if (request.url.includes('getPriceDistribution')) await cache.delete(request);
    });
    await page.reload();
    await settled(page);
    await marketList(page).waitFor({ state: 'visible' });
    expect(await rowNames(page)).toEqual(online);
    await expect.poll(() => page.getByTestId('stale-notice').textContent())
      .toMatch(/^Offline\. Prices updated (now|\d+ sec\. ago|\d+ min\. ago)$/);
    const chart = page.getByRole('img', { name: /^Markets by 24h change: / });
    await chart.waitFor();
    // Every market of the saved list that trades is counted once.
    const counts = (await chart.getAttribute('aria-label'))!.match(/(\d+) rising, (\d+) flat, (\d+) falling/)!.slice(1).map(Number);
    const trading = await marketList(page).locator('.ticker-row:not(:has(.ticker-closed))').count();
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(trading);
    expect(await page.getByTestId('distribution-age').textContent()).toMatch(/^Updated (now|\d+ sec\. ago|\d+ min\. ago)$/);
  });

  it.each([
    ['en-us', 'gold', ['XAU']], ['en-us', 'bitcoin', ['BTC']], ['en-us', 'euro', ['EUR']], ['en-us', 'yen', ['USD']],
    ['xi', 'oro', ['XAU']], ['xi', 'dólar canadiense', ['USD']], ['ko', '비트코인', ['BTC']], ['ko', '금', ['XAU']],
  ])('finds markets by name in %s: "%s"', async (lang, query, names) => {
    const { page } = await languagePage(lang, 390);
    await openMarketIn(page);
    await page.getByRole('searchbox').fill(query);
    await expect.poll(() => page.locator('#market-list .ticker-pair strong').allTextContents()).toEqual(names);
  });
});

/** /hangqing in any language: the list is found by its place, not its (translated) name. */
async function openMarketIn(page: Page) {
  await page.goto(`${baseUrl}/#/hangqing`);
  await settled(page);
  await page.locator('#market-list .ticker-row').first().waitFor();
}

/** A phone of `width` px in the interface language `lang`, its clock in `timezoneId`, closed with the test. */
async function languagePage(lang: string, width: number, { timezoneId = 'UTC', serviceWorkers = 'allow' as 'allow' | 'block' } = {}) {
  const context = await browser().newContext({
    viewport: { width, height: width < 390 ? 640 : 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, timezoneId, serviceWorkers,
  });
  context.setDefaultTimeout(20_000);
  onTestFinished(() => context.close());
  await context.addInitScript((code) => localStorage.setItem('lang', code), lang);
  return { context, page: await context.newPage() };
}

/**
 * Forex and metals as at the weekend, whatever day the test runs: the server's ticker list with
 * those markets marked closed until `reopensAt`, and no socket (which would bring them back open).
 */
async function withClosedMarkets(page: Page, reopensAt: number) {
  await page.routeWebSocket(/\/api\/ws$/, (socket) => void socket.close({ code: 1011, reason: 'closed markets by the test' }));
  await page.route(/\/api\/public\/getTicketList/, async (route) => {
    const response = await route.fetch();
    const body = await response.json() as { result: Array<{ class: string }> };
    for (const ticker of body.result) if (ticker.class !== 'crypto') Object.assign(ticker, { open: false, reopensAt });
    await route.fulfill({ response, json: body });
  });
}

/** What is wrong with the rows' layout: a page wider than the screen, parts of a row that overlap or leave it, text cut. */
const rowLayoutProblems = (page: Page) => page.evaluate(() => {
  const problems: string[] = [];
  const { scrollWidth, clientWidth } = document.documentElement;
  if (scrollWidth > clientWidth) problems.push(`the page is ${scrollWidth} px wide on a ${clientWidth} px screen`);
  const parts = ['.star-button', '.market-mark', '.ticker-pair strong', '.ticker-quote', '.ticker-full-name', '.ticker-volume',
    '.ticker-price', '.change-badge', '.ticker-closed'];
  const whole = ['.ticker-pair strong', '.ticker-volume', '.ticker-price', '.change-badge', '.ticker-closed'];
  for (const row of document.querySelectorAll<HTMLElement>('.ticker-row')) {
    const name = row.dataset.symbol;
    const rowBox = row.getBoundingClientRect();
    const boxes = parts.flatMap((selector) => {
      const element = row.querySelector(selector);
      return element ? [{ selector, box: element.getBoundingClientRect() }] : [];
    });
    for (const { selector, box } of boxes) {
      if (box.left < rowBox.left - 0.5 || box.right > rowBox.right + 0.5) problems.push(`${name}: ${selector} leaves the row`);
    }
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
      const overlap = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left) > 0.5
        && Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top) > 0.5;
      if (overlap) problems.push(`${name}: ${a.selector} overlaps ${b.selector}`);
    }));
    for (const selector of whole) {
      const element = row.querySelector(selector);
      if (element && element.scrollWidth > element.clientWidth) problems.push(`${name}: ${selector} is cut`);
    }
  }
  return problems;
});

describe('market rows on phones, with closed markets', () => {
  const reopensAt = Date.UTC(2026, 10, 29, 22);
  // The reopening on each test's clock: New York, Madrid and Seoul.
  const cases = [
    { lang: 'en-us', timezoneId: 'America/New_York', closed: /^Closed — reopens Sun 5:00\sPM$/ },
    { lang: 'xi', timezoneId: 'Europe/Madrid', closed: /^Cerrado — reabre el dom, 23:00$/ },
    { lang: 'ko', timezoneId: 'Asia/Seoul', closed: /^휴장 — \(월\) 오전 7:00 개장$/ },
  ];

  for (const { lang, timezoneId, closed } of cases) {
    for (const width of [320, 390]) {
      it(`lays out every row of /hangqing and /home at ${width} px in ${lang}, and says when a closed market reopens`, async () => {
        const { page } = await languagePage(lang, width, { timezoneId, serviceWorkers: 'block' });
        onTestFailed(async () => {
          await page.screenshot({ path: `test-results/market-rows-${lang}-${width}.png`, fullPage: true });
        });
        await withClosedMarkets(page, reopensAt);
        await openMarketIn(page);
        await expect.poll(() => page.locator('#market-list .ticker-closed').count()).toBe(8);
        expect(await rowLayoutProblems(page)).toEqual([]);
        const gold = page.locator('#market-list .ticker-row[data-symbol="XAUUSD"]');
        expect(await gold.getByTestId('ticker-closed').textContent()).toMatch(closed);

        await page.goto(`${baseUrl}/#/home`);
        await settled(page);
        await page.locator('.home-markets .ticker-row').first().waitFor();
        expect(await rowLayoutProblems(page)).toEqual([]);
      });
    }
  }
});
