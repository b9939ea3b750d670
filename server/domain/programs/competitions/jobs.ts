// The settlement of a competition past its end (issues 23 and 38), in two steps that can each be
// run again. The engine runs them at the end instant (ending.ts: step 1 on the first tick at or
// after the end, step 2 right after); the daily job 'competition-settle' (registered in
// server/jobs.ts; an operator runs it now with POST /api/admin/jobs/competition-settle/run)
// catches up on what the engine did not finish, with the same functions, so it finds the same tick
// and pays nobody twice.
//
// The end tick of a symbol is its LAST RECORDED TICK AT OR BEFORE THE END INSTANT (ties in time
// to the higher id). At the end instant it is the symbol's newest tick, which pruning never
// deletes (market/store.ts pruneTicks), and step 1 retains it before it closes anything, so a run
// a day later finds the very same tick. (The first tick after the end was the other choice: it
// would wait for a closed market's reopening, days for a weekend.)
//
// 1. Freeze: the end ticks of the symbols of the competition's open positions are looked up and
//    retained (a statement of their own, before any ledger account is locked: accounts, then
//    ticks, is the one lock order, and a retained tick takes no lock again); then ONE transaction
//    closes every joined entry's open positions at those ticks (the normal close path, reason
//    'competition_end', each receipt citing its end tick), freezes each entry's final equity and
//    return, moves the competition account back to spot ('competition_return'), gives the ranked
//    entries (ended, never exited ones) rank and reward by the prize table, and sets status 'ended'.
// 2. Pay: when the `prizes` pool (the prize asset's prizes account, all shards) holds what the
//    ranking's prizes add up to, ONE payout job `competition-prize-<id>` pays each winner's spot
//    ('competition_prize'; transfer ids job:account, so a crash half-way and a rerun pay each
//    winner once), then status 'settled'. Until the pool is funded the competition stays 'ended'
//    and each run tries again.
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { competitionEntries, competitions, ledgerAccounts, tradePositions } from '../../../db/schema.ts';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import type { Clock } from '../../../lib/time.ts';
import type { RecordedTick } from '../../core/market/store.ts';
import { lastTickAt, retainTicks } from '../../core/market/ticks.ts';
import { ledgers, openAccounts } from '../../kernel/ledger/accounts.ts';
import { assert } from '../../../lib/errors.ts';
import { createPayoutJob, payoutJob, runPayoutJob, type RunOptions } from '../../kernel/ledger/payouts.ts';
import type { JobWork } from '../../kernel/jobs.ts';
import { closeOutEntry, prizeOfRank, returnPpmOf, type CloseOutTick, type CompetitionRow } from './competitions.ts';

export const prizeJobIdOf = (competitionId: bigint) => `competition-prize-${competitionId}`;

/** The prize pool's balance in `asset`: the real ledger's `prizes` account, every shard. */
export async function prizePoolBalance(db: Executor, asset: string): Promise<bigint> {
  const [row] = await db.select({ total: sql<string>`coalesce(sum(${ledgerAccounts.creditsPosted} - ${ledgerAccounts.debitsPosted}), 0)::text` })
    .from(ledgerAccounts).where(and(eq(ledgerAccounts.ledger, ledgers.real), isNullOwner(), eq(ledgerAccounts.asset, asset), eq(ledgerAccounts.kind, 'prizes')));
  return BigInt(row.total);
}
const isNullOwner = () => sql`${ledgerAccounts.ownerUserId} is null`;

/**
 * What the prize pool is held for by the other unsettled competitions of the same prize asset:
 * the whole prize table of those not yet ended, the frozen rewards of those ended and unpaid.
 */
export async function prizesOwedElsewhere(db: Executor, competition: CompetitionRow): Promise<bigint> {
  const others = await db.select().from(competitions).where(and(eq(competitions.prizeAsset, competition.prizeAsset),
    inArray(competitions.status, ['scheduled', 'running', 'ended']), sql`${competitions.id} <> ${competition.id}`));
  let owed = 0n;
  for (const other of others) {
    if (other.status === 'ended') {
      if (other.payoutJobId) continue;
      const [row] = await db.select({ total: sql<string>`coalesce(sum(${competitionEntries.reward}), 0)::text` }).from(competitionEntries)
        .where(eq(competitionEntries.competitionId, other.id));
      owed += BigInt(row.total);
    } else {
      owed += other.prizeTable.reduce((total, prize) => total + BigInt(prize.amount) * BigInt(prize.toRank - prize.fromRank + 1), 0n);
    }
  }
  return owed;
}

