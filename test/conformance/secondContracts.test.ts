// Conformance: a spec-only client lists the second-contract sets (public), funds its account
// with a deposit the demo operator approves, buys a second contract, finds it in its open orders
// and reads the trade asset info (head) with the stake taken off its balance; a retry with the
// same clientOrderId answers the same order and bad input is refused with stable codes. Field
// names the spec does not show were read (not imported) from src/api/contract/trading.ts.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from './server.ts';
import { type SpecClient } from './specClient.ts';
import { expectError, expectSuccess, fundUsdt, openTradingSession } from './tradingSession.ts';

let server: RunningServer;
let client: SpecClient;
let token: string;

const fund = (amount: string) => fundUsdt({ server, client, token }, amount);

beforeAll(async () => {
  ({ server, client, token } = await openTradingSession('conf-second', 'Second2026conf'));
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

interface SecondSet { symbol: string; enabled: boolean; durations: Array<{ seconds: number; payoutRate: string }>; amountMin: string; amountMax: string; open: boolean }
interface SecondOrder { id: string; symbol: string; direction: string; duration: number; amount: string; status: string; acceptTime: number; expireTime: number; clientOrderId: string }

describe('second-contract calls of spec §7', () => {
  let set: SecondSet;

  it('GET /trade/appSecondContractSet/list answers without a session', async () => {
    const sets = expectSuccess(await client.get<SecondSet[]>('/trade/appSecondContractSet/list'));
    set = sets.find((row) => row.symbol === 'BTCUSDT')!;
    expect(set).toMatchObject({ enabled: true, open: true });
    expect(set.durations.length).toBeGreaterThan(0);
    expect(set.durations[0]).toEqual({ seconds: expect.any(Number), payoutRate: expect.stringMatching(/^\d+(\.\d+)?$/) });
  });

  it('POST /trade/appSecondContractOrder/buy, then GET listMy and head', async () => {
    const before = expectSuccess(await client.get<{ balance: string; openOrders: number; todayPnl: string }>(
      '/trade/appSecondContractOrder/head', {}, token));
    expect(before).toMatchObject({ balance: '0.000000', openOrders: 0, todayPnl: '0.000000' });
    const duration = set.durations[set.durations.length - 1].seconds;
    expectError(await client.post('/trade/appSecondContractOrder/buy', {
      symbol: 'BTCUSDT', direction: 'up', duration, amount: '20', clientOrderId: 'conf-second-broke-1',
    }, token), 400, 'balance_insufficient');

    await fund('100');
    const clientOrderId = `conf-second-${crypto.randomBytes(4).toString('hex')}`;
    const body = { symbol: 'BTCUSDT', direction: 'up', duration, amount: '20', clientOrderId };
    const order = expectSuccess(await client.post<SecondOrder>('/trade/appSecondContractOrder/buy', body, token));
    expect(order).toMatchObject({ symbol: 'BTCUSDT', direction: 'up', duration, amount: '20.000000', status: 'open', clientOrderId });
    expect(order.expireTime - order.acceptTime).toBe(duration * 1000);
    const again = expectSuccess(await client.post<SecondOrder>('/trade/appSecondContractOrder/buy', body, token));
    expect(again.id).toBe(order.id);
    expectError(await client.post('/trade/appSecondContractOrder/buy', { ...body, amount: '30' }, token), 409, 'client_order_id_reused');
    expectError(await client.post('/trade/appSecondContractOrder/buy', { ...body, duration: 7, clientOrderId: 'conf-second-bad-1' }, token),
      400, 'duration_not_offered');
    expectError(await client.post('/trade/appSecondContractOrder/buy', { ...body, amount: '1', clientOrderId: 'conf-second-bad-2' }, token),
      400, 'stake_too_small');

    const page = expectSuccess(await client.get<{ records: SecondOrder[]; total: number }>(
      '/trade/appSecondContractOrder/listMy', { status: 'open', pageNo: 1, pageSize: 10 }, token));
    expect(page.total).toBe(1);
    expect(page.records[0].id).toBe(order.id);
    // The history's optional filters (issue 19): symbol, time (accepted at while open) and result (settled orders only).
    const orders = async (query: Record<string, string | number>) => expectSuccess(
      await client.get<{ records: SecondOrder[]; total: number }>('/trade/appSecondContractOrder/listMy', query, token));
    expect((await orders({ symbol: 'BTCUSDT', since: order.acceptTime, until: order.acceptTime })).records.map((row) => row.id))
      .toEqual([order.id]);
    expect((await orders({ symbol: 'ETHUSDT' })).total).toBe(0);
    expect((await orders({ since: order.acceptTime + 1 })).total).toBe(0);
    for (const result of ['won', 'lost', 'even']) expect((await orders({ result })).total).toBe(0);
    expectError(await client.get('/trade/appSecondContractOrder/listMy', { result: 'draw' }, token), 400, 'invalid_request');
    const head = expectSuccess(await client.get<{ balance: string; openOrders: number }>('/trade/appSecondContractOrder/head', {}, token));
    expect(head).toMatchObject({ balance: '80.000000', openOrders: 1 });
    expect((await client.get('/trade/appSecondContractOrder/head')).status).toBe(401);
  }, 60_000);
});
