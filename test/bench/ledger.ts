// Ledger throughput on PostgreSQL (DESIGN §8: ≥ 1.0× pgbench TPS in the same run): transfers per
// second through postTransfers with 8 connections, one transfer per batch and 100 per batch,
// beside pgbench's TPC-B-like TPS (8 clients, scale 10) measured just before on the same server.
// Single transfers pick random pairs of 10 000 funded user accounts; each batching worker draws
// its 100 from its own eighth of them, as independent settlement jobs would, so batches do not
// queue on each other's row locks. The workers post on the database itself, so their concurrent
// calls are group-committed (server/domain/kernel/ledger/groupCommit.ts): the groups' count and largest size
// are printed with the rates. Afterwards the chains and the conservation of every asset are
// verified. Printed, never asserted.
import { execFileSync } from 'node:child_process';
import { createScratchDatabase, dropScratchDatabase } from '../support/scratchDatabase.ts';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { seed } from '../../server/seed.ts';
import { users } from '../../server/db/schema.ts';
import { openAccounts, systemShard } from '../../server/domain/kernel/ledger/accounts.ts';
import { groupCommitStats, postTransfers } from '../../server/domain/kernel/ledger/transfers.ts';
import type { NewTransferRequest } from '../../server/domain/kernel/ledger/rules.ts';
import { verifyLedger } from '../../server/domain/kernel/ledger/verify.ts';
import { figure } from './figures.ts';
import { cpuMeter } from './processCpu.ts';

const connections = 8;
const accountCount = Number(process.env.BENCH_LEDGER_ACCOUNTS ?? 10_000);
const durationMs = Number(process.env.BENCH_LEDGER_SECONDS ?? 10) * 1000;

function pgbenchBinary(): string {
  for (const candidate of ['/usr/lib/postgresql/15/bin/pgbench', 'pgbench']) {
    try {
      execFileSync(candidate, ['--version'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // Try the next one.
    }
  }
  throw new Error('pgbench is not installed');
}

/** pgbench's default TPC-B-like script, 8 clients on 2 threads, scale 10. */
export function pgbenchTps(url: string): number {
  return pgbenchRun(url).tps;
}

/** pgbench's TPS, and the database CPU (ms) its run used when PostgreSQL is on this machine. */
export function pgbenchRun(url: string): { tps: number; databaseCpuMs: number | undefined } {
  const binary = pgbenchBinary();
  execFileSync(binary, ['-i', '-q', '-s', '10', url], { stdio: 'ignore' });
  const meter = cpuMeter(url);
  const output = execFileSync(binary, ['-n', '-c', String(connections), '-j', '2', '-T', String(durationMs / 1000), url], { encoding: 'utf8' });
  const { databaseMs } = meter();
  const match = /tps = ([0-9.]+) \(without initial connection time\)/.exec(output);
  if (!match) throw new Error(`unexpected pgbench output:\n${output}`);
  return { tps: Number(match[1]), databaseCpuMs: databaseMs };
}

async function fundedAccounts(database: Database): Promise<bigint[]> {
  const { db } = database;
  const ids: bigint[] = [];
  for (let start = 0; start < accountCount; start += 200) {
    const created = await db.insert(users).values(Array.from({ length: Math.min(200, accountCount - start) }, (_, i) => ({
      email: `bench${start + i}@example.com`, passwordHash: 'bench', inviteCode: `B${String(start + i).padStart(7, '0')}`,
    }))).returning({ id: users.id });
    const accounts = await openAccounts(db, created.map((user) => ({ ledger: 'real' as const, asset: 'USDT', kind: 'spot' as const, ownerUserId: user.id })));
    const [clearing] = await openAccounts(db, [{ ledger: 'real', asset: 'USDT', kind: 'deposit_clearing', shard: systemShard(`bench${start}`) }]);
    const result = await postTransfers(db, accounts.map((account) => ({
      id: `fund-${account}`, debitAccountId: clearing, creditAccountId: account, amountAtomic: 1_000_000_000_000n,
      kind: 'deposit', reference: 'bench',
    })));
    if (!result.ok) throw new Error(`funding refused: ${result.refusal}`);
    ids.push(...accounts);
  }
  return ids;
}

let transferCounter = 0;
function randomTransfer(accounts: readonly bigint[]): NewTransferRequest {
  const debit = Math.floor(Math.random() * accounts.length);
  let credit = Math.floor(Math.random() * (accounts.length - 1));
  if (credit >= debit) credit += 1;
  transferCounter += 1;
  return {
    id: `bench-${process.pid}-${transferCounter}`, debitAccountId: accounts[debit], creditAccountId: accounts[credit],
    amountAtomic: 1n, kind: 'correction', reference: 'bench',
  };
}

/** Transfers per second of `connections` workers posting batches of `batchSize` for durationMs. */
async function transfersPerSecond(database: Database, accounts: bigint[], batchSize: number, databaseUrl: string) {
  const deadline = performance.now() + durationMs;
  let transfers = 0;
  const meter = cpuMeter(databaseUrl);
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, async (_, worker) => {
    const own = batchSize === 1 ? accounts : accounts.filter((_account, i) => i % connections === worker);
    while (performance.now() < deadline) {
      const result = await postTransfers(database.db, Array.from({ length: batchSize }, () => randomTransfer(own)));
      if (!result.ok) throw new Error(`bench transfer refused: ${result.refusal}`);
      transfers += batchSize;
    }
  }));
  const rate = transfers / ((performance.now() - started) / 1000);
  const { processMs, databaseMs } = meter();
  // CPU per transfer (µs): this process's (rules, hashing, encoding, the driver) and the database's.
  const nodeUs = (processMs * 1000) / transfers;
  const databaseUs = databaseMs === undefined ? undefined : (databaseMs * 1000) / transfers;
  return { rate, nodeUs, databaseUs };
}

