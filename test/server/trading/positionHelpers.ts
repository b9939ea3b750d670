// What the contract-position tests share: a funded trader (real spot, or demo funds), ticks
// recorded at chosen prices and times (the settlement's only prices), the open call through the
// real protocol, a snapshot of every balance and row a refusal must leave as it was, the ledger
// movement of one position, and the ledger check every test ends with.
import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { tradePaths } from '../../../src/api/contract/trading.ts';
import { parseAmount } from '../../../src/api/contract/amounts.ts';
import { ledgerAccounts } from '../../../server/db/schema.ts';
import { systemAccountId, userAccountId } from '../../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';
import { verifyLedger } from '../../../server/domain/kernel/ledger/verify.ts';
import { insertTicks, type RecordedTick } from '../../../server/domain/core/market/store.ts';
import { symbolByCode } from '../../../server/domain/core/market/symbols.ts';
import { expectOk, type Account, type Reply, type TestServer } from '../helpers.ts';

export interface Trader extends Account { userId: bigint }

/** Atomic USDT of a decimal text (signed: receipts carry losses). */
export const usdt = (amount: number | string): bigint => {
  const text = String(amount);
  if (text.startsWith('-')) return -usdt(text.slice(1));
  const parsed = parseAmount(text, 6);
  if (!parsed.ok) throw new Error(`bad amount ${amount}`);
  return parsed.atomic;
};

/** Credits real spot USDT from deposit clearing, as an approved deposit does. */
export async function fundSpot(server: TestServer, userId: bigint, amount: string) {
  const result = await postTransfers(server.db, [{
    id: server.unique('test-deposit-'), kind: 'deposit', reference: server.unique('test-recharge-'), amountAtomic: usdt(amount),
    debitAccountId: await systemAccountId(server.db, 'USDT', 'deposit_clearing', `user:${userId}`),
    creditAccountId: await userAccountId(server.db, userId, 'USDT', 'spot'),
  }], server.clock);
  if (!result.ok) throw new Error(`funding refused: ${result.refusal}`);
}

/** Credits virtual USDT to the demo account (demo ledger), as the demo account's grant does. */
export async function fundDemo(server: TestServer, userId: bigint, amount: string) {
  const result = await postTransfers(server.db, [{
    id: server.unique('test-demo-grant-'), kind: 'demo_grant', reference: server.unique('test-demo-'), amountAtomic: usdt(amount),
    debitAccountId: await systemAccountId(server.db, 'USDT', 'house', `user:${userId}`, 'demo'),
    creditAccountId: await userAccountId(server.db, userId, 'USDT', 'demo'),
  }], server.clock);
  if (!result.ok) throw new Error(`demo funding refused: ${result.refusal}`);
}

export async function trader(server: TestServer, spot = '1000', demo = '0'): Promise<Trader> {
  const account = await server.registerByEmail();
  const userId = (await server.userByEmail(account.email!)).id;
  if (spot !== '0') await fundSpot(server, userId, spot);
  if (demo !== '0') await fundDemo(server, userId, demo);
  return { ...account, userId };
}

/** Records a tick of `symbol` at `price` (decimal text), at the clock's now unless told. */
export async function recordTick(server: TestServer, symbol: string, price: string, timeMs = server.clock.now().getTime()): Promise<RecordedTick> {
  const spec = symbolByCode.get(symbol)!;
  const parsed = parseAmount(price, spec.pricePrecision);
  if (!parsed.ok) throw new Error(`bad price ${price}`);
  const [tick] = await insertTicks(server.db, [{ symbol, priceUnits: parsed.atomic, volumeUnits: 1n, timeMs }], 'test');
  return tick;
}

/** Moves the clock on a minute and records a fresh tick: every test trades at prices of its own. */
export async function freshTick(server: TestServer, symbol: string, price: string) {
  server.clock.advance(60_000);
  return recordTick(server, symbol, price);
}

export function openPosition(server: TestServer, user: Account, fields: Record<string, unknown> = {}): Promise<Reply> {
  return server.post(tradePaths.createPosition, {
    symbol: 'BTCUSDT', direction: 'long', leverage: 10, margin: '100', clientOrderId: server.unique('order-'), ...fields,
  }, { token: user.token });
}

export async function opened(server: TestServer, user: Account, fields: Record<string, unknown> = {}) {
  return expectOk(await openPosition(server, user, fields)).body.result;
}

/** Every account's totals and the count of transfers and positions: what a refusal leaves as it was. */
export async function moneySnapshot(server: TestServer) {
  const accounts = await server.db.select().from(ledgerAccounts).orderBy(ledgerAccounts.id);
  const [counts] = await server.query<{ transfers: number; positions: number; versions: number }>(sql`select
    (select count(*)::int from ledger_transfers) as transfers, (select count(*)::int from trade_positions) as positions,
    (select coalesce(sum(version), 0)::int from trade_positions) as versions`);
  return { accounts, ...counts };
}

/** The user's funds account (spot, or demo) in atomic USDT, posted. */
export async function fundsOf(server: TestServer, userId: bigint, demo = false): Promise<bigint> {
  const [row] = await server.query<{ balance: string }>(sql`select (credits_posted - debits_posted)::text as balance
    from ledger_accounts where owner_user_id = ${userId} and asset = 'USDT' and kind = ${demo ? 'demo' : 'spot'}`);
  return row ? BigInt(row.balance) : 0n;
}

/** What a position's transfers did to the user's funds account: the sum of its entries there. */
export async function fundsMovementOf(server: TestServer, userId: bigint, positionId: string, demo = false): Promise<bigint> {
  const [row] = await server.query<{ moved: string }>(sql`select coalesce(sum(case when t.credit_account_id = a.id then t.amount
      else -t.amount end), 0)::text as moved
    from ledger_transfers t join ledger_accounts a on a.id in (t.debit_account_id, t.credit_account_id)
    where t.reference = ${`position:${positionId}`} and a.owner_user_id = ${userId} and a.kind = ${demo ? 'demo' : 'spot'}`);
  return BigInt(row.moved);
}

/** The ledger check: chains valid, balances recompute, every asset of each ledger sums to zero (house included). */
export async function expectLedgerSound(server: TestServer) {
  const check = await verifyLedger(server.db);
  expect(check.problems).toEqual([]);
  expect(check.chainValid && check.balancesValid && check.conserved).toBe(true);
}

/**
 * Runs `request` while a transaction holds the user's `asset` spot account as a settlement's ledger
 * batch holds it, then retains `tickId` in that transaction as a settlement does after its batch,
 * and answers the request's reply. A request that had locked the tick before waiting for the
 * account would wait in a cycle with it, and PostgreSQL would fail one of the two (40P01).
 */
export async function duringSettlementAt(server: TestServer, userId: bigint, asset: string, tickId: bigint,
  request: () => Promise<Reply>): Promise<Reply> {
  const [account] = await server.query<{ id: string }>(sql`select id::text as id from ledger_accounts
    where owner_user_id = ${userId} and kind = 'spot' and asset = ${asset}`);
  let reply: Promise<Reply> | undefined;
  await server.db.transaction(async (tx) => {
    await tx.execute(sql`select id from ledger_accounts where id = ${account.id}::bigint for update`);
    reply = request();
    // The request is under way and waits for the account.
    await expect.poll(async () => (await server.query<{ n: number }>(sql`select count(*)::int as n from pg_locks
      where not granted and locktype = 'transactionid'`))[0].n, { timeout: 30_000, interval: 20 }).toBeGreaterThan(0);
    await tx.execute(sql`update market_ticks set retained = true where id = ${tickId} and not retained`);
  });
  return reply!;
}
