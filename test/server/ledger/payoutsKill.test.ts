// A payout job's process killed with SIGKILL half-way (issue 20): no shutdown hook runs, the open
// transaction is lost. At the next start resumePayoutJobs (what server/instance.ts runs) finishes
// the job: every target is credited exactly once, the batches the dead process committed are not
// posted again, conservation and the hash chains hold. On PostgreSQL only: the child process and
// this one share the database over the wire (PGlite is one process's).
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../../server/db/client.ts';
import { seed } from '../../../server/seed.ts';
import { users } from '../../../server/db/schema.ts';
import { accountBalances, openAccounts } from '../../../server/domain/kernel/ledger/accounts.ts';
import { createPayoutJob, payoutJob, resumePayoutJobs, type PayoutJob } from '../../../server/domain/kernel/ledger/payouts.ts';
import { verifyLedger } from '../../../server/domain/kernel/ledger/verify.ts';
import { createScratchDatabase, dropScratchDatabase } from '../../support/scratchDatabase.ts';
import { expectConserved } from './ledgerHelpers.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const root = path.resolve(import.meta.dirname, '../../..');
const targetCount = 600;
const batchSize = 20;

describe.skipIf(!adminUrl)('a payout job killed with SIGKILL (PostgreSQL)', () => {
  const name = `bourse_t_kill_${process.pid}_${Date.now().toString(36)}`;
  let url: string;
  let database: Database;
  beforeAll(async () => {
    url = await createScratchDatabase(adminUrl!, name);
    database = await openDatabase({ databaseUrl: url });
    await seed(database.db, { demo: false });
  });
  afterAll(async () => {
    await database?.close();
    await dropScratchDatabase(adminUrl!, name);
  });

  it('is finished at the next start without paying anyone twice', async () => {
    const db = database.db;
    const userIds = (await db.insert(users).values(Array.from({ length: targetCount }, (_, i) => ({
      email: `kill-${i}-${name}@example.com`, passwordHash: 'not-a-login', inviteCode: `K${i.toString(36).toUpperCase().padStart(6, '0')}`,
    }))).returning({ id: users.id })).map((row) => row.id);
    const accounts: bigint[] = [];
    for (let i = 0; i < userIds.length; i += 200) {
      accounts.push(...await openAccounts(db, userIds.slice(i, i + 200).map((ownerUserId) => ({ ledger: 'real' as const, asset: 'USDT', kind: 'spot' as const, ownerUserId }))));
    }
    const targets = accounts.map((accountId, i) => ({ accountId, amountAtomic: BigInt(1_000 + i) }));
    const jobId = `kill-${Date.now().toString(36)}`;
    await createPayoutJob(db, {
      id: jobId, ledger: 'real', asset: 'USDT', sourceKind: 'reward_expense', direction: 'credit', kind: 'correction',
      reference: `kill:${jobId}`, batchSize,
    }, targets);

    // The child runs the job; it is killed once it has said it committed a few batches.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'payoutChild.ts'), url, jobId], {
      cwd: root, stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    let seen = 0;
    await new Promise<void>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).on('line', (line) => {
        const batches = /^batch (\d+)$/.exec(line);
        if (batches) seen = Number(batches[1]);
        if (seen >= 5 && !child.killed) {
          child.kill('SIGKILL');
          resolve();
        }
        if (line === 'done') reject(new Error('the job finished before it could be killed'));
      });
      child.on('exit', () => resolve());
    });
    expect(await exited).toBe('SIGKILL');

    const left = (await payoutJob(db, jobId))!;
    expect(left.state).toBe('running');
    expect(left.batchesDone).toBeGreaterThanOrEqual(5);
    expect(left.batchesDone).toBeLessThan(left.batchCount);
    const committedBefore = await transferCount(database, jobId);

    const finished = await new Promise<PayoutJob>((resolve, reject) => {
      void resumePayoutJobs(db, { onDone: resolve, onError: (_id, error) => reject(error) })
        .then((ids) => expect(ids).toEqual([jobId]));
    });
    expect(finished).toMatchObject({ state: 'done', targetsPosted: targetCount, targetsRefused: 0, batchesDone: targetCount / batchSize });
    expect(committedBefore).toBeGreaterThanOrEqual(5 * batchSize);
    // One transfer per target, each target's balance exactly its amount.
    expect(await transferCount(database, jobId)).toBe(targetCount);
    const balances = new Map((await accountBalances(db, accounts)).map((balance) => [balance.id, balance.postedAtomic]));
    for (const target of targets) expect(balances.get(target.accountId)).toBe(target.amountAtomic);
    await expectConserved(db);
    expect(await verifyLedger(db)).toMatchObject({ chainValid: true, balancesValid: true, conserved: true, problems: [] });
  });
});

async function transferCount(database: Database, jobId: string): Promise<number> {
  const result = await database.db.execute(sql`select count(*)::int as n from ledger_transfers where id like ${`${jobId}:%`}`);
  return (result as unknown as { rows: Array<{ n: number }> }).rows[0].n;
}
