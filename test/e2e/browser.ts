// Debian's Chromium driven by playwright-core at a phone viewport, with the flags this machine
// needs (no sandbox as root, no background networking on a closed network).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const phoneViewport = { width: 390, height: 844 };

const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

/** Debian's Chromium with this machine's flags, and `extraArgs` (a fake camera, say). */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs, ...extraArgs] });
}

/** A persistent (non-incognito) profile: Chromium reports installability only outside incognito. */
export async function persistentPhoneContext(): Promise<BrowserContext> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath, viewport: phoneViewport, isMobile: true, hasTouch: true, deviceScaleFactor: 2,
    args: chromiumArgs,
  });
  context.setDefaultTimeout(20_000);
  // A persistent context is a browser of its own: close it with the test, however it ends.
  onTestFinished(() => context.close());
  context.once('close', () => setTimeout(() => fs.rm(profile, { recursive: true, force: true, maxRetries: 5 }, () => undefined), 500));
  return context;
}

/**
 * A phone-sized context and page for the running test, closed when the test finishes (passed
 * or failed).
 */
export async function phonePage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await phoneContext(browser);
  onTestFinished(() => context.close());
  return { context, page: await context.newPage() };
}

export async function phoneContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: phoneViewport, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: 'en-US' });
  context.setDefaultTimeout(20_000);
  return context;
}

/** The newest code the dev outbox holds for `to` (the real delivery path of the server). */
export async function codeFromOutbox(dataDir: string, to: string): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((file) => file.endsWith('.json')).sort().reverse() : [];
    for (const file of files) {
      try {
        const message = JSON.parse(fs.readFileSync(path.join(outbox, file), 'utf8')) as { to: string; code: string };
        if (message.to === to) return message.code;
      } catch {
        // Unreadable for a moment: try again on the next round.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no code in the outbox for ${to}`);
}

/** Waits until the app has rendered a route (the loading overlay is gone). */
export async function settled(page: Page) {
  await page.waitForFunction(() => document.querySelector('#app')?.childElementCount && !document.querySelector('.page-loading'));
}

/** One browser per test file: launched before the file's tests, closed after them. */
export function browserForFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not launched yet');
    return browser;
  };
}

/** Coloured (neither blank nor white) pixels over every canvas of the chart: the chart is drawn. */
export const chartInk = (page: Page) => page.evaluate(() => {
  let ink = 0;
  for (const canvas of document.querySelectorAll<HTMLCanvasElement>('[data-testid="kline-chart"] canvas')) {
    if (canvas.width === 0 || canvas.height === 0) continue;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    for (let index = 0; index < data.length; index += 4) {
      if (data[index + 3] > 0 && (data[index] < 235 || data[index + 1] < 235 || data[index + 2] < 235)) ink += 1;
    }
  }
  return ink;
});

/** A text drawn on a canvas: where (page coordinates of its canvas, canvas coordinates of the text) and how. */
export interface CanvasText {
  text: string;
  font: string;
  /** The text's left edge and top in the canvas's CSS pixels, and its measured width. */
  x: number;
  y: number;
  width: number;
  canvasTop: number;
  canvasLeft: number;
  canvasWidth: number;
  canvasHeight: number;
  /** performance.now() of the drawing. */
  atMs: number;
}

/**
 * Records every text the pages of `context` draw on a canvas (the chart's labels have no DOM):
 * call before the page opens, read with `canvasTexts`. The text's left edge is recorded whatever
 * the alignment, so a label cut at the canvas edge shows as x < 0 or x + width > canvasWidth.
 */
export async function recordCanvasTexts(context: BrowserContext) {
  await context.addInitScript(() => {
    const drawn: unknown[] = [];
    (window as unknown as { __canvasTexts: unknown[] }).__canvasTexts = drawn;
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function record(text: string, x: number, y: number, maxWidth?: number) {
      const box = this.canvas.getBoundingClientRect();
      const width = this.measureText(text).width;
      const left = this.textAlign === 'center' ? x - width / 2 : this.textAlign === 'right' || this.textAlign === 'end' ? x - width : x;
      drawn.push({ text: String(text), font: this.font, x: left, y, width, canvasTop: box.top, canvasLeft: box.left,
        canvasWidth: box.width, canvasHeight: box.height, atMs: performance.now() });
      if (drawn.length > 20_000) drawn.splice(0, 10_000);
      if (maxWidth === undefined) fillText.call(this, text, x, y);
      else fillText.call(this, text, x, y, maxWidth);
    };
  });
}

