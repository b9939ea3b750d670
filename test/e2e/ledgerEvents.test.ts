// The account ledger by business event in Chromium (issue 19): a fresh account funded with 100
// USDT (a deposit the demo operator approves) withdraws 30 USDT on the withdrawal page, which
// flags an amount above the balance as it is typed; the ledger's default view shows the
// withdrawal once, held, and once more after the operator pays it, now paid out with the balance
// after; Details shows the raw entries (the hold and the payout). At 390 and 320 px in en-us, zh-tw
// and xi, nothing wider than the screen. Elements whose texts are new carry test ids or data
// attributes until the translation pass fills the catalogs. Screenshots go to /tmp/shots-ledger.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SpecClient, type Answer } from '../conformance/specClient.ts';
import { browserForFile, codeFromOutbox, localizedPage, overflowing, settled } from './browser.ts';
import { fundAccount, newAccount, operatorSession } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const shotsDir = process.env.LEDGER_SHOTS_DIR ?? '/tmp/shots-ledger';
const tronAddress = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const withdrawPassword = 'Payout2026ledger';

function result<T>(answer: Answer<T>, what: string): T {
  if (answer.envelope?.code !== 200 && answer.envelope?.code !== 0) throw new Error(`${what}: HTTP ${answer.status} ${answer.text}`);
  return answer.envelope.result;
}

const events = (page: Page) => page.getByTestId('ledger-event');
const withdrawalEvents = (page: Page) => page.locator('[data-testid="ledger-event"][data-type="withdrawal"]');

async function openLedger(page: Page) {
  await page.goto(`${baseUrl}/#/zhangbianRecord`);
  await settled(page);
  await events(page).first().waitFor();
}

describe('the account ledger by business event', () => {
  let account: { email: string; token: string };
  let withdrawalId = '';
  const client = new SpecClient(baseUrl);

  beforeAll(async () => {
    fs.mkdirSync(shotsDir, { recursive: true });
    account = await newAccount(baseUrl, dataDir, 'ledger');
    await fundAccount(baseUrl, account.token, '100');
    result(await client.addWithdrawalAccount({ type: 'chain', currency: 'USDT', network: 'TRC20', address: tronAddress }, account.token), 'destination');
    result(await client.withdrawPasswordEmailCode(account.email, account.token), 'withdrawal password code');
    const code = await codeFromOutbox(dataDir, account.email);
    result(await client.setWithdrawPassword(withdrawPassword, code, account.token), 'withdrawal password');
  }, 120_000);

  it('withdraws (flagging too much as it is typed), and the ledger shows the withdrawal once: held, then paid out; Details shows its entries', async () => {
    const page = await localizedPage(browser(), { token: account.token });
    await page.goto(`${baseUrl}/#/tixian?currency=USDT`);
    await settled(page);
    const amount = page.getByRole('textbox', { name: 'Amount' });
    const amountError = page.locator('.adm-form-item', { has: amount }).locator('.adm-form-item-feedback-error');
    await amount.fill('500');
    // Under the field before anything is sent.
    await amountError.waitFor();
    await page.screenshot({ path: path.join(shotsDir, 'withdraw-above-balance-en-us-390.png') });
    await amount.fill('30');
    await amountError.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await page.getByPlaceholder('Withdrawal password', { exact: true }).fill(withdrawPassword);
    await page.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await page.waitForURL(/#\/chongzhitixianResult\?kind=withdrawal&id=\d+/);
    withdrawalId = /id=(\d+)/.exec(page.url())![1];

    await openLedger(page);
    await expect.poll(() => events(page).count()).toBe(2);
    await expect(withdrawalEvents(page).count()).resolves.toBe(1);
    await expect(withdrawalEvents(page).getAttribute('data-state')).resolves.toBe('held');
    // A hold leaves the balance as it was: no balance on its line, and a neutral figure.
    await expect(withdrawalEvents(page).getByTestId('ledger-balance').count()).resolves.toBe(0);
    await expect(withdrawalEvents(page).getByTestId('ledger-amount').getAttribute('class')).resolves.toContain('neutral');
    await expect(withdrawalEvents(page).getByTestId('ledger-amount').textContent()).resolves.toBe('31.00');
    await page.screenshot({ path: path.join(shotsDir, 'ledger-held-en-us-390.png') });

    const operator = await operatorSession(baseUrl);
    result(await client.post(`/admin/withdrawals/${withdrawalId}/approve`, {}, operator), 'approve withdrawal');
    result(await client.post(`/admin/withdrawals/${withdrawalId}/paid`, { reference: 'TRX-LEDGER-1' }, operator), 'pay withdrawal');

    // The same address again is no navigation: load the page anew.
    await page.reload();
    await settled(page);
    await events(page).first().waitFor();
    await expect.poll(() => withdrawalEvents(page).getAttribute('data-state')).toBe('released');
    await expect(events(page).count()).resolves.toBe(2);
    await expect(withdrawalEvents(page).count()).resolves.toBe(1);
    await expect(withdrawalEvents(page).getByTestId('ledger-amount').textContent()).resolves.toBe('-31.00');
    await expect(withdrawalEvents(page).getByTestId('ledger-balance').textContent()).resolves.toContain('69.00');
    await page.screenshot({ path: path.join(shotsDir, 'ledger-paid-en-us-390.png') });

    // Details: every raw entry: the deposit, the hold and its payout.
    await page.getByTestId('ledger-details').click();
    await expect.poll(() => page.getByTestId('ledger-row').count()).toBe(3);
    await expect(page.getByTestId('ledger-details').getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(events(page).count()).resolves.toBe(0);
    await page.screenshot({ path: path.join(shotsDir, 'ledger-details-en-us-390.png') });
  });

  it('fits 390 and 320 px in English, Chinese and Spanish, in both views, with the Details toggle 44 px or more', async () => {
    expect(withdrawalId).not.toBe('');
    for (const [lang, width] of [['en-us', 390], ['en-us', 320], ['zh-tw', 320], ['xi', 320], ['xi', 390]] as const) {
      const page = await localizedPage(browser(), { token: account.token, lang, width });
      await openLedger(page);
      await expect.poll(() => withdrawalEvents(page).getAttribute('data-state')).toBe('released');
      await expect(withdrawalEvents(page).count()).resolves.toBe(1);
      expect((await overflowing(page)).problems, `events ${lang} ${width}`).toBe('');
      const toggle = await page.getByTestId('ledger-details').boundingBox();
      expect(toggle!.height).toBeGreaterThanOrEqual(44);
      expect(toggle!.width).toBeGreaterThanOrEqual(44);
      // The withdrawal's amount stays on one line.
      const figure = await withdrawalEvents(page).getByTestId('ledger-amount').evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      });
      expect(figure, `amount lines ${lang} ${width}`).toBeLessThanOrEqual(1);
      await page.screenshot({ path: path.join(shotsDir, `ledger-events-${lang}-${width}.png`) });
      await page.getByTestId('ledger-details').click();
      await expect.poll(() => page.getByTestId('ledger-row').count()).toBe(3);
      expect((await overflowing(page)).problems, `details ${lang} ${width}`).toBe('');
      await page.screenshot({ path: path.join(shotsDir, `ledger-details-${lang}-${width}.png`) });
      await page.context().close();
    }
  });
});
