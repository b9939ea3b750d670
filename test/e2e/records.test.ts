// The deposit and withdrawal records and the result page in Chromium (issue 9), over money moved
// the way production moves it: a fresh account makes deposits with proof pictures through the API;
// the demo operator approves one, rejects one with a reason and leaves the rest under review; the
// user binds a TRC20 address, sets a withdrawal password with an e-mailed code and withdraws twice:
// one is rejected with a reason, the other approved and paid out with a reference. The pages then
// show every status with its reason, the proof picture, a second page as the list scrolls, and the
// result of a known request; screenshots at 390 and 320 px in three languages, none overflowing.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SpecClient } from '../conformance/specClient.ts';
import { browserForFile, codeFromOutbox, localizedPage, overflowing, settled, layoutRun } from './browser.ts';
import { fundAccount, newAccount, operatorSession, tinyPng, uploadProof } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const shotsDir = '/tmp/shots-records';

const depositRejectReason = 'The proof shows a transfer to another address. Please send the deposit to the address on the deposit page and attach the new proof.';
const withdrawalRejectReason = 'The destination address is on a sanctions list; please bind another address in your own name.';
const payoutReference = 'TRX-PAYOUT-7c1e9a';
const underReviewDeposits = 22;
const tronAddress = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

interface Setup {
  token: string;
  approvedDepositId: string;
  rejectedDepositId: string;
  reviewDepositId: string;
  /** The oldest deposit left under review: 22nd newest, so on the second page of 20. */
  oldestReviewDepositId: string;
  rejectedWithdrawalId: string;
  paidWithdrawalId: string;
}

async function ok<T>(answer: Promise<{ status: number; envelope?: { code: number; result: T }; text: string }>, what: string): Promise<T> {
  const done = await answer;
  if (done.envelope?.code !== 200) throw new Error(`${what}: HTTP ${done.status} ${done.text}`);
  return done.envelope.result;
}

async function depositUnderReview(client: SpecClient, token: string, amount: string): Promise<string> {
  const proofFileId = await uploadProof(baseUrl, token, tinyPng);
  const txHash = crypto.randomBytes(32).toString('hex');
  const applied = await ok(client.post<{ id: string }>('/finance/appRecharge/apply',
    { currency: 'USDT', network: 'TRC20', amount, proofFileId, txHash }, token), 'deposit');
  return applied.id;
}

async function prepareMoney(): Promise<Setup> {
  const client = new SpecClient(baseUrl);
  const account = await newAccount(baseUrl, dataDir, 'records');
  const { token } = account;
  const operator = await operatorSession(baseUrl);
  // Oldest first: the approved deposit, the rejected one, then those left under review (the newest on top).
  const approvedDepositId = await fundAccount(baseUrl, token, '250', 'USDT', 'TRC20');
  const rejectedDepositId = await depositUnderReview(client, token, '75.5');
  await ok(client.post(`/admin/recharges/${rejectedDepositId}/reject`, { reason: depositRejectReason }, operator), 'reject deposit');
  const reviewDepositIds: string[] = [];
  for (let index = 0; index < underReviewDeposits; index += 1) {
    reviewDepositIds.push(await depositUnderReview(client, token, `${11 + index}.25`));
  }

  const destination = await ok(client.addWithdrawalAccount({ type: 'chain', currency: 'USDT', network: 'TRC20', address: tronAddress }, token), 'destination');
  await ok(client.withdrawPasswordEmailCode(account.email, token), 'withdrawal password code');
  const code = await codeFromOutbox(dataDir, account.email);
  const withdrawPassword = 'Payout2026records';
  await ok(client.setWithdrawPassword(withdrawPassword, code, token), 'withdrawal password');
  const withdraw = (amount: string) => ok(client.applyWithdrawal(
    { currency: 'USDT', amount, withdrawalInfoId: destination.id, withdrawPassword }, token), 'withdrawal');
  const paid = await withdraw('30');
  await ok(client.post(`/admin/withdrawals/${paid.id}/approve`, {}, operator), 'approve withdrawal');
  await ok(client.post(`/admin/withdrawals/${paid.id}/paid`, { reference: payoutReference }, operator), 'pay withdrawal');
  const rejected = await withdraw('20');
  await ok(client.post(`/admin/withdrawals/${rejected.id}/reject`, { reason: withdrawalRejectReason }, operator), 'reject withdrawal');
  return { token, approvedDepositId, rejectedDepositId, reviewDepositId: reviewDepositIds.at(-1)!, oldestReviewDepositId: reviewDepositIds[0],
    rejectedWithdrawalId: rejected.id, paidWithdrawalId: paid.id };
}

