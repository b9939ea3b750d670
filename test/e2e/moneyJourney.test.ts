// The money journey of issue 9 end to end in Chromium, every step through the pages a user and an
// operator use (the API is only read, to check what the pages say): a new user deposits with a
// proof photo on the phone; the operator approves it in the back office and rejects a second one
// with a reason; the asset centre and the account ledger show the money; the user binds a TRC20
// address and sets a withdrawal password with an e-mailed code, and withdraws; the operator
// approves and pays it out with a reference; the records show each request's status, with the
// reason or the reference; the balances add up and the ledger check passes.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SpecClient, type Answer } from '../conformance/specClient.ts';
import { browserForFile, localizedPage, settled } from './browser.ts';
import { backOfficePage, newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const client = new SpecClient(baseUrl);
const tronAddress = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const withdrawPassword = 'Journey2026pay';
const rejectReason = 'The transfer in the photo is for another amount.';

function result<T>(answer: Answer<T>, what: string): T {
  if (answer.envelope?.code !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.text}`);
  return answer.envelope.result;
}

const outboxDir = () => path.join(dataDir, 'outbox');
const outboxFiles = () => new Set(fs.existsSync(outboxDir()) ? fs.readdirSync(outboxDir()) : []);
/** The first code for `to` written to the dev outbox after `before` was listed. */
async function newCode(to: string, before: Set<string>): Promise<string> {
  for (let attempt = 0; attempt < 80; attempt += 1) {
    for (const file of [...outboxFiles()].filter((name) => name.endsWith('.json') && !before.has(name))) {
      try {
        const message = JSON.parse(fs.readFileSync(path.join(outboxDir(), file), 'utf8')) as { to: string; code: string };
        if (message.to === to) return message.code;
      } catch {
        // Being written: read it on the next round.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no new code for ${to}`);
}

/** A photo of a receipt as a phone makes one: large, with grain. */
const receiptPhoto = (seed: number) => sharp({
  create: { width: 1800, height: 1200, channels: 3, background: { r: 30 + seed, g: 120, b: 200 }, noise: { type: 'gaussian', mean: 128, sigma: 30 } },
}).png().toBuffer();

async function depositOnPhone(page: Page, amount: string, photo: Buffer): Promise<string> {
  await page.goto(`${baseUrl}/#/chongzhi?currency=USDT&network=TRC20`);
  await settled(page);
  await page.getByTestId('deposit-address').waitFor();
  const field = page.getByPlaceholder('At least 10');
  await field.fill(amount);
  await field.blur();
  await page.getByPlaceholder('Paste it from your wallet').fill(crypto.randomBytes(32).toString('hex'));
  await page.getByLabel('Choose a photo from the gallery').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: photo });
  await page.getByText('Photo uploaded.').waitFor();
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.locator('.adm-dialog').getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL(/#\/chongzhitixianResult\?kind=deposit&id=\d+$/);
  await page.getByRole('heading', { name: 'Deposit submitted, under review' }).waitFor();
  return /id=(\d+)$/.exec(page.url())![1];
}

