// Investment products (issue 22): the public list and detail, the wire form of a product, its
// coverage and the figures every other part shares. A product's return is paid from its reserve
// (the product_reserve system account; the product row keeps its share as `reserve`), principal
// sits in each buyer's own product_holdings account, and coverage is
// (reserve + principal) ÷ (principal + owed): a purchase that would take it under 100 % is refused.
import { and, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  ratePercentFromPpm, type MachineSpec, type Product, type ProductType,
} from '../../../../src/api/contract/products.ts';
import type { PageOf } from '../../../../src/api/contract/wallet.ts';
import { products } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { notFound } from '../../../lib/errors.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import { assetScales, scaleOf } from '../../kernel/ledger/assets.ts';
import { dayOf } from '../../kernel/shared/days.ts';
import { nameIn } from '../../kernel/shared/names.ts';
import { pageCount, pageParams } from '../../kernel/shared/paging.ts';
import { dailyOutput, lastPrice, rewardInForce } from './mining.ts';

export type ProductRow = typeof products.$inferSelect;

/**
 * How a fixed-rate receipt is computed. Stored receipts keep only their figures (principal,
 * ratePpm, days, dayNumber: 100 000 a day); the receipts call adds this text and when it is paid.
 */
export const fixedRateFormula = 'floor(principal × ratePpm / 10^6) a day; the last day the rest of floor(principal × ratePpm × days / 10^6)';

/** Where each type's return comes from (the client words it). */
export const returnSourceOf: Record<ProductType, string> = {
  arbitrage: 'reserve_fixed_rate', quant: 'reserve_fixed_rate', mining: 'mining_formula', bond: 'bond_coupon',
};

/**
 * Coverage as a percent with 2 decimals, rounded down ("135.20"); "∞" when nothing is owed and
 * no principal is held. Principal and reserve are in the same asset except for mining, which
 * holds no principal (a machine is a rental).
 */
export function coverageText(reserve: bigint, principal: bigint, owed: bigint): string {
  const denominator = principal + owed;
  if (denominator === 0n) return '∞';
  return formatAmount(((reserve + principal) * 10_000n) / denominator, 2);
}

/** The estimated output of one machine a day at the figure in force and the last price, or undefined. */
export async function miningEstimate(db: Executor, row: ProductRow, scales: Map<string, number>, now: Date) {
  if (row.type !== 'mining' || !row.machine) return undefined;
  const reward = await rewardInForce(db, row.payoutAsset, dayOf(now));
  if (!reward) return undefined;
  const price = await lastPrice(db, row.payoutAsset, now);
  const minedScale = scaleOf(scales, row.payoutAsset);
  const usdtScale = scales.get('USDT') ?? 6;
  const machine = row.machine as unknown as MachineSpec;
  const perMachine = price
    ? dailyOutput({
      hashrateThs: String(machine.hashrateThs), powerW: Number(machine.powerW), quantity: 1, rewardPerThsDay: reward.rewardPerThsDay,
      electricityPerKwh: reward.electricityPerKwh, minedScale, usdtScale, price,
    }).net
    : undefined;
  return { reward, price, perMachine, minedScale, usdtScale };
}

export async function productWire(db: Executor, row: ProductRow, lang: string | undefined, scales: Map<string, number>, now: Date): Promise<Product> {
  const scale = scaleOf(scales, row.asset);
  const payoutScale = scaleOf(scales, row.payoutAsset);
  const product: Product = {
    id: row.id.toString(),
    type: row.type as ProductType,
    name: nameIn(row, lang),
    asset: row.asset,
    payoutAsset: row.payoutAsset,
    status: row.status as Product['status'],
    days: row.days,
    dailyRate: ratePercentFromPpm(row.dailyRatePpm),
    firstDayRule: row.firstDayRule as Product['firstDayRule'],
    minLevel: row.minLevel,
    minAmount: formatAmount(row.minAmount, scale),
    maxAmount: formatAmount(row.maxAmount, scale),
    perUserMax: formatAmount(row.perUserMax, scale),
    totalCap: formatAmount(row.totalCap, scale),
    sold: formatAmount(row.sold, scale),
    earlyRedeem: row.earlyRedeem,
    earlyRedeemFee: ratePercentFromPpm(row.earlyRedeemFeePpm),
    coverage: coverageText(row.reserve, row.principal, row.owed),
    reserve: formatAmount(row.reserve, payoutScale),
    owed: formatAmount(row.owed, payoutScale),
    returnSource: returnSourceOf[row.type as ProductType] ?? 'reserve_fixed_rate',
  };
  if (row.target !== null) product.target = formatAmount(row.target, scale);
  if (row.opensAt) product.opensAt = row.opensAt.getTime();
  if (row.closesAt) product.closesAt = row.closesAt.getTime();
  if (row.machine) product.machine = row.machine as unknown as MachineSpec;
  if (row.unitPrice !== null) product.unitPrice = formatAmount(row.unitPrice, scale);
  if (row.type === 'mining') {
    const estimate = await miningEstimate(db, row, scales, now);
    if (estimate) {
      product.miningReward = {
        rewardPerThsDay: formatAmount(estimate.reward.rewardPerThsDay, estimate.minedScale),
        electricityPerKwh: formatAmount(estimate.reward.electricityPerKwh, estimate.usdtScale),
        day: estimate.reward.day, source: estimate.reward.source,
        estimatedDailyOutput: estimate.perMachine === undefined ? '0' : formatAmount(estimate.perMachine, estimate.minedScale),
      };
    }
  }
  return product;
}

