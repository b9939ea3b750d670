// VIP rewards (issue 23): per level a one-time bonus and a weekly red envelope (vip_rewards).
//
// The bonus of every level from 1 up to the user's current level (a jump from 0 to 3 earns the
// bonuses of 1, 2 and 3) is paid once the level has been held without a break for the operator's
// holding period (issue 38: user_level_holds, default 7 days) by a user whose basic verification
// is approved, and once per verified person: the row of vip_bonus_grants (primary key user, level;
// unique level, person) and the payout job that pays it from the `rewards` pool (issue 33: the
// one way money goes to many accounts; its transfer `${job}:${spot account}`, kind vip_bonus,
// reference vip-level:<level>) are made in one transaction, so falling and rising again, a rerun,
// a crash before the job ran, or a second account of the same person never pays twice. A deposit
// withdrawn within the period ends the holding unpaid. grantVipBonuses runs after a user's level
// is rechecked (deposits, withdrawals: after their commit, off their path) and after the daily
// vip-levels job for everybody, in batches of `bonusBatchSize` (one transaction deciding them, then
// their jobs). When the pool, less what unfinished bonus jobs still owe from it, cannot pay a
// batch's bonuses, those not covered are left without a grant row and paid by a later run.
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  vipHoldingDaysDefault, vipHoldingDaysMax, type VipHolding, type VipRewardBody, type VipRewardRow, type VipRewards,
} from '../../../../src/api/contract/rewards.ts';
import { systemSettings, userLevelHolds, userLevels, vipBonusGrants, vipLevels, vipRewards } from '../../../db/schema.ts';
import type { Db, Executor } from '../../../db/client.ts';
import { rowsOf, tokenArrayLiteral } from '../../../db/arrays.ts';
import { verifiedPersonKey, verifiedPersonKeys } from '../../core/identity/kyc.ts';
import { AppError, assert, notFound } from '../../../lib/errors.ts';
import { formatAmount, parseAmount } from '../../kernel/ledger/amounts.ts';
import { accountKeysMax, openAccounts } from '../../kernel/ledger/accounts.ts';
import {
  createPayoutJob, finishPayoutJob, finishPayoutJobsOf, payoutJobsOwed, payoutTransferId, type PayoutJob, type PayoutTarget,
} from '../../kernel/ledger/payouts.ts';
import { assetScales, scaleOf } from '../../kernel/ledger/assets.ts';
import { lockPool, poolBalance } from './fundings.ts';

/**
 * Bonus and weekly envelope per level in whole USDT for a fresh install. One-time bonuses start at
 * zero and an operator sets them (Rewards screen, /api/admin/rewards/vip): a bonus is credited a
 * moment after the deposit that lifts the level, so a default bonus would move every new
 * depositor's balance by itself, which a client written from the spec cannot expect. Envelopes are
 * issued only by the weekly job and opened by the user.
 */
const defaultRewards: Record<number, { bonus: bigint; weekly: bigint }> = {
  1: { bonus: 0n, weekly: 1n }, 2: { bonus: 0n, weekly: 5n }, 3: { bonus: 0n, weekly: 20n }, 4: { bonus: 0n, weekly: 80n }, 5: { bonus: 0n, weekly: 300n },
};

export async function seedVipRewards(db: Executor, now = new Date()): Promise<void> {
  const [any] = await db.select({ level: vipRewards.level }).from(vipRewards).limit(1);
  if (any) return;
  const scale = scaleOf(await assetScales(db), 'USDT');
  const unit = 10n ** BigInt(scale);
  const levels = await db.select({ level: vipLevels.level }).from(vipLevels);
  const rows = levels.filter((row) => defaultRewards[row.level]).map((row) => ({
    level: row.level, asset: 'USDT', bonus: defaultRewards[row.level].bonus * unit, weeklyEnvelope: defaultRewards[row.level].weekly * unit, updatedAt: now,
  }));
  if (rows.length > 0) await db.insert(vipRewards).values(rows).onConflictDoNothing();
}