/**
 * The end tick of each symbol the competition's open positions trade (the rule of the header):
 * the symbol's last recorded tick at or before the end instant.
 */
export async function endTicksOf(db: Executor, competition: CompetitionRow): Promise<Map<string, RecordedTick>> {
  const symbols = await db.selectDistinct({ symbol: tradePositions.symbol }).from(tradePositions)
    .where(and(eq(tradePositions.competitionId, competition.id), eq(tradePositions.status, 'running')));
  const ticks = new Map<string, RecordedTick>();
  for (const { symbol } of symbols) {
    // An open position's entry tick is retained and earlier than the end: there is always one.
    const tick = await lastTickAt(db, symbol, competition.endsAt.getTime());
    assert(tick, `a tick of ${symbol} at or before the end of competition ${competition.id}`);
    ticks.set(symbol, tick);
  }
  return ticks;
}

/** A position opened on a symbol the end ticks were not looked up for (an open that committed meanwhile): look again. */
class EndTicksChanged extends Error {}

/** Attempts at step 1 when opens commit between the look-up of the end ticks and the freeze. */
const freezeAttemptsMax = 3;

/** Step 1 for one competition. Answers the number of entries frozen (0 when it was frozen already or has not ended). */
export async function freezeCompetition(db: Db, clock: Clock, competitionId: bigint): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    const [competition] = await db.select().from(competitions).where(eq(competitions.id, competitionId)).limit(1);
    if (!competition || !isDue(competition, clock)) return 0;
    const ticks = await endTicksOf(db, competition);
    // Committed before the freeze locks any account: the closes then find their ticks retained.
    await retainTicks(db, [...ticks.values()].map((tick) => tick.id));
    try {
      return await db.transaction((tx) => freezeLocked(tx, clock, competitionId, ticks));
    } catch (error) {
      if (!(error instanceof EndTicksChanged) || attempt === freezeAttemptsMax) throw error;
    }
  }
}

const isDue = (competition: CompetitionRow, clock: Clock) => (competition.status === 'scheduled' || competition.status === 'running')
  && clock.now().getTime() >= competition.endsAt.getTime();

async function freezeLocked(tx: Tx, clock: Clock, competitionId: bigint, ticks: Map<string, RecordedTick>): Promise<number> {
  const [competition] = await tx.select().from(competitions).where(eq(competitions.id, competitionId)).for('update').limit(1);
  if (!competition || !isDue(competition, clock)) return 0;
  const joined = await tx.select().from(competitionEntries)
    .where(and(eq(competitionEntries.competitionId, competitionId), eq(competitionEntries.status, 'joined')))
    .orderBy(asc(competitionEntries.id)).for('update');
  const endTick: CloseOutTick = async (row) => {
    const tick = ticks.get(row.symbol);
    if (!tick) throw new EndTicksChanged(`position ${row.id} trades ${row.symbol}, whose end tick was not looked up`);
    return tick;
  };
  const now = clock.now();
  const frozen: Array<{ id: bigint; joinedAt: Date; equity: bigint; returnPpm: bigint }> = [];
  for (const entry of joined) {
    const { equity } = await closeOutEntry(tx, clock, competition, entry, endTick, 'competition_end');
    frozen.push({ id: entry.id, joinedAt: entry.joinedAt, equity, returnPpm: returnPpmOf(equity, entry.entryAmount) });
  }
  frozen.sort((a, b) => (a.returnPpm === b.returnPpm
    ? (a.joinedAt.getTime() - b.joinedAt.getTime() || (a.id < b.id ? -1 : 1)) : (a.returnPpm > b.returnPpm ? -1 : 1)));
  const table = competition.prizeTable.map((prize) => ({ ...prize, amount: BigInt(prize.amount) }));
  for (const [index, each] of frozen.entries()) {
    await tx.update(competitionEntries).set({
      status: 'ended', finalEquity: each.equity, returnPpm: each.returnPpm, rank: index + 1, reward: prizeOfRank(table, index + 1), endedAt: now,
    }).where(eq(competitionEntries.id, each.id));
  }
  await tx.update(competitions).set({ status: 'ended', updatedAt: now }).where(eq(competitions.id, competitionId));
  return frozen.length;
}

