// Demo funds through the real protocol: the first call grants 100000 virtual USDT once (also when
// asked several times at once); a reset is refused while a demo position runs or a demo second
// contract is open, and otherwise restores exactly 100000; real balances are never touched, and
// every ledger (the demo one with its house included) sums to zero after each test.
import { expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { demoGrant, tradePaths, type DemoAccount } from '../../../src/api/contract/trading.ts';
import { ledgerTransfers, tradePositions } from '../../../server/db/schema.ts';
import { demoGrantTransferId } from '../../../server/domain/core/trading/demo.ts';
import type { UserEvent } from '../../../src/api/contract/market.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import {
  balanceOfKind, bought, expectLedgerSound, houseBalance, moneySnapshot, recordTicks, settlerOf, trader, usdt, type Trader,
} from './secondHelpers.ts';

const account = async (server: TestServer, user: Trader): Promise<DemoAccount> =>
  expectOk(await server.get(tradePaths.demoAccount, {}, { token: user.token })).body.result;
const reset = (server: TestServer, user: Trader) => server.post(tradePaths.demoReset, {}, { token: user.token });

async function grantCount(server: TestServer, user: Trader) {
  return (await server.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.id, demoGrantTransferId(user.userId)))).length;
}

/** A running demo position row (as the contract engine writes one), with no money behind it. */
async function runningDemoPosition(server: TestServer, user: Trader) {
  const [tick] = await recordTicks(server, 'BTCUSDT', [['60000.00', server.clock.now().getTime()]]);
  const now = server.clock.now();
  const [row] = await server.db.insert(tradePositions).values({
    userId: user.userId, ledger: 2, symbol: 'BTCUSDT', direction: 'long', leverage: 10, quantity: 100n, margin: usdt('60'),
    openPrice: 6000000n, spreadUnits: 0n, feePpm: 0, maintenancePpm: 5000, openFee: 0n, status: 'running',
    clientOrderId: server.unique('demo-test-'), requestHash: 'x'.repeat(64), entryTickId: tick.id, createdAt: now, updatedAt: now,
  }).returning();
  return row;
}

