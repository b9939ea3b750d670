// Google Authenticator in Chromium (issue 11): bind it in the security centre (the secret read off
// the page, the code computed as an authenticator app would), see the recovery codes once, then
// log in from a fresh browser with the password and a code. Screenshots at 390 px.
import fs from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { base32Decode, totp } from '../conformance/adminClient.ts';
import { browserForFile, codeFromOutbox, localizedPage, overflowing, settled } from './browser.ts';
import { newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const shots = 'test-results/two-factor';

describe('Google Authenticator', () => {
  it('binds in the security centre, then logs in with password and code', async () => {
    fs.mkdirSync(shots, { recursive: true });
    const account = await newAccount(baseUrl, dataDir, 'e2e-2fa');
    const page = await localizedPage(browser(), { token: account.token });
    await page.goto(`${baseUrl}/#/anquanZhongxin`);
    await settled(page);
    await page.getByRole('button', { name: 'Bind Google Authenticator' }).click();
    const secretText = page.getByTestId('google-secret');
    await secretText.waitFor();
    const secret = (await secretText.textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await expect.poll(() => page.locator('canvas.address-qr').getAttribute('data-state')).toBe('drawn');
    expect((await overflowing(page)).problems).toBe('');
    await page.screenshot({ path: `${shots}/bind-en-us-390.png`, fullPage: true });

    await page.locator('input[aria-label="Code from the app"]').fill(totp(base32Decode(secret), Date.now()));
    await page.getByRole('button', { name: 'Confirm and bind' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    const done = page.getByRole('button', { name: 'Done' });
    expect(await done.isDisabled()).toBe(true);
    await page.screenshot({ path: `${shots}/recovery-codes-en-us-390.png`, fullPage: true });
    const recoveryCodes = (await codes.allTextContents()).map((text) => text.trim());
    await page.getByText('I have saved them').click();
    await done.click();
    await page.getByText(/^Bound since /).waitFor();
    await page.screenshot({ path: `${shots}/bound-en-us-390.png`, fullPage: true });

    // A fresh browser: the password, then the code (one step ahead: the binding used this step).
    const login = await localizedPage(browser());
    await login.goto(`${baseUrl}/#/login`);
    await settled(login);
    await login.getByPlaceholder('E-mail, mobile or account').first().fill(account.email);
    await login.locator('input[type="password"]').first().fill(account.password);
    await login.getByRole('button', { name: 'Log in', exact: true }).first().click();
    const codeInput = login.locator('input[aria-label="Google Authenticator code"]');
    await codeInput.waitFor();
    await login.screenshot({ path: `${shots}/login-code-en-us-390.png`, fullPage: true });
    await codeInput.fill(totp(base32Decode(secret), Date.now() + 30_000));
    await login.getByRole('button', { name: 'Log in', exact: true }).first().click();
    await login.waitForURL(/#\/home/);
    expect(await login.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

    // Another fresh browser logs in by e-mail code: the mailbox alone is not enough (issue 18), the
    // same second step asks for the authenticator (here a recovery code: both steps' codes are used).
    const byMail = await localizedPage(browser());
    await byMail.goto(`${baseUrl}/#/login`);
    await settled(byMail);
    await byMail.getByRole('tab', { name: 'E-mail code' }).click();
    await byMail.getByPlaceholder('E-mail', { exact: true }).filter({ visible: true }).fill(account.email);
    await byMail.getByRole('button', { name: 'Send code' }).filter({ visible: true }).click();
    await byMail.getByRole('status').filter({ hasText: 'Code sent to' }).filter({ visible: true }).waitFor();
    await byMail.getByPlaceholder('Verification code').filter({ visible: true }).fill(await codeFromOutbox(dataDir, account.email));
    await byMail.getByRole('button', { name: 'Log in', exact: true }).filter({ visible: true }).click();
    await byMail.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    expect(await byMail.evaluate(() => localStorage.getItem('token'))).toBeFalsy();
    expect(await byMail.getByRole('tab', { name: 'E-mail code' }).count()).toBe(0);
    await byMail.screenshot({ path: `${shots}/email-code-second-step-en-us-390.png`, fullPage: true });
    await byMail.getByRole('button', { name: 'Use a recovery code' }).click();
    await byMail.locator('input[aria-label="Recovery code"]').fill(recoveryCodes[0]);
    await byMail.getByRole('button', { name: 'Log in', exact: true }).click();
    await byMail.waitForURL(/#\/home/);
    expect(await byMail.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  });
});
