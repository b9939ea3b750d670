// Payout jobs (DESIGN §8: credit 100 000 accounts from one system account in ≤ 10 s), on
// PostgreSQL. 100 000 users' spot accounts are opened, then one job credits each of them from the
// reward_expense account: the figure is the time from making the job (its targets written) to the
// job done, run with 1 and 4 batches at once (the 4-lane figure is the one reported). Conservation
// and the chains are checked after. Printed, never asserted. Alone: `npx tsx test/bench/payouts.ts`.
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { createScratchDatabase, dropScratchDatabase } from '../support/scratchDatabase.ts';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { seed } from '../../server/seed.ts';
import { verifyLedger } from '../../server/domain/kernel/ledger/verify.ts';
import { createPayoutJob, runPayoutJob, type PayoutTarget } from '../../server/domain/kernel/ledger/payouts.ts';
import { products } from '../../server/db/schema.ts';
import { openAccounts } from '../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../server/domain/kernel/ledger/transfers.ts';
import { matureOrders } from '../../server/domain/programs/products/jobs.ts';
import type { Services } from '../../server/domain/kernel/services.ts';
import { figure } from './figures.ts';

const targetCount = Number(process.env.BENCH_PAYOUT_TARGETS ?? 100_000);

/** `targetCount` users with a spot USDT account each, written set-wise (the setup is not measured). */
async function accountsOfUsers(database: Database): Promise<bigint[]> {
  const { db } = database;
  await db.execute(sql`insert into users (email, password_hash, invite_code)
    select 'payout' || n || '@example.com', 'bench', 'P' || lpad(n::text, 9, '0') from generate_series(1, ${targetCount}) n`);
  await db.execute(sql`insert into ledger_accounts (ledger, owner_user_id, asset, kind, shard, debits_must_not_exceed_credits,
      credits_must_not_exceed_debits, chain_head)
    select 1, id, 'USDT', 'spot', 0, true, false, repeat('0', 64) from users where email like 'payout%'`);
  await db.execute(sql`analyze`);
  const rows = (await db.execute(sql`select a.id::text as id from ledger_accounts a join users u on u.id = a.owner_user_id
    where u.email like 'payout%' order by a.id`) as unknown as { rows: Array<{ id: string }> }).rows;
  return rows.map((row) => BigInt(row.id));
}

const refundOrderCount = Math.min(10_000, targetCount);

/**
 * A bond that missed its raise target refunds `refundOrderCount` subscribers (issue 33: a chunk of
 * 400 orders per transaction through postGroups, the orders cancelled and told in the same
 * transaction): the figure is matureOrders from the decision to the last chunk. The principal is
 * put in the users' product_holdings through the ledger first (not measured).
 */
