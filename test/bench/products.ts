// Product accrual (issue 22: accrue a day for 100 000 orders in ≤ 10 s), on PostgreSQL. 100 000
// users each hold a running order of one arbitrage product (written set-wise, with their spot
// accounts; the setup is not measured) whose reserve is funded through the ledger; the figure is
// one run of the product-accrual job for the day: the receipts, the orders' and the product's
// figures and the payout job made in one transaction, then the payout job run (4 batches at once).
// A second run the same day must pay nothing. Printed, never asserted.
// Alone: `npx tsx test/bench/products.ts`.
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { createScratchDatabase, dropScratchDatabase } from '../support/scratchDatabase.ts';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { seed } from '../../server/seed.ts';
import { products } from '../../server/db/schema.ts';
import { openAccounts, systemShard } from '../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../server/domain/kernel/ledger/transfers.ts';
import { verifyLedger } from '../../server/domain/kernel/ledger/verify.ts';
import { runProductAccrual } from '../../server/domain/programs/products/jobs.ts';
import type { Services } from '../../server/domain/kernel/services.ts';
import { figure } from './figures.ts';

const orderCount = Number(process.env.BENCH_PRODUCT_ORDERS ?? 100_000);
const principal = 1_000_000_000n; // 1 000 USDT
const ratePpm = 500n; // 0.05 % a day
const days = 30n;

export async function setUp(database: Database, now: Date): Promise<bigint> {
  const { db } = database;
  const reserve = (principal * ratePpm * days / 1_000_000n) * BigInt(orderCount);
  const [product] = await db.insert(products).values({
    type: 'arbitrage', name: 'Bench arbitrage', asset: 'USDT', payoutAsset: 'USDT', days: Number(days), dailyRatePpm: Number(ratePpm),
    firstDayRule: 'full', minAmount: 1n, maxAmount: principal, createdAt: now, updatedAt: now,
  }).returning();
  const [house, reserveAccount] = await openAccounts(db, [
    { ledger: 'real', asset: 'USDT', kind: 'house', shard: systemShard(`product:${product.id}`) },
    { ledger: 'real', asset: 'USDT', kind: 'product_reserve', shard: systemShard(`product:${product.id}`) },
  ]);
  const funded = await postTransfers(db, [{
    id: `rf-bench-${product.id}`, kind: 'reserve_funding', reference: `product:${product.id}`, amountAtomic: reserve,
    debitAccountId: house, creditAccountId: reserveAccount,
  }]);
  if (!funded.ok) throw new Error(`reserve funding refused: ${funded.refusal}`);
  await db.execute(sql`insert into users (email, password_hash, invite_code)
    select 'product' || n || '@example.com', 'bench', 'Q' || lpad(n::text, 9, '0') from generate_series(1, ${orderCount}) n`);
  await db.execute(sql`insert into ledger_accounts (ledger, owner_user_id, asset, kind, shard, debits_must_not_exceed_credits,
      credits_must_not_exceed_debits, chain_head)
    select 1, id, 'USDT', 'spot', 0, true, false, repeat('0', 64) from users where email like 'product%'`);
  const owed = principal * ratePpm * days / 1_000_000n;
  await db.execute(sql`insert into product_orders (user_id, product_id, client_order_id, amount, quantity, status, daily_rate_ppm, days,
      starts_at, ends_at, owed, created_at)
    select id, ${product.id}, 'bench-' || id, ${principal.toString()}::numeric, 1, 'running', ${Number(ratePpm)}, ${Number(days)},
      ${now.toISOString()}::timestamptz, ${new Date(Math.floor(now.getTime() / 86_400_000) * 86_400_000 + Number(days) * 86_400_000).toISOString()}::timestamptz,
      ${owed.toString()}::numeric, ${now.toISOString()}::timestamptz
    from users where email like 'product%'`);
  await db.execute(sql`update products set reserve = ${reserve.toString()}::numeric, owed = ${(owed * BigInt(orderCount)).toString()}::numeric,
    principal = ${(principal * BigInt(orderCount)).toString()}::numeric, sold = ${(principal * BigInt(orderCount)).toString()}::numeric
    where id = ${product.id}`);
  await db.execute(sql`analyze`);
  return product.id;
}

export async function productBench() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    console.log('product accrual: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return;
  }
  const name = `bourse_bench_products_${process.pid}`;
  const database = await openDatabase({ databaseUrl: await createScratchDatabase(adminUrl, name) });
  try {
    await seed(database.db, { demo: false });
    const now = new Date();
    const productId = await setUp(database, now);
    const services = { db: database.db, clock: { now: () => new Date() } } as unknown as Services;
    const day = now.toISOString().slice(0, 10);
    const started = performance.now();
    const result = await runProductAccrual(services, day);
    const elapsedMs = performance.now() - started;
    const again = await runProductAccrual(services, day);
    figure('products.accrue_100k', elapsedMs, 'ms');
    const [paid] = (await database.db.execute(sql`select count(*)::int as receipts, coalesce(sum(a.amount), 0)::text as total
      from product_accruals a join product_orders o on o.id = a.order_id where o.product_id = ${productId}`) as unknown as {
      rows: Array<{ receipts: number; total: string }>;
    }).rows;
    const check = await verifyLedger(database.db);
    const [cpus, load] = [os.cpus().length, os.loadavg()[0].toFixed(1)];
    console.log(`product accrual on PostgreSQL (${cpus} CPUs, load average ${load}): one day for ${orderCount} orders in ${elapsedMs.toFixed(0)} ms `
      + `(budget 10 000 ms; receipts and payout job in one transaction, then the payout in batches of 500, 4 at once): `
      + `${result.receipts} receipts, ${result.paid} USDT paid; second run ${again.receipts} receipts; receipts in the table ${paid.receipts} `
      + `totalling ${paid.total}; ledger check ${check.chainValid && check.balancesValid && check.conserved ? 'passes' : `FAILS: ${check.problems.slice(0, 3).join('; ')}`}`);
  } finally {
    await database.close();
    await dropScratchDatabase(adminUrl, name);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await productBench();
