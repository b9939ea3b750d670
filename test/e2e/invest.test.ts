// Investment products on a 390 px phone in Chromium against the real server (issue 22). A new
// account, verified (basic verification approved by the demo operator: products are open from
// level 1) and funded with 1 000 USDT, opens the arbitrage list (/#/taolilicai, dark background),
// opens the seeded "Stable arbitrage 7 days" (0.03 % a day, interest from the day of purchase),
// reads its coverage and the honesty line, types 500 USDT and reads the exact expected return
// (500 × 0.03 % × 7 = 1.05 USDT), confirms in the sheet and lands on the confirmation (/#/taoliOk),
// then sees the order running in /#/taoliOrder with nothing paid yet. In the back office (section
// Scheduled jobs) the operator runs product-accrual now; back on the phone today's income is
// 500 × 0.03 % = 0.15 USDT, in the order, in the totals and as a receipt with its inputs.
// Screenshots of the list, detail and orders go to test-results/invest/.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SpecClient } from '../conformance/specClient.ts';
import type { PageOf } from '../../src/api/contract/wallet.ts';
import type { AdminKycApplication } from '../../src/api/contract/identity.ts';
import type { ProductOrder } from '../../src/api/contract/products.ts';
import { browserForFile, localizedPage, overflowing, settled } from './browser.ts';
import { backOfficePage, fundAccount, newAccount, operatorSession } from './money.ts';
import { applyBasicOverApi, result } from './kycHelpers.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const client = new SpecClient(baseUrl);
const shots = path.resolve(import.meta.dirname, '../../test-results/invest');
const productName = 'Stable arbitrage 7 days';

const fits = async (page: Page, where: string) => expect((await overflowing(page)).problems, where).toBe('');

async function open(page: Page, route: string) {
  await page.goto(`${baseUrl}/#${route}`);
  await settled(page);
}

const spot = async (token: string) => {
  const balances = result(await client.get<Array<{ currency: string; available: string }>>('/finance/appWallet/queryUserBalance', {}, token), 'balances');
  return balances.find((balance) => balance.currency === 'USDT')?.available;
};
const myOrders = async (token: string) =>
  result(await client.get<PageOf<ProductOrder>>('/prod/appProductOrder/listMy', { pageNo: 1, pageSize: 10 }, token), 'orders').records;

