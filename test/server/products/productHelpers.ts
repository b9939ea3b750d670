// What the product tests share: an admin (and a second one) logged in through the real protocol,
// products made and reserves funded through the back-office calls, verified and funded buyers,
// every balance and row a refusal must leave as it was, and the ledger check.
import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { productAdminPaths, productPaths } from '../../../src/api/contract/products.ts';
import { ledgerAccounts } from '../../../server/db/schema.ts';
import { verifyLedger } from '../../../server/domain/kernel/ledger/verify.ts';
import { expectOk, type Account, type Reply, type TestServer } from '../helpers.ts';
import { approvedBySecondAdmin, createOperator, operatorLogin, type TestOperator } from '../adminHelpers.ts';
import { markVerified } from '../identity/kycHelpers.ts';
import { fundSpot } from '../trading/positionHelpers.ts';

export interface Admin { op: TestOperator; token: string; id: bigint }

export async function admin(server: TestServer): Promise<Admin> {
  const op = await createOperator(server, 'admin');
  const token = await operatorLogin(server, op);
  const [row] = await server.query<{ id: string }>(sql`select id::text from operators where email = ${op.email}`);
  return { op, token, id: BigInt(row.id) };
}

export const fixedRateProduct = (fields: Record<string, unknown> = {}) => ({
  type: 'arbitrage', name: 'Test arbitrage', asset: 'USDT', days: 3, dailyRate: '0.05', firstDayRule: 'full',
  minAmount: '10', maxAmount: '10000', ...fields,
});

export async function createProduct(server: TestServer, by: Admin, fields: Record<string, unknown> = {}) {
  // Put on sale by a second admin (issue 38): a product is created as a draft until then.
  return approvedBySecondAdmin(server, expectOk(await server.post(productAdminPaths.products, fixedRateProduct(fields), { token: by.token })).body.result);
}

export async function fundReserve(server: TestServer, by: Admin, productId: string, amount: string) {
  return expectOk(await server.post(productAdminPaths.reserve.replace(':id', productId), { amount }, { token: by.token })).body.result;
}

export interface Buyer extends Account { userId: bigint }

export async function buyer(server: TestServer, spot = '1000', verified = true): Promise<Buyer> {
  const account = await server.registerByEmail();
  const userId = (await server.userByEmail(account.email!)).id;
  if (verified) await markVerified(server, userId, 1);
  if (spot !== '0') await fundSpot(server, userId, spot);
  return { ...account, userId };
}

export function debitBuy(server: TestServer, user: Account, productId: string, amount: string, clientOrderId = server.unique('buy-order-')): Promise<Reply> {
  return server.post(productPaths.debitBuy, { productId, amount, clientOrderId }, { token: user.token });
}

/** Posted balance (credits − debits) of a user's account of a kind, atomic. */
export async function balance(server: TestServer, userId: bigint, kind = 'spot', asset = 'USDT'): Promise<bigint> {
  const [row] = await server.query<{ balance: string }>(sql`select (credits_posted - debits_posted)::text as balance
    from ledger_accounts where owner_user_id = ${userId} and asset = ${asset} and kind = ${kind} and ledger = 1`);
  return row ? BigInt(row.balance) : 0n;
}

/** Every account's totals and the counts of transfers, orders and receipts: what a refusal leaves as it was. */
export async function moneySnapshot(server: TestServer) {
  const accounts = await server.db.select().from(ledgerAccounts).orderBy(ledgerAccounts.id);
  const [counts] = await server.query<{ transfers: number; orders: number; receipts: number; figures: string }>(sql`select
    (select count(*)::int from ledger_transfers) as transfers, (select count(*)::int from product_orders) as orders,
    (select count(*)::int from product_accruals) as receipts,
    (select string_agg(id || ':' || sold || ':' || reserve || ':' || owed || ':' || principal || ':' || paid, ',' order by id) from products) as figures`);
  return { accounts, ...counts };
}

/** The ledger check: chains valid, balances recompute, every asset sums to zero. */
export async function expectLedgerSound(server: TestServer) {
  const check = await verifyLedger(server.db);
  expect(check.problems).toEqual([]);
  expect(check.chainValid && check.balancesValid && check.conserved).toBe(true);
}

/** The product row's figures agree with the orders and the ledger's product_reserve account. */
export async function expectFiguresAgree(server: TestServer) {
  const rows = await server.query<{ id: string; type: string; principal: string; owed: string; held: string; orders_owed: string }>(sql`
    select p.id::text, p.type, p.principal::text, p.owed::text,
      coalesce((select sum(o.amount) from product_orders o where o.product_id = p.id and o.status in ('not_started', 'running', 'frozen') and p.type <> 'mining'), 0)::text as held,
      coalesce((select sum(o.owed) from product_orders o where o.product_id = p.id and o.status in ('not_started', 'running', 'frozen')), 0)::text as orders_owed
    from products p`);
  for (const row of rows) {
    expect(row.principal, `product ${row.id} principal`).toBe(row.held);
    expect(row.owed, `product ${row.id} owed`).toBe(row.orders_owed);
  }
  // Reserves in the ledger (all shards, all products of an asset) equal the products' reserve figures.
  const reserves = await server.query<{ asset: string; ledger: string; figures: string }>(sql`
    select a.asset, coalesce(sum(a.credits_posted - a.debits_posted), 0)::text as ledger,
      coalesce((select sum(p.reserve) from products p where p.payout_asset = a.asset), 0)::text as figures
    from ledger_accounts a where a.kind = 'product_reserve' group by a.asset`);
  for (const row of reserves) expect(row.ledger, `reserve of ${row.asset}`).toBe(row.figures);
}

export const day = (server: TestServer) => server.clock.now().toISOString().slice(0, 10);
