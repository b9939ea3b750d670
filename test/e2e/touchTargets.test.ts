// Touch targets (issue 19 #14): every button, link, tab and check box a finger can reach on the
// main pages offers at least 44 × 44 CSS px to tap (WCAG 2.5.5, Apple's and Google's guidance).
// The hit area is the element's box or, where a transparent extension makes it larger than it
// looks, the points around its centre that still land on it. Links inside running text are
// allowed (they are as tall as the line). One context per phone size, the demo user logged in
// with a token from the API; each page is a route change, each language one reload.
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SpecClient, tokenOf } from '../conformance/specClient.ts';
import { browserForFile, localizedPage, settled } from './browser.ts';

const baseUrl = inject('baseUrl');
const browser = browserForFile();

/** The main pages and what shows when each is ready. */
const pages = [
  { name: 'home', path: '/home', ready: '.ticker-row' },
  { name: 'market', path: '/hangqing', ready: '.ticker-row' },
  { name: 'kline', path: '/kline?symbol=BTCUSDT', ready: 'canvas' },
  { name: 'contract', path: '/heyue?symbol=BTCUSDT', ready: '.order-form' },
  { name: 'options', path: '/heyue?mode=options', ready: '.options-form, .options-empty' },
  { name: 'demo', path: '/demotrading', ready: '[data-testid="demo-balance"]' },
  { name: 'swap', path: '/shandui', ready: '.swap-form, .swap-empty' },
  { name: 'asset-centre', path: '/zichanCenter', ready: '[data-testid="asset-total-usdt"]' },
  { name: 'deposit', path: '/chongzhi', ready: '[data-testid="deposit-address"]' },
  { name: 'withdraw', path: '/tixian', ready: 'section.withdraw-card' },
  { name: 'records', path: '/chongzhitixianRecord', ready: '.records-empty, li.record-row' },
  { name: 'my', path: '/my', ready: '[data-testid="my-account"]' },
  { name: 'security', path: '/anquanZhongxin', ready: '.security-page' },
] as const;

const minimumPx = 44;

/**
 * The interactive elements of the page whose hit area is under 44 px in either direction, as
 * "what (width×height)". Runs in the page.
 */
function smallTargets(page: Page) {
  return page.evaluate((minimum) => {
    const interactive = 'button, a[href], [role="tab"], [role="button"], input[type="checkbox"], input[type="radio"]';
    const describe = (element: Element, width: number, height: number) => {
      const classes = [...element.classList].slice(0, 3).join('.');
      const name = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30);
      return `${element.tagName.toLowerCase()}${classes ? `.${classes}` : ''} "${name}" ${Math.round(width)}×${Math.round(height)}`;
    };
    /** A link or text button inside a sentence: the rest of its parent's text runs around it. */
    const inRunningText = (element: HTMLElement) => {
      if (!getComputedStyle(element).display.startsWith('inline') || getComputedStyle(element).display === 'inline-flex') return false;
      const parent = element.parentElement;
      if (!parent) return false;
      const around = (parent.textContent ?? '').replace(element.textContent ?? '', '').trim();
      return around.length > 0;
    };
    /** How far from the centre, each way along one axis, a tap still lands on the element. */
    let blocker = '';
    const reach = (element: Element, x: number, y: number, dx: number, dy: number) => {
      let distance = 0;
      for (let step = 1; step <= minimum; step += 1) {
        const hit = document.elementFromPoint(x + dx * step, y + dy * step);
        if (!hit || !element.contains(hit)) {
          // What takes the tap there instead, for the report.
          if (step <= minimum / 2 && hit) blocker = `${hit.tagName.toLowerCase()}.${[...hit.classList].slice(0, 2).join('.')}`;
          break;
        }
        distance = step;
      }
      return distance;
    };
    const seen = new Set<Element>();
    const offenders: string[] = [];
    for (const found of document.querySelectorAll<HTMLElement>(interactive)) {
      // A native check box inside a label is tapped through its label.
      const element = found.matches('input') ? (found.closest('label') ?? found) : found;
      if (seen.has(element)) continue;
      seen.add(element);
      const rect = element.getBoundingClientRect();
      // Not shown (a hidden page kept alive, a closed popup) or only for screen readers.
      if (rect.width < 2 || rect.height < 2 || getComputedStyle(element).visibility === 'hidden') continue;
      if (element.closest('[aria-hidden="true"], .adm-skeleton')) continue;
      if (rect.width >= minimum - 0.5 && rect.height >= minimum - 0.5) continue;
      if (inRunningText(element)) continue;
      // Smaller than it looks may still be large enough to tap: probe around its centre.
      element.scrollIntoView({ block: 'center', inline: 'center' });
      const now = element.getBoundingClientRect();
      blocker = '';
      const x = now.left + now.width / 2;
      const y = now.top + now.height / 2;
      const wide = reach(element, x, y, -1, 0) + reach(element, x, y, 1, 0) + 1;
      const tall = reach(element, x, y, 0, -1) + reach(element, x, y, 0, 1) + 1;
      if (wide >= minimum - 1 && tall >= minimum - 1) continue;
      offenders.push(`${describe(element, Math.max(rect.width, wide), Math.max(rect.height, tall))}${blocker ? ` (under ${blocker})` : ''}`);
    }
    window.scrollTo(0, 0);
    return offenders;
  }, minimumPx);
}

/** The page's content has arrived: no loading rows, skeletons or spinners left. */
async function loaded(page: Page, ready: string) {
  await settled(page);
  await page.locator(ready).first().waitFor({ state: 'visible' });
  await page.waitForFunction(() => !document.querySelector('.loading-row, .adm-skeleton, .adm-dot-loading, .adm-spin-loading'));
}

describe('touch targets on the main pages', () => {
  let token: string;

  for (const width of [390, 320]) {
    it(`are at least 44 × 44 px at ${width} px in English and Spanish`, async () => {
      token ??= tokenOf(await new SpecClient(baseUrl).login('demo@bourse.local', 'Demo2026pass')) ?? '';
      expect(token).not.toBe('');
      const page = await localizedPage(browser(), { width, lang: 'en-us', token });
      const offenders: string[] = [];
      for (const lang of ['en-us', 'xi']) {
        if (lang !== 'en-us') {
          await page.evaluate((value) => localStorage.setItem('lang', value), lang);
          await page.reload();
        }
        for (const { name, path, ready } of pages) {
          await page.goto(`${baseUrl}/#${path}`);
          await loaded(page, ready);
          // The navigation overlay (min 300 ms) may still cover the page while a probe runs: measure again once it is gone.
          let found = await smallTargets(page);
          for (let attempt = 0; attempt < 3 && found.some((offender) => offender.includes('page-loading')); attempt += 1) {
            await settled(page);
            found = await smallTargets(page);
          }
          for (const offender of found) offenders.push(`${lang} ${width} ${name}: ${offender}`);
        }
      }
      expect(offenders).toEqual([]);
    });
  }
});
