// The flash swap journey of issue 10 in Chromium against the real server: a funded user swaps
// 100 USDT for BTC on /shandui at a quoted rate, sees the result, and reads the swap in the records
// with its rate, fee, receive and the tick the rate was made from; the balances moved by exactly
// the amount and the receive the server recorded. The API is only read, to check.
import { describe, expect, inject, it } from 'vitest';
import { SpecClient, type Answer } from '../conformance/specClient.ts';
import { browserForFile, localizedPage, overflowing, settled } from './browser.ts';
import { fundAccount, newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const client = new SpecClient(baseUrl);

interface SwapRecord { id: string; amount: string; fee: string; rate: string; receive: string; ticks: Array<{ id: string }> }
interface Balance { currency: string; available: string }

function result<T>(answer: Answer<T>, what: string): T {
  if (answer.envelope?.code !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.text}`);
  return answer.envelope.result;
}

describe('flash swap journey', () => {
  it('swaps USDT for BTC at a quote and reads the record', async () => {
    const { token } = await newAccount(baseUrl, dataDir, 'swap');
    await fundAccount(baseUrl, token, '1000');
    const page = await localizedPage(browser(), { token });
    await page.goto(`${baseUrl}/#/shandui`);
    await settled(page);
    await page.getByLabel('From', { exact: true }).selectOption('USDT');
    await page.getByLabel('To', { exact: true }).selectOption('BTC');
    await page.getByLabel('Amount to swap').fill('100');
    await page.getByRole('button', { name: 'Get a quote' }).click();
    const quote = page.getByRole('region', { name: 'Quote' });
    await quote.getByRole('timer').waitFor();
    expect(await quote.textContent()).toMatch(/1 USDT [=≈] 0\.0000\d+ BTC/);
    expect(await quote.getByTestId('swap-rate-inverse').textContent()).toMatch(/^1 BTC ≈ [\d,]+\.\d\d USDT$/);
    expect(await overflowing(page).then((found) => found.problems)).toBe('');
    await page.getByRole('button', { name: 'Confirm swap' }).click();
    await page.getByText('Swap completed').waitFor();

    const records = result(await client.get<{ records: SwapRecord[] }>('/trade/appFlashExchangeLog/listMy', { pageNo: 1, pageSize: 10 }, token), 'records');
    expect(records.records).toHaveLength(1);
    const record = records.records[0];
    expect(record.amount).toBe('100.000000');
    expect(record.ticks.length).toBeGreaterThan(0);
    const balances = result(await client.get<Balance[]>('/finance/appWallet/queryUserBalance', {}, token), 'balances');
    expect(balances.find((balance) => balance.currency === 'USDT')?.available).toBe('900.000000');
    expect(balances.find((balance) => balance.currency === 'BTC')?.available).toBe(record.receive);

    await page.getByRole('button', { name: 'View records' }).click();
    const row = page.locator(`li.swap-record[data-record-id="${record.id}"]`);
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(await row.getByTestId('swap-exact-rate').textContent()).toBe(`1 USDT = ${record.rate} BTC`);
    expect(text).toContain(`Tick #${record.ticks[0].id}`);
    expect(await overflowing(page).then((found) => found.problems)).toBe('');
    await page.context().close();
  });
});
