// VIP levels (issue 22). A user's level follows their total assets in USDT: every real ledger
// account they hold (spot with what pending withdrawals reserve, frozen, position margin, product
// holdings, pledged collateral) minus what they owe on loans, valued at the last recorded feed
// price of <asset>USDT (or the operator's rate), like the asset centre. Demo money never counts.
// The level is stored in user_levels with the highest one ever reached, and since when each level
// has been held without a break (user_level_holds: rewards pay a level's bonus once it has been
// held for the holding period), recomputed by the daily vip-levels job and after large movements
// (deposits, withdrawals), so it rises and falls by itself.
import { and, asc, desc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { tokenArrayLiteral } from '../../../db/arrays.ts';
import { ledgerAccounts, marketCandles, marketTicks, products, userLevels, vipLevels } from '../../../db/schema.ts';
import type { Clock } from '../../../lib/time.ts';
import { systemClock } from '../../../lib/time.ts';
import { ledgers } from '../../kernel/ledger/accounts.ts';
import { formatAmount, parseAmount } from '../../kernel/ledger/amounts.ts';
import { listAssets } from '../../kernel/ledger/assets.ts';
import { symbolByCode } from '../market/symbols.ts';
import { loadCurrencies, valueInUsdt, type Rate } from '../wallet/currencies.ts';

export const usdt = 'USDT';
/** USDT's ledger scale when the asset row is missing (it never is after seeding). */
const usdtScaleDefault = 6;

/** The account kinds that make up a user's total assets (a loan's balance is negative: what is owed). */
export const countedKinds = ['spot', 'frozen', 'position_margin', 'product_holdings', 'collateral', 'loan'] as const;

interface LevelSeed { level: number; name: string; minAssets: bigint; creditLimit: bigint }
const whole = (units: bigint) => units * 10n ** BigInt(usdtScaleDefault);

/** The levels of a fresh install, thresholds and credit-limit additions in whole USDT. */
export const defaultLevels: readonly LevelSeed[] = [
  { level: 0, name: 'Standard', minAssets: 0n, creditLimit: 0n },
  { level: 1, name: 'VIP 1', minAssets: whole(1_000n), creditLimit: whole(500n) },
  { level: 2, name: 'VIP 2', minAssets: whole(10_000n), creditLimit: whole(2_000n) },
  { level: 3, name: 'VIP 3', minAssets: whole(50_000n), creditLimit: whole(10_000n) },
  { level: 4, name: 'VIP 4', minAssets: whole(200_000n), creditLimit: whole(50_000n) },
  { level: 5, name: 'VIP 5', minAssets: whole(1_000_000n), creditLimit: whole(200_000n) },
];

/** Writes the default levels when there are none (run by seed at every start). */
export async function seedVipLevels(db: Executor): Promise<void> {
  const [any] = await db.select({ level: vipLevels.level }).from(vipLevels).limit(1);
  if (any) return;
  const now = new Date();
  await db.insert(vipLevels).values(defaultLevels.map((row) => ({ ...row, updatedAt: now }))).onConflictDoNothing();
}

export type LevelRow = typeof vipLevels.$inferSelect;

/** Every level, lowest first. */
export async function loadLevels(db: Executor): Promise<LevelRow[]> {
  return db.select().from(vipLevels).orderBy(asc(vipLevels.level));
}

/** The highest level whose threshold the assets reach (0 when none, e.g. more owed than held). */
export function levelOf(levels: readonly Pick<LevelRow, 'level' | 'minAssets'>[], assetsAtomic: bigint): number {
  let found = 0;
  for (const row of levels) {
    if (assetsAtomic >= row.minAssets && row.level > found) found = row.level;
  }
  return found;
}

// ─── Valuation ───────────────────────────────────────────────────────────────────────────────

/** How each ledger asset is valued in USDT now: its scale and rate (none: unpriced, left out). */
export interface Valuation { usdtScale: number; assets: Map<string, { scale: number; rate: Rate | undefined }> }

const operatorRatePrecision = 18;

/**
 * The USDT rate of every ledger asset: 1 for USDT; else the last recorded tick of <code>USDT (the
 * feed's price, as the asset centre uses it; jobs have no live market view, the stored ticks are
 * the same prices), or the last minute candle's close; else the operator's rate of the currency.
 */
export async function loadValuation(db: Executor): Promise<Valuation> {
  const [assets, currencies] = await Promise.all([listAssets(db), loadCurrencies(db)]);
  const currencyOf = new Map(currencies.map((currency) => [currency.code, currency]));
  const usdtScale = assets.find((asset) => asset.code === usdt)?.scale ?? usdtScaleDefault;
  const valued = new Map<string, { scale: number; rate: Rate | undefined }>();
  for (const asset of assets) {
    let rate: Rate | undefined;
    if (asset.code === usdt) {
      rate = { units: 1n, precision: 0, source: 'par', timeMs: 0 };
    } else {
      const spec = symbolByCode.get(`${asset.code}USDT`);
      if (spec) {
        const [tick] = await db.select({ price: marketTicks.price, time: marketTicks.time }).from(marketTicks)
          .where(eq(marketTicks.symbol, spec.symbol)).orderBy(desc(marketTicks.time)).limit(1);
        if (tick && tick.price > 0n) rate = { units: tick.price, precision: spec.pricePrecision, source: 'feed', timeMs: tick.time.getTime() };
        if (!rate) {
          // Ticks are pruned after a few hours; the last minute candle's close is the same price.
          const [candle] = await db.select({ close: marketCandles.close, openTime: marketCandles.openTime }).from(marketCandles)
            .where(and(eq(marketCandles.symbol, spec.symbol), eq(marketCandles.period, '1m'))).orderBy(desc(marketCandles.openTime)).limit(1);
          if (candle && candle.close > 0n) {
            rate = { units: candle.close, precision: spec.pricePrecision, source: 'feed', timeMs: candle.openTime.getTime() };
          }
        }
      }
      const currency = currencyOf.get(asset.code);
      if (!rate && currency?.usdtRate && currency.usdtRateUpdatedAt) {
        const parsed = parseAmount(currency.usdtRate, operatorRatePrecision);
        if (parsed.ok && parsed.atomic > 0n) {
          rate = { units: parsed.atomic, precision: operatorRatePrecision, source: 'operator', timeMs: currency.usdtRateUpdatedAt.getTime() };
        }
      }
    }
    valued.set(asset.code, { scale: asset.scale, rate });
  }
  return { usdtScale, assets: valued };
}

/**
 * Total assets in atomic USDT of each given user, from the real ledger only: per asset the sum of
 * the counted accounts' posted balances (pending withdrawals are still the user's), valued at the
 * asset's rate and cut toward zero. A user with no account answers 0.
 */
export async function totalAssets(db: Executor, valuation: Valuation, userIds: readonly bigint[]): Promise<Map<bigint, bigint>> {
  const totals = new Map<bigint, bigint>(userIds.map((id) => [id, 0n]));
  if (userIds.length === 0) return totals;
  const rows = await db.select({
    owner: ledgerAccounts.ownerUserId, asset: ledgerAccounts.asset,
    held: sql<string>`sum(${ledgerAccounts.creditsPosted} - ${ledgerAccounts.debitsPosted})::text`,
  }).from(ledgerAccounts).where(and(
    eq(ledgerAccounts.ledger, ledgers.real), inArray(ledgerAccounts.ownerUserId, [...userIds]),
    inArray(ledgerAccounts.kind, [...countedKinds]),
  )).groupBy(ledgerAccounts.ownerUserId, ledgerAccounts.asset);
  for (const row of rows) {
    if (row.owner === null) continue;
    const asset = valuation.assets.get(row.asset);
    if (!asset?.rate) continue;
    const value = valueInUsdt(BigInt(row.held), asset.scale, asset.rate, valuation.usdtScale);
    totals.set(row.owner, (totals.get(row.owner) ?? 0n) + value);
  }
  return totals;
}

// ─── A user's level ──────────────────────────────────────────────────────────────────────────

export interface UserLevel { level: number; highestLevel: number; assetsAtomic: bigint; checkedAt: Date }

/**
 * Writes the users' computed levels, keeping the highest ever reached, then their holdings (issue
 * 38): a level lost ends its holding, a level reached starts one now, a level kept keeps its start.
 * Both holding statements read the stored rows rather than `rows`, so two checks of one user at
 * once leave the holdings of whichever level was written last. Answers the stored rows.
 */
async function storeLevels(db: Executor, rows: Array<{ userId: bigint; level: number; assets: bigint }>, checkedAt: Date) {
  if (rows.length === 0) return [];
  const stored = await db.insert(userLevels).values(rows.map((row) => ({
    userId: row.userId, level: row.level, highestLevel: row.level, assets: row.assets, checkedAt,
  }))).onConflictDoUpdate({
    target: userLevels.userId,
    set: {
      level: sql`excluded.level`, assets: sql`excluded.assets`, checkedAt: sql`excluded.checked_at`,
      highestLevel: sql`greatest(${userLevels.highestLevel}, excluded.highest_level)`,
    },
  }).returning();
  const ids = sql`${tokenArrayLiteral(rows.map((row) => row.userId))}::bigint[]`;
  await db.execute(sql`delete from user_level_holds h using user_levels ul
    where ul.user_id = h.user_id and h.level > ul.level and ul.user_id = any(${ids})`);
  await db.execute(sql`insert into user_level_holds (user_id, level, since)
    select ul.user_id, l.level, ${checkedAt.toISOString()}::timestamptz from user_levels ul
    join vip_levels l on l.level >= 1 and l.level <= ul.level
    where ul.user_id = any(${ids})
    on conflict (user_id, level) do nothing`);
  return stored;
}

/** Computes the user's level from their assets now and stores it. */
export async function recheckUserLevel(db: Executor, clock: Clock, userId: bigint): Promise<UserLevel> {
  const [levels, valuation] = await Promise.all([loadLevels(db), loadValuation(db)]);
  const assets = (await totalAssets(db, valuation, [userId])).get(userId) ?? 0n;
  const [row] = await storeLevels(db, [{ userId, level: levelOf(levels, assets), assets }], clock.now());
  return { level: row.level, highestLevel: row.highestLevel, assetsAtomic: row.assets, checkedAt: row.checkedAt };
}

/** The user's stored level row, computed and stored first when there is none. */
export async function userLevelRow(db: Executor, clock: Clock, userId: bigint): Promise<UserLevel> {
  const [row] = await db.select().from(userLevels).where(eq(userLevels.userId, userId)).limit(1);
  if (row) return { level: row.level, highestLevel: row.highestLevel, assetsAtomic: row.assets, checkedAt: row.checkedAt };
  return recheckUserLevel(db, clock, userId);
}

/**
 * The user's VIP level now: their user_levels row, computed on the spot (and stored) when there is
 * none yet. Products (minLevel) and credit loans (the level's credit limit) ask this.
 */
export async function userVipLevel(db: Executor, userId: bigint): Promise<number> {
  return (await userLevelRow(db, systemClock, userId)).level;
}

// ─── The daily job ───────────────────────────────────────────────────────────────────────────

/** Users re-checked per batch: one query for their balances, one statement for their rows. */
export const levelBatchSize = 500;

/**
 * Recomputes the level of every user with a real ledger account, in batches by user id. Safe to
 * run again the same day (it writes the same levels). Counts the users whose level rose or fell.
 */
export async function recomputeAllLevels(db: Executor, clock: Clock): Promise<{ users: number; raised: number; lowered: number }> {
  const [levels, valuation] = await Promise.all([loadLevels(db), loadValuation(db)]);
  const checkedAt = clock.now();
  let users = 0;
  let raised = 0;
  let lowered = 0;
  let after = -1n;
  for (;;) {
    const batch = await db.selectDistinct({ userId: ledgerAccounts.ownerUserId }).from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.ledger, ledgers.real), isNotNull(ledgerAccounts.ownerUserId), gt(ledgerAccounts.ownerUserId, after)))
      .orderBy(asc(ledgerAccounts.ownerUserId)).limit(levelBatchSize);
    if (batch.length === 0) break;
    const ids = batch.map((row) => row.userId as bigint);
    after = ids[ids.length - 1];
    const [totals, before] = await Promise.all([
      totalAssets(db, valuation, ids),
      db.select({ userId: userLevels.userId, level: userLevels.level }).from(userLevels).where(inArray(userLevels.userId, ids)),
    ]);
    const previous = new Map(before.map((row) => [row.userId, row.level]));
    const rows = ids.map((userId) => {
      const assets = totals.get(userId) ?? 0n;
      return { userId, assets, level: levelOf(levels, assets) };
    });
    await storeLevels(db, rows, checkedAt);
    for (const row of rows) {
      const was = previous.get(row.userId) ?? 0;
      if (row.level > was) raised += 1;
      else if (row.level < was) lowered += 1;
    }
    users += ids.length;
    if (batch.length < levelBatchSize) break;
  }
  return { users, raised, lowered };
}

// ─── What the wire shows ─────────────────────────────────────────────────────────────────────

/** Open products a level may buy, per level (count of open products with minLevel ≤ level). */
export async function productsUnlockedByLevel(db: Executor, levels: readonly LevelRow[]): Promise<Map<number, number>> {
  const rows = await db.select({ minLevel: products.minLevel }).from(products).where(eq(products.status, 'open'));
  return new Map(levels.map((row) => [row.level, rows.filter((product) => product.minLevel <= row.level).length]));
}

/** A level's threshold text at USDT's scale. */
export const usdtText = (atomic: bigint, scale = usdtScaleDefault) => formatAmount(atomic, scale);

/** One level's row (its name and credit-limit addition), if it exists. */
export async function levelRow(db: Executor, level: number): Promise<LevelRow | undefined> {
  const [row] = await db.select().from(vipLevels).where(eq(vipLevels.level, level)).limit(1);
  return row;
}
