// Loans on a 390 px phone in Chromium against the real server (issue 22). A new account whose basic
// verification the demo operator approved (level 1: a credit limit of 10 000 USDT) opens lending
// (/#/jiedai), sees its limit before typing, asks for 1 000 USDT over 30 days and reads the exact
// interest; on the agreement (/#/jiedaiHetong) a blank signature is refused with "Please sign" and
// nothing is uploaded, then a signature drawn with the pointer is sent and the loan is under review
// (/#/jiedaiOrder). In the back office (section Loans) the operator opens the application (Review),
// sees the signature and approves it; the phone shows the loan active, the funds are in spot, the
// user repays early (one started day of interest) and sees it repaid. A pledge loan against BTC
// shows its loan-to-value live at the feed price, refused above the initial level in the form, and
// on the orders page once approved. Screenshots of the three pages go to test-results/loans/.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { SpecClient } from '../conformance/specClient.ts';
import type { PageOf } from '../../src/api/contract/wallet.ts';
import type { AdminKycApplication } from '../../src/api/contract/identity.ts';
import type { Loan } from '../../src/api/contract/loans.ts';
import { browserForFile, localizedPage, overflowing, settled } from './browser.ts';
import { backOfficePage, fundAccount, newAccount, operatorSession } from './money.ts';
import { applyBasicOverApi, result } from './kycHelpers.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const client = new SpecClient(baseUrl);
const shots = path.resolve(import.meta.dirname, '../../test-results/loans');

const fits = async (page: Page, where: string) => expect((await overflowing(page)).problems, `${where}`).toBe('');

async function open(page: Page, route: string) {
  await page.goto(`${baseUrl}/#${route}`);
  await settled(page);
}

const spot = async (token: string, currency: string) => {
  const balances = result(await client.get<Array<{ currency: string; available: string }>>('/finance/appWallet/queryUserBalance', {}, token), 'balances');
  return balances.find((balance) => balance.currency === currency)?.available;
};
const myLoans = async (token: string) => result(await client.get<PageOf<Loan>>('/prod/appLoanOrder/listMy', { pageNo: 1, pageSize: 10 }, token), 'loans').records;

/** A signature: three strokes drawn with the pointer across the canvas. */
async function sign(page: Page, canvas: Locator) {
  await canvas.scrollIntoViewIfNeeded();
  const area = await canvas.boundingBox();
  if (!area) throw new Error('the signature canvas is not on screen');
  const strokes = [[[0.1, 0.6], [0.2, 0.3], [0.3, 0.7], [0.4, 0.35]], [[0.45, 0.5], [0.6, 0.3], [0.7, 0.65]], [[0.75, 0.4], [0.9, 0.55]]];
  for (const stroke of strokes) {
    await page.mouse.move(area.x + area.width * stroke[0][0], area.y + area.height * stroke[0][1]);
    await page.mouse.down();
    for (const [x, y] of stroke.slice(1)) await page.mouse.move(area.x + area.width * x, area.y + area.height * y, { steps: 6 });
    await page.mouse.up();
  }
}

/** The dark pixels the canvas holds: ink, not the white background. */
const inkOf = (canvas: Locator) => canvas.evaluate((element: HTMLCanvasElement) => {
  const context = element.getContext('2d');
  if (!context) return 0;
  const { data } = context.getImageData(0, 0, element.width, element.height);
  let ink = 0;
  for (let index = 0; index < data.length; index += 4) if (data[index] < 128) ink += 1;
  return ink;
});

/** LTV in percent, two decimals rounded up, as the page and the server compute it: owed / (collateral × price). */
function expectedLtv(owed: string, collateral: string, price: string): string {
  const units = (text: string) => {
    const [whole, fraction = ''] = text.replace(/,/g, '').split('.');
    return { units: BigInt(whole + fraction), decimals: fraction.length };
  };
  const [debt, held, unit] = [units(owed), units(collateral), units(price)];
  const numerator = debt.units * 10n ** BigInt(held.decimals + unit.decimals + 4);
  const denominator = held.units * unit.units * 10n ** BigInt(debt.decimals);
  const hundredths = (numerator + denominator - 1n) / denominator;
  return `${hundredths / 100n}.${String(hundredths % 100n).padStart(2, '0')}`;
}