const rowOf = (page: Page, id: string) => page.locator(`li.record-row[data-record-id="${id}"]`);

describe('deposit and withdrawal records', () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await prepareMoney();
    fs.mkdirSync(shotsDir, { recursive: true });
  }, 120_000);

  it('shows each deposit status with the operator\'s reason, the proof picture, and a second page on scrolling', async () => {
    const page = await localizedPage(browser(), { token: setup.token });
    await page.goto(`${baseUrl}/#/chongzhitixianRecord`);
    await settled(page);
    const list = page.getByRole('list', { name: 'Deposits' });
    await list.waitFor();
    await expect.poll(() => list.locator('li.record-row').count()).toBe(20);

    const newest = rowOf(page, setup.reviewDepositId);
    await expect.poll(() => newest.locator('.status-chip').textContent()).toBe('Under review');
    // The proof is the user's own picture, fetched with the token and decoded by the browser.
    const proof = newest.locator('img.proof-image');
    await proof.waitFor();
    await expect.poll(() => proof.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);

    // The list reads the next 20 as it scrolls to the end: the rejected and approved deposits are on page 2.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(async () => {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      return list.locator('li.record-row').count();
    }, { timeout: 15_000 }).toBe(underReviewDeposits + 2);
    await page.getByText('No more records').waitFor();
    const rejected = rowOf(page, setup.rejectedDepositId);
    expect(await rejected.locator('.status-chip').textContent()).toBe('Rejected');
    expect(await rejected.locator('.record-reason p').textContent()).toBe(depositRejectReason);
    expect(await rejected.getByText('Why the deposit was rejected').count()).toBe(1);
    const approved = rowOf(page, setup.approvedDepositId);
    expect(await approved.locator('.status-chip').textContent()).toBe('Arrived');
    expect(await approved.locator('.record-reason').count()).toBe(0);
    expect(await approved.getByText('250.00 USDT').count()).toBe(1);
  });

  it('filters by status and shows the withdrawals with the reason and the payout reference', async () => {
    const page = await localizedPage(browser(), { token: setup.token });
    await page.goto(`${baseUrl}/#/chongzhitixianRecord`);
    await settled(page);
    await page.getByRole('button', { name: 'Rejected', exact: true }).click();
    await expect.poll(() => page.locator('li.record-row').count()).toBe(1);
    expect(page.url()).toContain('status=-1');
    expect(await page.locator('li.record-row').getAttribute('data-record-id')).toBe(setup.rejectedDepositId);

    await page.getByRole('tab', { name: 'Withdrawals' }).click();
    expect(page.url()).toMatch(/tab=withdrawal$/);
    const list = page.getByRole('list', { name: 'Withdrawals' });
    await list.waitFor();
    const rejected = rowOf(page, setup.rejectedWithdrawalId);
    await expect.poll(() => rejected.locator('.status-chip').textContent()).toBe('Rejected');
    expect(await rejected.locator('.record-reason p').textContent()).toBe(withdrawalRejectReason);
    expect(await rejected.getByText('TR7NHq…gjLj6t').count()).toBe(1);
    expect(await rejected.getByText('21.00 USDT').count()).toBe(1);
    const paid = rowOf(page, setup.paidWithdrawalId);
    expect(await paid.locator('.status-chip').textContent()).toBe('Paid out');
    expect(await paid.getByText(payoutReference).count()).toBe(1);
    await expect.poll(() => paid.getByRole('button', { name: 'Copy the payout reference' }).count()).toBe(1);
  });

  it('shows the result of a known request, and says so when the id is unknown', async () => {
    const page = await localizedPage(browser(), { token: setup.token });
    await page.goto(`${baseUrl}/#/chongzhitixianResult?kind=withdrawal&id=${setup.rejectedWithdrawalId}`);
    await settled(page);
    await page.getByRole('heading', { name: 'Withdrawal rejected' }).waitFor();
    await page.getByText(withdrawalRejectReason).waitFor();
    await page.getByText('The amount and the fee are back in your available balance.').waitFor();

    await page.goto(`${baseUrl}/#/chongzhitixianResult?kind=deposit&id=${setup.reviewDepositId}`);
    await page.getByRole('heading', { name: 'Deposit submitted, under review' }).waitFor();
    await page.getByRole('button', { name: 'View records' }).click();
    await page.waitForURL(/chongzhitixianRecord\?tab=deposit/);

    await page.goto(`${baseUrl}/#/chongzhitixianResult?kind=deposit&id=999999999`);
    await page.getByRole('heading', { name: 'This request was not found' }).waitFor();
  });

  it('finds a request on the second page, and shows the operator\'s decision while it is open', async () => {
    const page = await localizedPage(browser(), { token: setup.token });
    await page.goto(`${baseUrl}/#/chongzhitixianResult?kind=deposit&id=${setup.oldestReviewDepositId}`);
    await settled(page);
    await page.getByRole('heading', { name: 'Deposit submitted, under review' }).waitFor();
    await page.getByText('11.25 USDT').first().waitFor();
    const operator = await operatorSession(baseUrl);
    await ok(new SpecClient(baseUrl).post(`/admin/recharges/${setup.oldestReviewDepositId}/approve`, {}, operator), 'approve deposit');
    // No reload: the page reads the record again by itself while it is under review.
    await page.getByRole('heading', { name: 'Deposit arrived' }).waitFor({ timeout: 45_000 });
    await page.getByText('The amount has been added to your balance.').waitFor();
  });

  for (const lang of ['en-us', 'xi', 'ko'] as const) {
    for (const width of [390, 320] as const) {
      if (!layoutRun(lang, width)) continue;
      it(`fits ${width} px in ${lang}`, async () => {
        const problems: string[] = [];
        const views = [
          { name: 'deposits', path: '/chongzhitixianRecord', ready: 'li.record-row img.proof-image' },
          { name: 'withdrawals', path: '/chongzhitixianRecord?tab=withdrawal', ready: 'li.record-row .record-reason' },
          { name: 'result-rejected', path: `/chongzhitixianResult?kind=withdrawal&id=${setup.rejectedWithdrawalId}`, ready: '.result-details' },
          { name: 'result-review', path: `/chongzhitixianResult?kind=deposit&id=${setup.reviewDepositId}`, ready: '.result-details img.proof-image' },
          { name: 'result-invalid', path: '/chongzhitixianResult?kind=deposit', ready: '.result-buttons' },
        ];
        for (const view of views) {
          const page = await localizedPage(browser(), { width, lang, token: setup.token });
          try {
            await page.goto(`${baseUrl}/#${view.path}`);
            await settled(page);
            await page.locator(view.ready).first().waitFor({ state: 'visible' });
            await page.screenshot({ path: `${shotsDir}/${lang}-${width}-${view.name}.png`, fullPage: view.name.startsWith('result') });
            const result = await overflowing(page);
            if (result.problems) problems.push(`${view.name}: ${result.problems}`);
          } finally {
            await page.context().close();
          }
        }
        expect(problems).toEqual([]);
      });
    }
  }
});
