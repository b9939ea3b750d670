// The contract journey of issue 10 end to end in Chromium against the real server and its
// simulated feed: a funded user opens a long on BTCUSDT with a take-profit and a stop-loss from
// /heyue, watches its profit or loss move with the ticker, changes the stop-loss in the sheet,
// closes it after the confirmation, and reads the receipt in the history: its figures are the
// server's, the spot balance moved by exactly its balance change, and its exit tick is among the
// recorded ticks the server returns. The API is only read, to check what the pages say.
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SpecClient, type Answer } from '../conformance/specClient.ts';
import { browserForFile, localizedPage, overflowing, settled } from './browser.ts';
import { fundAccount, newAccount } from './money.ts';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const browser = browserForFile();
const client = new SpecClient(baseUrl);

interface Tick { id: string; price: string; time: number; source: string }
interface Receipt {
  reason: string; entryTick: Tick; exitTick: Tick; entryPrice: string; exitPrice: string; quantity: string; margin: string;
  grossPnl: string; pnl: string; shortfall: string; openFee: string; closeFee: string; fee: string; payout: string; balanceChange: string;
}
interface Position { id: string; status: string; stopLoss: string | null; takeProfit: string | null; receipt: Receipt | null }

function result<T>(answer: Answer<T>, what: string): T {
  if (answer.envelope?.code !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.text}`);
  return answer.envelope.result;
}

/** A decimal string as atomic units of `scale` (exact). */
const atomic = (text: string, scale: number) => {
  const [whole, fraction = ''] = text.replace(/,/g, '').replace(/^-/, '').split('.');
  const value = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
  return text.startsWith('-') ? -value : value;
};
const decimal = (units: bigint, scale: number) => {
  const digits = units.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
};

const shownText = async (page: Page, testId: string) => (await page.getByTestId(testId).first().textContent())?.trim() ?? '';

describe('contract journey', () => {
  it('opens a long with TP/SL, watches P/L move, moves the stop-loss, closes and reads the receipt', async () => {
    const { token } = await newAccount(baseUrl, dataDir, 'contract');
    await fundAccount(baseUrl, token, '1000');
    const spotBefore = result(await client.get<{ available: string }>('/trade/appTradePositions/summary', {}, token), 'summary').available;
    expect(atomic(spotBefore, 6)).toBe(1_000_000_000n);

    const page = await localizedPage(browser(), { token });
    await page.goto(`${baseUrl}/#/heyue?symbol=BTCUSDT`);
    await settled(page);
    await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="contract-bid"]')?.textContent ?? ''));
    await page.waitForFunction(() => /1,000\.00/.test(document.querySelector('[data-testid="summary-available"]')?.textContent ?? ''));
    const bid = atomic(await shownText(page, 'contract-bid'), 2);
    const ask = atomic(await shownText(page, 'contract-ask'), 2);
    expect(ask).toBeGreaterThan(bid);
    const takeProfit = decimal((ask * 110n) / 100n, 2);
    const stopLoss = decimal((bid * 90n) / 100n, 2);

    await page.getByLabel('Margin (USDT)', { exact: true }).fill('100');
    await page.getByLabel('Take-profit (optional)').fill(takeProfit);
    await page.getByLabel('Stop-loss (optional)').fill(stopLoss);
    await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="preview-fee"]')?.textContent ?? ''));
    // A stop-loss above the price is refused as it is typed, and the button waits.
    await page.getByLabel('Stop-loss (optional)').fill(decimal((ask * 110n) / 100n, 2));
    await page.getByText('For a long, the stop-loss must be below the current price.').waitFor();
    expect(await page.getByRole('button', { name: 'Buy long', exact: true }).isDisabled()).toBe(true);
    await page.getByLabel('Stop-loss (optional)').fill(stopLoss);
    expect(await overflowing(page).then((found) => found.problems)).toBe('');

    await page.getByRole('button', { name: 'Buy long', exact: true }).click();
    const sheet = page.getByRole('dialog');
    await sheet.getByText('Buy long BTCUSDT').waitFor();
    await sheet.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('.position-card').first().waitFor();

    const running = result(await client.get<{ records: Position[] }>('/trade/appTradePositions/listMy', { status: 'running', pageNo: 1, pageSize: 10 }, token), 'running');
    expect(running.records).toHaveLength(1);
    const [opened] = running.records;
    expect(opened.takeProfit).toBe(takeProfit);
    expect(opened.stopLoss).toBe(stopLoss);

    // The profit or loss follows the ticker: wait until it shows another value.
    await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="live-pnl"]')?.textContent ?? ''));
    const firstPnl = await shownText(page, 'live-pnl');
    await page.waitForFunction((first) => {
      const now = document.querySelector('[data-testid="live-pnl"]')?.textContent?.trim();
      return Boolean(now) && now !== first;
    }, firstPnl, { timeout: 60_000 });

    // Move the stop-loss closer in the sheet.
    const newStopLoss = decimal((bid * 95n) / 100n, 2);
    await page.getByRole('button', { name: 'TP/SL' }).click();
    const levels = page.getByRole('dialog');
    await levels.getByLabel('Stop-loss', { exact: true }).fill(newStopLoss);
    await levels.getByRole('button', { name: 'Save' }).click();
    await levels.waitFor({ state: 'detached' });
    await page.waitForFunction((expected) => (document.querySelector('[data-testid="position-sl"]')?.textContent ?? '').replace(/,/g, '') === expected, newStopLoss);
    const moved = result(await client.get<Position>('/trade/appTradePositions/queryById', { id: opened.id }, token), 'position');
    expect(moved.stopLoss).toBe(newStopLoss);
    expect(moved.takeProfit).toBe(takeProfit);

    // Close after the confirmation.
    await page.locator('.position-card').getByRole('button', { name: 'Close' }).click();
    await page.locator('.adm-dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByText('No open positions.').waitFor();

    const closed = result(await client.get<Position>('/trade/appTradePositions/queryById', { id: opened.id }, token), 'closed position');
    expect(closed.status).toBe('closed');
    const receipt = closed.receipt!;
    expect(receipt.reason).toBe('user');
    const spotAfter = result(await client.get<{ available: string }>('/trade/appTradePositions/summary', {}, token), 'summary').available;
    expect(atomic(spotAfter, 6) - atomic(spotBefore, 6)).toBe(atomic(receipt.balanceChange, 6));

    // The receipt in the history shows the server's figures.
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('button', { name: `Receipt of BTCUSDT position ${opened.id}` }).click();
    const receiptSheet = page.getByRole('dialog');
    await receiptSheet.getByTestId('receipt-reason').waitFor();
    expect(await shownText(page, 'receipt-reason')).toBe('Closed by you');
    // The exact figure the server wrote; the text shows it grouped (issue 19).
    const figure = async (testId: string) => (await receiptSheet.getByTestId(testId).locator('.receipt-value').getAttribute('data-amount'))?.trim();
    expect(await figure('receipt-entry')).toBe(receipt.entryPrice);
    expect(await figure('receipt-exit')).toBe(receipt.exitPrice);
    expect(await figure('receipt-pnl')).toBe(receipt.pnl);
    expect(await figure('receipt-fee')).toBe(receipt.fee);
    expect(await figure('receipt-balance-change')).toBe(receipt.balanceChange);
    expect(await receiptSheet.getByText(`#${receipt.exitTick.id}`).first().isVisible()).toBe(true);
    // The figures recompute: balance change = pnl − fee, fee = open + close.
    expect(atomic(receipt.balanceChange, 6)).toBe(atomic(receipt.pnl, 6) - atomic(receipt.fee, 6));
    expect(atomic(receipt.fee, 6)).toBe(atomic(receipt.openFee, 6) + atomic(receipt.closeFee, 6));

    await receiptSheet.getByRole('button', { name: 'Check the recorded ticks' }).click();
    await receiptSheet.getByText(/^The exit tick is among the \d+ ticks the server recorded around it\.$/).waitFor();
    expect(await receiptSheet.locator(`.tick-row.highlight[data-tick-id="${receipt.exitTick.id}"]`).count()).toBe(1);
  });
});