export async function ledgerBench() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    console.log('ledger transfers on PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return;
  }
  const pgbenchName = `bench_pgbench_${process.pid}`;
  const ledgerName = `bourse_bench_ledger_${process.pid}`;
  const pgbench = pgbenchRun(await createScratchDatabase(adminUrl, pgbenchName));
  const { tps } = pgbench;
  await dropScratchDatabase(adminUrl, pgbenchName);
  const databaseUrl = await createScratchDatabase(adminUrl, ledgerName);
  const database = await openDatabase({ databaseUrl });
  try {
    await seed(database.db, { demo: false });
    const accounts = await fundedAccounts(database);
    const groupsBefore = groupCommitStats(database.db).groups;
    const singleRun = await transfersPerSecond(database, accounts, 1, databaseUrl);
    const single = singleRun.rate;
    const singleGroups = groupCommitStats(database.db).groups - groupsBefore;
    const batchedRun = await transfersPerSecond(database, accounts, 100, databaseUrl);
    const batched = batchedRun.rate;
    const check = await verifyLedger(database.db);
    figure('pgbench.tps', tps, 'tps');
    figure('ledger.single.per_second', single, 'transfers/s');
    figure('ledger.single.vs_pgbench', single / tps, 'ratio');
    figure('ledger.batch100.per_second', batched, 'transfers/s');
    figure('ledger.batch100.vs_pgbench', batched / tps, 'ratio');
    // Where the ratios come from on a machine whose two cores are the limit: the CPU one pgbench
    // transaction costs the database, against what one transfer costs this process and the database.
    if (pgbench.databaseCpuMs !== undefined) figure('pgbench.db_cpu', (pgbench.databaseCpuMs * 1000) / (tps * (durationMs / 1000)), 'µs');
    figure('ledger.single.node_cpu', singleRun.nodeUs, 'µs');
    if (singleRun.databaseUs !== undefined) figure('ledger.single.db_cpu', singleRun.databaseUs, 'µs');
    figure('ledger.batch100.node_cpu', batchedRun.nodeUs, 'µs');
    if (batchedRun.databaseUs !== undefined) figure('ledger.batch100.db_cpu', batchedRun.databaseUs, 'µs');
    console.log(`ledger transfers on PostgreSQL, ${connections} connections, ${accountCount} accounts: `
      + `${single.toFixed(0)}/s single (${(single / tps).toFixed(2)}× pgbench, `
      + `${(single * (durationMs / 1000) / Math.max(1, singleGroups)).toFixed(1)} transfers a group on average), `
      + `${batched.toFixed(0)}/s in batches of 100 (${(batched / tps).toFixed(2)}× pgbench); `
      + `pgbench ${tps.toFixed(0)} TPS (TPC-B-like, scale 10, ${connections} clients); `
      + `afterwards ${check.transfers} transfers verified: chain ${check.chainValid ? 'valid' : 'BROKEN'}, `
      + `${check.conserved ? 'every asset sums to zero' : 'NOT CONSERVED'}`);
  } finally {
    await database.close();
    await dropScratchDatabase(adminUrl, ledgerName);
  }
}
