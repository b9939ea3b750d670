// Trading competitions on a 390 px phone in Chromium against the real server (issue 23). A new
// account funded with 500 USDT opens the competitions (/#/bisai), sees the seeded "Weekly contract
// cup" in progress, opens it, reads the prize table and the ranking formula, joins behind the
// confirmation, and sees its own live rank in the ranking and in "My result"; its entry funds
// left spot for the competition account; the entry is listed in /#/bisaiMycansai. No screenshots.
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SpecClient } from '../conformance/specClient.ts';
import { browserForFile, localizedPage, overflowing, settled } from './browser.ts';
import { fundAccount, newAccount } from './money.ts';
import { result } from './kycHelpers.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const client = new SpecClient(baseUrl);
const cupName = 'Weekly contract cup';

async function open(page: Page, route: string) {
  await page.goto(`${baseUrl}/#${route}`);
  await settled(page);
}

describe('trading competitions on the phone', () => {
  it('joins the seeded competition and sees the live rank', async () => {
    const user = await newAccount(baseUrl, dataDir, 'compete');
    await fundAccount(baseUrl, user.token, '500');
    const phone = await localizedPage(browser(), { token: user.token });
    await open(phone, '/bisai');
    const card = phone.getByRole('link').filter({ hasText: cupName });
    await card.waitFor();
    // (Structure, not English: the marketing catalog is compiled from the translations later.)
    expect(await card.locator('.cmp-tag-running').count()).toBe(1);
    expect(await card.textContent()).toContain('975.00 USDT');
    expect((await overflowing(phone)).problems).toBe('');

    await card.click();
    await phone.waitForURL(/#\/bisaiDetail\?id=/);
    await phone.getByTestId('cmp-formula').waitFor();
    expect(await phone.getByTestId('cmp-participants').textContent()).toBe('3 / 500');
    await phone.getByTestId('cmp-join').click();
    // The confirmation; its confirm button is the bold one.
    await phone.getByRole('dialog').waitFor();
    await phone.getByRole('dialog').locator('.adm-dialog-button-bold').click();

    // Three seeded entrants joined earlier at the same return: the newcomer ranks fourth.
    await phone.getByTestId('cmp-ranking-mine').waitFor();
    expect(await phone.getByTestId('cmp-ranking-mine').textContent()).toContain('0.0000 %');
    await expect.poll(() => phone.getByTestId('cmp-my-rank').textContent()).toBe('4');
    expect((await overflowing(phone)).problems).toBe('');
    const balances = result(await client.get<Array<{ currency: string; available: string }>>('/finance/appWallet/queryUserBalance', {}, user.token), 'balances');
    expect(balances.find((row) => row.currency === 'USDT')?.available).toBe('400.000000');

    expect(await phone.getByTestId('cmp-participants').textContent()).toBe('4 / 500');

    await open(phone, '/bisaiMycansai');
    const entry = phone.getByRole('link').filter({ hasText: cupName });
    await entry.waitFor();
    expect(await entry.locator('.cmp-tag-running').count()).toBe(1);
    expect(await entry.textContent()).toContain('0.0000 %');
    await phone.close();
  }, 120_000);
});
