// End-to-end journeys of the chart page (/kline) in Chromium against the real server (issue 8):
// the legend sits above the candles and every label the chart draws is in the user's language
// and font, indicators are spelled with a sensible precision (no "0.0{3}6"), no time label is
// cut, the full-screen mode turns with the phone and leaves by its button, Escape and back, the
// candles of a chart seen before are shown offline with their age, and a long-period candle
// contains the 24 h high and low. Canvas texts are read as they are drawn (recordCanvasTexts).
import { describe, expect, inject, it, onTestFailed, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import {
  browserForFile, canvasTexts, chartInk, recordCanvasTexts, settled, type CanvasText, layoutRun } from './browser.ts';

const baseUrl = inject('baseUrl');
const browser = browserForFile();

type Lang = 'en-us' | 'xi' | 'ko';

/** What each language shows (its catalog), and how it writes 67,250.10. */
const texts: Record<Lang, { vol: string; fullscreen: string; exit: string; price: RegExp }> = {
  'en-us': { vol: 'Vol', fullscreen: 'Full screen chart', exit: 'Exit full screen', price: /^\d{1,3}(,\d{3})*\.\d{2}$/ },
  xi: { vol: 'Vol.', fullscreen: 'Gráfico a pantalla completa', exit: 'Salir de pantalla completa', price: /^\d{1,3}(\.\d{3})*,\d{2}$/ },
  ko: { vol: '거래량', fullscreen: '차트 전체 화면', exit: '전체 화면 종료', price: /^\d{1,3}(,\d{3})*\.\d{2}$/ },
};

const heightOf = { 390: 844, 320: 640 } as const;

async function openChart(width: 390 | 320, lang: Lang, path: string): Promise<Page> {
  const context = await browser().newContext({
    viewport: { width, height: heightOf[width] }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: 'en-US',
  });
  context.setDefaultTimeout(20_000);
  await context.addInitScript((code) => localStorage.setItem('lang', code), lang);
  await recordCanvasTexts(context);
  const page = await context.newPage();
  onTestFailed(async () => {
    await page.screenshot({ path: `test-results/kline-${lang}-${width}.png` });
  });
  onTestFinished(() => context.close());
  await page.goto(`${baseUrl}/#${path}`);
  await settled(page);
  await expect.poll(() => chartInk(page), { timeout: 15_000 }).toBeGreaterThan(2_000);
  return page;
}

/** Number of decimals of a label such as "-0.00080" or "48,00". */
const decimalsOf = (label: string) => /[.,](\d+)$/.exec(label)?.[1].length ?? 0;

/** The labels drawn on the price axis of the pane whose legend starts with `legendTitle`, in the newest drawing. */
function axisLabelsOfPane(drawn: CanvasText[], legendTitle: string): string[] {
  const title = drawn.findLast((entry) => entry.text === legendTitle && entry.canvasLeft === 0);
  if (!title) return [];
  const axis = drawn.filter((entry) => entry.canvasTop === title.canvasTop && entry.canvasLeft > 0 && /\d/.test(entry.text));
  const newest = axis.at(-1)?.atMs ?? 0;
  // One drawing of the axis: the labels drawn within a few ms of the newest one.
  return axis.filter((entry) => newest - entry.atMs < 5 && entry.y > 0).map((entry) => entry.text);
}

const chartBox = async (page: Page) => (await page.getByTestId('kline-chart').boundingBox())!;

describe('the chart page (/kline)', () => {
  for (const width of [390, 320] as const) {
    for (const lang of ['en-us', 'xi', 'ko'] as const) {
      if (!layoutRun(lang, width)) continue;
      it(`keeps its legend off the candles, in ${lang} and the page's font, at ${width} px, and goes full screen`, async () => {
        const text = texts[lang];
        const page = await openChart(width, lang, '/kline?symbol=BTCUSDT&period=15m');
        await page.getByRole('button', { name: /^MACD:/ }).click();
        await page.getByRole('button', { name: /^RSI:/ }).click();
        await expect.poll(async () => (await canvasTexts(page)).some((entry) => entry.text === 'RSI6 ')).toBe(true);
        await page.waitForTimeout(1_500); // a live candle redraws every pane with both indicators in place

        // The legend is a strip above the chart: nothing of it lies over the candles.
        const legend = page.getByTestId('kline-legend');
        const legendBox = (await legend.boundingBox())!;
        expect(legendBox.y + legendBox.height).toBeLessThanOrEqual((await chartBox(page)).y + 0.5);
        // Compact: a row of prices and a row of averages at 390 px, twice two below 360 px.
        expect(legendBox.height).toBeLessThanOrEqual(width === 390 ? 44 : 76);
        for (const field of ['open', 'high', 'low', 'close']) {
          expect(await legend.locator(`[data-field="${field}"] dd`).textContent()).toMatch(text.price);
        }

        const drawn = await canvasTexts(page);
        const bodyFont = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
        expect(drawn.length).toBeGreaterThan(20);
        for (const entry of drawn) {
          // The page's font everywhere (not 'Helvetica Neue', which falls back to a serif), no
          // klinecharts label left in English, no folded decimals.
          expect(entry.font.endsWith(bodyFont), `${entry.text}: ${entry.font}`).toBe(true);
          expect(entry.text).not.toMatch(/VOLUME|Time|Open|High|Low|Close|n\/a|[{}]/);
        }
        expect(drawn.some((entry) => entry.text === `${text.vol} `)).toBe(true);
        // Nothing but price marks is written inside the candle pane (the topmost canvas at the left).
        const candleTop = Math.min(...drawn.filter((entry) => entry.canvasLeft === 0).map((entry) => entry.canvasTop));
        const inCandles = drawn.filter((entry) => entry.canvasLeft === 0 && entry.canvasTop === candleTop);
        for (const entry of inCandles) expect(entry.text).toMatch(/^[\d.,]+$/);
        // No time label is cut at the edge of the time axis (the lowest canvas at the left).
        const axisTop = Math.max(...drawn.filter((entry) => entry.canvasLeft === 0).map((entry) => entry.canvasTop));
        const timeLabels = drawn.filter((entry) => entry.canvasLeft === 0 && entry.canvasTop === axisTop);
        expect(timeLabels.length).toBeGreaterThan(0);
        for (const label of timeLabels) {
          expect(label.x, label.text).toBeGreaterThanOrEqual(0);
          expect(label.x + label.width, label.text).toBeLessThanOrEqual(label.canvasWidth + 0.5);
        }
        // BTC's MACD is in the hundreds: whole numbers on its axis; RSI with two decimals.
        const macdAxis = axisLabelsOfPane(drawn, 'MACD ');
        expect(macdAxis.length).toBeGreaterThan(1);
        for (const label of macdAxis) expect(decimalsOf(label), label).toBeLessThanOrEqual(2);
        const rsiAxis = axisLabelsOfPane(drawn, 'RSI6 ');
        expect(rsiAxis.length).toBeGreaterThan(1);
        for (const label of rsiAxis) expect(decimalsOf(label), label).toBe(2);

        await page.screenshot({ path: `test/e2e/screenshots/kline-${lang}-${width}.png` });
        // Full screen: the chart area covers the screen and the chart grows; turned sideways it
        // takes the width; Escape leaves, and so does back.
        const before = await chartBox(page);
        await page.getByRole('button', { name: text.fullscreen }).click();
        await page.waitForURL(/view=full/);
        const area = page.locator('.kline-area-full');
        await expect.poll(async () => (await area.boundingBox())?.height).toBe(heightOf[width]);
        await expect.poll(async () => (await chartBox(page)).height).toBeGreaterThan(before.height);
        await page.setViewportSize({ width: heightOf[width], height: width });
        await expect.poll(async () => (await chartBox(page)).width).toBe(heightOf[width]);
        await expect.poll(() => chartInk(page)).toBeGreaterThan(2_000);
        await page.screenshot({ path: `test/e2e/screenshots/kline-${lang}-${width}-landscape.png` });
        await page.keyboard.press('Escape');
        await expect.poll(() => page.locator('.kline-area-full').count()).toBe(0);
        expect(page.url()).not.toContain('view=full');
        await page.setViewportSize({ width, height: heightOf[width] });
        await page.getByRole('button', { name: text.fullscreen }).click();
        await page.getByRole('button', { name: text.exit }).waitFor();
        await page.goBack();
        await expect.poll(() => page.locator('.kline-area-full').count()).toBe(0);
        await page.getByRole('button', { name: text.fullscreen }).waitFor();
      });
    }
  }

  it("spells DOGE's MACD in plain digits with a precision that shows its values", async () => {
    const page = await openChart(390, 'en-us', '/kline?symbol=DOGEUSDT&period=1h');
    await page.getByRole('button', { name: /^MACD:/ }).click();
    await expect.poll(async () => axisLabelsOfPane(await canvasTexts(page), 'MACD ').length).toBeGreaterThan(1);
    await page.waitForTimeout(1_500);
    const drawn = await canvasTexts(page);
    const axis = axisLabelsOfPane(drawn, 'MACD ');
    for (const label of axis) {
      expect(label).toMatch(/^-?\d+\.\d+$/);
      // Enough decimals that the labels differ, not the 20 a float would print.
      expect(decimalsOf(label), label).toBeGreaterThanOrEqual(3);
      expect(decimalsOf(label), label).toBeLessThanOrEqual(8);
    }
    expect(new Set(axis).size).toBe(axis.length);
    // The legend's value is drawn right after its title.
    const difValue = drawn[drawn.findLastIndex((entry) => entry.text === 'DIF ') + 1];
    expect(difValue?.text).toMatch(/^-?0\.\d{3,8}$/);
    expect(Number(difValue!.text)).not.toBe(0);
  });

  it('shows the candles of a chart seen before when offline, with their age', async () => {
    const page = await openChart(390, 'en-us', '/kline?symbol=BTCUSDT&period=1h');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The first visit is not controlled yet; a reload puts the page under the worker.
    await page.reload();
    await settled(page);
    await expect.poll(() => chartInk(page), { timeout: 15_000 }).toBeGreaterThan(2_000);
    const openPrice = page.getByTestId('kline-legend').locator('[data-field="open"] dd');
    await expect.poll(() => openPrice.textContent()).toMatch(texts['en-us'].price);
    const online = await openPrice.textContent();
    // The chart's newest page is on the device.
    await expect.poll(() => page.evaluate(() => new Promise<number>((resolve) => {
      const open = indexedDB.open('bourse-candles');
      open.onsuccess = () => {
        const read = open.result.transaction('candles').objectStore('candles').get('BTCUSDT|1h');
        read.onsuccess = () => resolve((read.result as { candles?: unknown[] } | undefined)?.candles?.length ?? 0);
        read.onerror = () => resolve(0);
      };
      open.onerror = () => resolve(0);
    }))).toBeGreaterThan(100);

    await page.context().setOffline(true);
    await page.reload();
    await settled(page);
    const note = page.getByTestId('kline-kept-note');
    await expect.poll(() => note.textContent(), { timeout: 15_000 })
      .toMatch(/^Offline\. Candles updated (now|\d+ (sec|min|hr)\. ago)\.$/);
    expect(await note.textContent()).not.toMatch(/\d:\d\d/);
    await expect.poll(() => chartInk(page), { timeout: 15_000 }).toBeGreaterThan(2_000);
    expect(await page.getByRole('alert').filter({ hasText: 'could not be loaded' }).count()).toBe(0);
    // The candle that was newest online is the newest one shown (a 1 h candle stays open long).
    await expect.poll(() => openPrice.textContent()).toBe(online);

    // Back online, the chart loads again and the note goes.
    await page.context().setOffline(false);
    await expect.poll(() => note.count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => chartInk(page)).toBeGreaterThan(2_000);
  });

  it('lets the installed app turn sideways for the chart (manifest orientation)', async () => {
    const manifest = await (await fetch(`${baseUrl}/manifest.webmanifest`)).json() as { orientation?: string };
    expect(manifest.orientation).toBe('any');
  });

  it("has a current week candle whose range contains the 24 h high and low (issue 8 #1)", async () => {
    const page = await openChart(390, 'en-us', '/kline?symbol=BTCUSDT&period=1d');
    const asNumber = (label: string | null) => Number((label ?? '').replace(/,/g, ''));
    const figure = (name: string) => page.locator('.kline-figures div').filter({ has: page.getByText(name, { exact: true }) }).locator('dd');
    // The header first: the week's high can only rise (and its low fall) after it is read.
    const high24h = asNumber(await figure('24h high').textContent());
    const low24h = asNumber(await figure('24h low').textContent());
    expect(high24h).toBeGreaterThan(0);

    const weekLoad = page.waitForResponse((response) => response.url().includes('/api/trade/appSymbol/kline')
      && response.url().includes('period=1w') && response.url().includes('limit=300'));
    await page.getByRole('radio', { name: '1 week' }).click();
    const weeks = (await (await weekLoad).json() as { result: { candles: Array<{ time: number; open: string; high: string; low: string }> } }).result.candles;
    await expect.poll(() => chartInk(page), { timeout: 15_000 }).toBeGreaterThan(2_000);
    const legend = page.getByTestId('kline-legend');
    // The old day chart keeps its ink (and its legend) until the week candles are drawn: read the
    // legend only once it shows the current week candle, whose open never changes.
    await expect.poll(async () => asNumber(await legend.locator('[data-field="open"] dd').textContent()), { timeout: 15_000 })
      .toBe(Number(weeks.at(-1)!.open));
    const weekHigh = asNumber(await legend.locator('[data-field="high"] dd').textContent());
    const weekLow = asNumber(await legend.locator('[data-field="low"] dd').textContent());

    // The last 24 h lie in the current week unless the week began less than 24 h ago: then the
    // previous week's candle holds the rest of them.
    const [previous, current] = weeks.slice(-2);
    const serverNow = await page.evaluate(async () => (await (await fetch('/api/public/getTicketList')).json() as { timestamp: number }).timestamp);
    const foldPrevious = serverNow - current.time < 24 * 3600_000;
    const high = foldPrevious ? Math.max(weekHigh, Number(previous.high)) : weekHigh;
    const low = foldPrevious ? Math.min(weekLow, Number(previous.low)) : weekLow;
    expect(high).toBeGreaterThanOrEqual(high24h);
    expect(low).toBeLessThanOrEqual(low24h);
  });
});
