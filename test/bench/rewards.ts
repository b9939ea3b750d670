// Weekly red envelopes (issue 23: issue envelopes to 100 000 users in ≤ 10 s), on PostgreSQL.
// 100 000 users at VIP levels 1 to 5 (users and user_levels written set-wise; not measured); the
// figure is one run of the week's issue (server/domain/programs/rewards/envelopes.ts issueEnvelopes:
// INSERT … SELECT from user_levels and vip_rewards in chunks of 20 000 user ids). A second issue
// the same week must write nothing. Printed, never asserted. Alone: `npx tsx test/bench/rewards.ts`.
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { createScratchDatabase, dropScratchDatabase } from '../support/scratchDatabase.ts';
import { openDatabase } from '../../server/db/client.ts';
import { seed } from '../../server/seed.ts';
import { issueEnvelopes, weekOf } from '../../server/domain/programs/rewards/envelopes.ts';
import { figure } from './figures.ts';

const userCount = Number(process.env.BENCH_ENVELOPE_USERS ?? 100_000);

export async function rewardsBench() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    console.log('red envelopes: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return;
  }
  const name = `bourse_bench_rewards_${process.pid}`;
  const database = await openDatabase({ databaseUrl: await createScratchDatabase(adminUrl, name) });
  try {
    const { db } = database;
    await seed(db, { demo: false });
    await db.execute(sql`insert into users (email, password_hash, invite_code)
      select 'envelope' || n || '@example.com', 'bench', 'E' || lpad(n::text, 9, '0') from generate_series(1, ${userCount}) n`);
    await db.execute(sql`insert into user_levels (user_id, level, highest_level, assets, checked_at)
      select id, 1 + (id % 5), 1 + (id % 5), 0, now() from users where email like 'envelope%'`);
    await db.execute(sql`analyze`);
    const now = new Date();
    const week = weekOf(now);
    const started = performance.now();
    const issued = await issueEnvelopes(db, week, now);
    const elapsedMs = performance.now() - started;
    const again = await issueEnvelopes(db, week, now);
    figure('rewards.red_envelopes_100k', elapsedMs, 'ms');
    const [cpus, load] = [os.cpus().length, os.loadavg()[0].toFixed(1)];
    console.log(`red envelopes on PostgreSQL (${cpus} CPUs, load average ${load}): the week's envelopes for ${userCount} users in ${elapsedMs.toFixed(0)} ms `
      + `(budget 10 000 ms; INSERT … SELECT in chunks of 20 000): ${issued} issued; a second issue the same week wrote ${again}`);
  } finally {
    await database.close();
    await dropScratchDatabase(adminUrl, name);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await rewardsBench();
