// The back office's side of products (issue 22): create and edit products of each kind (checked
// per type: a bond needs its target and deadline, a mining machine its specification, unit price
// and mined asset, a fixed-rate product its rate), and publish the network's mining reward figure.
// The routes audit each write in the same transaction.
import { and, desc, eq } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { CreateProductBody, PublishMiningRewardBody, UpdateProductBody } from '../../../../src/api/contract/products.ts';
import { settingBounds } from '../../../../src/api/contract/settingChanges.ts';
import { miningRewards, products } from '../../../db/schema.ts';
import type { Executor, Tx } from '../../../db/client.ts';
import { AppError, badRequest, notFound } from '../../../lib/errors.ts';
import { formatAmount, parseAmount } from '../../kernel/ledger/amounts.ts';
import { parseHashrate } from './mining.ts';
import { lockProduct, type ProductRow } from './products.ts';
import { assetScales } from '../../kernel/ledger/assets.ts';

function amountOf(text: string, scale: number, field: string, allowZero = false): bigint {
  const parsed = parseAmount(text, scale);
  if (!parsed.ok) throw new AppError(400, parsed.refusal, `${field}: please enter a plain number with at most ${scale} decimals.`, { field, scale });
  if (!allowZero && parsed.atomic <= 0n) throw new AppError(400, 'amount_not_positive', `${field} must be above zero.`, { field });
  return parsed.atomic;
}

/** "0.05" (% a day, up to 4 decimals) → 500 ppm. */
export function ppmOfRate(text: string): number {
  const parsed = parseAmount(text, 4);
  if (!parsed.ok || parsed.atomic > 1_000_000n) throw badRequest('invalid_request', 'A rate is a percent with at most 4 decimals, at most 100.');
  return Number(parsed.atomic);
}

async function scaleOfAsset(db: Executor, asset: string): Promise<number> {
  const scale = (await assetScales(db)).get(asset);
  if (scale === undefined) throw badRequest('currency_unknown', `The currency ${asset} is not offered.`);
  return scale;
}

export async function createProduct(tx: Tx, operatorId: bigint, body: Static<typeof CreateProductBody>, now: Date): Promise<ProductRow> {
  const scale = await scaleOfAsset(tx, body.asset);
  const payoutAsset = body.payoutAsset ?? body.asset;
  await scaleOfAsset(tx, payoutAsset);
  const minAmount = amountOf(body.minAmount, scale, 'minAmount');
  const maxAmount = amountOf(body.maxAmount, scale, 'maxAmount');
  if (minAmount > maxAmount) throw badRequest('invalid_request', 'minAmount must not be above maxAmount.');
  const dailyRatePpm = body.dailyRate === undefined ? 0 : ppmOfRate(body.dailyRate);
  if (dailyRatePpm > ppmOfRate(settingBounds.productDailyRatePercentMax)) {
    throw new AppError(400, 'setting_out_of_bounds', `A daily rate is at most ${settingBounds.productDailyRatePercentMax} % a day.`,
      { max: settingBounds.productDailyRatePercentMax });
  }
  if (body.opensAt !== undefined && body.closesAt !== undefined && body.closesAt <= body.opensAt) {
    throw badRequest('invalid_request', 'closesAt must come after opensAt.');
  }
  const values: typeof products.$inferInsert = {
    type: body.type, name: body.name.trim(), names: body.names ?? {}, asset: body.asset, payoutAsset, status: body.status ?? 'open',
    days: body.days, dailyRatePpm, firstDayRule: body.firstDayRule ?? 'next_day', minLevel: body.minLevel ?? 0, minAmount, maxAmount,
    perUserMax: body.perUserMax === undefined ? 0n : amountOf(body.perUserMax, scale, 'perUserMax', true),
    totalCap: body.totalCap === undefined ? 0n : amountOf(body.totalCap, scale, 'totalCap', true),
    earlyRedeem: body.earlyRedeem ?? false, earlyRedeemFeePpm: body.earlyRedeemFee === undefined ? 0 : ppmOfRate(body.earlyRedeemFee),
    opensAt: body.opensAt === undefined ? null : new Date(body.opensAt), closesAt: body.closesAt === undefined ? null : new Date(body.closesAt),
    createdBy: operatorId, createdAt: now, updatedAt: now,
  };
  if (body.type === 'arbitrage' || body.type === 'quant') {
    if (dailyRatePpm <= 0) throw badRequest('invalid_request', `A ${body.type} product needs a daily rate above zero.`);
    if (payoutAsset !== body.asset) throw badRequest('invalid_request', 'Returns are paid in the asset the product is bought with.');
  }
  if (body.type === 'bond') {
    if (body.target === undefined || body.closesAt === undefined) throw badRequest('invalid_request', 'A bond needs a raise target and a deadline (closesAt).');
    if (body.closesAt <= now.getTime()) throw badRequest('invalid_request', 'A bond\'s deadline must be in the future.');
    if (dailyRatePpm <= 0) throw badRequest('invalid_request', 'A bond needs a coupon (dailyRate) above zero.');
    if (payoutAsset !== body.asset) throw badRequest('invalid_request', 'Coupons are paid in the asset the bond is bought with.');
    values.target = amountOf(body.target, scale, 'target');
    if (values.target < minAmount) throw badRequest('invalid_request', 'The target must not be below minAmount.');
  } else if (body.target !== undefined) {
    throw badRequest('invalid_request', 'Only a bond has a raise target.');
  }
  if (body.type === 'mining') {
    if (!body.machine || body.unitPrice === undefined || body.payoutAsset === undefined) {
      throw badRequest('invalid_request', 'A mining machine needs its specification (machine), a unit price and the mined asset (payoutAsset).');
    }
    if (parseHashrate(body.machine.hashrateThs) === undefined) throw badRequest('invalid_request', 'machine.hashrateThs is a positive number of TH/s with at most 4 decimals.');
    if (dailyRatePpm !== 0) throw badRequest('invalid_request', 'A mining machine has no fixed rate: its output follows the published formula.');
    values.machine = body.machine as unknown as Record<string, string | number>;
    values.unitPrice = amountOf(body.unitPrice, scale, 'unitPrice');
  } else if (body.machine || body.unitPrice !== undefined) {
    throw badRequest('invalid_request', 'Only a mining machine has a machine specification and a unit price.');
  }
  const [row] = await tx.insert(products).values(values).returning();
  return row;
}

