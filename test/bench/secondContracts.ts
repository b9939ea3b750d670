// Second-contract settlement (DESIGN §8: 10 000 contracts expiring in the same second all settled
// within 500 ms), on PostgreSQL. 10 000 orders of 2 000 funded users on four symbols are bought
// in the same second (the stakes held through the ledger as a purchase holds them, the house
// accounts opened as purchases open them, their entry ticks filled as the first ticks after
// acceptance arrive); then one batch of ticks past their expiry reaches SecondSettler.onTicks,
// and the time until it returns (every order settled, every payout posted) is the figure. Run
// with 1, 2 and the engine's lane count (the figure) of transactions at once. Printed, never asserted. Alone: `npx tsx test/bench/secondContracts.ts`.
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { createScratchDatabase, dropScratchDatabase } from '../support/scratchDatabase.ts';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { seed } from '../../server/seed.ts';
import { secondContractOrders, users } from '../../server/db/schema.ts';
import { openAccounts, systemAccountShardCount } from '../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../server/domain/kernel/ledger/transfers.ts';
import type { NewTransferRequest } from '../../server/domain/kernel/ledger/rules.ts';
import { verifyLedger } from '../../server/domain/kernel/ledger/verify.ts';
import { insertTicks } from '../../server/domain/core/market/store.ts';
import { SecondSettler } from '../../server/domain/core/trading/secondSettlement.ts';
import { secondReference, stakeTransferId } from '../../server/domain/core/trading/secondContracts.ts';
import { localUserEvents } from '../../server/domain/kernel/userEvents.ts';
import { figure } from './figures.ts';
import { cpuMeter } from './processCpu.ts';
import { secondSettlementLanes } from '../../server/domain/core/trading/runtime.ts';

const orderCount = Number(process.env.BENCH_SECOND_ORDERS ?? 10_000);
const userCount = 2_000;
const symbols = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT'];
const stake = 10_000_000n;

interface Funded { userId: bigint; funds: bigint; held: bigint }

async function fundedUsers(database: Database): Promise<Funded[]> {
  const { db } = database;
  const funded: Funded[] = [];
  for (let start = 0; start < userCount; start += 100) {
    const created = await db.insert(users).values(Array.from({ length: 100 }, (_, i) => ({
      email: `second${start + i}@example.com`, passwordHash: 'bench', inviteCode: `S${String(start + i).padStart(7, '0')}`,
    }))).returning({ id: users.id });
    const ids = await openAccounts(db, created.flatMap((user) => [
      { ledger: 'real' as const, asset: 'USDT', kind: 'spot' as const, ownerUserId: user.id },
      { ledger: 'real' as const, asset: 'USDT', kind: 'position_margin' as const, ownerUserId: user.id },
    ]));
    const [clearing] = await openAccounts(db, [{ ledger: 'real', asset: 'USDT', kind: 'deposit_clearing', shard: 0 }]);
    const batch = created.map((user, i) => ({ userId: user.id, funds: ids[2 * i], held: ids[2 * i + 1] }));
    const result = await postTransfers(db, batch.map((user) => ({
      id: `fund-second-${user.funds}`, debitAccountId: clearing, creditAccountId: user.funds, amountAtomic: 1_000_000_000_000n,
      kind: 'deposit', reference: 'bench',
    })));
    if (!result.ok) throw new Error(`funding refused: ${result.refusal}`);
    funded.push(...batch);
  }
  // Every house shard, as the purchases' tradingAccounts open them.
  await openAccounts(db, Array.from({ length: systemAccountShardCount }, (_, shard) => ({ ledger: 'real' as const, asset: 'USDT', kind: 'house' as const, shard })));
  return funded;
}

/** Buys `orderCount` orders accepted at `acceptMs` (60 s), the stakes held; answers their ids. */
async function buyAll(database: Database, funded: Funded[], acceptMs: number, round: number): Promise<bigint[]> {
  const { db } = database;
  const ids: bigint[] = [];
  for (let start = 0; start < orderCount; start += 500) {
    const rows = Array.from({ length: Math.min(500, orderCount - start) }, (_, i) => {
      const n = start + i;
      const user = funded[n % funded.length];
      return {
        userId: user.userId, ledger: 1, symbol: symbols[n % symbols.length], direction: n % 3 === 0 ? 'down' : 'up',
        durationSeconds: 60, payoutPpm: 850_000, amount: stake, status: 'open', clientOrderId: `bench-${round}-${n}`,
        requestHash: 'bench', acceptedAt: new Date(acceptMs + (n % 1000)), expiresAt: new Date(acceptMs + (n % 1000) + 60_000),
      };
    });
    const inserted = await db.insert(secondContractOrders).values(rows).returning({ id: secondContractOrders.id, userId: secondContractOrders.userId });
    const byUser = new Map(funded.map((user) => [user.userId, user]));
    const transfers: NewTransferRequest[] = inserted.map((order) => ({
      id: stakeTransferId(order.id), kind: 'second_stake', reference: secondReference(order.id), amountAtomic: stake,
      debitAccountId: byUser.get(order.userId)!.funds, creditAccountId: byUser.get(order.userId)!.held,
    }));
    const result = await postTransfers(db, transfers);
    if (!result.ok) throw new Error(`stakes refused: ${result.refusal}`);
    ids.push(...inserted.map((order) => order.id));
  }
  return ids;
}

