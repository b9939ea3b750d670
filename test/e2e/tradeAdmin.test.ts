// The back office's trading settings in Chromium at a desktop size, against the real server: the
// demo operator logs in, opens Trading settings (which says no setting sets a price or decides an
// outcome), edits ETHUSDT's leverage choices — a repeated leverage is refused in the form and
// nothing is sent — saves a good list, and the table, the public settings call and the audit trail
// all show the change. The Trades screen opens its three read-only lists.
import fs from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SpecClient } from '../conformance/specClient.ts';
import { browserForFile } from './browser.ts';
import { backOfficePage, fundAccount, newAccount } from './money.ts';

const shots = '/tmp/shots-trade-admin';

const still = (page: Page) => page.waitForFunction(() => document.getAnimations().every((animation) =>
  animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity), undefined, { timeout: 5_000 })
  .catch(() => undefined);

describe('back office: trading settings', () => {
  const getBrowser = browserForFile();
  const baseUrl = inject('baseUrl');
  const client = new SpecClient(baseUrl);
  let page: Page;
  let closedId: string;

  beforeAll(async () => {
    // A user's position on the live feed, opened and closed over the API, for its receipt below.
    const user = await newAccount(baseUrl, inject('dataDir'), 'tradeadmin');
    await fundAccount(baseUrl, user.token, '100');
    const opened = await client.post<{ id: string }>('/trade/appTradePositions/create',
      { symbol: 'BTCUSDT', direction: 'long', leverage: 5, margin: '20', clientOrderId: `e2e-admin-${Date.now()}` }, user.token);
    if (opened.envelope?.code !== 200) throw new Error(`open: ${opened.text}`);
    closedId = opened.envelope.result.id;
    const closed = await client.post(`/trade/appTradePositions/close/${closedId}`, {}, user.token);
    if (closed.envelope?.code !== 200) throw new Error(`close: ${closed.text}`);
  });

  const publicLeverages = async (symbol: string) => {
    const answer = await client.get<Array<{ symbol: string; leverages: number[] }>>('/trade/appSymbol/tradeSettings');
    return answer.envelope!.result.find((item) => item.symbol === symbol)!.leverages;
  };

  it('logs in as the demo operator and edits a symbol\'s leverages; table, public call and audit show it', async () => {
    fs.mkdirSync(shots, { recursive: true });
    // A code is good once: every operator login of every journey takes a step of its own.
    page = await backOfficePage(getBrowser(), baseUrl);

    await page.getByRole('menuitem', { name: 'Trading settings' }).click();
    await expect.poll(() => page.getByTestId('trade-settings-help').textContent()).toContain('no setting here that sets a price or decides an outcome');
    const before = await publicLeverages('ETHUSDT');
    expect(before).not.toEqual([1, 4, 40]);
    await page.getByRole('button', { name: 'Edit ETHUSDT' }).click();
    const leverages = page.getByTestId('symbol-leverages');
    await expect.poll(() => leverages.inputValue()).toBe(before.join(', '));

    // A repeated leverage is refused under the field; nothing reaches the server.
    await leverages.fill('1, 4, 4');
    await page.getByTestId('symbol-save').click();
    await page.getByText('Each leverage may be offered only once.').waitFor();
    expect(await publicLeverages('ETHUSDT')).toEqual(before);
    await still(page);
    await page.screenshot({ path: `${shots}/symbol-refused-en-us-1280.png` });

    await leverages.fill('40, 1, 4');
    await page.getByTestId('symbol-save').click();
    await page.getByTestId('symbol-save').waitFor({ state: 'detached' });
    const row = page.getByTestId('trade-symbols-table').getByRole('row', { name: /ETHUSDT/ });
    await expect.poll(() => row.getByTestId('leverages').textContent()).toBe('1× 4× 40×');
    expect(await publicLeverages('ETHUSDT')).toEqual([1, 4, 40]);
    await still(page);
    await page.screenshot({ path: `${shots}/symbols-en-us-1280.png` });

    await page.getByRole('menuitem', { name: 'Audit trail' }).click();
    const audit = page.getByTestId('audit-table');
    await expect.poll(() => audit.textContent()).toContain('Contract settings changed');
    expect(await audit.textContent()).toContain('trade_symbol ETHUSDT');
  });

  it('opens the three read-only lists of trades and a closed position\'s receipt', async () => {
    await page.getByRole('menuitem', { name: 'Trades' }).click();
    await page.getByTestId('positions-table').getByRole('row', { name: new RegExp(`^${closedId}\\b`) }).click();
    const receipt = page.getByTestId('position-receipt');
    await expect.poll(() => receipt.textContent()).toContain('Closed by the user');
    const text = await receipt.textContent();
    expect(text).toMatch(/Entry tick.*Tick \d+, source /);
    expect(text).toMatch(/Exit tick.*Tick \d+, source /);
    expect(text).toContain('Balance change (profit or loss − fees)');
    await still(page);
    await page.screenshot({ path: `${shots}/position-receipt-en-us-1280.png` });
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'Second contracts' }).click();
    await page.getByTestId('second-orders-table').waitFor();
    await page.getByRole('tab', { name: 'Swaps' }).click();
    await page.getByTestId('swaps-table').waitFor();
    const body = await page.textContent('body');
    expect(body).toContain('no operator can close, settle or price a trade');
    await still(page);
    await page.screenshot({ path: `${shots}/trades-en-us-1280.png` });
  });
});