/** What the back office sees beyond the public fields. */
export type AdminProduct = Product & { names: Record<string, string>; principal: string; paid: string; createdAt: number; updatedAt: number };

export async function adminProductWire(db: Executor, row: ProductRow, scales: Map<string, number>, now: Date): Promise<AdminProduct> {
  const product = await productWire(db, row, undefined, scales, now);
  return {
    ...product, names: row.names ?? {}, principal: formatAmount(row.principal, scaleOf(scales, row.asset)),
    paid: formatAmount(row.paid, scaleOf(scales, row.payoutAsset)), createdAt: row.createdAt.getTime(), updatedAt: row.updatedAt.getTime(),
  };
}

const publicStatuses = ['open', 'raised', 'closed'];

/** Public list: open, raised and closed products (never draft or failed), newest first. */
export async function listProducts(db: Executor, query: { type?: ProductType; pageNo?: number; pageSize?: number }, lang: string | undefined,
  now: Date): Promise<PageOf<Product>> {
  const { pageNo, pageSize, offset } = pageParams(query);
  const where = and(inArray(products.status, publicStatuses), query.type ? eq(products.type, query.type) : undefined);
  const [{ total }] = await db.select({ total: count() }).from(products).where(where);
  const rows = await db.select().from(products).where(where).orderBy(sql`case ${products.status} when 'open' then 0 when 'raised' then 1 else 2 end`, desc(products.id)).limit(pageSize).offset(offset);
  const scales = await assetScales(db);
  const records: Product[] = [];
  for (const row of rows) records.push(await productWire(db, row, lang, scales, now));
  return { records, total, size: pageSize, current: pageNo, pages: pageCount(total, pageSize) };
}

/** Public detail; a draft or failed product, or none, is not found. */
export async function productById(db: Executor, id: bigint, lang: string | undefined, now: Date): Promise<Product> {
  const [row] = await db.select().from(products).where(and(eq(products.id, id), inArray(products.status, publicStatuses)));
  if (!row) throw notFound('product_not_found', 'There is no such product.');
  return productWire(db, row, lang, await assetScales(db), now);
}

/** Back office: every product of every status, newest first. */
export async function listAdminProducts(db: Executor, query: { type?: ProductType; status?: string; pageNo?: number; pageSize?: number }, now: Date): Promise<PageOf<AdminProduct>> {
  const { pageNo, pageSize, offset } = pageParams(query);
  const where = and(ne(products.id, 0n), query.type ? eq(products.type, query.type) : undefined,
    query.status ? eq(products.status, query.status) : undefined);
  const [{ total }] = await db.select({ total: count() }).from(products).where(where);
  const rows = await db.select().from(products).where(where).orderBy(desc(products.id)).limit(pageSize).offset(offset);
  const scales = await assetScales(db);
  const records: AdminProduct[] = [];
  for (const row of rows) records.push(await adminProductWire(db, row, scales, now));
  return { records, total, size: pageSize, current: pageNo, pages: pageCount(total, pageSize) };
}

/** The product row locked for the rest of the transaction (FOR UPDATE), or undefined. */
export async function lockProduct(tx: Executor, id: bigint): Promise<ProductRow | undefined> {
  const [row] = await tx.select().from(products).where(eq(products.id, id)).for('update');
  return row;
}

/** Adds to the product's figures (negative to subtract), in the caller's transaction. */
export async function addToFigures(tx: Executor, id: bigint, change: { sold?: bigint; reserve?: bigint; owed?: bigint; principal?: bigint; paid?: bigint }, now: Date) {
  const add = (column: typeof products.sold, value: bigint | undefined) => sql`${column} + ${(value ?? 0n).toString()}::numeric`;
  await tx.update(products).set({
    sold: add(products.sold, change.sold), reserve: add(products.reserve, change.reserve), owed: add(products.owed, change.owed),
    principal: add(products.principal, change.principal), paid: add(products.paid, change.paid), updatedAt: now,
  }).where(eq(products.id, id));
}
