// VIP rewards (issue 23): per level a one-time bonus and a weekly red envelope (vip_rewards).
//
// The bonus of every level from 1 up to the user's current level (a jump from 0 to 3 earns the
// bonuses of 1, 2 and 3) is paid once the level has been held without a break for the operator's
// holding period (issue 38: user_level_holds, default 7 days) by a user whose basic verification
// is approved, and once per verified person: the row of vip_bonus_grants (primary key user, level;
// unique level, person) and the transfer `vip-bonus:<user>:<level>` from the `rewards` pool are
// written in one transaction, so falling and rising again, a rerun, or a second account of the
// same person never pays twice. A deposit withdrawn within the period ends the holding unpaid.
// grantVipBonuses runs after a user's level is rechecked (deposits, withdrawals: after their
// commit, off their path) and after the daily vip-levels job for everybody, in batches of
// `bonusBatchSize` (one transaction and one ledger batch each). When the pool cannot pay a
// batch's bonuses, those not covered are left without a grant row and paid by a later run.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  vipHoldingDaysDefault, vipHoldingDaysMax, type VipHolding, type VipRewardBody, type VipRewardRow, type VipRewards,
} from '../../../../src/api/contract/rewards.ts';
import { systemSettings, userLevelHolds, userLevels, vipBonusGrants, vipLevels, vipRewards } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { rowsOf, tokenArrayLiteral } from '../../../db/arrays.ts';
import { verifiedPersonKey, verifiedPersonKeys } from '../../core/identity/kyc.ts';
import { AppError, notFound } from '../../../lib/errors.ts';
import { formatAmount, parseAmount } from '../../kernel/ledger/amounts.ts';
import { openAccounts, systemShard } from '../../kernel/ledger/accounts.ts';
import { postTransfers } from '../../kernel/ledger/transfers.ts';
import { assetScales, scaleOf } from '../products/products.ts';
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

export const bonusBatchSize = 100;
export const vipBonusTransferId = (userId: bigint, level: number) => `vip-bonus:${userId}:${level}`;

interface Pending { userId: bigint; level: number; asset: string; bonus: bigint }
interface Keyed extends Pending { personKey: string }
export interface BonusRun { granted: number; uncovered: number; samePerson: number }

/**
 * Pays every bonus due and not paid yet, for the given users (or everybody): the level held for
 * the holding period up to `now` by a verified user. Answers how many were paid, how many the pool
 * could not cover (left for a later run) and how many were left out because the same person had
 * the level's bonus on another account.
 */
export async function grantVipBonuses(db: Executor, now: Date, userIds?: readonly bigint[]): Promise<BonusRun> {
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
      order by ul.user_id, vr.level limit ${bonusBatchSize}`);
    const rows = rowsOf<{ user_id: string; level: number; asset: string; bonus: string }>(result)
      .map((row): Pending => ({ userId: BigInt(row.user_id), level: Number(row.level), asset: row.asset, bonus: BigInt(row.bonus) }));
    if (rows.length === 0) break;
    after = { userId: rows[rows.length - 1].userId, level: rows[rows.length - 1].level };
    const outcome = await payBatch(db, rows, now);
    total.granted += outcome.granted;
    total.uncovered += outcome.uncovered;
    total.samePerson += outcome.samePerson;
    if (rows.length < bonusBatchSize) break;
  }
  return total;
}

/**
 * The batch's bonuses that go to a person who has not had them: each user's verified person, less
 * the (level, person) pairs granted already on any account and all but the first of a pair twice
 * in the batch. The unique index on (level, person_key) settles a race with another run.
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

async function payBatch(db: Executor, rows: readonly Pending[], now: Date): Promise<BonusRun> {
  return db.transaction(async (tx) => {
    const { keyed, samePerson } = await firstPerPerson(tx, rows);
    const assets = [...new Set(keyed.map((row) => row.asset))].sort();
    const left = new Map<string, bigint>();
    for (const asset of assets) {
      await lockPool(tx, 'rewards', asset);
      left.set(asset, await poolBalance(tx, 'rewards', asset));
    }
    const covered: Keyed[] = [];
    for (const row of keyed) {
      const balance = left.get(row.asset)!;
      if (balance < row.bonus) continue;
      left.set(row.asset, balance - row.bonus);
      covered.push(row);
    }
    const uncovered = keyed.length - covered.length;
    if (covered.length === 0) return { granted: 0, uncovered, samePerson };
    const inserted = await tx.insert(vipBonusGrants).values(covered.map((row) => ({
      userId: row.userId, level: row.level, asset: row.asset, amount: row.bonus, transferId: vipBonusTransferId(row.userId, row.level),
      personKey: row.personKey, createdAt: now,
    }))).onConflictDoNothing().returning({ userId: vipBonusGrants.userId, level: vipBonusGrants.level });
    const fresh = new Set(inserted.map((row) => `${row.userId}:${row.level}`));
    const toPay = covered.filter((row) => fresh.has(`${row.userId}:${row.level}`));
    if (toPay.length > 0) {
      const keys = toPay.flatMap((row) => [
        { ledger: 'real' as const, asset: row.asset, kind: 'spot' as const, ownerUserId: row.userId },
        { ledger: 'real' as const, asset: row.asset, kind: 'rewards' as const, shard: systemShard(vipBonusTransferId(row.userId, row.level)) },
      ]);
      const ids = await openAccounts(tx, keys);
      const posted = await postTransfers(tx, toPay.map((row, index) => ({
        id: vipBonusTransferId(row.userId, row.level), kind: 'vip_bonus' as const, reference: `vip-level:${row.level}`,
        amountAtomic: row.bonus, debitAccountId: ids[index * 2 + 1], creditAccountId: ids[index * 2], remark: `VIP ${row.level} bonus`,
      })), { now: () => now });
      if (!posted.ok) throw new Error(`VIP bonuses refused by the ledger: ${posted.refusal}`);
    }
    return { granted: toPay.length, uncovered, samePerson };
  });
}

/** The user's grants, for tests and the back office. */
export async function bonusGrantsOf(db: Executor, userId: bigint) {
  return db.select().from(vipBonusGrants).where(and(eq(vipBonusGrants.userId, userId))).orderBy(asc(vipBonusGrants.level));
}