export async function updateProduct(tx: Tx, id: bigint, body: Static<typeof UpdateProductBody>, now: Date) {
  const before = await lockProduct(tx, id);
  if (!before) throw notFound('product_not_found', 'There is no such product.');
  if (before.status === 'raised' || before.status === 'failed') {
    if (body.status !== undefined) throw badRequest('invalid_request', `A ${before.status} bond keeps its status.`);
  }
  const scale = await scaleOfAsset(tx, before.asset);
  const change: Partial<typeof products.$inferInsert> = { updatedAt: now };
  if (body.status !== undefined) change.status = body.status;
  if (body.names !== undefined) change.names = body.names;
  if (body.minLevel !== undefined) change.minLevel = body.minLevel;
  if (body.maxAmount !== undefined) {
    change.maxAmount = amountOf(body.maxAmount, scale, 'maxAmount');
    if (change.maxAmount < before.minAmount) throw badRequest('invalid_request', 'maxAmount must not be below minAmount.');
  }
  if (body.perUserMax !== undefined) change.perUserMax = amountOf(body.perUserMax, scale, 'perUserMax', true);
  if (body.totalCap !== undefined) change.totalCap = amountOf(body.totalCap, scale, 'totalCap', true);
  const [after] = await tx.update(products).set(change).where(eq(products.id, id)).returning();
  return { before, after };
}

type RewardRow = typeof miningRewards.$inferSelect;

export function rewardWire(row: RewardRow, minedScale: number, usdtScale: number) {
  return {
    id: row.id.toString(), asset: row.asset, day: row.day, rewardPerThsDay: formatAmount(row.rewardPerThsDay, minedScale),
    electricityPerKwh: formatAmount(row.electricityPerKwh, usdtScale), source: row.source, createdAt: row.createdAt.getTime(),
  };
}

export async function listRewards(db: Executor, asset: string | undefined) {
  const rows = await db.select().from(miningRewards).where(asset ? eq(miningRewards.asset, asset) : undefined)
    .orderBy(desc(miningRewards.day), desc(miningRewards.id)).limit(200);
  const scales = await assetScales(db);
  return rows.map((row) => rewardWire(row, scales.get(row.asset) ?? 8, scales.get('USDT') ?? 6));
}

/** Publishes (or corrects, for the same asset and day) the figure; answers it with the one it replaced. */
export async function publishReward(tx: Tx, operatorId: bigint, body: Static<typeof PublishMiningRewardBody>, now: Date) {
  const minedScale = await scaleOfAsset(tx, body.asset);
  const usdtScale = await scaleOfAsset(tx, 'USDT');
  if (Number.isNaN(Date.parse(`${body.day}T00:00:00Z`))) throw badRequest('invalid_request', 'day is a date, YYYY-MM-DD.');
  const rewardPerThsDay = amountOf(body.rewardPerThsDay, minedScale, 'rewardPerThsDay');
  const electricityPerKwh = amountOf(body.electricityPerKwh, usdtScale, 'electricityPerKwh', true);
  const [before] = await tx.select().from(miningRewards).where(and(eq(miningRewards.asset, body.asset), eq(miningRewards.day, body.day)));
  const [row] = await tx.insert(miningRewards).values({
    asset: body.asset, day: body.day, rewardPerThsDay, electricityPerKwh, source: body.source.trim(), publishedBy: operatorId, createdAt: now,
  }).onConflictDoUpdate({
    target: [miningRewards.asset, miningRewards.day],
    set: { rewardPerThsDay, electricityPerKwh, source: body.source.trim(), publishedBy: operatorId, createdAt: now },
  }).returning();
  return { before: before ? rewardWire(before, minedScale, usdtScale) : null, after: rewardWire(row, minedScale, usdtScale) };
}