describe('investment products on the phone', () => {
  let user: { email: string; token: string };

  beforeAll(async () => {
    fs.mkdirSync(shots, { recursive: true });
    user = await newAccount(baseUrl, dataDir, 'invest');
    await applyBasicOverApi(baseUrl, user.token);
    const operator = await operatorSession(baseUrl);
    const queue = result(await client.get<PageOf<AdminKycApplication>>('/admin/kyc', { status: 'pending', level: 1, pageSize: 100 }, operator), 'kyc queue');
    const application = queue.records.find((record) => record.account === user.email);
    result(await client.post(`/admin/kyc/${application!.id}/approve`, {}, operator), 'kyc approve');
    await fundAccount(baseUrl, user.token, '1000');
  }, 120_000);

  it('buys an arbitrage product, sees it in the orders, and sees today\'s income after the accrual job runs in the back office', async () => {
    const phone = await localizedPage(browser(), { token: user.token });
    await open(phone, '/taolilicai?type=arbitrage');
    const card = phone.getByRole('link').filter({ hasText: productName });
    await card.waitFor();
    // The route's dark background, and the card's text light on it.
    expect(await phone.locator('.layout').evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(3, 18, 40)');
    expect(await phone.locator('.product-name').first().evaluate((element) => getComputedStyle(element).color)).toBe('rgb(238, 242, 248)');
    expect(await card.textContent()).toContain('0.03');
    expect(await card.textContent()).toContain('Coverage');
    await fits(phone, 'products at 390 px');
    await phone.screenshot({ path: path.join(shots, 'taolilicai-390.png'), fullPage: true });

    await card.click();
    await phone.waitForURL(/#\/taolilicaiDetail\?id=/);
    await phone.getByLabel('Amount (USDT)').waitFor();
    expect(await phone.getByText("A fixed rate paid by the platform from its reserve; not a trading result.").count()).toBeGreaterThan(0);
    await expect.poll(() => phone.getByText(/^Available/).textContent()).toContain('1,000.00 USDT');
    await phone.getByLabel('Amount (USDT)').fill('500');
    // 500 × 0.03 % a day × 7 days, exact.
    await expect.poll(() => phone.getByTestId('buy-expected').textContent()).toBe('1.05 USDT');
    expect(await phone.getByTestId('buy-daily').textContent()).toBe('0.15 USDT');
    await fits(phone, 'detail at 390 px');
    await phone.screenshot({ path: path.join(shots, 'taolilicaiDetail-390.png'), fullPage: true });

    await phone.getByRole('button', { name: 'Buy', exact: true }).click();
    const sheet = phone.getByRole('dialog', { name: 'Confirm purchase' });
    expect(await sheet.getByTestId('confirm-expected').textContent()).toBe('1.05 USDT');
    await sheet.getByRole('button', { name: 'Confirm purchase' }).click();
    await phone.waitForURL(/#\/taoliOk\?id=/);
    await phone.getByRole('heading', { name: 'Your order is placed' }).waitFor();
    expect(await phone.getByTestId('order-expected').textContent()).toBe('1.05 USDT');
    expect(await phone.locator('.order-chip').textContent()).toBe('Running');
    expect(await spot(user.token)).toBe('500.000000');
    const [order] = await myOrders(user.token);
    expect(order).toMatchObject({ productName, amount: '500.000000', status: 'running', todayIncome: '0.000000' });

    await phone.getByRole('button', { name: 'View my orders' }).click();
    await phone.waitForURL(/#\/taoliOrder/);
    const row = phone.getByTestId(`order-${order!.id}`);
    await row.waitFor();
    expect(await row.getByTestId('order-today').textContent()).toBe('0.00 USDT');
    await fits(phone, 'orders at 390 px');
    await phone.screenshot({ path: path.join(shots, 'taoliOrder-before-390.png'), fullPage: true });

    // The operator runs today's accrual from the back office.
    const office = await backOfficePage(browser(), baseUrl);
    try {
      await office.getByRole('menuitem', { name: 'Scheduled jobs' }).click();
      await office.getByRole('button', { name: 'Run product-accrual now' }).click();
      await office.getByRole('dialog').getByRole('button', { name: 'Run now' }).click();
      const outcome = office.getByTestId('job-outcome-product-accrual');
      await outcome.waitFor();
      // A run already made today (the server's own daily schedule) would not pay an order bought after it.
      expect(await outcome.textContent(), 'the accrual ran for today (not a replay of an earlier run)').toContain('Ran for');
    } finally {
      await office.context().close();
    }

    // Back on the phone: today's income, 500 × 0.03 % = 0.15 USDT, paid into spot with a receipt.
    await expect.poll(async () => (await myOrders(user.token))[0]?.todayIncome, { timeout: 20_000 }).toBe('0.150000');
    await phone.reload();
    await settled(phone);
    await expect.poll(() => row.getByTestId('order-today').textContent()).toBe('0.15 USDT');
    expect(await row.getByTestId('order-accumulated').textContent()).toBe('0.15 USDT');
    expect(await phone.getByTestId('stat-today-USDT').textContent()).toBe('0.15');
    await row.getByRole('button', { name: 'Show daily receipts' }).click();
    const receipt = row.getByRole('list', { name: 'Daily receipts' }).getByRole('listitem').first();
    await receipt.waitFor();
    expect(await receipt.textContent()).toContain('0.15 USDT');
    expect(await spot(user.token)).toBe('500.150000');
    await fits(phone, 'orders after accrual at 390 px');
    await phone.screenshot({ path: path.join(shots, 'taoliOrder-390.png'), fullPage: true });
  }, 180_000);

  it('shows the product list, detail and orders without overflow at 320 px', async () => {
    const phone = await localizedPage(browser(), { token: user.token, width: 320 });
    await open(phone, '/taolilicai?type=arbitrage');
    await phone.getByRole('link').filter({ hasText: productName }).waitFor();
    await fits(phone, 'products at 320 px');
    await phone.getByRole('link').filter({ hasText: productName }).click();
    await phone.getByLabel('Amount (USDT)').waitFor();
    await fits(phone, 'detail at 320 px');
    await open(phone, '/taoliOrder');
    await phone.locator('.order-card').first().waitFor();
    await fits(phone, 'orders at 320 px');
    await open(phone, '/kuangchi');
    await phone.locator('.product-card').first().waitFor();
    await fits(phone, 'mining at 320 px');
    await phone.screenshot({ path: path.join(shots, 'kuangchi-320.png'), fullPage: true });
    await open(phone, '/vipLevel');
    await phone.getByRole('table').first().waitFor();
    await fits(phone, 'VIP level at 320 px');
    await phone.screenshot({ path: path.join(shots, 'vipLevel-320.png'), fullPage: true });
  }, 120_000);
});