export type PrizeOutcome = 'settled' | 'unfunded' | 'not_ended' | 'failed';

/** Step 2 for one competition: pays the prizes once the pool is funded, then marks it settled. */
export async function payPrizes(db: Db, clock: Clock, competitionId: bigint, options: RunOptions & { batchSize?: number } = {}): Promise<PrizeOutcome> {
  const { batchSize, ...runOptions } = options;
  const [competition] = await db.select().from(competitions).where(eq(competitions.id, competitionId)).limit(1);
  if (!competition || competition.status !== 'ended') return 'not_ended';
  const winners = await db.select().from(competitionEntries).where(and(eq(competitionEntries.competitionId, competitionId),
    eq(competitionEntries.status, 'ended'), sql`${competitionEntries.reward} > 0`)).orderBy(asc(competitionEntries.rank));
  const due = winners.reduce((total, entry) => total + entry.reward, 0n);
  const jobId = prizeJobIdOf(competitionId);
  if (due > 0n) {
    let job = await payoutJob(db, jobId);
    if (!job) {
      // The pool must hold the whole prize money before the first prize is paid, beside what it owes others.
      if (await prizePoolBalance(db, competition.prizeAsset) - await prizesOwedElsewhere(db, competition) < due) return 'unfunded';
      const accounts = await openAccounts(db, winners.map((entry) => ({ ledger: 'real' as const, asset: competition.prizeAsset, kind: 'spot' as const, ownerUserId: entry.userId })));
      job = await createPayoutJob(db, {
        id: jobId, ledger: 'real', asset: competition.prizeAsset, sourceKind: 'prizes', direction: 'credit', kind: 'competition_prize',
        reference: `competition:${competitionId}`, remark: competition.name, ...(batchSize ? { batchSize } : {}),
      }, winners.map((entry, index) => ({ accountId: accounts[index], amountAtomic: entry.reward })), clock);
      await db.update(competitions).set({ payoutJobId: jobId, updatedAt: clock.now() }).where(eq(competitions.id, competitionId));
    }
    if (job.state !== 'done') job = await runPayoutJob(db, jobId, { clock, ...runOptions });
    if (job.state !== 'done') return 'failed';
  }
  const now = clock.now();
  await db.update(competitions).set({ status: 'settled', settledAt: now, updatedAt: now })
    .where(and(eq(competitions.id, competitionId), eq(competitions.status, 'ended')));
  return 'settled';
}

/** Both steps for every competition past its end (and every ended one still awaiting its prizes). */
export async function settleCompetitions(db: Db, clock: Clock, options: RunOptions = {}) {
  const due = await db.select({ id: competitions.id, status: competitions.status }).from(competitions)
    .where(and(inArray(competitions.status, ['scheduled', 'running', 'ended']), lte(competitions.endsAt, clock.now())))
    .orderBy(asc(competitions.id));
  const counts = { competitions: due.length, entriesFrozen: 0, settled: 0, unfunded: 0, failed: 0 };
  for (const { id } of due) {
    counts.entriesFrozen += await freezeCompetition(db, clock, id);
    // A payout that fails (it throws) is left for the next run, which resumes it: the others go on.
    const outcome = await payPrizes(db, clock, id, options).catch(() => 'failed' as const);
    if (outcome === 'settled') counts.settled += 1;
    else if (outcome === 'unfunded') counts.unfunded += 1;
    else if (outcome === 'failed') counts.failed += 1;
  }
  return counts;
}

export type { CompetitionRow };

export const runCompetitionSettle: JobWork = async (services) => settleCompetitions(services.db, services.clock);
