// Demo trading of issue 10 in Chromium against the real server: /demotrading shows the demo banner
// and the virtual balance, a 30-second demo option bought from its Options segment settles with
// its receipt, the virtual balance moves by exactly the payout less the stake, and the user's real
// balance does not move at all. The API is only read, to check.
import { describe, expect, inject, it } from 'vitest';
import { SpecClient, type Answer } from '../conformance/specClient.ts';
import { browserForFile, localizedPage, overflowing, settled } from './browser.ts';
import { fundAccount, newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const client = new SpecClient(baseUrl);

interface SecondOrder { id: string; status: string; payout: string | null; demo: boolean }

function result<T>(answer: Answer<T>, what: string): T {
  if (answer.envelope?.code !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.text}`);
  return answer.envelope.result;
}
const atomic = (text: string) => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(6, '0').slice(0, 6));
};

describe('demo trading journey', () => {
  it('buys a demo option on virtual funds and leaves the real balance alone', async () => {
    const { token } = await newAccount(baseUrl, dataDir, 'demo');
    await fundAccount(baseUrl, token, '1000');
    const page = await localizedPage(browser(), { token });
    await page.goto(`${baseUrl}/#/demotrading`);
    await settled(page);
    await page.getByText('Demo — virtual funds').first().waitFor();
    await page.waitForFunction(() => /100,000\.00/.test(document.querySelector('[data-testid="demo-balance"]')?.textContent ?? ''));
    await page.getByRole('tab', { name: 'Options' }).click();
    await page.getByLabel('Symbol', { exact: true }).selectOption('BTCUSDT');
    await page.getByRole('button', { name: /30 s/ }).click();
    await page.getByLabel('Amount (USDT)').fill('10');
    expect(await overflowing(page).then((found) => found.problems)).toBe('');
    await page.getByRole('button', { name: 'Buy Up' }).click();
    const sheet = page.getByRole('dialog');
    await sheet.getByText('Demo — virtual funds').waitFor();
    await sheet.getByRole('button', { name: 'Confirm' }).click();
    await sheet.waitFor({ state: 'detached' });

    const open = result(await client.get<{ records: SecondOrder[] }>('/trade/appSecondContractOrder/listMy', { status: 'open', pageNo: 1, pageSize: 10, demo: true }, token), 'open');
    expect(open.records).toHaveLength(1);
    expect(open.records[0].demo).toBe(true);
    const real = result(await client.get<{ records: SecondOrder[] }>('/trade/appSecondContractOrder/listMy', { pageNo: 1, pageSize: 10 }, token), 'real');
    expect(real.records).toHaveLength(0);

    const id = open.records[0].id;
    await page.locator(`li.option-order[data-order-id="${id}"]:not([data-status="open"])`).waitFor({ timeout: 90_000 });
    const listed = result(await client.get<{ records: SecondOrder[] }>('/trade/appSecondContractOrder/listMy', { status: 'settled', pageNo: 1, pageSize: 10, demo: true }, token), 'settled');
    const order = listed.records.find((row) => row.id === id)!;
    const account = result(await client.get<{ balance: string }>('/trade/appDemo/account', {}, token), 'demo account');
    expect(atomic(account.balance)).toBe(100_000_000_000n - 10_000_000n + atomic(order.payout!));
    const head = result(await client.get<{ balance: string }>('/trade/appSecondContractOrder/head', {}, token), 'real head');
    expect(head.balance).toBe('1000.000000');
    await page.context().close();
  }, 150_000);
});
