// Payout jobs (issue 20): the one way money moves between a system account and many accounts at
// once, credit (system → each target) or debit (each target → system). Daily interest, prizes,
// red envelopes and settlements all come through here, so it is shaped for 100 000 targets:
//
// - Transfers go to the ledger in batches of hundreds, each batch one transaction against ONE shard
//   of the system account (accounts.ts systemShard); batch n uses shard n mod 16, and parallel lanes
//   take disjoint shard sets, so two batches in flight never queue on one system row lock.
// - A transfer's id is `${job id}:${target account id}`: posting a batch twice can never pay twice.
// - The target list is stored with the job (payout_job_targets), in one transaction when the job is
//   made. The callers' sources (balances at the close of a day, a draw's winners) keep changing, so
//   "derive it again on resume" would pay a different list after a crash; stored, a resume pays
//   exactly what was decided. It is written and read in chunks, never one statement or one result.
// - Each batch writes a payout_job_batches row in its own transaction: a resume skips those batches
//   and runs the rest. The job row's progress is added to after each batch commits and recomputed
//   from the batch rows when a run starts and ends, so it is exact whenever the job is not running.
// - A target the ledger refuses (a debit beyond the balance, exceeds_credits) is recorded on its
//   target row with the refusal and counted on the job; the rest of its batch is posted. Nothing is
//   dropped silently, and a refused target is not retried by a resume (its batch is done): the
//   caller reads the refused targets (payoutJobRefusals) and decides.
//
// postGroups is the layer below, for callers that keep their own durable record of what is paid
// (second-contract orders, positions, loans, matured and refunded product orders: the row's status
// moves in the same transaction): it posts groups of transfers (one per target, linked) in one
// batch of at most postGroupsMax groups and isolates the refused groups.
import { and, asc, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import { payoutJobBatches, payoutJobs, payoutJobTargets } from '../../../db/schema.ts';
import type { Db, Executor } from '../../../db/client.ts';
import { assert } from '../../../lib/errors.ts';
import { systemClock, type Clock } from '../../../lib/time.ts';
import {
  accountKeysMax, isUserAccountKind, ledgers, openAccounts, systemAccountKinds, systemAccountShardCount, type LedgerName,
  type SystemAccountKind, type UserAccountKind,
} from './accounts.ts';
import { postTransfers, transferBatchSizeMax } from './transfers.ts';
import {
  transferKinds, type NewTransferRequest, type TransferKind, type TransferRefusal, type TransferRow,
} from './rules.ts';
import { rowsOf, tokenArrayLiteral } from '../../../db/arrays.ts';

// ─── Groups: one batch, refused targets isolated ─────────────────────────────────────────────────

/** Groups of one postGroups call at most: its callers' batches (orders, loans, positions) are far below. */
export const postGroupsMax = transferBatchSizeMax;

/** The transfers of one target, posted together or refused together. */
export interface TransferGroup<T> {
  target: T;
  transfers: NewTransferRequest[];
}

export interface GroupRefusal<T> {
  target: T;
  refusal: TransferRefusal;
  /** The transfer the ledger named. */
  transferId: string;
}

export interface GroupsOutcome<T> {
  posted: T[];
  refused: GroupRefusal<T>[];
  /** The ledger's rows of the posted transfers, in batch order. */
  transfers: TransferRow[];
  /** True when every posted transfer was stored already (a retry of a batch that went through). */
  replayed: boolean;
}

/**
 * Posts every group in one ledger batch (a savepoint when `db` is a transaction). When the ledger
 * refuses a transfer, its group is set aside with the refusal and the batch is posted again
 * without it: the ledger applies a batch in order, so the groups before the refused one passed and
 * each round moves past at least one group. A refusal is rare where this is used (a debit beyond
 * a balance), so the rounds stay few; the batch is bounded by transferBatchSizeMax.
 */
export async function postGroups<T>(db: Executor, groups: readonly TransferGroup<T>[], clock: Clock = systemClock): Promise<GroupsOutcome<T>> {
  // A group without transfers is set aside below, so the transfer count alone would not bound the call.
  assert(groups.length <= postGroupsMax, `a batch holds at most ${postGroupsMax} groups`);
  let remaining = groups.filter((group) => group.transfers.length > 0);
  assert(remaining.reduce((count, group) => count + group.transfers.length, 0) <= transferBatchSizeMax,
    `a batch of groups holds at most ${transferBatchSizeMax} transfers`);
  const refused: GroupRefusal<T>[] = [];
  while (remaining.length > 0) {
    const batch = remaining.flatMap((group) => group.transfers);
    const result = await postTransfers(db, batch, clock);
    if (result.ok) return { posted: remaining.map((group) => group.target), refused, transfers: result.transfers, replayed: result.replayed };
    let before = 0;
    const index = remaining.findIndex((group) => (before += group.transfers.length) > result.index);
    assert(index >= 0, `refused transfer ${result.index} is in the batch`);
    refused.push({ target: remaining[index].target, refusal: result.refusal, transferId: batch[result.index].id });
    remaining = remaining.filter((_, other) => other !== index);
  }
  return { posted: [], refused, transfers: [], replayed: false };
}

// ─── Jobs ────────────────────────────────────────────────────────────────────────────────────────

export type PayoutDirection = 'credit' | 'debit';
export type PayoutJobState = 'running' | 'done' | 'failed';

export interface PayoutJobSpec {
  /** 1 to 40 of A-Z a-z 0-9 . _ -, chosen by the caller ("interest-2026-11-27"); making it twice is a no-op. */
  id: string;
  ledger: LedgerName;
  asset: string;
  /** The system account on the other side of every transfer (house, interest_expense, reward_expense...). */
  sourceKind: SystemAccountKind;
  /** credit: the system account pays each target; debit: each target pays the system account. */
  direction: PayoutDirection;
  kind: TransferKind;
  /** The business object every transfer belongs to ("prize:12"): one event per target in its ledger. */
  reference: string;
  remark?: string;
  /** Targets per batch (one ledger transaction); default payoutBatchSizeDefault. */
  batchSize?: number;
}

export interface PayoutTarget {
  accountId: bigint;
  amountAtomic: bigint;
}

export interface PayoutProgress {
  jobId: string;
  targetCount: number;
  amountTotal: bigint;
  targetsPosted: number;
  amountPosted: bigint;
  targetsRefused: number;
  amountRefused: bigint;
  batchesDone: number;
  batchCount: number;
}

/** A stored job: its spec as made (remark null when none, batch size resolved), state and progress. */
export interface PayoutJob extends PayoutProgress, Omit<PayoutJobSpec, 'id' | 'remark' | 'batchSize'> {
  remark: string | null;
  batchSize: number;
  state: PayoutJobState;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface RunOptions {
  clock?: Clock;
  /** Batches in flight at once, each on its own shards; rounded down to a divisor of the shard count. 1 on PGlite. */
  concurrency?: number;
  /** Called after each batch commits (and once when the run starts), in commit order. A throw stops the run (failed). */
  onProgress?: (progress: PayoutProgress) => void;
}

export const payoutBatchSizeDefault = 500;
/** A batch is one ledger batch: a transfer per target. */
export const payoutBatchSizeMax = transferBatchSizeMax;
/** Targets of one job at most: a million rows of payout_job_targets, ~30 MB in memory while it is made. */
export const payoutTargetsMax = 1_000_000;
/** Rows per statement when the targets are written: under PostgreSQL's parameter limit with room. */
const targetWriteChunk = 10_000;
const jobIdPattern = /^[A-Za-z0-9._-]{1,40}$/;

export const payoutTransferId = (jobId: string, accountId: bigint) => `${jobId}:${accountId}`;

/** A PostgreSQL array literal of plain tokens (digits, lower-case words). */

type JobRow = typeof payoutJobs.$inferSelect;

function jobOf(row: JobRow, batchesDone: number): PayoutJob {
  return {
    jobId: row.id, ledger: row.ledger === ledgers.demo ? 'demo' : 'real', asset: row.asset, sourceKind: row.sourceKind as SystemAccountKind,
    direction: row.direction as PayoutDirection, kind: row.kind as TransferKind, reference: row.reference, remark: row.remark,
    batchSize: row.batchSize, state: row.state as PayoutJobState, error: row.error, createdAt: row.createdAt, finishedAt: row.finishedAt,
    targetCount: row.targetCount, amountTotal: row.amountTotal, targetsPosted: row.targetsPosted, amountPosted: row.amountPosted,
    targetsRefused: row.targetsRefused, amountRefused: row.amountRefused, batchesDone, batchCount: Math.ceil(row.targetCount / row.batchSize),
  };
}

function checkSpec(spec: PayoutJobSpec, targets: readonly PayoutTarget[]) {
  assert(jobIdPattern.test(spec.id), `payout job id ${spec.id}: 1 to 40 of A-Z a-z 0-9 . _ -`);
  assert(spec.ledger === 'real' || spec.ledger === 'demo', `ledger ${spec.ledger}`);
  assert((systemAccountKinds as readonly string[]).includes(spec.sourceKind), `${spec.sourceKind} is a system account kind`);
  assert(spec.direction === 'credit' || spec.direction === 'debit', `direction ${spec.direction}`);
  assert((transferKinds as readonly string[]).includes(spec.kind), `transfer kind ${spec.kind}`);
  assert(spec.reference.length >= 1 && spec.reference.length <= 64, 'a reference of 1 to 64 characters');
  const batchSize = spec.batchSize ?? payoutBatchSizeDefault;
  assert(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= payoutBatchSizeMax, `batch size 1 to ${payoutBatchSizeMax}`);
  assert(targets.length >= 1 && targets.length <= payoutTargetsMax, `1 to ${payoutTargetsMax} targets`);
  const seen = new Set<bigint>();
  for (const target of targets) {
    assert(typeof target.amountAtomic === 'bigint' && target.amountAtomic > 0n, `target ${target.accountId}: a positive amount`);
    assert(!seen.has(target.accountId), `account ${target.accountId} is a target once`);
    seen.add(target.accountId);
  }
  return batchSize;
}

/**
 * Makes a job (state running, nothing posted) with its targets, in one transaction: the job is
 * there whole or not at all. Making a job whose id exists answers the stored job when it is the
 * same job (same spec, count and total: a caller that crashed after making it), and throws for
 * another one. Every target must be an account of the job's ledger
 * and asset, once; a violation is a programmer error and makes nothing.
 */
export async function createPayoutJob(db: Db, spec: PayoutJobSpec, targets: readonly PayoutTarget[],
  clock: Clock = systemClock): Promise<PayoutJob> {
  const batchSize = checkSpec(spec, targets);
  const amountTotal = targets.reduce((total, target) => total + target.amountAtomic, 0n);
  const now = clock.now();
  const values = {
    id: spec.id, ledger: ledgers[spec.ledger], asset: spec.asset, sourceKind: spec.sourceKind, direction: spec.direction,
    kind: spec.kind, reference: spec.reference, remark: spec.remark ?? null, batchSize, targetCount: targets.length, amountTotal,
    state: 'running', createdAt: now, updatedAt: now,
  };
  const created = await db.transaction(async (tx) => {
    const inserted = await tx.insert(payoutJobs).values(values).onConflictDoNothing().returning({ id: payoutJobs.id });
    if (inserted.length === 0) return false;
    for (let start = 0; start < targets.length; start += targetWriteChunk) {
      const chunk = targets.slice(start, start + targetWriteChunk);
      const accounts = tokenArrayLiteral(chunk.map((target) => target.accountId));
      const [{ matching }] = rowsOf<{ matching: number }>(await tx.execute(sql`select count(*)::int as matching from ledger_accounts
        where id = any(${accounts}::bigint[]) and ledger = ${values.ledger} and asset = ${spec.asset}`));
      assert(matching === chunk.length, `every target is an account of ${spec.ledger} ${spec.asset} (${chunk.length - matching} of this chunk are not)`);
      await tx.execute(sql`insert into payout_job_targets (job_id, ordinal, account_id, amount)
        select ${spec.id}, ${start} + v.n - 1, v.account_id, v.amount
        from unnest(${accounts}::bigint[], ${tokenArrayLiteral(chunk.map((target) => target.amountAtomic))}::numeric[])
          with ordinality as v(account_id, amount, n)`);
    }
    return true;
  });
  const job = await payoutJob(db, spec.id);
  assert(job, `payout job ${spec.id} exists`);
  if (!created) {
    const same = job.ledger === spec.ledger && job.asset === spec.asset && job.sourceKind === spec.sourceKind
      && job.direction === spec.direction && job.kind === spec.kind && job.reference === spec.reference
      && job.remark === (spec.remark ?? null) && job.batchSize === batchSize && job.targetCount === targets.length
      && job.amountTotal === amountTotal;
    // Job ids are the callers' (a day, a draw), never a user's: a clash is a programmer error.
    assert(same, `payout job ${spec.id} exists with other fields`);
  }
  return job;
}

/** The job with its progress, or undefined. */
export async function payoutJob(db: Executor, id: string): Promise<PayoutJob | undefined> {
  const [row] = await db.select().from(payoutJobs).where(eq(payoutJobs.id, id)).limit(1);
  if (!row) return undefined;
  const [{ done }] = await db.select({ done: sql<number>`count(*)::int` }).from(payoutJobBatches).where(eq(payoutJobBatches.jobId, id));
  return jobOf(row, Number(done));
}

/** Jobs a run left unfinished (killed: running; stopped by an error: failed), oldest first. */
export async function unfinishedPayoutJobs(db: Executor, states: readonly PayoutJobState[] = ['running']): Promise<string[]> {
  const rows = await db.select({ id: payoutJobs.id }).from(payoutJobs)
    .where(sql`${payoutJobs.state} = any(${tokenArrayLiteral(states)}::varchar[])`).orderBy(asc(payoutJobs.createdAt), asc(payoutJobs.id));
  return rows.map((row) => row.id);
}

export interface PayoutRefusal { accountId: bigint; amountAtomic: bigint; refusal: TransferRefusal }

/** The targets the ledger refused, in target order, a page at a time (ordinal > afterOrdinal). */
export async function payoutJobRefusals(db: Executor, id: string, afterOrdinal = -1, limit = 1000): Promise<Array<PayoutRefusal & { ordinal: number }>> {
  assert(Number.isInteger(limit) && limit >= 1 && limit <= 10_000, 'a page of 1 to 10 000 refusals');
  const rows = await db.select().from(payoutJobTargets)
    .where(and(eq(payoutJobTargets.jobId, id), isNotNull(payoutJobTargets.refusal), sql`${payoutJobTargets.ordinal} > ${afterOrdinal}`))
    .orderBy(asc(payoutJobTargets.ordinal)).limit(limit);
  return rows.map((row) => ({ ordinal: row.ordinal, accountId: row.accountId, amountAtomic: row.amount, refusal: row.refusal as TransferRefusal }));
}

/** Jobs running in this process: a second run of one of them waits for nothing and is refused. */
const runningHere = new Set<string>();

/**
 * Runs a job to the end, or resumes one a crash or an error left unfinished: the batches without a
 * payout_job_batches row are posted, `concurrency` at a time on disjoint shards; a done job is
 * answered as it is. When a batch fails (the database, a bug) no new batch starts, the job is marked
 * failed with the error, and the error is thrown; running it again continues. Answers the job.
 */
export async function runPayoutJob(db: Db, id: string, options: RunOptions = {}): Promise<PayoutJob> {
  assert(!runningHere.has(id), `payout job ${id} is running in this process already`);
  runningHere.add(id);
  try {
    return await runJob(db, id, options);
  } finally {
    runningHere.delete(id);
  }
}

async function runJob(db: Db, id: string, options: RunOptions): Promise<PayoutJob> {
  const clock = options.clock ?? systemClock;
  const [row] = await db.select().from(payoutJobs).where(eq(payoutJobs.id, id)).limit(1);
  assert(row, `payout job ${id} exists`);
  if (row.state === 'done') return (await payoutJob(db, id))!;
  await db.update(payoutJobs).set({ state: 'running', error: null, updatedAt: clock.now() }).where(eq(payoutJobs.id, id));
  // The row may lag what was committed when the last run was killed; the batch rows do not.
  const progress = await recountProgress(db, row, clock);
  const done = new Set((await db.select({ batchNo: payoutJobBatches.batchNo }).from(payoutJobBatches)
    .where(eq(payoutJobBatches.jobId, id))).map((batch) => batch.batchNo));
  const sources = await openAccounts(db, Array.from({ length: systemAccountShardCount }, (_, shard) => ({
    ledger: row.ledger === ledgers.demo ? 'demo' as const : 'real' as const, asset: row.asset, kind: row.sourceKind as SystemAccountKind, shard,
  })));
  const lanes = laneCount(options.concurrency ?? 1);
  const todo: number[][] = Array.from({ length: lanes }, () => []);
  for (let batchNo = 0; batchNo < progress.batchCount; batchNo += 1) {
    if (!done.has(batchNo)) todo[(batchNo % systemAccountShardCount) % lanes].push(batchNo);
  }
  options.onProgress?.(progressOf(progress));
  let failure: { error: unknown } | undefined;
  await Promise.all(todo.map(async (batches) => {
    for (const batchNo of batches) {
      if (failure) return;
      try {
        const counts = await postBatch(db, row, batchNo, sources[batchNo % systemAccountShardCount], clock);
        if (!counts) continue;
        addCounts(progress, counts);
        // Reported before the next await, so each report is this batch's and they come in commit order.
        options.onProgress?.(progressOf(progress));
        await db.update(payoutJobs).set({
          targetsPosted: sql`${payoutJobs.targetsPosted} + ${counts.targetsPosted}`,
          amountPosted: sql`${payoutJobs.amountPosted} + ${String(counts.amountPosted)}::numeric`,
          targetsRefused: sql`${payoutJobs.targetsRefused} + ${counts.targetsRefused}`,
          amountRefused: sql`${payoutJobs.amountRefused} + ${String(counts.amountRefused)}::numeric`,
          updatedAt: clock.now(),
        }).where(eq(payoutJobs.id, id));
      } catch (error) {
        failure ??= { error };
      }
    }
  }));
  if (failure) {
    const message = failure.error instanceof Error ? failure.error.message : String(failure.error);
    await recountProgress(db, row, clock).catch(() => undefined);
    await db.update(payoutJobs).set({ state: 'failed', error: message.slice(0, 500), updatedAt: clock.now() }).where(eq(payoutJobs.id, id));
    throw failure.error;
  }
  await recountProgress(db, row, clock, true);
  return (await payoutJob(db, id))!;
}

/** The largest divisor of the shard count not above `concurrency`: lane l then owns the shards ≡ l (mod lanes). */
function laneCount(concurrency: number): number {
  let lanes = Math.max(1, Math.min(Math.floor(concurrency), systemAccountShardCount));
  while (systemAccountShardCount % lanes !== 0) lanes -= 1;
  return lanes;
}

interface BatchCounts { targetsPosted: number; amountPosted: bigint; targetsRefused: number; amountRefused: bigint }

function addCounts(progress: BatchCounts & { batchesDone: number }, counts: BatchCounts) {
  progress.targetsPosted += counts.targetsPosted;
  progress.amountPosted += counts.amountPosted;
  progress.targetsRefused += counts.targetsRefused;
  progress.amountRefused += counts.amountRefused;
  progress.batchesDone += 1;
}

/** A copy for the callback, so it can keep it. */
const progressOf = (progress: PayoutProgress): PayoutProgress => ({ ...progress });

/** Sums the batch rows into the job row (and, when `finish`, marks it done); answers the sums. */
async function recountProgress(db: Db, row: JobRow, clock: Clock, finish = false): Promise<PayoutProgress> {
  const [sums] = rowsOf<{ batches: number; targets_posted: number; amount_posted: string; targets_refused: number; amount_refused: string }>(
    await db.execute(sql`select count(*)::int as batches, coalesce(sum(targets_posted), 0)::int as targets_posted,
      coalesce(sum(amount_posted), 0)::text as amount_posted, coalesce(sum(targets_refused), 0)::int as targets_refused,
      coalesce(sum(amount_refused), 0)::text as amount_refused
    from payout_job_batches where job_id = ${row.id}`));
  const progress: PayoutProgress = {
    jobId: row.id, targetCount: row.targetCount, amountTotal: row.amountTotal,
    targetsPosted: Number(sums.targets_posted), amountPosted: BigInt(sums.amount_posted),
    targetsRefused: Number(sums.targets_refused), amountRefused: BigInt(sums.amount_refused),
    batchesDone: Number(sums.batches), batchCount: Math.ceil(row.targetCount / row.batchSize),
  };
  if (finish) {
    assert(progress.batchesDone === progress.batchCount, `payout job ${row.id}: every batch is done`);
    assert(progress.targetsPosted + progress.targetsRefused === row.targetCount
      && progress.amountPosted + progress.amountRefused === row.amountTotal, `payout job ${row.id}: every target is posted or refused`);
  }
  const now = clock.now();
  await db.update(payoutJobs).set({
    targetsPosted: progress.targetsPosted, amountPosted: progress.amountPosted, targetsRefused: progress.targetsRefused,
    amountRefused: progress.amountRefused, updatedAt: now, ...(finish ? { state: 'done', finishedAt: now } : {}),
  }).where(eq(payoutJobs.id, row.id));
  return progress;
}

/** A batch id another runner took between our look and our insert: roll this one back. */
class BatchTaken extends Error {}

/**
 * One batch in one transaction: its targets read, their transfers posted against `source`, the
 * refused ones recorded, the batch row written. Answers its counts, or undefined when another run
 * of the same job did it first (its transfers then replay, and this transaction is rolled back).
 */
async function postBatch(db: Db, job: JobRow, batchNo: number, source: bigint, clock: Clock): Promise<BatchCounts | undefined> {
  try {
    return await db.transaction(async (tx) => {
      const targets = await tx.select({ ordinal: payoutJobTargets.ordinal, accountId: payoutJobTargets.accountId, amount: payoutJobTargets.amount })
        .from(payoutJobTargets)
        .where(and(eq(payoutJobTargets.jobId, job.id), gte(payoutJobTargets.ordinal, batchNo * job.batchSize),
          lt(payoutJobTargets.ordinal, (batchNo + 1) * job.batchSize)))
        .orderBy(asc(payoutJobTargets.ordinal));
      assert(targets.length >= 1, `payout job ${job.id} batch ${batchNo} has targets`);
      const groups = targets.map((target) => ({
        target,
        transfers: [{
          id: payoutTransferId(job.id, target.accountId), kind: job.kind as TransferKind, reference: job.reference,
          remark: job.remark ?? undefined, amountAtomic: target.amount,
          debitAccountId: job.direction === 'credit' ? source : target.accountId,
          creditAccountId: job.direction === 'credit' ? target.accountId : source,
        }],
      }));
      const outcome = await postGroups(tx, groups, clock);
      if (outcome.refused.length > 0) {
        await tx.execute(sql`update payout_job_targets t set refusal = v.refusal
          from unnest(${tokenArrayLiteral(outcome.refused.map((refused) => refused.target.ordinal))}::int[],
            ${tokenArrayLiteral(outcome.refused.map((refused) => refused.refusal))}::varchar[]) as v(ordinal, refusal)
          where t.job_id = ${job.id} and t.ordinal = v.ordinal`);
      }
      const counts: BatchCounts = {
        targetsPosted: outcome.posted.length, amountPosted: outcome.posted.reduce((total, target) => total + target.amount, 0n),
        targetsRefused: outcome.refused.length, amountRefused: outcome.refused.reduce((total, refused) => total + refused.target.amount, 0n),
      };
      const inserted = await tx.insert(payoutJobBatches).values({
        jobId: job.id, batchNo, shard: batchNo % systemAccountShardCount, ...counts, postedAt: clock.now(),
      }).onConflictDoNothing().returning({ batchNo: payoutJobBatches.batchNo });
      if (inserted.length === 0) throw new BatchTaken();
      return counts;
    });
  } catch (error) {
    if (error instanceof BatchTaken) return undefined;
    throw error;
  }
}

/**
 * At start: every job a killed process left running is run to its end, one after another, in the
 * background (the caller does not wait). Another instance resuming the same job at the same time
 * is harmless: a batch one of them committed first is rolled back by the other (BatchTaken) and
 * its transfers replay by id. A failed job (stopped by an error) waits for an operator instead.
 * Answers the ids it resumes.
 */
export async function resumePayoutJobs(db: Db, options: { clock?: Clock; onError?: (jobId: string, error: unknown) => void; onDone?: (job: PayoutJob) => void } = {}): Promise<string[]> {
  const ids = (await unfinishedPayoutJobs(db, ['running'])).filter((id) => !runningHere.has(id));
  void (async () => {
    for (const id of ids) {
      try {
        options.onDone?.(await runPayoutJob(db, id, { clock: options.clock }));
      } catch (error) {
        options.onError?.(id, error);
      }
    }
  })();
  return ids;
}

// ─── For the callers of jobs ─────────────────────────────────────────────────────────────────────
//
// What programs paying through jobs need beside making and running them, so that none of them
// reads payout_* or ledger_* tables itself: the accounts of many users at once, how many of their
// jobs exist, what their unfinished jobs still owe from a system account, and a run shared with
// another caller of this process that meets the same job.

/** Users per statement when their accounts are looked up: one array parameter, as the targets' writes. */
const accountLookupChunk = 10_000;

/**
 * The account of one kind of each of many users (a payout's targets), user id → account id: found
 * set-wise, 10 000 users a statement, and the few not open yet opened through openAccounts (200
 * at a time), so a first payout to a user is one more call, never another way of making accounts.
 */
export async function userAccountsOf(db: Executor, key: { ledger: LedgerName; asset: string; kind: UserAccountKind },
  userIds: readonly bigint[]): Promise<Map<bigint, bigint>> {
  assert(isUserAccountKind(key.kind), `${key.kind} is a user account kind`);
  const unique = [...new Set(userIds)];
  const found = new Map<bigint, bigint>();
  for (let start = 0; start < unique.length; start += accountLookupChunk) {
    const chunk = unique.slice(start, start + accountLookupChunk);
    const rows = rowsOf<{ owner: string; id: string }>(await db.execute(sql`select owner_user_id::text as owner, id::text as id
      from ledger_accounts where owner_user_id = any(${tokenArrayLiteral(chunk)}::bigint[])
        and ledger = ${ledgers[key.ledger]} and asset = ${key.asset} and kind = ${key.kind} and shard = 0`));
    for (const row of rows) found.set(BigInt(row.owner), BigInt(row.id));
  }
  const missing = unique.filter((userId) => !found.has(userId));
  for (let start = 0; start < missing.length; start += accountKeysMax) {
    const chunk = missing.slice(start, start + accountKeysMax);
    const ids = await openAccounts(db, chunk.map((ownerUserId) => ({ ledger: key.ledger, asset: key.asset, kind: key.kind, ownerUserId })));
    chunk.forEach((userId, index) => found.set(userId, ids[index]));
  }
  return found;
}

/** How many jobs have an id starting with `idPrefix` (a caller numbering its jobs of one day and object). */
export async function countPayoutJobs(db: Executor, idPrefix: string): Promise<number> {
  assert(idPrefix.length >= 1 && idPrefix.length <= 40, 'a prefix of 1 to 40 characters');
  const [{ jobs }] = await db.select({ jobs: sql<number>`count(*)::int` }).from(payoutJobs)
    .where(sql`left(${payoutJobs.id}, ${idPrefix.length}) = ${idPrefix}`);
  return Number(jobs);
}

/**
 * What the unfinished credit jobs (running or failed) from one system account kind still have to
 * pay: their totals less what was posted or refused. A pool that checks its balance before it
 * promises money (VIP bonuses from `rewards`) counts this as spent: the promise is the job, made
 * in the check's transaction, and its money leaves the pool batches later. While a job runs, the
 * row's progress is added to just after each batch commits, so this can count a batch twice for a
 * moment (too little left, never too much).
 */
export async function payoutJobsOwed(db: Executor, source: { ledger: LedgerName; asset: string; sourceKind: SystemAccountKind }): Promise<bigint> {
  const [{ owed }] = await db.select({
    owed: sql<string>`coalesce(sum(${payoutJobs.amountTotal} - ${payoutJobs.amountPosted} - ${payoutJobs.amountRefused}), 0)::text`,
  }).from(payoutJobs).where(and(eq(payoutJobs.ledger, ledgers[source.ledger]), eq(payoutJobs.asset, source.asset),
    eq(payoutJobs.sourceKind, source.sourceKind), eq(payoutJobs.direction, 'credit'), sql`${payoutJobs.state} <> 'done'`));
  return BigInt(owed);
}

/** Runs started through finishPayoutJob, by job id: a second caller waits for the first. */
const finishing = new Map<string, Promise<PayoutJob>>();

/**
 * runPayoutJob for callers that may meet a job another caller of this process is running (a
 * program's resume of its unfinished jobs beside a fresh run that has just made one): the second
 * caller waits for the first run and shares its outcome instead of being refused. A run this
 * process started through runPayoutJob itself (the start-up resume) cannot be waited for: the
 * stored job is answered as it is, still running, and the caller leaves it to that run.
 */
export function finishPayoutJob(db: Db, id: string, options: RunOptions = {}): Promise<PayoutJob> {
  const shared = finishing.get(id);
  if (shared) return shared;
  if (runningHere.has(id)) {
    return payoutJob(db, id).then((job) => {
      assert(job, `payout job ${id} exists`);
      return job;
    });
  }
  const run = runPayoutJob(db, id, options).finally(() => finishing.delete(id));
  finishing.set(id, run);
  return run;
}

/**
 * Finishes, one after another and oldest first, the unfinished jobs (running: killed; failed:
 * stopped by an error) whose id starts with `idPrefix`, through finishPayoutJob. Answers the jobs
 * as they ended; the first error stops it and is thrown.
 */
export async function finishPayoutJobsOf(db: Db, idPrefix: string, options: RunOptions = {}): Promise<PayoutJob[]> {
  assert(idPrefix.length >= 1, 'a prefix');
  const ids = (await unfinishedPayoutJobs(db, ['running', 'failed'])).filter((id) => id.startsWith(idPrefix));
  const jobs: PayoutJob[] = [];
  for (const id of ids) jobs.push(await finishPayoutJob(db, id, options));
  return jobs;
}
