// The daily job 'competition-settle' (issue 23). Registered in server/domain/jobs/jobs.ts; an
// operator runs it now with POST /api/admin/jobs/competition-settle/run.
//
// For every competition past its end, in two steps that can each be run again:
// 1. Freeze (one transaction per competition): every joined entry's open competition positions
//    are closed at the last tick at the end (the normal close path), its final equity and return
//    frozen and the competition account moved back to spot ('competition_return'); the ranked
//    entries (ended, never exited ones) get rank and reward by the prize table; status 'ended'.
// 2. Pay: when the `prizes` pool (the prize asset's prizes account, all shards) holds what the
//    ranking's prizes add up to, ONE payout job `competition-prize-<id>` pays each winner's spot
//    ('competition_prize'; transfer ids job:account, so a crash half-way and a rerun pay each
//    winner once), then status 'settled'. Until the pool is funded the competition stays 'ended'
//    and each run tries again.
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { competitionEntries, competitions, ledgerAccounts } from '../../db/schema.ts';
import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/time.ts';
import { ledgers, openAccounts } from '../ledger/accounts.ts';
import { createPayoutJob, payoutJob, runPayoutJob, type RunOptions } from '../ledger/payouts.ts';
import type { JobWork } from '../jobs/types.ts';
import { closeOutEntry, prizeOfRank, returnPpmOf, type CompetitionRow } from './competitions.ts';

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

/** Step 1 for one competition. Answers the number of entries frozen (0 when it was frozen already). */
export async function freezeCompetition(db: Db, clock: Clock, competitionId: bigint): Promise<number> {
  return db.transaction(async (tx) => {
    const [competition] = await tx.select().from(competitions).where(eq(competitions.id, competitionId)).for('update').limit(1);
    if (!competition || (competition.status !== 'scheduled' && competition.status !== 'running')) return 0;
    if (clock.now().getTime() < competition.endsAt.getTime()) return 0;
    const joined = await tx.select().from(competitionEntries)
      .where(and(eq(competitionEntries.competitionId, competitionId), eq(competitionEntries.status, 'joined')))
      .orderBy(asc(competitionEntries.id)).for('update');
    const now = clock.now();
    const frozen: Array<{ id: bigint; joinedAt: Date; equity: bigint; returnPpm: bigint }> = [];
    for (const entry of joined) {
      const { equity } = await closeOutEntry(tx, clock, competition, entry, competition.endsAt.getTime());
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
  });
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
