// Sessions and devices in Chromium (issue 11): one account logged in through the real login page in
// two browsers (each a phone of its own, told apart by its user agent). The first lists both
// sessions in the security centre and marks itself "This device"; it ends the other one after a
// confirmation, and that browser's next navigation lands on the login page with its token gone
// (the server refuses the token too). Then a third browser logs in and "End all other sessions"
// does the same to it. The login history lists every login with its device and method.
// Screenshots at 390 px.
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { SpecClient } from '../conformance/specClient.ts';
import { browserForFile, localizedPage, overflowing, settled } from './browser.ts';
import { newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const shots = 'test-results/sessions';

/** Three phones, as the server names them from their user agents (server/domain/core/identity/sessionDevices.ts). */
const phones = {
  chrome: { device: 'Chrome on Android', userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36' },
  firefox: { device: 'Firefox on Android', userAgent: 'Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0' },
  samsung: { device: 'Samsung Internet on Android', userAgent: 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36' },
};

/** A fresh phone browser that logs the account in through the login page; returns the page on /#/home. */
async function loginAs(phone: { userAgent: string }, account: { email: string; password: string }): Promise<Page> {
  const page = await localizedPage(browser());
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setUserAgentOverride', { userAgent: phone.userAgent });
  await page.goto(`${baseUrl}/#/login`);
  await settled(page);
  await page.getByPlaceholder('E-mail, mobile or account').first().fill(account.email);
  await page.locator('input[type="password"]').first().fill(account.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).first().click();
  await page.waitForURL(/#\/home/);
  await page.waitForFunction(() => Boolean(localStorage.getItem('token')));
  return page;
}

/** Waits until the confirmation dialog has finished fading in (antd-mobile animates it), for its screenshot. */
const dialogShown = (page: Page) => expect.poll(() => page.evaluate(() => [...document.querySelectorAll<HTMLElement>(
  '.adm-dialog .adm-mask, .adm-dialog .adm-center-popup-wrap > div')].map((element) => getComputedStyle(element).opacity).join())).toBe('1,1');

const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

/** The security centre's session rows: device name (with its badge) and the method line. */
const sessionRows = (page: Page) => page.getByRole('list', { name: 'Active sessions' }).locator('.sessions-item');
const deviceNames = (page: Page) => sessionRows(page).locator('.sessions-item-name').allTextContents();

/** The browser's next in-app navigation (the My tab) finds its session ended: login page saying so, no token. */
async function expectLoggedOut(page: Page) {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'My' }).click();
  await page.waitForURL(/#\/login/);
  await expect.poll(() => tokenOf(page)).toBeNull();
  expect(await page.getByTestId('session-ended').textContent()).toContain('Your session has ended');
}

/** Whether the server still takes a token (the user info call). */
async function serverTakes(token: string) {
  const answer = await new SpecClient(baseUrl).myUserInfo(token);
  return answer.envelope?.code === 200;
}

describe('sessions and devices', () => {
  it('lists the sessions, ends one, then all the others, and shows the login history', async () => {
    fs.mkdirSync(shots, { recursive: true });
    const account = await newAccount(baseUrl, dataDir, 'e2e-sessions');
    // Registering opened a session of its own (over the API): closed, so only the browsers' remain.
    await new SpecClient(baseUrl).logout(account.token);

    const phoneA = await loginAs(phones.chrome, account);
    const phoneB = await loginAs(phones.firefox, account);
    const tokenB = (await tokenOf(phoneB))!;
    expect(await serverTakes(tokenB)).toBe(true);

    // A's security centre: both sessions, A's own marked and not endable.
    await phoneA.goto(`${baseUrl}/#/anquanZhongxin`);
    await settled(phoneA);
    await expect.poll(() => deviceNames(phoneA)).toHaveLength(2);
    expect((await deviceNames(phoneA)).sort()).toEqual([`${phones.chrome.device}This device`, phones.firefox.device]);
    const rowA = sessionRows(phoneA).filter({ hasText: 'This device' });
    const rowB = sessionRows(phoneA).filter({ hasText: phones.firefox.device });
    expect(await rowA.getByRole('button').count()).toBe(0);
    expect(await rowA.getByText(/^Logged in with /).textContent()).toMatch(/^Logged in with Password on [A-Z][a-z]{2}\s\d{1,2},\s\d{4},\s\d{1,2}:\d{2}:\d{2}\s[AP]M/);
    expect(await rowB.getByText(/^Logged in with /).textContent()).toMatch(/^Logged in with Password on /);
    await rowA.scrollIntoViewIfNeeded();
    expect((await overflowing(phoneA)).problems).toBe('');
    await phoneA.screenshot({ path: `${shots}/two-sessions-en-us-390.png`, fullPage: true });

    // A ends B's session after confirming.
    await phoneA.getByRole('button', { name: `End the session on ${phones.firefox.device}` }).click();
    const dialog = phoneA.getByRole('dialog');
    await dialog.getByText(`End the session on ${phones.firefox.device}?`).waitFor();
    await dialogShown(phoneA);
    await phoneA.screenshot({ path: `${shots}/end-one-confirm-en-us-390.png` });
    await dialog.getByRole('button', { name: 'End', exact: true }).click();
    await phoneA.locator('.sessions-notice').filter({ hasText: 'Session ended' }).waitFor();
    await expect.poll(() => deviceNames(phoneA)).toEqual([`${phones.chrome.device}This device`]);
    // Nothing else to end: the "end all" button is gone.
    expect(await phoneA.getByRole('button', { name: 'End all other sessions' }).count()).toBe(0);
    await phoneA.screenshot({ path: `${shots}/one-ended-en-us-390.png`, fullPage: true });

    // B: the server refuses its token, and its next navigation lands on the login page.
    expect(await serverTakes(tokenB)).toBe(false);
    await expectLoggedOut(phoneB);
    await phoneB.screenshot({ path: `${shots}/ended-device-login-en-us-390.png`, fullPage: true });

    // A third phone logs in; A ends all the other sessions at once.
    const phoneC = await loginAs(phones.samsung, account);
    const tokenC = (await tokenOf(phoneC))!;
    await phoneA.reload();
    await settled(phoneA);
    await expect.poll(() => deviceNames(phoneA)).toHaveLength(2);
    expect((await deviceNames(phoneA)).sort()).toEqual([`${phones.chrome.device}This device`, phones.samsung.device]);
    await phoneA.getByRole('button', { name: 'End all other sessions' }).click();
    await dialog.getByText('End all other sessions?').waitFor();
    await dialogShown(phoneA);
    await phoneA.screenshot({ path: `${shots}/end-all-confirm-en-us-390.png` });
    await dialog.getByRole('button', { name: 'End all', exact: true }).click();
    await phoneA.locator('.sessions-notice').filter({ hasText: 'Sessions ended: 1' }).waitFor();
    await expect.poll(() => deviceNames(phoneA)).toEqual([`${phones.chrome.device}This device`]);
    expect(await serverTakes(tokenC)).toBe(false);
    expect(await serverTakes((await tokenOf(phoneA))!)).toBe(true);
    await expectLoggedOut(phoneC);

    // The login history, newest first: the three logins by password, then the registration.
    await phoneA.reload();
    await settled(phoneA);
    const history = phoneA.getByRole('list', { name: 'Login history' }).locator('.sessions-item');
    await expect.poll(() => history.count()).toBe(4);
    const lines = await history.evaluateAll((items) => items.map((item) => [
      item.querySelector('.sessions-item-name')?.firstChild?.textContent,
      item.querySelector('.sessions-item-meta')?.textContent?.replace(/^.* · /, ''),
      item.querySelector('.sessions-result')?.textContent,
    ]));
    expect(lines).toEqual([
      [phones.samsung.device, 'Password', 'Succeeded'],
      [phones.firefox.device, 'Password', 'Succeeded'],
      [phones.chrome.device, 'Password', 'Succeeded'],
      ['Unknown device', 'Registration', 'Succeeded'],
    ]);
    await phoneA.getByRole('heading', { name: 'Login history' }).scrollIntoViewIfNeeded();
    expect((await overflowing(phoneA)).problems).toBe('');
    await phoneA.screenshot({ path: `${shots}/history-en-us-390.png`, fullPage: true });
  });
});
