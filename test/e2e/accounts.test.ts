// End-to-end journeys of the foundation in Chromium at a phone viewport, against the real server.
import { describe, expect, inject, it, onTestFailed } from 'vitest';
import { browserForFile, codeFromOutbox, phonePage, settled } from './browser.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();

describe('accounts in the browser', () => {
  it('registers with the e-mailed code, keeps the session and Korean across a reload, and logs out', async () => {
    const { page } = await phonePage(browser());
    onTestFailed(async () => {
      await page.screenshot({ path: 'test-results/register-journey.png' });
    });
    const email = `e2e-${Date.now()}@example.com`;
    await page.goto(`${baseUrl}/#/login?mode=register`);
    await settled(page);
    await page.getByPlaceholder('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    const code = await codeFromOutbox(dataDir, email);
    await page.getByPlaceholder('Verification code').fill(code);
    await page.getByPlaceholder('Password', { exact: true }).fill('Secret123pass');
    await page.getByPlaceholder('Password again').fill('Secret123pass');
    await page.getByRole('checkbox', { name: 'I have read and accept the user agreement' }).check();
    await page.getByRole('button', { name: 'Register', exact: true }).click();

    await page.waitForURL(/#\/home/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`Welcome, ${email}`);

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'My' }).click();
    await page.waitForURL(/#\/my/);
    await expect.poll(() => page.getByTestId('my-account').textContent()).toBe(email);

    await page.getByText('Language', { exact: true }).first().click();
    await page.getByText('한국어').click();
    await page.getByText('로그아웃').waitFor({ state: 'visible' });

    await page.reload();
    await settled(page);
    await expect.poll(() => page.getByTestId('my-account').textContent()).toBe(email);
    await page.getByText('로그아웃').waitFor({ state: 'visible' });
    expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('ko');

    await page.getByText('로그아웃').click();
    await page.locator('.adm-dialog').getByRole('button', { name: '로그아웃' }).click();
    await page.waitForURL(/#\/home/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.goto(`${baseUrl}/#/my`);
    await page.waitForURL(/#\/login/);
  });

  it('sends a guarded route to /login and back there after logging in', async () => {
    const { page } = await phonePage(browser());
    await page.goto(`${baseUrl}/#/gerenziliao`);
    await page.waitForURL(/#\/login/);
    await settled(page);
    await page.getByPlaceholder('E-mail, mobile or account').fill('demo@bourse.local');
    await page.getByPlaceholder('Password', { exact: true }).fill('Demo2026pass');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(/#\/gerenziliao/);
    await expect.poll(() => page.getByPlaceholder('Surname').inputValue()).toBe('Demo');
  });

  it('gives a new guest an initial password once and lets them in', async () => {
    const { page } = await phonePage(browser());
    await page.goto(`${baseUrl}/#/login?mode=guest`);
    await settled(page);
    await page.getByPlaceholder('Account name').fill(`guest_${Date.now()}`);
    await page.getByRole('button', { name: 'Continue as a guest' }).click();
    const password = await page.getByTestId('initial-password').textContent();
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.waitForURL(/#\/home/);
    await page.goto(`${baseUrl}/#/my`);
    await page.getByText('You are still using the initial password. Please change it.').waitFor({ state: 'visible' });
  });
});
