// The install card of the home page as a logged-out visitor sees it (lib/install.ts): not at first
// sight; from the second visit (a new tab) or a minute into the first; in the page's flow, never
// over the greeting's buttons, the shortcuts or the tab bar; gone for good after "Not now"; on
// iOS, which has no install prompt, the Share → Add to Home Screen steps; never in the installed
// app. Chromium's own install offer (beforeinstallprompt) is real: it is made only outside
// incognito, hence the persistent profiles.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { devices, type Page } from 'playwright-core';
import { browserForFile, persistentPhoneContext, settled, layoutRun } from './browser.ts';

const baseUrl = inject('baseUrl');
const browser = browserForFile();
const screenshots = path.resolve(import.meta.dirname, 'screenshots');
fs.mkdirSync(screenshots, { recursive: true });

const sizes = [{ width: 390, height: 844 }, { width: 320, height: 640 }];
const languages = [
  { lang: 'en-us', title: 'Install Bourse', install: 'Install', later: 'Not now', steps: 'Tap Share, then “Add to Home Screen”.' },
  { lang: 'xi', title: 'Instala Bourse', install: 'Instalar', later: 'Ahora no', steps: 'Toca Compartir y luego «Añadir a pantalla de inicio».' },
  { lang: 'ko', title: 'Bourse 설치', install: '설치', later: '나중에', steps: '공유를 탭한 다음 ‘홈 화면에 추가’를 선택하세요.' },
];

/** The language a first visit starts in (what the language picker stores), set before the app runs. */
const chooseLanguage = (lang: string) => {
  if (!localStorage.getItem('lang')) localStorage.setItem('lang', lang);
};

/**
 * Opens home and waits until the install card has had its say: its code loaded, this visit
 * counted, and the network quiet (the card's texts would have been fetched by then).
 */
async function openHome(page: Page) {
  const cardCode = page.waitForRequest(/\/assets\/InstallOffer-[\w-]+\.js$/);
  await page.goto(`${baseUrl}/#/home`);
  await settled(page);
  await cardCode;
  await page.waitForFunction(() => sessionStorage.getItem('installVisitStartedAt') !== null);
  await page.waitForLoadState('networkidle');
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The card sits between the greeting and the shortcuts, inside the screen, and covers no control. */
async function expectInFlow(page: Page, title: string) {
  const card = (await page.getByRole('region', { name: title }).boundingBox())!;
  const hero = (await page.locator('.home-hero').boundingBox())!;
  const shortcuts = (await page.locator('.home-shortcuts').boundingBox())!;
  const tabs = (await page.locator('.layout-tabs').boundingBox())!;
  expect(card.y).toBeGreaterThanOrEqual(hero.y + hero.height);
  expect(card.y + card.height).toBeLessThanOrEqual(shortcuts.y);
  expect(card.x + card.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  expect(overlaps(card, tabs)).toBe(false);
  for (const button of await page.locator('.home-hero button, .home-shortcuts button').all()) {
    expect(overlaps(card, (await button.boundingBox())!)).toBe(false);
  }
}

describe('the install card in Chromium', () => {
  for (const size of sizes) {
    for (const language of languages) {
      if (!layoutRun(language.lang, size.width)) continue;
      it(`appears on the second visit and stays away after "Not now" (${language.lang}, ${size.width} px)`, async () => {
        const context = await persistentPhoneContext();
        await context.addInitScript(chooseLanguage, language.lang);
        const first = context.pages()[0] ?? await context.newPage();
        await first.setViewportSize(size);
        await openHome(first);
        expect(await first.getByRole('region', { name: language.title }).count()).toBe(0);
        await first.close();

        const second = await context.newPage();
        await second.setViewportSize(size);
        await second.goto(`${baseUrl}/#/home`);
        const card = second.getByRole('region', { name: language.title });
        await card.waitFor({ state: 'visible' });
        await card.getByRole('button', { name: language.install, exact: true }).waitFor({ state: 'visible' });
        await expectInFlow(second, language.title);
        await second.screenshot({ path: path.join(screenshots, `install-offer-${language.lang}-${size.width}.png`) });

        await card.getByRole('button', { name: language.later }).click();
        await card.waitFor({ state: 'detached' });
        expect(Number(await second.evaluate(() => localStorage.getItem('installDismissedAt')))).toBeGreaterThan(0);
        await second.close();

        const third = await context.newPage();
        await third.setViewportSize(size);
        await openHome(third);
        expect(await third.getByRole('region', { name: language.title }).count()).toBe(0);
      });
    }
  }
});

describe('the install card on an iPhone', () => {
  for (const language of languages) {
    it(`shows the Share steps a minute into the first visit (${language.lang}, ${language.lang === 'en-us' ? 390 : 320} px)`, async () => {
      for (const size of sizes) {
        if (!layoutRun(language.lang, size.width)) continue;
        const context = await browser().newContext({ ...devices['iPhone 13'], viewport: size });
        context.setDefaultTimeout(20_000);
        try {
          await context.addInitScript(chooseLanguage, language.lang);
          const page = await context.newPage();
          await page.clock.install();
          await openHome(page);
          const card = page.getByRole('region', { name: language.title });
          expect(await card.count()).toBe(0);
          await page.clock.fastForward(60_000);
          await card.waitFor({ state: 'visible' });
          expect(await card.getByText(language.steps).count()).toBe(1);
          // No prompt to press on iOS: the steps are the offer.
          expect(await card.getByRole('button', { name: language.install, exact: true }).count()).toBe(0);
          await expectInFlow(page, language.title);
          await page.screenshot({ path: path.join(screenshots, `install-ios-${language.lang}-${size.width}.png`) });
        } finally {
          await context.close();
        }
      }
    });
  }

  it('offers nothing in the app opened from the home screen', async () => {
    const context = await browser().newContext({ ...devices['iPhone 13'], viewport: sizes[0] });
    context.setDefaultTimeout(20_000);
    try {
      // What iOS says to a page opened from its home-screen icon.
      await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'standalone', { get: () => true }));
      await context.addInitScript(() => localStorage.setItem('installVisits', '5'));
      const page = await context.newPage();
      await openHome(page);
      expect(await page.getByRole('region', { name: 'Install Bourse' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