export async function listVipRewardRows(db: Executor): Promise<VipRewardRow[]> {
  const rows = await db.select({ level: vipLevels.level, name: vipLevels.name, reward: vipRewards }).from(vipLevels)
    .leftJoin(vipRewards, eq(vipRewards.level, vipLevels.level)).orderBy(asc(vipLevels.level));
  const scales = await assetScales(db);
  return rows.filter((row) => row.level >= 1).map((row) => {
    const asset = row.reward?.asset ?? 'USDT';
    const scale = scaleOf(scales, asset);
    return {
      level: row.level, name: row.name, asset,
      bonus: formatAmount(row.reward?.bonus ?? 0n, scale), weeklyEnvelope: formatAmount(row.reward?.weeklyEnvelope ?? 0n, scale),
    };
  });
}

function parseNonNegative(text: string, scale: number): bigint {
  const parsed = parseAmount(text, scale);
  if (!parsed.ok) throw new AppError(400, parsed.refusal, `Please enter the amount as a plain number with at most ${scale} decimals.`, { scale });
  if (parsed.atomic < 0n) throw new AppError(400, 'amount_not_positive', 'Please enter zero or more.');
  return parsed.atomic;
}

/** An operator sets one level's bonus and weekly envelope (zero turns either off). */
export async function setVipReward(db: Executor, body: VipRewardBody, now: Date) {
  const [level] = await db.select().from(vipLevels).where(eq(vipLevels.level, body.level));
  if (!level) throw notFound('not_found', 'There is no such VIP level.');
  const scale = (await assetScales(db)).get(body.asset);
  if (scale === undefined) throw new AppError(400, 'currency_unknown', `There is no asset ${body.asset}.`);
  const bonus = parseNonNegative(body.bonus, scale);
  const weeklyEnvelope = parseNonNegative(body.weeklyEnvelope, scale);
  const before = (await listVipRewardRows(db)).find((row) => row.level === body.level);
  await db.insert(vipRewards).values({ level: body.level, asset: body.asset, bonus, weeklyEnvelope, updatedAt: now })
    .onConflictDoUpdate({ target: vipRewards.level, set: { asset: body.asset, bonus, weeklyEnvelope, updatedAt: now } });
  const after = (await listVipRewardRows(db)).find((row) => row.level === body.level)!;
  return { before, after };
}

// ─── The holding period (issue 38) ───────────────────────────────────────────────────────────────

const dayMs = 86_400_000;
/** The system_settings key of the holding period, in whole days. */
export const vipHoldingSettingKey = 'vip_bonus_holding_days';

/** The days a level must be held before its bonus is paid: the operator's setting, else 7. */
export async function vipHoldingDays(db: Executor): Promise<number> {
  const [row] = await db.select({ value: systemSettings.value }).from(systemSettings).where(eq(systemSettings.key, vipHoldingSettingKey)).limit(1);
  const days = row ? Number(row.value) : Number.NaN;
  return Number.isInteger(days) && days >= 0 && days <= vipHoldingDaysMax ? days : vipHoldingDaysDefault;
}

