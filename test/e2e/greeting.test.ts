// How the home page greets a user (issue 8, #9): a brand-new account is welcomed, not "welcomed
// back", and a long e-mail stays on one line, cut with an ellipsis, at 390 and 320 px in English,
// Spanish and Korean; after logging in again the user is welcomed back.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserForFile, codeFromOutbox, phonePage, settled } from './browser.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const screenshots = path.resolve(import.meta.dirname, 'screenshots');
fs.mkdirSync(screenshots, { recursive: true });

const languages = [
  { lang: 'en-us', welcome: (name: string) => `Welcome, ${name}`, back: (name: string) => `Welcome back, ${name}` },
  { lang: 'xi', welcome: (name: string) => `Hola, ${name}`, back: (name: string) => `Hola de nuevo, ${name}` },
  { lang: 'ko', welcome: (name: string) => `${name}님, 환영합니다`, back: (name: string) => `${name}님, 다시 오신 것을 환영합니다` },
];

/**
 * The greeting's text and title, whether its text is on one line, whether the name is cut
 * short and whether anything else (the greeting's own words) is.
 */
const greeting = (page: Page) => page.getByRole('heading', { level: 1 }).evaluate((heading) => {
  const range = document.createRange();
  range.selectNodeContents(heading);
  // Text on one line: every piece starts within half a letter of the others.
  const tops = [...range.getClientRects()].map((rect) => rect.top);
  const oneLine = Math.max(...tops) - Math.min(...tops) < parseFloat(getComputedStyle(heading).fontSize) / 2;
  const name = heading.querySelector('span')!;
  return {
    text: heading.textContent, title: heading.getAttribute('title'), oneLine,
    nameCut: name.scrollWidth > name.clientWidth, wordsCut: heading.scrollWidth > heading.clientWidth,
  };
});

async function inLanguage(page: Page, lang: string) {
  await page.evaluate((code) => localStorage.setItem('lang', code), lang);
  await page.reload();
  await settled(page);
}

describe('the greeting on the home page', () => {
  it('welcomes a new account on one line, and welcomes it back after the next login', async () => {
    const { page } = await phonePage(browser());
    const email = `e2e-greeting-a-rather-long-address-${Date.now()}@example-company.com`;
    await page.goto(`${baseUrl}/#/login?mode=register`);
    await settled(page);
    await page.getByPlaceholder('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByPlaceholder('Verification code').fill(await codeFromOutbox(dataDir, email));
    await page.getByPlaceholder('Password', { exact: true }).fill('Secret123pass');
    await page.getByPlaceholder('Password again').fill('Secret123pass');
    await page.getByRole('checkbox', { name: 'I have read and accept the user agreement' }).check();
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.waitForURL(/#\/home/);

    for (const language of languages) {
      await inLanguage(page, language.lang);
      for (const size of [{ width: 390, height: 844 }, { width: 320, height: 640 }]) {
        await page.setViewportSize(size);
        await expect.poll(async () => (await greeting(page)).title).toBe(language.welcome(email));
        const shown = await greeting(page);
        expect(shown.text).toBe(language.welcome(email));
        expect(shown.oneLine).toBe(true);
        expect(shown.nameCut).toBe(true);
        expect(shown.wordsCut).toBe(false);
        await page.screenshot({ path: path.join(screenshots, `greeting-new-${language.lang}-${size.width}.png`) });
      }
    }

    // Log out (through the personal centre) and in again: a returning user.
    await inLanguage(page, 'en-us');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseUrl}/#/my`);
    await expect.poll(() => page.getByTestId('my-account').getAttribute('title')).toBe(email);
    await page.getByText('Log out', { exact: true }).click();
    await page.locator('.adm-dialog').getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/#\/home/);
    await page.goto(`${baseUrl}/#/login`);
    await settled(page);
    await page.getByPlaceholder('E-mail, mobile or account').fill(email);
    await page.getByPlaceholder('Password', { exact: true }).fill('Secret123pass');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(/#\/home/);
    for (const language of languages) {
      await inLanguage(page, language.lang);
      await expect.poll(async () => (await greeting(page)).text).toBe(language.back(email));
    }
  });
});
