// Second contracts through the real protocol, on PGlite and PostgreSQL: the sets, buying (the
// stake held in one transaction), entry and exit ticks exactly as the rules say (boundaries
// included), win, loss and draw payouts against the house, settlement after a restart, exactly
// once under two settlers at once, refusals that move nothing, demo apart from real, and the
// same clientOrderId twice. The ledger is checked after every test (house included).
import { afterEach, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { tradePaths } from '../../../src/api/contract/trading.ts';
import type { UserEvent } from '../../../src/api/contract/market.ts';
import { marketTicks, secondContractOrders } from '../../../server/db/schema.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import {
  balanceOfKind, bought, buy, expectLedgerSound, freshTick, houseBalance, moneySnapshot, recordTick, recordTicks,
  settlerOf, trader, usdt,
} from './secondHelpers.ts';

async function orderRow(server: TestServer, id: string) {
  const [row] = await server.db.select().from(secondContractOrders).where(eq(secondContractOrders.id, BigInt(id)));
  return row;
}

async function listed(server: TestServer, token: string, query: Record<string, string> = {}) {
  return expectOk(await server.get(tradePaths.secondList, query, { token })).body.result;
}

describe('second contracts', () => {
  forEachDatabase((server) => {
    afterEach(() => expectLedgerSound(server));

    it('lists every symbol\'s set without a session', async () => {
      const sets = expectOk(await server.get(tradePaths.secondSets)).body.result as Array<Record<string, any>>;
      const btc = sets.find((set) => set.symbol === 'BTCUSDT')!;
      expect(btc).toMatchObject({ enabled: true, amountMin: '10.000000', amountMax: '50000.000000', open: true });
      expect(btc.durations).toEqual([
        { seconds: 30, payoutRate: '0.8' }, { seconds: 60, payoutRate: '0.85' },
        { seconds: 120, payoutRate: '0.9' }, { seconds: 300, payoutRate: '0.95' },
      ]);
      expect(sets.some((set) => set.symbol === 'USDJPY')).toBe(false);
    });

    it('reads head for a user who never traded without opening accounts', async () => {
      const user = await trader(server, '0');
      const before = await moneySnapshot(server);
      expect(expectOk(await server.get(tradePaths.secondHead, { demo: 'true' }, { token: user.token })).body.result)
        .toEqual({ demo: true, balance: '0.000000', openOrders: 0, todayPnl: '0.000000' });
      expect(await moneySnapshot(server)).toEqual(before);
      expect((await listed(server, user.token)).total).toBe(0);
    });

    it('holds the stake at purchase and shows the order, the balance and the open count', async () => {
      const user = await trader(server, '1000');
      await freshTick(server);
      const order = await bought(server, user, { amount: '100.5' });
      const now = server.clock.now().getTime();
      expect(order).toMatchObject({
        symbol: 'BTCUSDT', direction: 'up', duration: 60, payoutRate: '0.85', amount: '100.500000', status: 'open',
        demo: false, acceptTime: now, expireTime: now + 60_000, exitTick: null, payout: null, pnl: null, settleTime: null,
      });
      expect(await balanceOfKind(server, user.userId, 'spot')).toBe(usdt('899.5'));
      expect(await balanceOfKind(server, user.userId, 'position_margin')).toBe(usdt('100.5'));
      const head = expectOk(await server.get(tradePaths.secondHead, {}, { token: user.token })).body.result;
      expect(head).toEqual({ demo: false, balance: '899.500000', openOrders: 1, todayPnl: '0.000000' });
      const page = await listed(server, user.token, { status: 'open' });
      expect(page.total).toBe(1);
      expect(page.records[0].id).toBe(order.id);
      expect((await listed(server, user.token, { status: 'settled' })).total).toBe(0);
    });

    it('takes the entry at the tick exactly at acceptance and the exit at the tick exactly at expiry', async () => {
      const user = await trader(server, '1000');
      const settler = settlerOf(server);
      await freshTick(server, 'BTCUSDT', '60000.00');
      server.clock.advance(1000);
      const order = await bought(server, user, { direction: 'up', duration: 60 });
      const accept = order.acceptTime as number;
      const expiry = order.expireTime as number;
      const early = await recordTicks(server, 'BTCUSDT', [['60001.00', accept - 1], ['60002.00', accept], ['60003.00', accept + 10]]);
      await settler.onTicks(early);
      let row = await orderRow(server, order.id);
      expect(row.status).toBe('open');
      expect(row.entryTickId).toBe(early[1].id);
      expect(row.entryPrice).toBe(6_000_200n);
      let open = (await listed(server, user.token, { status: 'open' })).records[0];
      expect(open.entryTick).toMatchObject({ id: String(early[1].id), price: '60002.00', time: accept, source: 'test' });
      expect(open.exitTick).toBeNull();

      // A tick a millisecond before expiry is not the exit, whatever its price.
      await settler.onTicks(await recordTicks(server, 'BTCUSDT', [['59000.00', expiry - 1]]));
      expect((await orderRow(server, order.id)).status).toBe('open');

      const late = await recordTicks(server, 'BTCUSDT', [['60005.00', expiry], ['50000.00', expiry + 1]]);
      await settler.onTicks(late);
      row = await orderRow(server, order.id);
      expect(row).toMatchObject({ status: 'won', exitTickId: late[0].id, exitPrice: 6_000_500n, payout: usdt('185') });
      open = (await listed(server, user.token, { status: 'settled' })).records[0];
      expect(open).toMatchObject({
        status: 'won', payout: '185.000000', pnl: '85.000000',
        entryTick: { id: String(early[1].id), price: '60002.00', time: accept },
        exitTick: { id: String(late[0].id), price: '60005.00', time: expiry },
      });
      const retained = await server.db.select({ id: marketTicks.id, retained: marketTicks.retained }).from(marketTicks)
        .where(inArray(marketTicks.id, [early[1].id, late[0].id]));
      expect(retained.every((tick) => tick.retained)).toBe(true);
    });

    it('takes the first tick after acceptance and after expiry when none falls on them, the lower id on a tie', async () => {
      const user = await trader(server, '1000');
      const settler = settlerOf(server);
      await freshTick(server, 'BTCUSDT', '60000.00');
      server.clock.advance(2000);
      const order = await bought(server, user, { direction: 'down', duration: 30 });
      const accept = order.acceptTime as number;
      const expiry = order.expireTime as number;
      const ticks = await recordTicks(server, 'BTCUSDT', [
        ['60100.00', accept + 400], ['60200.00', accept + 900], ['60300.00', expiry - 100],
        ['60050.00', expiry + 250], ['70000.00', expiry + 250], ['40000.00', expiry + 600],
      ]);
      await settler.onTicks(ticks);
      const row = await orderRow(server, order.id);
      // Down: exit 60050.00 is below entry 60100.00 (the 70000.00 tick at the same time has the higher id).
      expect(row).toMatchObject({ status: 'won', entryTickId: ticks[0].id, exitTickId: ticks[3].id, payout: usdt('180') });
    });

    it('pays a win from the house, gives a loss to the house, refunds a draw, and counts today\'s pnl', async () => {
      const user = await trader(server, '1000');
      const events: Array<[bigint, UserEvent]> = [];
      const unsubscribe = server.services.userEvents.subscribe((userId, event) => events.push([userId, event]));
      const settler = settlerOf(server);
      await freshTick(server, 'BTCUSDT', '60000.00');
      const houseBefore = await houseBalance(server);
      const won = await bought(server, user, { direction: 'up', duration: 120, amount: '100' });
      const lost = await bought(server, user, { direction: 'down', duration: 120, amount: '100' });
      const draw = await bought(server, user, { direction: 'up', duration: 30, amount: '50' });
      expect(await balanceOfKind(server, user.userId, 'spot')).toBe(usdt('750'));
      const accept = won.acceptTime as number;
      // Entry 60000.00 (the fresh tick at acceptance); the 30 s order exits level, the 120 s ones higher.
      await settler.onTicks(await recordTicks(server, 'BTCUSDT', [['60000.00', accept + 30_000], ['60010.00', accept + 120_000]]));
      expect((await orderRow(server, won.id)).status).toBe('won');
      expect((await orderRow(server, lost.id)).status).toBe('lost');
      expect((await orderRow(server, draw.id)).status).toBe('draw');
      // 1000 − 100 − 100 − 50 + (100 + 90) + 0 + 50
      expect(await balanceOfKind(server, user.userId, 'spot')).toBe(usdt('990'));
      expect(await balanceOfKind(server, user.userId, 'position_margin')).toBe(0n);
      expect(await houseBalance(server) - houseBefore).toBe(usdt('10'));
      const head = expectOk(await server.get(tradePaths.secondHead, {}, { token: user.token })).body.result;
      expect(head).toEqual({ demo: false, balance: '990.000000', openOrders: 0, todayPnl: '-10.000000' });
      const settled = (await listed(server, user.token, { status: 'settled' })).records as Array<Record<string, unknown>>;
      expect(settled.map((record) => [record.status, record.payout, record.pnl]).sort()).toEqual([
        ['draw', '50.000000', '0.000000'], ['lost', '0.000000', '-100.000000'], ['won', '190.000000', '90.000000'],
      ]);
      unsubscribe();
      const mine = events.filter(([userId]) => userId === user.userId).map(([, event]) => event);
      expect(mine).toEqual(expect.arrayContaining([
        { kind: 'second', demo: false, id: won.id, status: 'won' }, { kind: 'second', demo: false, id: lost.id, status: 'lost' },
        { kind: 'second', demo: false, id: draw.id, status: 'draw' }, { kind: 'second', demo: false, id: won.id, status: 'open' },
      ]));
    });

    it('settles after a restart what expired while no settler ran', async () => {
      const user = await trader(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const order = await bought(server, user, { direction: 'up', duration: 30, amount: '200' });
      await server.restartApp();
      const accept = order.acceptTime as number;
      server.clock.advance(120_000);
      const ticks = await recordTicks(server, 'BTCUSDT', [['59990.00', accept + 5_000], ['59000.00', accept + 31_000]]);
      expect((await orderRow(server, order.id)).status).toBe('open');
      const settled = await settlerOf(server).catchUp();
      expect(settled).toBeGreaterThanOrEqual(1);
      // The entry is the fresh tick at acceptance (60000.00), the exit the first after expiry: lost.
      expect(await orderRow(server, order.id)).toMatchObject({ status: 'lost', exitTickId: ticks[1].id, payout: 0n });
      expect(await balanceOfKind(server, user.userId, 'spot')).toBe(usdt('800'));
    });

    it('fills the entry of open orders at catch-up when their entry tick is recorded but the exit is not', async () => {
      const user = await trader(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      server.clock.advance(500);
      const order = await bought(server, user, { duration: 300 });
      const entry = await recordTick(server, 'BTCUSDT', '60001.00', (order.acceptTime as number) + 100);
      await settlerOf(server).catchUp();
      expect(await orderRow(server, order.id)).toMatchObject({ status: 'open', entryTickId: entry.id, entryPrice: 6_000_100n });
      // Settled later so the suite's next tests start with nothing of this one open.
      await settlerOf(server).onTicks(await recordTicks(server, 'BTCUSDT', [['60001.00', (order.expireTime as number) + 1]]));
      expect((await orderRow(server, order.id)).status).toBe('draw');
    });

    it('settles each order exactly once when two settlers run at once', async () => {
      const users = await Promise.all([trader(server, '5000'), trader(server, '5000'), trader(server, '5000')]);
      await freshTick(server, 'ETHUSDT', '3000.00');
      const orders: Array<{ id: string; user: number; direction: string }> = [];
      for (let i = 0; i < 30; i += 1) {
        const direction = i % 4 === 0 ? 'down' : 'up';
        const order = await bought(server, users[i % 3], { symbol: 'ETHUSDT', direction, duration: 30, amount: '10' });
        orders.push({ id: order.id, user: i % 3, direction });
      }
      const accept = server.clock.now().getTime();
      const ticks = await recordTicks(server, 'ETHUSDT', [['3001.00', accept + 31_000]]);
      const first = settlerOf(server, { chunkSize: 4, concurrency: 3 });
      const second = settlerOf(server, { chunkSize: 7, concurrency: 2 });
      await Promise.all([first.onTicks(ticks), second.onTicks(ticks), first.catchUp(), second.catchUp()]);
      const ids = orders.map((order) => BigInt(order.id));
      const rows = await server.db.select().from(secondContractOrders).where(inArray(secondContractOrders.id, ids));
      expect(rows.every((row) => row.status === (row.direction === 'up' ? 'won' : 'lost'))).toBe(true);
      const transfers = await server.query<{ reference: string; n: number }>(sql`select reference, count(*)::int as n
        from ledger_transfers where reference = any(${`{${orders.map((order) => `second:${order.id}`).join(',')}}`}::varchar[])
        group by reference`);
      const byReference = new Map(transfers.map((row) => [row.reference, row.n]));
      for (const order of orders) expect(byReference.get(`second:${order.id}`)).toBe(order.direction === 'up' ? 3 : 2);
      // Each trader: 10 orders of 10; the ups (i % 4 ≠ 0) get 10 + 8 back each (30 s pays 0.8), the downs lose.
      for (const [index, user] of users.entries()) {
        const ups = orders.filter((order) => order.user === index && order.direction === 'up').length;
        expect(await balanceOfKind(server, user.userId, 'spot')).toBe(usdt('4900') + BigInt(ups) * usdt('18'));
      }
    });

    it('answers the first order to a retry, refuses the key with other fields, and makes one order of two at once', async () => {
      const user = await trader(server, '1000');
      await freshTick(server);
      const clientOrderId = server.unique('retry-');
      const first = await bought(server, user, { clientOrderId, amount: '20' });
      const again = await bought(server, user, { clientOrderId, amount: '20' });
      expect(again).toEqual(first);
      expect(await balanceOfKind(server, user.userId, 'spot')).toBe(usdt('980'));
      const before = await moneySnapshot(server);
      expectRefused(await buy(server, user, { clientOrderId, amount: '21' }), 409, 'client_order_id_reused');
      expectRefused(await buy(server, user, { clientOrderId, amount: '20', direction: 'down' }), 409, 'client_order_id_reused');
      expect(await moneySnapshot(server)).toEqual(before);

      const racing = server.unique('race-');
      const answers = await Promise.all([buy(server, user, { clientOrderId: racing }), buy(server, user, { clientOrderId: racing })]);
      const [a, b] = answers.map((answer) => expectOk(answer).body.result);
      expect(a.id).toBe(b.id);
      const rows = await server.db.select().from(secondContractOrders).where(eq(secondContractOrders.clientOrderId, racing));
      expect(rows).toHaveLength(1);
      expect(await balanceOfKind(server, user.userId, 'spot')).toBe(usdt('880'));
      await settlerOf(server).onTicks(await recordTicks(server, 'BTCUSDT', [['60000.00', server.clock.now().getTime() + 61_000]]));
    });

    it('keeps demo and real apart', async () => {
      const user = await trader(server, '1000', '5000');
      await freshTick(server);
      const realHouse = await houseBalance(server, false);
      const demoHouse = await houseBalance(server, true);
      const order = await bought(server, user, { demo: true, amount: '100', direction: 'up' });
      expect(order.demo).toBe(true);
      expect(await balanceOfKind(server, user.userId, 'demo')).toBe(usdt('4900'));
      expect(await balanceOfKind(server, user.userId, 'spot')).toBe(usdt('1000'));
      expect((await listed(server, user.token)).total).toBe(0);
      expect((await listed(server, user.token, { demo: 'true' })).total).toBe(1);
      expect(expectOk(await server.get(tradePaths.secondHead, { demo: 'true' }, { token: user.token })).body.result)
        .toEqual({ demo: true, balance: '4900.000000', openOrders: 1, todayPnl: '0.000000' });
      expect(expectOk(await server.get(tradePaths.secondHead, {}, { token: user.token })).body.result)
        .toMatchObject({ demo: false, balance: '1000.000000', openOrders: 0 });
      // A demo stake above the real balance goes through; a real one above it does not.
      await bought(server, user, { demo: true, amount: '2000', direction: 'down' });
      expectRefused(await buy(server, user, { amount: '2000' }), 400, 'balance_insufficient');
      await settlerOf(server).onTicks(await recordTicks(server, 'BTCUSDT', [['60001.00', server.clock.now().getTime() + 60_000]]));
      expect(await balanceOfKind(server, user.userId, 'demo')).toBe(usdt('4900') - usdt('2000') + usdt('185'));
      expect(await balanceOfKind(server, user.userId, 'spot')).toBe(usdt('1000'));
      expect(await houseBalance(server, false)).toBe(realHouse);
      expect(await houseBalance(server, true) - demoHouse).toBe(usdt('2000') - usdt('85'));
    });

    it('refuses bad input with a clear message and moves nothing', async () => {
      const user = await trader(server, '50');
      await freshTick(server);
      const before = await moneySnapshot(server);
      expectRefused(await buy(server, user, { duration: 45 }), 400, 'duration_not_offered');
      expectRefused(await buy(server, user, { amount: '9.999999' }), 400, 'stake_too_small');
      expectRefused(await buy(server, user, { amount: '50000.000001' }), 400, 'stake_too_large');
      expectRefused(await buy(server, user, { amount: '0' }), 400, 'amount_not_positive');
      expectRefused(await buy(server, user, { amount: '1.0000001' }), 400, 'amount_too_many_decimals');
      expectRefused(await buy(server, user, { symbol: 'ZZZUSDT' }), 400, 'symbol_not_tradable');
      expectRefused(await buy(server, user, { symbol: 'USDJPY' }), 400, 'symbol_not_tradable');
      expectRefused(await buy(server, user, { symbol: 'SOLUSDT' }), 400, 'price_unavailable');
      await recordTick(server, 'SOLUSDT', '150.000', server.clock.now().getTime() - 20_000);
      expectRefused(await buy(server, user, { symbol: 'SOLUSDT' }), 400, 'price_unavailable');
      expectRefused(await buy(server, user, { amount: '50.000001' }), 400, 'balance_insufficient');
      expectRefused(await buy(server, user, { amount: '20', demo: true }), 400, 'balance_insufficient');
      expectRefused(await server.post(tradePaths.secondBuy, { symbol: 'BTCUSDT', direction: 'up', duration: 60, amount: '20',
        clientOrderId: server.unique('anon-') }), 401, 'unauthorized');
      expect(await moneySnapshot(server)).toEqual(before);
      expect(await balanceOfKind(server, user.userId, 'spot')).toBe(usdt('50'));
    });

    it('refuses a closed market (forex at the weekend)', async () => {
      const user = await trader(server, '1000');
      const saturday = new Date('2026-06-06T12:00:00.000Z').getTime();
      server.clock.advance(saturday - server.clock.now().getTime());
      await recordTick(server, 'EURUSD', '1.08450');
      const before = await moneySnapshot(server);
      const reply = await buy(server, user, { symbol: 'EURUSD' });
      expectRefused(reply, 400, 'market_closed');
      expect(reply.body.result.reopensAt).toBeGreaterThan(saturday);
      expect(await moneySnapshot(server)).toEqual(before);
      const sets = expectOk(await server.get(tradePaths.secondSets)).body.result as Array<Record<string, any>>;
      expect(sets.find((set) => set.symbol === 'EURUSD')).toMatchObject({ open: false });
    });
  });
});