async function settleRound(database: Database, funded: Funded[], round: number, concurrency: number, databaseUrl: string) {
  const { db } = database;
  const acceptMs = Date.UTC(2026, 5, 1, 4, 0, 0) + round * 3_600_000;
  await buyAll(database, funded, acceptMs, round);
  // A live database's autovacuum keeps statistics of its tables; a fresh bench database has none yet.
  await db.execute(sql`analyze`);
  const clock = { now: () => new Date(acceptMs + 61_500) };
  const settler = new SecondSettler({ db, clock, userEvents: localUserEvents(), concurrency, onError: (error) => { throw error; } });
  const prices = [6_000_000n, 300_000n, 150_000n, 5_000n];
  const entries = await insertTicks(db, symbols.map((symbol, i) => ({ symbol, priceUnits: prices[i], volumeUnits: 1n, timeMs: acceptMs + 1000 })), 'bench');
  await settler.onTicks(entries);
  // The exit ticks: the first after every order's expiry (all within the same second).
  const exits = await insertTicks(db, symbols.map((symbol, i) => ({
    symbol, priceUnits: prices[i] + (i === 3 ? 0n : 100n), volumeUnits: 1n, timeMs: acceptMs + 61_000,
  })), 'bench');
  const meter = cpuMeter(databaseUrl);
  const started = performance.now();
  await settler.onTicks(exits);
  const elapsedMs = performance.now() - started;
  // This process's CPU over the settlement, and PostgreSQL's (all its processes, when it runs on this machine).
  const { processMs: cpuMs, databaseMs: databaseCpuMs } = meter();
  const { ledgerMs, transfers, findMs } = settler.stats;
  const [left] = (await db.execute(sql`select count(*)::int as n from second_contract_orders where status = 'open'`) as unknown as { rows: Array<{ n: number }> }).rows;
  return { elapsedMs, open: left.n, ledgerMs, transfers, findMs, cpuMs, databaseCpuMs };
}

export async function secondContractBench() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    console.log('second-contract settlement: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return;
  }
  const name = `bourse_bench_second_${process.pid}`;
  const databaseUrl = await createScratchDatabase(adminUrl, name);
  const database = await openDatabase({ databaseUrl });
  try {
    await seed(database.db, { demo: false });
    const funded = await fundedUsers(database);
    const figures: string[] = [];
    let round = 0;
    for (const concurrency of [1, 2, secondSettlementLanes]) {
      round += 1;
      const { elapsedMs, open, ledgerMs, transfers, findMs, cpuMs, databaseCpuMs } = await settleRound(database, funded, round, concurrency, databaseUrl);
      // The engine settles secondSettlementLanes chunks at once (trading/runtime.ts): that is the figure a user gets.
      if (concurrency === secondSettlementLanes) {
        figure('second_contracts.settle_10k', elapsedMs, 'ms');
        figure('second_contracts.settle_10k.node_cpu', cpuMs, 'ms');
        if (databaseCpuMs !== undefined) {
          figure('second_contracts.settle_10k.db_cpu', databaseCpuMs, 'ms');
          // No schedule on this machine's cores settles faster than the CPU the work needs spread over all of them.
          figure('second_contracts.settle_10k.cpu_floor', (cpuMs + databaseCpuMs) / os.cpus().length, 'ms');
        }
      }
      const databaseCpu = databaseCpuMs === undefined ? '' : `; PostgreSQL CPU ${databaseCpuMs.toFixed(0)} ms`;
      figures.push(`${elapsedMs.toFixed(0)} ms with ${concurrency} at once (${transfers} transfers; Node CPU ${cpuMs.toFixed(0)} ms${databaseCpu}; finder ${findMs.toFixed(0)} ms; ledger ${ledgerMs.toFixed(0)} ms`
        + `${concurrency > 1 ? ' summed over the lanes' : ''})${open > 0 ? ` (${open} LEFT OPEN)` : ''}`);
    }
    const check = await verifyLedger(database.db);
    const [cpus, load] = [os.cpus().length, os.loadavg()[0].toFixed(1)];
    console.log(`second-contract settlement on PostgreSQL (${cpus} CPUs, load average ${load}): ${orderCount} contracts expiring in the same second settled in `
      + `${figures.join(', ')} (budget 500 ms; ${userCount} users, 4 symbols, one ledger batch per 300; `
      + `ledger check ${check.chainValid && check.balancesValid && check.conserved ? 'passes' : 'FAILS'})`);
  } finally {
    await database.close();
    await dropScratchDatabase(adminUrl, name);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await secondContractBench();
