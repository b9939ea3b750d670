// The options journey of issue 10 in Chromium against the real server and its simulated feed: a
// funded user buys a 30-second up contract on BTCUSDT from /heyue's Options segment after reading
// what a win pays, watches its countdown, and sees it settle in the history with its receipt; the
// result the page shows is the server's, its entry and exit ticks are among the recorded ticks,
// and the balance moved by exactly the payout less the stake. The API is only read, to check.
import { describe, expect, inject, it } from 'vitest';
import { SpecClient, type Answer } from '../conformance/specClient.ts';
import { browserForFile, localizedPage, overflowing, settled } from './browser.ts';
import { fundAccount, newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const client = new SpecClient(baseUrl);

interface Tick { id: string; price: string; time: number; source: string }
interface SecondOrder { id: string; status: string; amount: string; payout: string | null; pnl: string | null; entryTick: Tick | null; exitTick: Tick | null; acceptTime: number; expireTime: number }

function result<T>(answer: Answer<T>, what: string): T {
  if (answer.envelope?.code !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.text}`);
  return answer.envelope.result;
}
const atomic = (text: string) => {
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.');
  const value = BigInt(whole + fraction.padEnd(6, '0').slice(0, 6));
  return text.startsWith('-') ? -value : value;
};

describe('options journey', () => {
  it('buys a 30 s up contract, counts it down and reads its settled receipt', async () => {
    const { token } = await newAccount(baseUrl, dataDir, 'options');
    await fundAccount(baseUrl, token, '1000');
    const page = await localizedPage(browser(), { token });
    await page.goto(`${baseUrl}/#/heyue?mode=options`);
    await settled(page);
    await page.getByLabel('Symbol', { exact: true }).selectOption('BTCUSDT');
    await page.waitForFunction(() => /1,000\.00/.test(document.querySelector('[data-testid="options-balance"]')?.textContent ?? ''));
    await page.getByRole('button', { name: /30 s/ }).click();
    await page.getByLabel('Amount (USDT)').fill('10');
    expect(await page.getByTestId('options-win').textContent()).toBe('18.00 USDT');
    expect(await overflowing(page).then((found) => found.problems)).toBe('');
    await page.getByRole('button', { name: 'Buy Up' }).click();
    const sheet = page.getByRole('dialog');
    await sheet.getByText('18.00 USDT').waitFor();
    await sheet.getByRole('button', { name: 'Confirm' }).click();
    await sheet.waitFor({ state: 'detached' });

    const openCard = page.locator('li.option-order[data-status="open"]');
    await openCard.getByRole('timer').waitFor();
    const open = result(await client.get<{ records: SecondOrder[] }>('/trade/appSecondContractOrder/listMy', { status: 'open', pageNo: 1, pageSize: 10 }, token), 'open');
    expect(open.records).toHaveLength(1);
    const id = open.records[0].id;

    // Settles after the exit tick at or after expiry (30 s); the socket or the poll brings it.
    const settledCard = page.locator(`li.option-order[data-order-id="${id}"]:not([data-status="open"])`);
    await settledCard.waitFor({ timeout: 90_000 });
    const listed = result(await client.get<{ records: SecondOrder[] }>('/trade/appSecondContractOrder/listMy', { status: 'settled', pageNo: 1, pageSize: 10 }, token), 'settled');
    const order = listed.records.find((row) => row.id === id)!;
    expect(['won', 'lost', 'draw']).toContain(order.status);
    expect(await settledCard.getAttribute('data-status')).toBe(order.status);
    const expectedPayout = { won: 18_000_000n, lost: 0n, draw: 10_000_000n }[order.status as 'won' | 'lost' | 'draw'];
    expect(atomic(order.payout!)).toBe(expectedPayout);
    const text = (await settledCard.textContent()) ?? '';
    expect(text).toContain(`Tick #${order.entryTick!.id}`);
    expect(text).toContain(`Tick #${order.exitTick!.id}`);
    expect(text).toContain('first recorded tick at or after expiry');
    // The receipt's ticks are the recorded ones, and the first at or after acceptance and expiry.
    const ticks = result(await client.get<Tick[]>('/trade/appSymbol/ticks', { symbol: 'BTCUSDT', from: order.acceptTime - 1, to: order.exitTick!.time + 1 }, token), 'ticks');
    expect(ticks.find((tick) => tick.time >= order.acceptTime)?.id).toBe(order.entryTick!.id);
    expect(ticks.find((tick) => tick.time >= order.expireTime)?.id).toBe(order.exitTick!.id);
    const head = result(await client.get<{ balance: string }>('/trade/appSecondContractOrder/head', {}, token), 'head');
    expect(atomic(head.balance)).toBe(1_000_000_000n - 10_000_000n + expectedPayout);
    await page.context().close();
  }, 150_000);
});