async function bondRefundBench(database: Database): Promise<string> {
  const { db } = database;
  const now = new Date();
  const users = (await db.execute(sql`select id::text as id from users where email like 'payout%' order by id limit ${refundOrderCount}`) as unknown as {
    rows: Array<{ id: string }>;
  }).rows.map((row) => BigInt(row.id));
  const principal = 100_000_000n;
  const [bond] = await db.insert(products).values({
    type: 'bond', name: 'Bench bond', asset: 'USDT', payoutAsset: 'USDT', status: 'open', days: 30, dailyRatePpm: 300, minAmount: 1n,
    maxAmount: principal, target: principal * BigInt(users.length) * 2n, closesAt: new Date(now.getTime() - 60_000),
    sold: principal * BigInt(users.length), principal: principal * BigInt(users.length), createdAt: now, updatedAt: now,
  }).returning();
  const [clearing] = await openAccounts(db, [{ ledger: 'real', asset: 'USDT', kind: 'deposit_clearing', shard: 0 }]);
  for (let start = 0; start < users.length; start += 200) {
    const chunk = users.slice(start, start + 200);
    const holdings = await openAccounts(db, chunk.map((ownerUserId) => ({ ledger: 'real' as const, asset: 'USDT', kind: 'product_holdings' as const, ownerUserId })));
    const posted = await postTransfers(db, chunk.map((userId, index) => ({
      id: `bench-bond-${bond.id}-${userId}`, kind: 'product_purchase' as const, reference: `bench-bond:${userId}`, amountAtomic: principal,
      debitAccountId: clearing, creditAccountId: holdings[index],
    })));
    if (!posted.ok) throw new Error(`bench bond purchase refused: ${posted.refusal}`);
  }
  const startsAt = new Date(now.getTime() + 86_400_000);
  await db.execute(sql`insert into product_orders (user_id, product_id, client_order_id, amount, status, daily_rate_ppm, days, starts_at, ends_at, created_at)
    select u, ${bond.id}, 'bench-bond', ${principal.toString()}::numeric, 'not_started', 300, 30, ${startsAt.toISOString()}::timestamptz,
      ${new Date(startsAt.getTime() + 30 * 86_400_000).toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    from unnest(${`{${users.join(',')}}`}::bigint[]) u`);
  await db.execute(sql`analyze product_orders`);
  const services = { db, clock: { now: () => new Date() }, userEvents: { publish: () => undefined } } as unknown as Services;
  const started = performance.now();
  const result = await matureOrders(services, new Date());
  const elapsedMs = performance.now() - started;
  if (result.failed !== 1 || result.refunded !== users.length) throw new Error(`bond refund ended ${JSON.stringify(result)}`);
  figure(`payouts.bond_refund_${users.length / 1000}k`, elapsedMs, 'ms');
  return `a failed bond's ${users.length} subscribers refunded in ${elapsedMs.toFixed(0)} ms (chunks of 400 orders, a transaction each)`;
}

export async function payoutBench() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    console.log('payout jobs: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return;
  }
  const name = `bourse_bench_payouts_${process.pid}`;
  const database = await openDatabase({ databaseUrl: await createScratchDatabase(adminUrl, name) });
  try {
    await seed(database.db, { demo: false });
    const accounts = await accountsOfUsers(database);
    const results: string[] = [];
    for (const concurrency of [1, 4]) {
      const targets: PayoutTarget[] = accounts.map((accountId, i) => ({ accountId, amountAtomic: 1_000_000n + BigInt(i % 1000) }));
      const id = `bench-credit-${concurrency}`;
      const started = performance.now();
      await createPayoutJob(database.db, {
        id, ledger: 'real', asset: 'USDT', sourceKind: 'reward_expense', direction: 'credit', kind: 'correction', reference: id,
      }, targets);
      const madeMs = performance.now() - started;
      const job = await runPayoutJob(database.db, id, { concurrency });
      const elapsedMs = performance.now() - started;
      if (job.state !== 'done' || job.targetsPosted !== targetCount) throw new Error(`payout job ${id} ended ${job.state} with ${job.targetsPosted} posted`);
      if (concurrency === 4) figure('payouts.credit_100k', elapsedMs, 'ms');
      results.push(`${elapsedMs.toFixed(0)} ms with ${concurrency} batch${concurrency > 1 ? 'es' : ''} at once (targets written in ${madeMs.toFixed(0)} ms)`);
    }
    const refund = await bondRefundBench(database);
    const check = await verifyLedger(database.db);
    const [cpus, load] = [os.cpus().length, os.loadavg()[0].toFixed(1)];
    console.log(`payout jobs on PostgreSQL (${cpus} CPUs, load average ${load}): ${targetCount} accounts credited from one system account in `
      + `${results.join(', ')} (budget 10 000 ms; batches of 500; ledger check `
      + `${check.chainValid && check.balancesValid && check.conserved ? 'passes' : `FAILS: ${check.problems.slice(0, 3).join('; ')}`})`);
    console.log(`bond refund on PostgreSQL: ${refund}`);
  } finally {
    await database.close();
    await dropScratchDatabase(adminUrl, name);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await payoutBench();