describe('the money journey, deposit to payout, through the pages', () => {
  let account: { email: string; password: string; token: string };
  let phone: Page;
  let admin: Page;
  let approvedId: string;
  let rejectedId: string;
  let withdrawalId: string;
  const balance = async () => result(await client.get<Array<{ currency: string; available: string; frozen: string }>>(
    '/finance/appWallet/queryUserBalance', {}, account.token), 'balance').find((row) => row.currency === 'USDT')!;

  beforeAll(async () => {
    account = await newAccount(baseUrl, dataDir, 'journey');
  });
  afterAll(async () => {
    await admin?.context().close();
  });
  // A phone page per step (each closes with its test); the token keeps the user logged in.
  const openPhone = async () => {
    phone = await localizedPage(browser(), { token: account.token });
  };

  it('deposits twice with a proof photo; both wait for review and nothing is credited yet', async () => {
    await openPhone();
    approvedId = await depositOnPhone(phone, '120', await receiptPhoto(1));
    rejectedId = await depositOnPhone(phone, '15', await receiptPhoto(2));
    await expect(balance()).resolves.toMatchObject({ available: '0.000000', frozen: '0.000000' });
  });

  it('the operator sees the proof, approves the first and rejects the second with a reason', async () => {
    admin = await backOfficePage(browser(), baseUrl);
    const rowOf = (amount: string) => admin.getByTestId('deposits-table').locator('tr', { hasText: account.email }).filter({ hasText: amount });
    await rowOf('120.000000').getByRole('button', { name: 'Review' }).click();
    const proof = admin.getByTestId('proof-image');
    await expect.poll(() => proof.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
    await admin.locator('.admin-drawer').getByRole('button', { name: 'Approve' }).click();
    await admin.locator('.ant-modal-confirm').getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => rowOf('120.000000').count()).toBe(0);

    await rowOf('15.000000').getByRole('button', { name: 'Review' }).click();
    await admin.getByTestId('proof-image').waitFor();
    await admin.locator('.admin-drawer').getByRole('button', { name: 'Reject' }).click();
    const modal = admin.locator('.ant-modal', { hasText: 'Reject this deposit' });
    await modal.getByLabel('Reason (the user reads it)').fill(rejectReason);
    await modal.getByRole('button', { name: 'Reject' }).click();
    // The modal closes when the server has taken the rejection; if it stays, its text says why.
    await expect.poll(async () => (await modal.isVisible()) ? `still open: ${await modal.innerText()}` : 'closed', { timeout: 20_000 }).toBe('closed');
    await expect.poll(() => rowOf('15.000000').count()).toBe(0);
    await expect(balance()).resolves.toMatchObject({ available: '120.000000', frozen: '0.000000' });
  });

  it('the asset centre and the account ledger show the credited deposit', async () => {
    await openPhone();
    await phone.goto(`${baseUrl}/#/chongzhitixianResult?kind=deposit&id=${approvedId}`);
    await phone.getByRole('heading', { name: 'Deposit arrived' }).waitFor();
    await phone.goto(`${baseUrl}/#/zichanCenter`);
    await settled(phone);
    await expect.poll(() => phone.getByTestId('asset-USDT-spot').textContent()).toBe('Available120.00');
    await phone.goto(`${baseUrl}/#/zhangbianRecord?currency=USDT`);
    await settled(phone);
    const rows = phone.getByTestId('ledger-event');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('120');
  });

  it('binds a TRC20 address, sets a withdrawal password with an e-mailed code, and withdraws 30 USDT', async () => {
    await openPhone();
    await phone.goto(`${baseUrl}/#/jiesuanInfo?add=chain`);
    await settled(phone);
    const address = phone.getByPlaceholder('Enter or paste the address');
    await address.waitFor();
    await phone.locator('.adm-selector-item', { hasText: 'TRC20' }).click();
    await address.fill(tronAddress);
    await phone.getByRole('button', { name: 'Save' }).click();
    await phone.locator('.destination-card', { hasText: tronAddress }).waitFor();

    await phone.getByRole('button', { name: 'Set withdrawal password' }).click();
    const before = outboxFiles();
    await phone.getByRole('button', { name: 'Send code' }).click();
    await phone.getByPlaceholder('6-digit code').fill(await newCode(account.email, before));
    await phone.locator('.adm-popup').getByPlaceholder('Withdrawal password', { exact: true }).fill(withdrawPassword);
    await phone.getByPlaceholder('Repeat the password').fill(withdrawPassword);
    await phone.locator('.adm-popup').getByRole('button', { name: 'Set withdrawal password' }).click();
    await phone.locator('.password-state.set').waitFor();

    await phone.goto(`${baseUrl}/#/tixian?currency=USDT`);
    await settled(phone);
    await expect.poll(() => phone.getByTestId('withdraw-fee').textContent()).toBe('1.00 USDT');
    await phone.getByRole('textbox', { name: 'Amount' }).fill('30');
    await expect.poll(() => phone.getByTestId('withdraw-total').textContent()).toBe('31.00 USDT');
    await phone.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await phone.getByPlaceholder('Withdrawal password', { exact: true }).fill(withdrawPassword);
    await phone.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await phone.waitForURL(/#\/chongzhitixianResult\?kind=withdrawal&id=\d+/);
    withdrawalId = /id=(\d+)/.exec(phone.url())![1];
    await phone.getByRole('heading', { name: 'Withdrawal submitted, under review' }).waitFor();
    await expect(balance()).resolves.toMatchObject({ available: '89.000000', frozen: '31.000000' });
  });

  it('the operator approves the withdrawal and marks it paid with a reference', async () => {
    await admin.getByRole('menuitem', { name: 'Withdrawals' }).click();
    const row = admin.getByTestId('withdrawals-table').locator('tr', { hasText: account.email });
    await row.getByRole('button', { name: 'Review' }).click();
    const drawer = admin.locator('.admin-drawer');
    await expect.poll(() => drawer.textContent()).toContain(tronAddress);
    await drawer.getByRole('button', { name: 'Approve' }).click();
    await admin.locator('.ant-modal-confirm').getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => row.textContent()).toContain('Approved, awaiting payout');
    await row.getByRole('button', { name: 'Review' }).click();
    await admin.locator('.admin-drawer').getByRole('button', { name: 'Mark paid' }).click();
    const modal = admin.locator('.ant-modal', { hasText: 'Mark as paid' });
    await modal.getByRole('textbox').fill('0xjourneypayout2026');
    await modal.getByRole('button', { name: 'Mark paid' }).click();
    await expect.poll(async () => (await balance()).frozen).toBe('0.000000');
    await expect(balance()).resolves.toMatchObject({ available: '89.000000' });
  });

  it('the records show each request with its status and the operator\'s reason or reference', async () => {
    await openPhone();
    await phone.goto(`${baseUrl}/#/chongzhitixianRecord?tab=deposit`);
    await settled(phone);
    const row = (id: string) => phone.locator(`li.record-row[data-record-id="${id}"]`);
    await expect.poll(() => row(approvedId).locator('.status-chip').textContent()).toBe('Arrived');
    expect(await row(rejectedId).locator('.status-chip').textContent()).toBe('Rejected');
    expect(await row(rejectedId).locator('.record-reason p').textContent()).toBe(rejectReason);

    await phone.getByRole('tab', { name: 'Withdrawals' }).click();
    await expect.poll(() => row(withdrawalId).locator('.status-chip').textContent()).toBe('Paid out');
    expect(await row(withdrawalId).textContent()).toContain('0xjourneypayout2026');

    await phone.goto(`${baseUrl}/#/chongzhitixianResult?kind=withdrawal&id=${withdrawalId}`);
    await phone.getByRole('heading', { name: 'Withdrawal paid out' }).waitFor();
  });

  it('the operator publishes a proof of liabilities, and the asset centre verifies the user\'s balances are in it', async () => {
    await admin.getByRole('menuitem', { name: 'Proof of liabilities' }).click();
    await admin.getByRole('button', { name: 'Publish now' }).click();
    await admin.locator('.ant-modal-confirm').getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => admin.getByTestId('liabilities-table').locator('tbody tr.ant-table-row').count()).toBeGreaterThan(0);
    await openPhone();
    await phone.goto(`${baseUrl}/#/zichanCenter`);
    await settled(phone);
    const verified = phone.getByTestId('liability-verified');
    await verified.scrollIntoViewIfNeeded();
    await expect.poll(() => verified.textContent()).toContain('Your balances are included in the published total of');
  });

  it('the ledger check in the back office passes: chains valid, every asset sums to zero', async () => {
    await admin.getByRole('menuitem', { name: 'Ledger check' }).click();
    await admin.getByRole('button', { name: 'Run check' }).click();
    await expect.poll(() => admin.getByTestId('chain-valid').textContent()).toBe('Yes');
    expect(await admin.getByTestId('ledger-assets').textContent()).not.toContain('Not zero');
  });
});
