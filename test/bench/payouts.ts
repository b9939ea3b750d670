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
    const check = await verifyLedger(database.db);
    const [cpus, load] = [os.cpus().length, os.loadavg()[0].toFixed(1)];
    console.log(`payout jobs on PostgreSQL (${cpus} CPUs, load average ${load}): ${targetCount} accounts credited from one system account in `
      + `${results.join(', ')} (budget 10 000 ms; batches of 500; ledger check `
      + `${check.chainValid && check.balancesValid && check.conserved ? 'passes' : `FAILS: ${check.problems.slice(0, 3).join('; ')}`})`);
  } finally {
    await database.close();
    await dropScratchDatabase(adminUrl, name);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await payoutBench();
