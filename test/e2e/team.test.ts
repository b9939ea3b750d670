// Team invitation on a 390 px phone in Chromium against the real server (issue 23). An inviter
// opens /#/tuanduiYaoqing and reads their code, link and QR code with an empty team; a friend
// opens the link in another browser, finds the register form with the code filled in and
// registers; the friend deposits (the demo operator approves the deposit through the admin API);
// back on the inviter's page, pulled fresh, the team shows one member at level 1, new today and
// deposited. A short link made on the page leads to the same register form.
import { describe, expect, inject, it } from 'vitest';
import { SpecClient } from '../conformance/specClient.ts';
import { codeFromOutbox, localizedPage, overflowing, settled } from './browser.ts';
import { browserForFile } from './browser.ts';
import { fundAccount, newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const client = new SpecClient(baseUrl);

describe('team invitation on the phone', () => {
  it('invites a friend by link: the friend registers through it and deposits, and the team page shows them', async () => {
    const inviter = await newAccount(baseUrl, dataDir, 'team');
    const phone = await localizedPage(browser(), { token: inviter.token });
    await phone.goto(`${baseUrl}/#/tuanduiYaoqing`);
    await settled(phone);
    await phone.getByRole('heading', { name: 'Invite friends' }).waitFor();
    const code = (await phone.getByTestId('team-code').textContent())!;
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    const link = (await phone.getByTestId('team-link').textContent())!;
    expect(link).toBe(`${baseUrl}/#/login?mode=register&inviteCode=${code}`);
    await expect.poll(() => phone.getByRole('img', { name: 'QR code of your invitation link' }).getAttribute('data-state')).toBe('drawn');
    expect(await phone.getByTestId('team-size').textContent()).toBe('0');
    expect(await phone.getByTestId('team-rates').textContent()).toContain('20 % of level 1');
    expect((await overflowing(phone)).problems, 'team page at 390 px').toBe('');

    // The friend opens the link in a browser of their own: the form has the code already.
    const friendPage = await localizedPage(browser());
    await friendPage.goto(link);
    await settled(friendPage);
    const codeField = friendPage.getByLabel('Invitation code (optional)');
    await expect.poll(() => codeField.inputValue()).toBe(code);
    const email = `team-friend-${Date.now()}@example.com`;
    await friendPage.getByPlaceholder('E-mail').fill(email);
    await friendPage.getByRole('button', { name: 'Send code' }).click();
    await friendPage.getByPlaceholder('Verification code').fill(await codeFromOutbox(dataDir, email));
    await friendPage.getByPlaceholder('Password', { exact: true }).fill('Secret123pass');
    await friendPage.getByPlaceholder('Password again').fill('Secret123pass');
    await friendPage.getByRole('checkbox', { name: 'I have read and accept the user agreement' }).check();
    await friendPage.getByRole('button', { name: 'Register', exact: true }).click();
    await friendPage.waitForURL(/#\/home/);
    const friendToken = await friendPage.evaluate(() => localStorage.getItem('token'));
    expect(friendToken).toBeTruthy();
    await fundAccount(baseUrl, friendToken!, '100');

    // The inviter's page, refreshed, counts the friend: level 1, new today, deposited.
    await phone.reload();
    await settled(phone);
    await expect.poll(() => phone.getByTestId('team-size').textContent(), { timeout: 20_000 }).toBe('1');
    expect(await phone.getByTestId('team-new-today').textContent()).toBe('1');
    expect(await phone.getByTestId('team-deposited').textContent()).toBe('1');
    const level1 = phone.getByTestId('team-level-1');
    expect(await level1.locator('td').allTextContents()).toEqual(['1', '1', '1', '20\u00a0%']);

    // A short link, made on the page, opens the same register form and is counted.
    await phone.getByRole('button', { name: 'Make a short link' }).click();
    const short = (await phone.getByTestId('team-short-link').textContent())!;
    expect(short).toMatch(new RegExp(`^${baseUrl}/api/s/[A-Za-z0-9]{7}$`));
    const visitor = await localizedPage(browser());
    await visitor.goto(short);
    await settled(visitor);
    await expect.poll(() => visitor.getByLabel('Invitation code (optional)').inputValue()).toBe(code);
    const shortCode = short.split('/').pop()!;
    const used = await client.get<{ visits: number }>('/set/appShortLink/use', { code: shortCode });
    expect(used.envelope?.result.visits).toBe(2);
  }, 180_000);
});