/** Sets the holding period (0 to 90 days; the caller audits it in the same transaction). */
export async function setVipHoldingDays(db: Executor, days: number, now: Date): Promise<{ before: VipHolding; after: VipHolding }> {
  if (!Number.isInteger(days) || days < 0 || days > vipHoldingDaysMax) {
    throw new AppError(400, 'invalid_request', `The holding period is a whole number of days from 0 to ${vipHoldingDaysMax}.`);
  }
  // One change at a time, so the audit's "before" is the value this change replaced.
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${vipHoldingSettingKey}))`);
  const before = { holdingDays: await vipHoldingDays(db) };
  await db.insert(systemSettings).values({ key: vipHoldingSettingKey, value: String(days), updatedAt: now })
    .onConflictDoUpdate({ target: systemSettings.key, set: { value: String(days), updatedAt: now } });
  return { before, after: { holdingDays: days } };
}

/**
 * Level rows and the caller's level, highest level and the bonuses received; whether the caller is
 * verified, the holding period, and the bonuses of the levels held and not received with the time
 * their holding period ends (none for a level the same person received on another account).
 */
export async function myVipRewards(db: Executor, userId: bigint): Promise<VipRewards> {
  const [levels, rewards, [mine], grants, holds, scales, holdingDays, personKey] = await Promise.all([
    listVipRewardRows(db),
    db.select().from(vipRewards),
    db.select().from(userLevels).where(eq(userLevels.userId, userId)),
    db.select().from(vipBonusGrants).where(eq(vipBonusGrants.userId, userId)).orderBy(asc(vipBonusGrants.level)),
    db.select().from(userLevelHolds).where(eq(userLevelHolds.userId, userId)).orderBy(asc(userLevelHolds.level)),
    assetScales(db),
    vipHoldingDays(db),
    verifiedPersonKey(db, userId),
  ]);
  const received = new Set(grants.map((grant) => grant.level));
  const elsewhere = personKey === null ? [] : await db.select({ level: vipBonusGrants.level }).from(vipBonusGrants)
    .where(eq(vipBonusGrants.personKey, personKey));
  for (const row of elsewhere) received.add(row.level);
  const rewardOf = new Map(rewards.map((row) => [row.level, row]));
  const waiting = holds.flatMap((hold) => {
    const reward = rewardOf.get(hold.level);
    if (!reward || reward.bonus <= 0n || received.has(hold.level) || hold.level > (mine?.level ?? 0)) return [];
    return [{
      level: hold.level, asset: reward.asset, amount: formatAmount(reward.bonus, scaleOf(scales, reward.asset)),
      payableAt: hold.since.getTime() + holdingDays * dayMs,
    }];
  });
  return {
    levels, level: mine?.level ?? 0, highestLevel: mine?.highestLevel ?? 0,
    granted: grants.map((grant) => ({
      level: grant.level, asset: grant.asset, amount: formatAmount(grant.amount, scaleOf(scales, grant.asset)), time: grant.createdAt.getTime(),
    })),
    verified: personKey !== null, holdingDays, waiting,
  };
}

/** Bonuses decided per transaction (one payout job per level among them): a bounded batch, never every user's. */
export const bonusBatchSize = 100;
/** Payout jobs of VIP bonuses: `vb-<level>-<first user paid>-<8 hex>`, one per level of a batch. */
const bonusJobPrefix = 'vb-';

interface Pending { userId: bigint; level: number; asset: string; bonus: bigint }
interface Keyed extends Pending { personKey: string }
export interface BonusRun { granted: number; uncovered: number; samePerson: number }
export interface BonusOptions {
  /** Bonuses decided per transaction (1 to accountKeysMax); default bonusBatchSize. */
  batchSize?: number;
}

/**
 * Pays every bonus due and not paid yet, for the given users (or everybody): the level held for
 * the holding period up to `now` by a verified user. Answers how many were paid, how many the pool
 * could not cover (left for a later run) and how many were left out because the same person had
 * the level's bonus on another account.
 *
 * Each batch is two steps, as product accrual's are: (1) one transaction, the pool locked, writes
 * the batch's grant rows and makes the payout jobs that pay them (one per level, the grant naming
 * its transfer `${job}:${spot account}`); (2) the jobs run. A run stopped between the two (a crash,
 * a database error) leaves grants whose jobs are unfinished: the next call (or the start-up resume
 * of payout jobs) finishes them first, and no batch ever decides a granted bonus again. So each
 * bonus is paid exactly once, whatever stops where, and no transaction grows with the users.
 */
export async function grantVipBonuses(db: Executor, now: Date, userIds?: readonly bigint[], options: BonusOptions = {}): Promise<BonusRun> {
  const batchSize = options.batchSize ?? bonusBatchSize;
  assert(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= accountKeysMax, `a bonus batch of 1 to ${accountKeysMax}`);
  // Callers pass the database (the daily job, a user's recheck); the jobs' batches are transactions of their own.
  const database = db as Db;
  const clock = { now: () => now };
  // A job the start-up resume is running comes back unfinished: it is that run's to finish, and
  // what it still owes is counted against the pool (payoutJobsOwed) until then.
  for (const job of await finishPayoutJobsOf(database, bonusJobPrefix, { clock })) if (job.state === 'done') assertPaid(job);
  const total: BonusRun = { granted: 0, uncovered: 0, samePerson: 0 };
  const heldSince = new Date(now.getTime() - (await vipHoldingDays(db)) * dayMs);
  let after: { userId: bigint; level: number } = { userId: -1n, level: -1 };
  const only = userIds === undefined ? sql`true` : sql`ul.user_id = any(${tokenArrayLiteral(userIds)}::bigint[])`;
  for (;;) {
    const result = await db.execute(sql`select ul.user_id::text as user_id, vr.level, vr.asset, vr.bonus::text as bonus
      from user_levels ul
      join vip_rewards vr on vr.level >= 1 and vr.level <= ul.level and vr.bonus > 0
      join user_level_holds h on h.user_id = ul.user_id and h.level = vr.level and h.since <= ${heldSince.toISOString()}::timestamptz
      where ${only} and (ul.user_id, vr.level) > (${after.userId}::bigint, ${after.level}::int)
        and exists (select 1 from kyc_applications k where k.user_id = ul.user_id and k.level = 1 and k.status = 'approved')
        and not exists (select 1 from vip_bonus_grants g where g.user_id = ul.user_id and g.level = vr.level)
      order by ul.user_id, vr.level limit ${batchSize}`);
    const rows = rowsOf<{ user_id: string; level: number; asset: string; bonus: string }>(result)
      .map((row): Pending => ({ userId: BigInt(row.user_id), level: Number(row.level), asset: row.asset, bonus: BigInt(row.bonus) }));
    if (rows.length === 0) break;
    after = { userId: rows[rows.length - 1].userId, level: rows[rows.length - 1].level };
    const outcome = await grantBatch(database, rows, now);
    for (const jobId of outcome.jobIds) assertPaid(await finishPayoutJob(database, jobId, { clock }));
    total.granted += outcome.granted;
    total.uncovered += outcome.uncovered;
    total.samePerson += outcome.samePerson;
    if (rows.length < batchSize) break;
  }
  return total;
}

/** A bonus job pays from a system account into spot accounts: the ledger has no reason to refuse one. */
function assertPaid(job: PayoutJob) {
  assert(job.state === 'done' && job.targetsRefused === 0, `VIP bonus job ${job.jobId} paid every bonus (${job.state}, ${job.targetsRefused} refused)`);
}

/**
 * The batch's bonuses that go to a person who has not had them: each user's verified person, less
 * the (level, person) pairs granted already on any account and all but the first of a pair twice
 * in the batch. Read under the pool's lock, so a run that granted before us is seen; the unique
 * index on (level, person_key) still settles a race with a run of another asset's lock.
 */
async function firstPerPerson(tx: Executor, rows: readonly Pending[]): Promise<{ keyed: Keyed[]; samePerson: number }> {
  const persons = await verifiedPersonKeys(tx, [...new Set(rows.map((row) => row.userId))]);
  const candidates = rows.flatMap((row) => {
    const personKey = persons.get(row.userId);
    return personKey ? [{ ...row, personKey }] : [];
  });
  const granted = candidates.length === 0 ? [] : await tx.select({ level: vipBonusGrants.level, personKey: vipBonusGrants.personKey })
    .from(vipBonusGrants).where(inArray(vipBonusGrants.personKey, [...new Set(candidates.map((row) => row.personKey))]));
  const taken = new Set(granted.map((row) => `${row.level}:${row.personKey}`));
  const keyed: Keyed[] = [];
  let samePerson = 0;
  for (const row of candidates) {
    const pair = `${row.level}:${row.personKey}`;
    if (taken.has(pair)) { samePerson += 1; continue; }
    taken.add(pair);
    keyed.push(row);
  }
  return { keyed, samePerson };
}

/** The pool's balances of the batch's assets, locked, less what unfinished bonus jobs still owe from it. */
async function lockedPoolsLeft(tx: Executor, rows: readonly Pending[]): Promise<Map<string, bigint>> {
  const left = new Map<string, bigint>();
  for (const asset of [...new Set(rows.map((row) => row.asset))].sort()) {
    await lockPool(tx, 'rewards', asset);
    const owed = await payoutJobsOwed(tx, { ledger: 'real', asset, sourceKind: 'rewards' });
    left.set(asset, await poolBalance(tx, 'rewards', asset) - owed);
  }
  return left;
}

/** Step 1 for a batch (see grantVipBonuses): grants and the payout jobs that pay them, in one transaction. */
async function grantBatch(db: Db, rows: readonly Pending[], now: Date): Promise<BonusRun & { jobIds: string[] }> {
  return db.transaction(async (tx) => {
    const left = await lockedPoolsLeft(tx, rows);
    const { keyed, samePerson } = await firstPerPerson(tx, rows);
    const covered: Keyed[] = [];
    for (const row of keyed) {
      const balance = left.get(row.asset)!;
      if (balance < row.bonus) continue;
      left.set(row.asset, balance - row.bonus);
      covered.push(row);
    }
    const uncovered = keyed.length - covered.length;
    if (covered.length === 0) return { granted: 0, uncovered, samePerson, jobIds: [] };
    const spots = await openAccounts(tx, covered.map((row) => ({ ledger: 'real' as const, asset: row.asset, kind: 'spot' as const, ownerUserId: row.userId })));
    // One job per level of the batch: its reference and remark are the level's, as each bonus's own transfer had.
    // The random part keeps two runs' jobs apart when they decide the same first user (a race the grants' index settles).
    const suffix = randomBytes(4).toString('hex');
    const jobOf = new Map<number, string>();
    for (const row of covered) if (!jobOf.has(row.level)) jobOf.set(row.level, `${bonusJobPrefix}${row.level}-${row.userId}-${suffix}`);
    const inserted = await tx.insert(vipBonusGrants).values(covered.map((row, index) => ({
      userId: row.userId, level: row.level, asset: row.asset, amount: row.bonus,
      transferId: payoutTransferId(jobOf.get(row.level)!, spots[index]), personKey: row.personKey, createdAt: now,
    }))).onConflictDoNothing().returning({ userId: vipBonusGrants.userId, level: vipBonusGrants.level });
    const fresh = new Set(inserted.map((row) => `${row.userId}:${row.level}`));
    const targetsOf = new Map<number, { asset: string; targets: PayoutTarget[] }>();
    covered.forEach((row, index) => {
      if (!fresh.has(`${row.userId}:${row.level}`)) return;
      const job = targetsOf.get(row.level) ?? { asset: row.asset, targets: [] };
      job.targets.push({ accountId: spots[index], amountAtomic: row.bonus });
      targetsOf.set(row.level, job);
    });
    for (const [level, { asset, targets }] of targetsOf) {
      // Made inside this transaction (a savepoint): the grants and the job that pays them commit together.
      await createPayoutJob(tx as unknown as Db, {
        id: jobOf.get(level)!, ledger: 'real', asset, sourceKind: 'rewards', direction: 'credit', kind: 'vip_bonus',
        reference: `vip-level:${level}`, remark: `VIP ${level} bonus`,
      }, targets, { now: () => now });
    }
    return { granted: fresh.size, uncovered, samePerson, jobIds: [...targetsOf.keys()].map((level) => jobOf.get(level)!) };
  });
}

/** The user's grants, for tests and the back office. */
export async function bonusGrantsOf(db: Executor, userId: bigint) {
  return db.select().from(vipBonusGrants).where(and(eq(vipBonusGrants.userId, userId))).orderBy(asc(vipBonusGrants.level));
}