/** The canvas texts recorded since `sinceMs` (the page's performance.now()). */
export const canvasTexts = (page: Page, sinceMs = 0) => page.evaluate((since) =>
  ((window as unknown as { __canvasTexts?: CanvasText[] }).__canvasTexts ?? []).filter((entry) => entry.atMs >= since), sinceMs);

/**
 * Where a layout can break (issue 20): English at the common 390 px, every other language at the
 * narrowest 320 px. A journey looping over languages × widths skips the other combinations.
 */
export const layoutRun = (lang: string, width: number) => (lang === 'en-us' ? width === 390 : width === 320);

/** Phone heights for the two widths the journeys use. */
const heightFor = (width: number) => (width <= 320 ? 640 : 844);

/**
 * A phone page in one interface language and width, closed when the test finishes; with `token` it
 * starts logged in (spec §4: the localStorage token). Seeded once, so a reload keeps what the app
 * itself stored since.
 */
export async function localizedPage(browser: Browser, { width = phoneViewport.width, lang = 'en-us', token = '' }:
  { width?: number; lang?: string; token?: string } = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: heightFor(width) }, isMobile: true, hasTouch: true, deviceScaleFactor: 2,
  });
  context.setDefaultTimeout(20_000);
  onTestFinished(() => context.close());
  await context.addInitScript(({ lang, token }) => {
    if (sessionStorage.getItem('seeded')) return;
    localStorage.setItem('lang', lang);
    if (token) localStorage.setItem('token', token);
    sessionStorage.setItem('seeded', '1');
  }, { lang, token });
  return context.newPage();
}

/** A box on screen, or a failure naming that it is not there. */
export const box = async (locator: Locator) => {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not on screen');
  return found;
};

/** Logs the seeded demo account in through the login page (in English) and returns the token the app stored. */
export async function demoToken(browser: Browser, baseUrl: string): Promise<string> {
  const context = await phoneContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/#/login`);
    await settled(page);
    await page.getByPlaceholder('E-mail, mobile or account').fill('demo@bourse.local');
    await page.getByPlaceholder('Password', { exact: true }).fill('Demo2026pass');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(/#\/home/);
    await page.waitForFunction(() => Boolean(localStorage.getItem('token')));
    return (await page.evaluate(() => localStorage.getItem('token')))!;
  } finally {
    await context.close();
  }
}

/**
 * What runs off a phone's screen: whether the page scrolls sideways, and up to five elements that
 * stick out past its right or left edge outside any horizontal scroller (tabs, a chart, which may
 * hold wider content) or a loading skeleton. `problems` says it in one line, empty when it fits.
 */
export async function overflowing(page: Page): Promise<{ scrollWidth: number; clientWidth: number; out: string[]; problems: string }> {
  const found = await page.evaluate(() => {
    const limit = document.documentElement.clientWidth + 1;
    const out: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || element.closest('.adm-skeleton')) continue;
      let scroller = element.parentElement;
      let scrolled = false;
      while (scroller && scroller !== document.body) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(scroller).overflowX)) {
          scrolled = true;
          break;
        }
        scroller = scroller.parentElement;
      }
      if (!scrolled && (rect.right > limit || rect.left < -1)) {
        out.push(`${element.tagName.toLowerCase()}.${[...element.classList].join('.')} ${Math.round(rect.left)}..${Math.round(rect.right)}`);
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth, out: out.slice(0, 5) };
  });
  const wide = found.scrollWidth > found.clientWidth;
  const problems = wide || found.out.length > 0
    ? `${wide ? `scrollWidth ${found.scrollWidth} > ${found.clientWidth}; ` : ''}${found.out.join(', ')}` : '';
  return { ...found, problems };
}