describe('loans on the phone', () => {
  let user: { email: string; token: string };

  beforeAll(async () => {
    fs.mkdirSync(shots, { recursive: true });
    user = await newAccount(baseUrl, dataDir, 'loans');
    // Level 1 (basic verification approved by the operator) carries a loan limit; level 0 has none.
    await applyBasicOverApi(baseUrl, user.token);
    const operator = await operatorSession(baseUrl);
    const queue = result(await client.get<PageOf<AdminKycApplication>>('/admin/kyc', { status: 'pending', level: 1, pageSize: 100 }, operator), 'kyc queue');
    const application = queue.records.find((record) => record.account === user.email);
    result(await client.post(`/admin/kyc/${application!.id}/approve`, {}, operator), 'kyc approve');
    // Some USDT for the interest, and BTC to pledge.
    await fundAccount(baseUrl, user.token, '100');
    await fundAccount(baseUrl, user.token, '0.01', 'BTC', 'BTC');
  }, 120_000);

  it('applies for a credit loan with a drawn signature, is approved in the back office, repays early and sees it repaid', async () => {
    const phone = await localizedPage(browser(), { token: user.token });
    await open(phone, '/jiedai');
    // The limit before anything is typed.
    await expect.poll(() => phone.getByTestId('loan-available').textContent()).toBe('10,000.00 USDT');
    expect(await phone.getByTestId('loan-kyc-level').textContent()).toBe('1');
    await phone.getByLabel('Loan amount (USDT)').fill('1000');
    await phone.getByLabel('Days', { exact: true }).fill('30');
    // 1 000 × 0.05 % a day = 0.5, × 30 days.
    expect(await phone.getByTestId('loan-total-interest').textContent()).toBe('15.00 USDT');
    await fits(phone, 'lending at 390 px');
    await phone.screenshot({ path: path.join(shots, 'jiedai-credit-en-us-390.png'), fullPage: true });
    await phone.getByRole('button', { name: 'Read and sign the agreement' }).click();
    await phone.waitForURL(/#\/jiedaiHetong\?/);

    const terms = phone.getByRole('document', { name: 'Terms of the agreement' });
    await expect.poll(async () => (await terms.textContent())?.length ?? 0).toBeGreaterThan(100);
    expect(await terms.textContent()).toContain('1000');
    const uploads: string[] = [];
    phone.on('request', (request) => {
      if (request.url().includes('/api/sys/common/upload')) uploads.push(request.method());
    });
    // Blank: refused, nothing sent.
    await phone.getByRole('button', { name: 'Sign and apply' }).click();
    await phone.getByRole('alert').filter({ hasText: 'Please sign' }).waitFor();
    expect(await phone.locator('.adm-dialog').count()).toBe(0);
    expect(uploads).toEqual([]);
    const canvas = phone.getByRole('img', { name: 'Signature' });
    await sign(phone, canvas);
    expect(await canvas.getAttribute('data-empty')).toBe('false');
    expect(await inkOf(canvas)).toBeGreaterThan(200);
    expect(await phone.getByText('Please sign').count()).toBe(0);
    await fits(phone, 'the agreement at 390 px');
    await phone.screenshot({ path: path.join(shots, 'jiedaiHetong-signed-en-us-390.png'), fullPage: true });
    await phone.getByRole('button', { name: 'Sign and apply' }).click();
    const dialog = phone.locator('.adm-dialog');
    await dialog.getByText('Apply for this loan?').waitFor();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await phone.waitForURL(/#\/jiedaiOrder\?id=\d+/);
    expect(uploads).toEqual(['POST']);
    const loanId = new URL(phone.url().replace('/#/', '/')).searchParams.get('id')!;
    const row = phone.locator(`[data-loan-id="${loanId}"]`);
    await expect.poll(() => row.getByTestId('loan-status').textContent()).toBe('Under review');

    // The operator reviews it in the back office: the signature, then Approve.
    const office = await backOfficePage(browser(), baseUrl);
    await office.getByRole('menuitem', { name: 'Loans' }).click();
    const queued = office.getByTestId('loans-table').locator('tr', { hasText: user.email });
    await queued.waitFor();
    await queued.getByRole('button', { name: 'Review' }).click();
    const drawer = office.locator('.admin-drawer');
    const signature = drawer.getByTestId('loan-signature');
    await signature.waitFor();
    await expect.poll(() => signature.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(100);
    await office.screenshot({ path: path.join(shots, 'admin-loan-review-en-us-1280.png') });
    await drawer.getByRole('button', { name: 'Approve' }).click();
    await office.locator('.ant-modal-confirm').getByRole('button', { name: 'Approve' }).click();
    await expect.poll(async () => (await myLoans(user.token)).find((loan) => loan.id === loanId)?.status, { timeout: 20_000 }).toBe('active');
    await office.context().close();

    // The phone: active with its due date, the funds in spot.
    expect(await spot(user.token, 'USDT')).toBe('1100.000000');
    await phone.reload();
    await settled(phone);
    await expect.poll(() => row.getByTestId('loan-status').textContent()).toBe('Active');
    await row.getByTestId('loan-due').waitFor();
    expect(await row.getByTestId('loan-owed').textContent()).toMatch(/^1,000\.\d+ USDT$/);
    await fits(phone, 'the loan orders at 390 px');
    await phone.screenshot({ path: path.join(shots, 'jiedaiOrder-active-en-us-390.png'), fullPage: true });

    // Early repayment of all: one started day of interest.
    await row.getByRole('button', { name: 'Repay' }).click();
    expect(await phone.getByTestId('loan-used-interest').textContent()).toBe('0.5 USDT');
    expect(await phone.getByTestId('loan-payoff').textContent()).toBe('1000.5 USDT');
    await fits(phone, 'the repayment sheet at 390 px');
    await phone.screenshot({ path: path.join(shots, 'jiedaiOrder-repay-en-us-390.png') });
    await phone.getByRole('button', { name: 'Repay all' }).click();
    await dialog.getByText('Repay everything?').waitFor();
    await dialog.getByRole('button', { name: 'Repay' }).click();
    // A refusal would show in the sheet: said in the failure rather than a bare timeout.
    const refusal = phone.locator('.loan-sheet .form-error');
    // The repayment and the list's refetch on a loaded two-core machine may take more than the default 5 s.
    await expect.poll(async () => ((await refusal.count()) > 0 ? `refused: ${await refusal.textContent()}` : row.getByTestId('loan-status').textContent()),
      { timeout: 20_000 }).toBe('Repaid');
    expect(await spot(user.token, 'USDT')).toBe('99.500000');
    await phone.screenshot({ path: path.join(shots, 'jiedaiOrder-repaid-en-us-390.png'), fullPage: true });
  }, 180_000);

  it('shows a pledge loan\'s loan-to-value live at the feed price, refuses above the initial level and keeps it live once running', async () => {
    const phone = await localizedPage(browser(), { token: user.token });
    await open(phone, '/jiedai?type=pledge');
    await phone.getByRole('radio', { name: 'BTC' }).waitFor();
    await phone.getByLabel('Collateral (BTC)').fill('0.01');
    const amount = phone.getByLabel('Loan amount (USDT)');
    const price = phone.getByTestId('loan-price');
    // The price with the language's thousands separators; its exact value in data-amount.
    await expect.poll(() => price.textContent()).toMatch(/^\d{1,3}(,\d{3})*(\.\d+)? USDT$/);
    // Above 65 % of 0.01 BTC (about 670 USDT at the seeded price): refused in the form.
    await amount.fill('600');
    await phone.getByText(/Above the initial loan-to-value of 65%/).waitFor();
    expect(await phone.getByRole('button', { name: 'Read and sign the agreement' }).isDisabled()).toBe(true);
    await amount.fill('300');
    // The LTV shown is 300 / (0.01 × the price shown), for the price on screen at that moment.
    await expect.poll(async () => {
      const [shownPrice, shownLtv] = await Promise.all([price.locator('.amount').getAttribute('data-amount'),
        phone.getByTestId('loan-ltv').textContent()]);
      return shownLtv === `${expectedLtv('300', '0.01', shownPrice!)}%`;
    }).toBe(true);
    await phone.getByLabel('Days', { exact: true }).fill('14');
    await fits(phone, 'the pledge form at 390 px');
    await phone.screenshot({ path: path.join(shots, 'jiedai-pledge-en-us-390.png'), fullPage: true });
    await phone.getByRole('button', { name: 'Read and sign the agreement' }).click();
    await phone.waitForURL(/#\/jiedaiHetong\?/);
    await sign(phone, phone.getByRole('img', { name: 'Signature' }));
    await phone.getByRole('button', { name: 'Sign and apply' }).click();
    await phone.locator('.adm-dialog').getByRole('button', { name: 'Apply' }).click();
    await phone.waitForURL(/#\/jiedaiOrder\?id=\d+/);
    const loanId = new URL(phone.url().replace('/#/', '/')).searchParams.get('id')!;
    // The collateral is locked at once.
    expect(await spot(user.token, 'BTC')).toBe('0.00000000');

    // Approved (over the back-office API: the review screen is the credit journey's), then live on the orders page.
    const operator = await operatorSession(baseUrl);
    result(await client.post(`/admin/loans/${loanId}/approve`, {}, operator), 'approve pledge');
    await phone.reload();
    await settled(phone);
    const row = phone.locator(`[data-loan-id="${loanId}"]`);
    await expect.poll(() => row.getByTestId('loan-status').textContent()).toBe('Active');
    const live = row.getByTestId('loan-live-ltv');
    await expect.poll(() => live.textContent()).toMatch(/^\d+\.\d\d%$/);
    const owed = (await myLoans(user.token)).find((loan) => loan.id === loanId)!.owed;
    await expect.poll(async () => {
      // The price shown beside it (with separators on screen; exact in data-amount).
      const shownPrice = await row.locator('.loan-ltv-now .amount').getAttribute('data-amount');
      return Boolean(shownPrice) && (await live.textContent()) === `${expectedLtv(owed, '0.01', shownPrice!)}%`;
    }).toBe(true);
    await fits(phone, 'the pledge loan at 390 px');
    await row.scrollIntoViewIfNeeded();
    await phone.screenshot({ path: path.join(shots, 'jiedaiOrder-pledge-en-us-390.png'), fullPage: true });
  }, 180_000);

  it('fits the three pages at 320 px', async () => {
    const phone = await localizedPage(browser(), { token: user.token, width: 320 });
    await open(phone, '/jiedai');
    await phone.getByTestId('loan-available').waitFor();
    await fits(phone, 'lending at 320 px');
    await phone.screenshot({ path: path.join(shots, 'jiedai-credit-en-us-320.png'), fullPage: true });
    const offers = result(await client.get<Array<{ id: string; type: string }>>('/prod/appLoanSet/list', {}, user.token), 'offers');
    await open(phone, `/jiedaiHetong?settingId=${offers.find((offer) => offer.type === 'credit')!.id}&amount=1000&days=30`);
    await phone.getByRole('img', { name: 'Signature' }).waitFor();
    await fits(phone, 'the agreement at 320 px');
    await open(phone, '/jiedaiOrder');
    await phone.getByTestId('loan-row').first().waitFor();
    await fits(phone, 'the loan orders at 320 px');
    await phone.screenshot({ path: path.join(shots, 'jiedaiOrder-en-us-320.png'), fullPage: true });
  }, 120_000);
});
