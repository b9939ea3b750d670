// VIP rewards (issue 23): per level a one-time bonus and a weekly red envelope (vip_rewards).
//
// The bonus of every level from 1 up to the user's highest level ever reached (user_levels
// .highest_level; a jump from 0 to 3 earns the bonuses of 1, 2 and 3) is paid once: the row of
// vip_bonus_grants (primary key user, level) and the transfer `vip-bonus:<user>:<level>` from the
// `rewards` pool are written in one transaction, so falling and rising again never pays twice.
// grantVipBonuses runs after a user's level is rechecked (deposits, withdrawals: after their
// commit, off their path) and after the daily vip-levels job for everybody, in batches of
// `bonusBatchSize` (one transaction and one ledger batch each). When the pool cannot pay a
// batch's bonuses, those not covered are left without a grant row and paid by a later run.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { VipRewardBody, VipRewardRow, VipRewards } from '../../../src/api/contract/rewards.ts';
import { userLevels, vipBonusGrants, vipLevels, vipRewards } from '../../db/schema.ts';
import type { Executor } from '../../db/client.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { formatAmount, parseAmount } from '../ledger/amounts.ts';
import { openAccounts, systemShard } from '../ledger/accounts.ts';
import { postTransfers } from '../ledger/transfers.ts';
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

/** Level rows and the caller's level, highest level and the bonuses received. */
export async function myVipRewards(db: Executor, userId: bigint): Promise<VipRewards> {
  const [levels, [mine], grants, scales] = await Promise.all([
    listVipRewardRows(db),
    db.select().from(userLevels).where(eq(userLevels.userId, userId)),
    db.select().from(vipBonusGrants).where(eq(vipBonusGrants.userId, userId)).orderBy(asc(vipBonusGrants.level)),
    assetScales(db),
  ]);
  return {
    levels, level: mine?.level ?? 0, highestLevel: mine?.highestLevel ?? 0,
    granted: grants.map((grant) => ({
      level: grant.level, asset: grant.asset, amount: formatAmount(grant.amount, scaleOf(scales, grant.asset)), time: grant.createdAt.getTime(),
    })),
  };
}

export const bonusBatchSize = 100;
export const vipBonusTransferId = (userId: bigint, level: number) => `vip-bonus:${userId}:${level}`;

interface Pending { userId: bigint; level: number; asset: string; bonus: bigint }

/**
 * Pays every bonus earned and not paid yet, for the given users (or everybody). Answers how many
 * were paid and how many the pool could not cover (left for a later run).
 */
export async function grantVipBonuses(db: Executor, now: Date, userIds?: readonly bigint[]): Promise<{ granted: number; uncovered: number }> {
  let granted = 0;
  let uncovered = 0;
  let after: { userId: bigint; level: number } = { userId: -1n, level: -1 };
  const only = userIds === undefined ? sql`true` : sql`ul.user_id = any(${`{${userIds.join(',')}}`}::bigint[])`;
  for (;;) {
    const result = await db.execute(sql`select ul.user_id::text as user_id, vr.level, vr.asset, vr.bonus::text as bonus
      from user_levels ul
      join vip_rewards vr on vr.level >= 1 and vr.level <= ul.highest_level and vr.bonus > 0
      where ${only} and (ul.user_id, vr.level) > (${after.userId}::bigint, ${after.level}::int)
        and not exists (select 1 from vip_bonus_grants g where g.user_id = ul.user_id and g.level = vr.level)
      order by ul.user_id, vr.level limit ${bonusBatchSize}`);
    const rows = ((result as unknown as { rows: Array<{ user_id: string; level: number; asset: string; bonus: string }> }).rows)
      .map((row): Pending => ({ userId: BigInt(row.user_id), level: Number(row.level), asset: row.asset, bonus: BigInt(row.bonus) }));
    if (rows.length === 0) break;
    after = { userId: rows[rows.length - 1].userId, level: rows[rows.length - 1].level };
    const outcome = await payBatch(db, rows, now);
    granted += outcome.granted;
    uncovered += outcome.uncovered;
    if (rows.length < bonusBatchSize) break;
  }
  return { granted, uncovered };
}

async function payBatch(db: Executor, rows: readonly Pending[], now: Date): Promise<{ granted: number; uncovered: number }> {
  return db.transaction(async (tx) => {
    const assets = [...new Set(rows.map((row) => row.asset))].sort();
    const left = new Map<string, bigint>();
    for (const asset of assets) {
      await lockPool(tx, 'rewards', asset);
      left.set(asset, await poolBalance(tx, 'rewards', asset));
    }
    const covered: Pending[] = [];
    for (const row of rows) {
      const balance = left.get(row.asset)!;
      if (balance < row.bonus) continue;
      left.set(row.asset, balance - row.bonus);
      covered.push(row);
    }
    if (covered.length === 0) return { granted: 0, uncovered: rows.length };
    const inserted = await tx.insert(vipBonusGrants).values(covered.map((row) => ({
      userId: row.userId, level: row.level, asset: row.asset, amount: row.bonus, transferId: vipBonusTransferId(row.userId, row.level), createdAt: now,
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
    return { granted: toPay.length, uncovered: rows.length - covered.length };
  });
}

/** The user's grants, for tests and the back office. */
export async function bonusGrantsOf(db: Executor, userId: bigint) {
  return db.select().from(vipBonusGrants).where(and(eq(vipBonusGrants.userId, userId))).orderBy(asc(vipBonusGrants.level));
}