forEachDatabase((server) => {
  it('the first call grants 100000 virtual USDT, once; real money is not touched', async () => {
    const user = await trader(server, '250');
    const events: UserEvent[] = [];
    const unsubscribe = server.services.userEvents.subscribe((userId, event) => { if (userId === user.userId) events.push(event); });
    expect(await account(server, user)).toEqual({ balance: '100000.000000', inUse: '0.000000', openPositions: 0, openOrders: 0 });
    expect(await account(server, user)).toEqual({ balance: '100000.000000', inUse: '0.000000', openPositions: 0, openOrders: 0 });
    expect(await grantCount(server, user)).toBe(1);
    expect(await balanceOfKind(server, user.userId, 'demo')).toBe(usdt(demoGrant));
    expect(await balanceOfKind(server, user.userId, 'spot')).toBe(usdt('250'));
    expectRefused(await server.get(tradePaths.demoAccount), 401, 'unauthorized');

    // Asked several times at once by a new user: still one grant.
    const fresh = await trader(server, '0');
    const answers = await Promise.all(Array.from({ length: 4 }, () => server.get(tradePaths.demoAccount, {}, { token: fresh.token })));
    for (const answer of answers) expect(expectOk(answer).body.result.balance).toBe('100000.000000');
    expect(await grantCount(server, fresh)).toBe(1);
    expect(await balanceOfKind(server, fresh.userId, 'demo')).toBe(usdt(demoGrant));
    unsubscribe();
    expect(events).toEqual([]);
    await expectLedgerSound(server);
  });

  it('a reset is refused while a demo second contract is open, and restores 100000 once it settled', async () => {
    const user = await trader(server, '500');
    await account(server, user);
    const settler = settlerOf(server);
    server.clock.advance(600_000);
    await recordTicks(server, 'BTCUSDT', [['60000.00', server.clock.now().getTime()]]);
    server.clock.advance(1000);
    const order = await bought(server, user, { demo: true, direction: 'up', duration: 30, amount: '100' });
    expect(await account(server, user)).toEqual({ balance: '99900.000000', inUse: '100.000000', openPositions: 0, openOrders: 1 });

    const snapshot = await moneySnapshot(server);
    const refused = await reset(server, user);
    expectRefused(refused, 409, 'demo_positions_open');
    expect(refused.body.result).toMatchObject({ openPositions: 0, openOrders: 1 });
    expect(await moneySnapshot(server)).toEqual(snapshot);

    // The contract settles (a win: the exit tick is above the entry).
    await recordTicks(server, 'BTCUSDT', [['60000.00', order.acceptTime], ['60100.00', order.expireTime]]);
    server.clock.advance(31_000);
    await settler.catchUp();
    const settled = await account(server, user);
    expect(settled.openOrders).toBe(0);
    expect(settled.balance).not.toBe('100000.000000');

    const houseBefore = await houseBalance(server, true);
    const spotBefore = await balanceOfKind(server, user.userId, 'spot');
    const events: UserEvent[] = [];
    const unsubscribe = server.services.userEvents.subscribe((userId, event) => { if (userId === user.userId) events.push(event); });
    const restored = expectOk(await reset(server, user)).body.result;
    unsubscribe();
    expect(restored).toEqual({ balance: '100000.000000', inUse: '0.000000', openPositions: 0, openOrders: 0 });
    expect(events).toEqual([{ kind: 'balance', demo: true }]);
    // The demo house took back what the user held and paid the grant again: it moved by their difference.
    const held = await balanceOfKind(server, user.userId, 'demo');
    expect(held).toBe(usdt(demoGrant));
    expect(houseBefore - await houseBalance(server, true)).toBe(usdt(demoGrant) - usdt(settled.balance));
    expect(await balanceOfKind(server, user.userId, 'spot')).toBe(spotBefore);
    expect(spotBefore).toBe(usdt('500'));
    const transfers = await server.query<{ id: string; kind: string; ledger: number }>(sql`select id, kind, ledger from ledger_transfers
      where reference = ${`demo:${user.userId}`} order by seq`);
    expect(transfers.map((transfer) => [transfer.kind, Number(transfer.ledger)])).toEqual([['demo_grant', 2], ['demo_reset', 2], ['demo_reset', 2]]);
    await expectLedgerSound(server);
  });

  it('a reset is refused while a demo position runs; resets are repeatable and each restores 100000', async () => {
    const user = await trader(server, '300');
    const position = await runningDemoPosition(server, user);
    expect(await account(server, user)).toMatchObject({ balance: '100000.000000', openPositions: 1 });
    const snapshot = await moneySnapshot(server);
    const refused = await reset(server, user);
    expectRefused(refused, 409, 'demo_positions_open');
    expect(refused.body.result).toMatchObject({ openPositions: 1, openOrders: 0 });
    expect(await moneySnapshot(server)).toEqual(snapshot);
    // Without the position (the row carried no money), resets go through, each with transfer ids of its own.
    await server.db.delete(tradePositions).where(eq(tradePositions.id, position.id));
    for (let i = 0; i < 3; i += 1) {
      expect(expectOk(await reset(server, user)).body.result).toEqual({ balance: '100000.000000', inUse: '0.000000', openPositions: 0, openOrders: 0 });
    }
    const [{ resets }] = await server.query<{ resets: number }>(sql`select count(*)::int as resets from ledger_transfers
      where reference = ${`demo:${user.userId}`} and kind = 'demo_reset'`);
    // Each reset: the whole 100000 back to the house, and 100000 granted again.
    expect(resets).toBe(6);
    expect(await balanceOfKind(server, user.userId, 'spot')).toBe(usdt('300'));
    expect(await balanceOfKind(server, user.userId, 'demo')).toBe(usdt(demoGrant));
    await expectLedgerSound(server);
  });

  it('a reset before the first account call grants, then resets; the real ledger has no demo transfer', async () => {
    const user = await trader(server, '0');
    expect(expectOk(await reset(server, user)).body.result.balance).toBe('100000.000000');
    const [{ real }] = await server.query<{ real: number }>(sql`select count(*)::int as real from ledger_transfers
      where ledger = 1 and kind in ('demo_grant', 'demo_reset')`);
    expect(real).toBe(0);
    expectRefused(await server.post(tradePaths.demoReset, { extra: 1 }, { token: user.token }), 400, 'invalid_request');
    await expectLedgerSound(server);
  });
});
