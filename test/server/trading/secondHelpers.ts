// What the second-contract tests share: a funded trader (real spot and demo funds), ticks recorded
// at chosen prices and times, the buy call through the real protocol, a settler on the test app's
// database and clock, a snapshot of the money a refusal must leave alone, and the ledger check.
import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { tradePaths } from '../../../src/api/contract/trading.ts';
import { parseAmount } from '../../../src/api/contract/amounts.ts';
import { ledgerAccounts } from '../../../server/db/schema.ts';
import { openAccounts, systemShard } from '../../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';
import { verifyLedger } from '../../../server/domain/kernel/ledger/verify.ts';
import { insertTicks, type RecordedTick } from '../../../server/domain/core/market/store.ts';
import { symbolByCode } from '../../../server/domain/core/market/symbols.ts';
import { SecondSettler } from '../../../server/domain/core/trading/secondSettlement.ts';
import { expectOk, type Account, type Reply, type TestServer } from '../helpers.ts';

export interface Trader extends Account { userId: bigint }

export const usdt = (amount: number | string) => {
  const parsed = parseAmount(String(amount), 6);
  if (!parsed.ok) throw new Error(`bad amount ${amount}`);
  return parsed.atomic;
};

async function credit(server: TestServer, userId: bigint, amount: string, demo: boolean) {
  const ledger = demo ? 'demo' : 'real';
  const [from, to] = await openAccounts(server.db, [
    { ledger, asset: 'USDT', kind: demo ? 'house' : 'deposit_clearing', shard: systemShard(`user:${userId}`) },
    { ledger, asset: 'USDT', kind: demo ? 'demo' : 'spot', ownerUserId: userId },
  ]);
  const result = await postTransfers(server.db, [{
    id: server.unique('test-fund-'), kind: demo ? 'demo_grant' : 'deposit', reference: server.unique('test-fund-ref-'),
    amountAtomic: usdt(amount), debitAccountId: from, creditAccountId: to,
  }], server.clock);
  if (!result.ok) throw new Error(`funding refused: ${result.refusal}`);
}

export async function trader(server: TestServer, spot = '1000', demo = '0'): Promise<Trader> {
  const account = await server.registerByEmail();
  const userId = (await server.userByEmail(account.email!)).id;
  if (spot !== '0') await credit(server, userId, spot, false);
  if (demo !== '0') await credit(server, userId, demo, true);
  return { ...account, userId };
}

/** Records ticks of `symbol` at the given prices (decimal text) and times. */
export async function recordTicks(server: TestServer, symbol: string, ticks: Array<[price: string, timeMs: number]>): Promise<RecordedTick[]> {
  const spec = symbolByCode.get(symbol)!;
  return insertTicks(server.db, ticks.map(([price, timeMs]) => {
    const parsed = parseAmount(price, spec.pricePrecision);
    if (!parsed.ok) throw new Error(`bad price ${price}`);
    return { symbol, priceUnits: parsed.atomic, volumeUnits: 1n, timeMs };
  }), 'test');
}

export async function recordTick(server: TestServer, symbol: string, price: string, timeMs = server.clock.now().getTime()) {
  return (await recordTicks(server, symbol, [[price, timeMs]]))[0];
}

/** Moves the clock on ten minutes and records a fresh tick, so every test trades at prices of its own. */
export async function freshTick(server: TestServer, symbol = 'BTCUSDT', price = '60000.00') {
  server.clock.advance(600_000);
  return recordTick(server, symbol, price);
}

export function buy(server: TestServer, user: Account, fields: Record<string, unknown> = {}): Promise<Reply> {
  return server.post(tradePaths.secondBuy, {
    symbol: 'BTCUSDT', direction: 'up', duration: 60, amount: '100', clientOrderId: server.unique('second-'), ...fields,
  }, { token: user.token });
}

export async function bought(server: TestServer, user: Account, fields: Record<string, unknown> = {}) {
  return expectOk(await buy(server, user, fields)).body.result;
}

export const settlerOf = (server: TestServer, options: { concurrency?: number; chunkSize?: number } = {}) =>
  new SecondSettler({
    db: server.db, clock: server.clock, userEvents: server.services.userEvents, onError: (error) => { throw error; }, ...options,
  });

/** Every account's totals and the number of transfers and orders: what a refusal leaves as it was. */
export async function moneySnapshot(server: TestServer) {
  const accounts = await server.db.select().from(ledgerAccounts).orderBy(ledgerAccounts.id);
  const [counts] = await server.query<{ transfers: number; orders: number }>(sql`select
    (select count(*)::int from ledger_transfers) as transfers, (select count(*)::int from second_contract_orders) as orders`);
  return { accounts: accounts.map((a) => [a.id, a.debitsPosted, a.creditsPosted, a.debitsPending, a.creditsPending]), counts };
}

/** A user's USDT balance (credits − debits, posted) in one account kind of one ledger. */
export async function balanceOfKind(server: TestServer, userId: bigint, kind: 'spot' | 'demo' | 'position_margin', demo = kind === 'demo') {
  const [row] = await server.query<{ balance: string }>(sql`select (credits_posted - debits_posted)::text as balance from ledger_accounts
    where owner_user_id = ${userId} and asset = 'USDT' and kind = ${kind} and ledger = ${demo ? 2 : 1}`);
  return row ? BigInt(row.balance) : 0n;
}

/** The house's USDT over every shard of one ledger. */
export async function houseBalance(server: TestServer, demo = false) {
  const [row] = await server.query<{ balance: string }>(sql`select coalesce(sum(credits_posted - debits_posted), 0)::text as balance
    from ledger_accounts where owner_user_id is null and asset = 'USDT' and kind = 'house' and ledger = ${demo ? 2 : 1}`);
  return BigInt(row.balance);
}

/** The ledger check: chains valid, balances recompute, every asset of every ledger (house included) sums to zero. */
export async function expectLedgerSound(server: TestServer) {
  const check = await verifyLedger(server.db);
  expect(check.problems).toEqual([]);
  expect(check.chainValid && check.balancesValid && check.conserved).toBe(true);
}
