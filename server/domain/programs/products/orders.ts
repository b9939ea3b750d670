// Buying, redeeming and reading product orders (issue 22). A purchase is one transaction: the
// product row locked (FOR UPDATE), every rule checked, the order inserted (its client order id
// unique per user: a retry, even a concurrent one, answers the first order; the id sent again for
// another order is refused with 409), the ledger transfer posted and the product's figures moved.
// A refusal moves nothing.
//
// - debitBuy (arbitrage, quant, bond): principal spot → the buyer's product_holdings
//   ('product_purchase'); the order owes floor(amount × dailyRatePpm × days / 10^6), which the
//   product's reserve must cover together with everything it owes already.
// - minerBuy (mining): unitPrice × quantity spot → house ('miner_purchase'), a rental and not
//   principal; the order owes its estimated output over the term (one machine's output at the
//   figure in force and the last price × quantity × days), which the reserve of the mined asset
//   must cover.
// - redeem (products with earlyRedeem, arbitrage and quant): principal − fee back to spot
//   ('product_principal'), the fee to the reserve ('product_redeem_fee'), the order cancelled and
//   what it still owed released; returns already paid stay paid.
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import {
  ratePercentFromPpm, type AccrualReceipt, type DebitBuyBody, type MachineSpec, type MinerBuyBody, type MyOrdersQuery,
  type OrderStat, type OrderStatus, type ProductOrder, type ProductType,
} from '../../../../src/api/contract/products.ts';
import type { PageOf } from '../../../../src/api/contract/wallet.ts';
import type { MessageKind } from '../../../../src/api/contract/content.ts';
import { productAccruals, productOrders, products, userMessages, users } from '../../../db/schema.ts';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import { AppError, assert, conflict, notFound } from '../../../lib/errors.ts';
import { writeMessage, type NewMessage, type WrittenMessage } from '../../kernel/messages.ts';
import { formatAmount, parseAmount } from '../../kernel/ledger/amounts.ts';
import { openAccounts, systemShard } from '../../kernel/ledger/accounts.ts';
import { postTransfers } from '../../kernel/ledger/transfers.ts';
import type { NewTransferRequest } from '../../kernel/ledger/rules.ts';
import { levelSettings, userKycLevel, usdtScale } from '../../core/identity/kycLevels.ts';
import { userVipLevel } from '../../core/levels/levels.ts';
import { addToFigures, fixedRateFormula, lockProduct, miningEstimate, type ProductRow } from './products.ts';
import { assetScales, scaleOf } from '../../kernel/ledger/assets.ts';
import { dayMs, dayOf, midnightAtOrAfter, midnightOf } from '../../kernel/shared/days.ts';
import { nameIn } from '../../kernel/shared/names.ts';
import { pageCount, pageParams } from '../../kernel/shared/paging.ts';

export type OrderRow = typeof productOrders.$inferSelect;

const holdingStatuses = ['not_started', 'running', 'frozen'];

/** The refusal of an amount that does not parse in the asset's scale. */
function parsedAmount(text: string, scale: number): bigint {
  const parsed = parseAmount(text, scale);
  if (!parsed.ok) throw new AppError(400, parsed.refusal, `Please enter the amount as a plain number with at most ${scale} decimals.`, { scale });
  if (parsed.atomic <= 0n) throw new AppError(400, 'amount_not_positive', 'Please enter an amount above zero.');
  return parsed.atomic;
}

/** The rules every purchase checks on the locked product, in this order. */
async function checkPurchase(tx: Executor, userId: bigint, product: ProductRow | undefined, kind: 'debit' | 'miner', now: Date): Promise<ProductRow> {
  if (!product || product.status === 'draft') throw notFound('product_not_found', 'There is no such product.');
  if (kind === 'debit' && product.type === 'mining') {
    throw new AppError(400, 'product_wrong_kind', 'Mining machines are bought with minerBuy (a number of machines), not by amount.');
  }
  if (kind === 'miner' && product.type !== 'mining') {
    throw new AppError(400, 'product_wrong_kind', 'Only mining machines are bought by number of machines; this product is bought by amount.');
  }
  const opens = product.opensAt?.getTime();
  const closes = product.closesAt?.getTime();
  if (product.status !== 'open' || (opens !== undefined && now.getTime() < opens) || (closes !== undefined && now.getTime() >= closes)) {
    throw conflict('product_not_open', 'This product is not on sale now.');
  }
  const kycLevel = await userKycLevel(tx, userId);
  const setting = (await levelSettings(tx, await usdtScale(tx))).find((level) => level.level === kycLevel);
  if (!setting?.productsOpen) {
    throw new AppError(403, 'product_kyc_required', 'Products are open once your identity is verified at a level that allows them.');
  }
  if (product.minLevel > 0) {
    const level = await userVipLevel(tx, userId);
    if (level < product.minLevel) {
      throw new AppError(403, 'product_level_required', `This product needs VIP level ${product.minLevel}; yours is ${level}.`,
        { minLevel: product.minLevel, level });
    }
  }
  return product;
}

async function userHeld(tx: Executor, userId: bigint, productId: bigint): Promise<bigint> {
  const [row] = await tx.select({ held: sql<string>`coalesce(sum(${productOrders.amount}), 0)::text` }).from(productOrders)
    .where(and(eq(productOrders.userId, userId), eq(productOrders.productId, productId), inArray(productOrders.status, holdingStatuses)));
  return BigInt(row.held);
}

/** Caps on the amount (in the product's asset): per order, per user, in all, and the bond's target. */
async function checkAmount(tx: Executor, userId: bigint, product: ProductRow, amount: bigint, scale: number) {
  if (amount < product.minAmount || amount > product.maxAmount) {
    throw new AppError(400, 'product_amount_out_of_range',
      `Please buy between ${formatAmount(product.minAmount, scale)} and ${formatAmount(product.maxAmount, scale)} ${product.asset}.`,
      { min: formatAmount(product.minAmount, scale), max: formatAmount(product.maxAmount, scale) });
  }
  if (product.perUserMax > 0n && await userHeld(tx, userId, product.id) + amount > product.perUserMax) {
    throw conflict('product_user_cap', `One person may hold at most ${formatAmount(product.perUserMax, scale)} ${product.asset} of this product.`);
  }
  const cap = product.type === 'bond' && product.target !== null
    ? (product.totalCap > 0n && product.totalCap < product.target ? product.totalCap : product.target)
    : product.totalCap;
  if (cap > 0n && product.sold + amount > cap) {
    throw conflict('product_sold_out', `This product is sold out: ${formatAmount(cap - product.sold, scale)} ${product.asset} remain.`);
  }
}

const soldOut = () => conflict('product_sold_out',
  'This product is sold out: its reserve cannot cover the returns another purchase would promise.');

/** The order of the same client order id, when the user sent it before. */
async function existingOrder(db: Executor, userId: bigint, clientOrderId: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(productOrders).where(and(eq(productOrders.userId, userId), eq(productOrders.clientOrderId, clientOrderId)));
  return row;
}

interface Purchase {
  amount: bigint;
  quantity: number;
  owed: bigint;
  transfer: (orderId: bigint, spot: bigint) => Promise<NewTransferRequest>;
  figures: { sold: bigint; principal: bigint; owed: bigint };
}

/** The term of an order bought now: the purchase day counts ('full') or the next day starts it; a bond starts when its raise closes. */
function termOf(product: ProductRow, now: Date) {
  if (product.type === 'bond') {
    const startsAt = midnightAtOrAfter(product.closesAt ?? now);
    return { status: 'not_started' as const, startsAt, endsAt: startsAt + product.days * dayMs };
  }
  if (product.firstDayRule === 'full') {
    return { status: 'running' as const, startsAt: now.getTime(), endsAt: midnightOf(now) + product.days * dayMs };
  }
  const startsAt = midnightOf(now) + dayMs;
  return { status: 'not_started' as const, startsAt, endsAt: startsAt + product.days * dayMs };
}

/** What a purchase asks for: a retry must ask for the same, as a contract open's clientOrderId must (positions.ts). */
type Asked = { kind: 'debit'; productId: bigint; amount: string } | { kind: 'miner'; productId: bigint; quantity: number };

/**
 * The first order of a client order id, when the request asks for what it bought; a 409 when the
 * id comes back with another product, kind, amount or number of machines (issue 38 #10: it answered
 * the first order silently, so the caller believed it had bought what it asked for).
 */
async function replayOf(db: Executor, order: OrderRow, asked: Asked, scales: Map<string, number>): Promise<OrderRow> {
  const [product] = order.productId === asked.productId
    ? await db.select({ type: products.type, asset: products.asset }).from(products).where(eq(products.id, order.productId))
    : [];
  const same = product !== undefined && (asked.kind === 'miner'
    ? product.type === 'mining' && order.quantity === asked.quantity
    : product.type !== 'mining' && sameAmount(asked.amount, order.amount, scaleOf(scales, product.asset)));
  if (!same) {
    throw new AppError(409, 'client_order_id_reused', 'This order id was used for a different order. Please send a new one.',
      { id: String(order.id) });
  }
  return order;
}

/** Whether an amount as typed is the atomic amount (one that does not parse is not). */
function sameAmount(text: string, atomic: bigint, scale: number): boolean {
  const parsed = parseAmount(text, scale);
  return parsed.ok && parsed.atomic === atomic;
}

async function buy(db: Db, userId: bigint, asked: Asked, clientOrderId: string, now: Date,
  plan: (tx: Tx, product: ProductRow, scales: Map<string, number>) => Promise<Purchase>): Promise<OrderRow> {
  const { productId, kind } = asked;
  const scales = await assetScales(db);
  const before = await existingOrder(db, userId, clientOrderId);
  if (before) return replayOf(db, before, asked, scales);
  const created = await db.transaction(async (tx) => {
    const locked = await lockProduct(tx, productId);
    // A retry that waited on the lock behind its first attempt answers that attempt's order.
    if (await existingOrder(tx, userId, clientOrderId)) return undefined;
    const product = await checkPurchase(tx, userId, locked, kind, now);
    const purchase = await plan(tx, product, scales);
    const term = termOf(product, now);
    const [order] = await tx.insert(productOrders).values({
      userId, productId, clientOrderId, amount: purchase.amount, quantity: purchase.quantity, status: term.status,
      dailyRatePpm: product.dailyRatePpm, days: product.days, startsAt: new Date(term.startsAt), endsAt: new Date(term.endsAt),
      owed: purchase.owed, createdAt: now,
    }).onConflictDoNothing().returning();
    // The same client order id committed meanwhile (a concurrent retry): answer that order.
    if (!order) return undefined;
    const [spot] = await openAccounts(tx, [{ ledger: 'real', asset: product.asset, kind: 'spot', ownerUserId: userId }]);
    const result = await postTransfers(tx, [await purchase.transfer(order.id, spot)], { now: () => now });
    if (!result.ok) {
      if (result.refusal === 'exceeds_credits') {
        throw new AppError(400, 'balance_insufficient', `Your ${product.asset} balance does not cover ${formatAmount(purchase.amount, scaleOf(scales, product.asset))} ${product.asset}.`);
      }
      throw new Error(`product purchase refused by the ledger: ${result.refusal}`);
    }
    await addToFigures(tx, product.id, purchase.figures, now);
    return order;
  });
  if (created) return created;
  const first = await existingOrder(db, userId, clientOrderId);
  assert(first, 'the order of the client order id exists');
  return replayOf(db, first, asked, scales);
}

export async function debitBuy(db: Db, userId: bigint, body: DebitBuyBody, now: Date): Promise<OrderRow> {
  return buy(db, userId, { kind: 'debit', productId: BigInt(body.productId), amount: body.amount }, body.clientOrderId, now, async (tx, product, scales) => {
    const scale = scaleOf(scales, product.asset);
    const amount = parsedAmount(body.amount, scale);
    await checkAmount(tx, userId, product, amount, scale);
    const owed = (amount * BigInt(product.dailyRatePpm) * BigInt(product.days)) / 1_000_000n;
    // Coverage (reserve + principal) ÷ (principal + owed) ≥ 100 % ⇔ reserve ≥ owed, principal on both sides.
    if (product.reserve < product.owed + owed) throw soldOut();
    return {
      amount, quantity: 1, owed, figures: { sold: amount, principal: amount, owed },
      transfer: async (orderId, spot) => {
        const [holdings] = await openAccounts(tx, [{ ledger: 'real', asset: product.asset, kind: 'product_holdings', ownerUserId: userId }]);
        return {
          id: `pp-${orderId}`, kind: 'product_purchase', reference: `product-order:${orderId}`, amountAtomic: amount,
          debitAccountId: spot, creditAccountId: holdings, remark: `${product.name}, ${product.days} days`,
        };
      },
    };
  });
}

export async function minerBuy(db: Db, userId: bigint, body: MinerBuyBody, now: Date): Promise<OrderRow> {
  return buy(db, userId, { kind: 'miner', productId: BigInt(body.productId), quantity: body.quantity }, body.clientOrderId, now, async (tx, product, scales) => {
    const scale = scaleOf(scales, product.asset);
    assert(product.unitPrice !== null, 'a mining product has a unit price');
    const amount = product.unitPrice * BigInt(body.quantity);
    await checkAmount(tx, userId, product, amount, scale);
    const estimate = await miningEstimate(tx, product, scales, now);
    if (!estimate || estimate.perMachine === undefined) {
      throw conflict('product_not_open', 'This machine is not on sale until a network reward figure and a price are published.');
    }
    const owed = estimate.perMachine * BigInt(body.quantity) * BigInt(product.days);
    // Mining holds no principal: the reserve of the mined asset must cover the estimated output.
    if (product.reserve < product.owed + owed) throw soldOut();
    return {
      amount, quantity: body.quantity, owed, figures: { sold: amount, principal: 0n, owed },
      transfer: async (orderId, spot) => {
        const [house] = await openAccounts(tx, [{ ledger: 'real', asset: product.asset, kind: 'house', shard: systemShard(`product:${product.id}`) }]);
        return {
          id: `pm-${orderId}`, kind: 'miner_purchase', reference: `product-order:${orderId}`, amountAtomic: amount,
          debitAccountId: spot, creditAccountId: house, remark: `${body.quantity} × ${(product.machine as unknown as MachineSpec | null)?.manufacturer ?? 'machine'}, ${product.days} days`,
        };
      },
    };
  });
}

/** Early redemption of the caller's order, where the product allows it. */
export async function redeemOrder(db: Db, userId: bigint, orderId: bigint, now: Date): Promise<OrderRow> {
  return db.transaction(async (tx) => {
    const [peek] = await tx.select().from(productOrders).where(and(eq(productOrders.id, orderId), eq(productOrders.userId, userId)));
    if (!peek) throw notFound('order_not_found', 'There is no such order.');
    const product = await lockProduct(tx, peek.productId);
    assert(product, 'the order has its product');
    const [order] = await tx.select().from(productOrders).where(eq(productOrders.id, orderId)).for('update');
    if (!product.earlyRedeem || product.type === 'mining' || product.type === 'bond') {
      throw conflict('order_not_redeemable', 'This product cannot be redeemed before the end of its term.');
    }
    if (order.status !== 'running' && order.status !== 'not_started') {
      throw conflict('order_not_redeemable', order.status === 'frozen'
        ? `This order is frozen${order.frozenReason ? `: ${order.frozenReason}` : ''}.` : 'This order has ended or was cancelled already.');
    }
    const fee = (order.amount * BigInt(product.earlyRedeemFeePpm)) / 1_000_000n;
    const back = order.amount - fee;
    const [holdings, spot, reserve] = await openAccounts(tx, [
      { ledger: 'real', asset: product.asset, kind: 'product_holdings', ownerUserId: userId },
      { ledger: 'real', asset: product.asset, kind: 'spot', ownerUserId: userId },
      { ledger: 'real', asset: product.asset, kind: 'product_reserve', shard: systemShard(`product:${product.id}`) },
    ]);
    const batch: NewTransferRequest[] = [];
    const reference = `product-order:${order.id}`;
    if (back > 0n) batch.push({ id: `pr-${order.id}`, kind: 'product_principal', reference, amountAtomic: back, debitAccountId: holdings, creditAccountId: spot, remark: 'early redemption' });
    if (fee > 0n) batch.push({ id: `pf-${order.id}`, kind: 'product_redeem_fee', reference, amountAtomic: fee, debitAccountId: holdings, creditAccountId: reserve, remark: 'early redemption fee' });
    const result = await postTransfers(tx, batch, { now: () => now });
    if (!result.ok) throw new Error(`redemption refused by the ledger: ${result.refusal}`);
    await addToFigures(tx, product.id, { principal: -order.amount, owed: -order.owed, reserve: fee }, now);
    const [updated] = await tx.update(productOrders).set({ status: 'cancelled', owed: 0n, endedAt: now })
      .where(eq(productOrders.id, order.id)).returning();
    return updated;
  });
}

// ─── Reading ──────────────────────────────────────────────────────────────────────────────────────

export interface OrderView { order: OrderRow; product: ProductRow; todayAtomic: bigint }

export function orderWire(view: OrderView, lang: string | undefined, scales: Map<string, number>, now: Date): ProductOrder {
  const { order, product } = view;
  const scale = scaleOf(scales, product.asset);
  const payoutScale = scaleOf(scales, product.payoutAsset);
  const live = order.status !== 'ended' && order.status !== 'cancelled';
  return {
    id: order.id.toString(), productId: product.id.toString(), productType: product.type as ProductType, productName: nameIn(product, lang),
    clientOrderId: order.clientOrderId, asset: product.asset, payoutAsset: product.payoutAsset, amount: formatAmount(order.amount, scale),
    quantity: order.quantity, status: order.status as OrderStatus, dailyRate: ratePercentFromPpm(order.dailyRatePpm), days: order.days,
    startsAt: order.startsAt.getTime(), endsAt: order.endsAt.getTime(), accumulatedIncome: formatAmount(order.accrued, payoutScale),
    todayIncome: formatAmount(view.todayAtomic, payoutScale), owed: formatAmount(order.owed, payoutScale),
    remainingDays: live ? Math.max(0, Math.ceil((order.endsAt.getTime() - now.getTime()) / dayMs)) : 0,
    ...(order.frozenReason ? { frozenReason: order.frozenReason } : {}),
    ...(order.endedAt ? { endedAt: order.endedAt.getTime() } : {}),
    createdAt: order.createdAt.getTime(),
  };
}

type OrderFilter = { orderId?: bigint; userId?: bigint; productId?: bigint; type?: ProductType; status?: string };

function orderWhere(filter: OrderFilter) {
  return and(
    filter.orderId === undefined ? undefined : eq(productOrders.id, filter.orderId),
    filter.userId === undefined ? undefined : eq(productOrders.userId, filter.userId),
    filter.productId === undefined ? undefined : eq(productOrders.productId, filter.productId),
    filter.type === undefined ? undefined : eq(products.type, filter.type),
    filter.status === undefined ? undefined : eq(productOrders.status, filter.status),
  );
}

/** Orders with their products and today's receipt, newest first, a page at a time. */
export async function orderViews(db: Executor, filter: OrderFilter, page: { pageNo?: number; pageSize?: number }, now: Date) {
  const { pageNo, pageSize, offset } = pageParams(page);
  const where = orderWhere(filter);
  const [{ total }] = await db.select({ total: count() }).from(productOrders).innerJoin(products, eq(products.id, productOrders.productId)).where(where);
  const rows = await db.select({ order: productOrders, product: products, today: productAccruals.amount }).from(productOrders)
    .innerJoin(products, eq(products.id, productOrders.productId))
    .leftJoin(productAccruals, and(eq(productAccruals.orderId, productOrders.id), eq(productAccruals.day, dayOf(now))))
    .where(where).orderBy(desc(productOrders.id)).limit(pageSize).offset(offset);
  const views: OrderView[] = rows.map((row) => ({ order: row.order, product: row.product, todayAtomic: row.today ?? 0n }));
  return { views, total, pageNo, pageSize };
}

export async function listMyOrders(db: Executor, userId: bigint, query: Static<typeof MyOrdersQuery>, lang: string | undefined, now: Date): Promise<PageOf<ProductOrder>> {
  const { views, total, pageNo, pageSize } = await orderViews(db, { userId, type: query.type, status: query.status }, query, now);
  const scales = await assetScales(db);
  return { records: views.map((view) => orderWire(view, lang, scales, now)), total, size: pageSize, current: pageNo, pages: pageCount(total, pageSize) };
}

/** One order of the caller (another user's id is not found). */
export async function myOrder(db: Executor, userId: bigint, orderId: bigint, lang: string | undefined, now: Date): Promise<ProductOrder> {
  const rows = await db.select({ order: productOrders, product: products, today: productAccruals.amount }).from(productOrders)
    .innerJoin(products, eq(products.id, productOrders.productId))
    .leftJoin(productAccruals, and(eq(productAccruals.orderId, productOrders.id), eq(productAccruals.day, dayOf(now))))
    .where(and(eq(productOrders.id, orderId), eq(productOrders.userId, userId)));
  if (!rows[0]) throw notFound('order_not_found', 'There is no such order.');
  return orderWire({ order: rows[0].order, product: rows[0].product, todayAtomic: rows[0].today ?? 0n }, lang, await assetScales(db), now);
}

export async function orderStat(db: Executor, userId: bigint, type: ProductType | undefined, now: Date): Promise<OrderStat> {
  const typeFilter = type ? sql`and p.type = ${type}` : sql``;
  const counts = (await db.execute(sql`select
      count(*) filter (where o.status = 'running')::int as running, count(*) filter (where o.status = 'ended')::int as ended
    from product_orders o join products p on p.id = o.product_id where o.user_id = ${userId} ${typeFilter}`) as unknown as {
    rows: Array<{ running: number; ended: number }>;
  }).rows[0];
  const totals = (await db.execute(sql`select p.payout_asset as asset,
      coalesce(sum(case when o.status in ('running', 'not_started', 'frozen') and p.type <> 'mining' then o.amount else 0 end), 0)::text as hosted,
      coalesce(sum(o.accrued), 0)::text as accumulated,
      coalesce(sum((select a.amount from product_accruals a where a.order_id = o.id and a.day = ${dayOf(now)})), 0)::text as today
    from product_orders o join products p on p.id = o.product_id where o.user_id = ${userId} ${typeFilter}
    group by p.payout_asset order by p.payout_asset`) as unknown as { rows: Array<{ asset: string; hosted: string; accumulated: string; today: string }> }).rows;
  const scales = await assetScales(db);
  return {
    running: Number(counts?.running ?? 0), ended: Number(counts?.ended ?? 0),
    totals: totals.map((row) => {
      const scale = scaleOf(scales, row.asset);
      return { asset: row.asset, hosted: formatAmount(BigInt(row.hosted), scale), todayIncome: formatAmount(BigInt(row.today), scale), accumulatedIncome: formatAmount(BigInt(row.accumulated), scale) };
    }),
  };
}

/** The daily receipts of the caller's order, newest day first. */
export async function orderReceipts(db: Executor, userId: bigint, orderId: bigint, page: { pageNo?: number; pageSize?: number }): Promise<PageOf<AccrualReceipt>> {
  const [owner] = await db.select({ order: productOrders, payoutAsset: products.payoutAsset, type: products.type }).from(productOrders)
    .innerJoin(products, eq(products.id, productOrders.productId)).where(and(eq(productOrders.id, orderId), eq(productOrders.userId, userId)));
  if (!owner) throw notFound('order_not_found', 'There is no such order.');
  const { pageNo, pageSize, offset } = pageParams(page);
  const [{ total }] = await db.select({ total: count() }).from(productAccruals).where(eq(productAccruals.orderId, orderId));
  const rows = await db.select().from(productAccruals).where(eq(productAccruals.orderId, orderId)).orderBy(desc(productAccruals.day)).limit(pageSize).offset(offset);
  const scale = scaleOf(await assetScales(db), owner.payoutAsset);
  return {
    records: rows.map((row) => ({
      orderId: row.orderId.toString(), day: row.day, amount: formatAmount(row.amount, scale), asset: owner.payoutAsset,
      inputs: owner.type === 'mining' ? row.inputs : {
        ...row.inputs, formula: fixedRateFormula, dailyRatePercent: ratePercentFromPpm(Number(row.inputs.ratePpm ?? 0)),
        paid: owner.type === 'bond' ? 'at maturity, with the principal' : 'on this day',
      },
      transferId: row.transferId,
    })),
    total, size: pageSize, current: pageNo, pages: pageCount(total, pageSize),
  };
}

/** The mining pool page: machines running, their hashrate and output, and the caller's share. */
export async function miningPool(db: Executor, asset: string | undefined, userId: bigint | undefined, now: Date) {
  const scales = await assetScales(db);
  const mined = asset ?? 'BTC';
  const scale = scales.get(mined);
  if (scale === undefined) throw notFound('currency_unknown', `The currency ${mined} is not offered.`);
  const rows = (await db.execute(sql`select o.user_id::text as user_id, o.quantity, o.status, p.machine, o.accrued::text as accrued,
      coalesce((select a.amount from product_accruals a where a.order_id = o.id and a.day = ${dayOf(now)}), 0)::text as today
    from product_orders o join products p on p.id = o.product_id
    where p.type = 'mining' and p.payout_asset = ${mined}`) as unknown as {
    rows: Array<{ user_id: string; quantity: number; status: string; machine: MachineSpec | null; accrued: string; today: string }>;
  }).rows;
  const hashUnits = (machine: MachineSpec | null, quantity: number) => {
    const parsed = parseAmount(String(machine?.hashrateThs ?? '0'), 4);
    return parsed.ok ? parsed.atomic * BigInt(quantity) : 0n;
  };
  let machines = 0; let hash = 0n; let today = 0n; let totalOut = 0n;
  let myMachines = 0; let myHash = 0n; let myOut = 0n;
  for (const row of rows) {
    const running = row.status === 'running';
    if (running) { machines += row.quantity; hash += hashUnits(row.machine, row.quantity); }
    today += BigInt(row.today); totalOut += BigInt(row.accrued);
    if (userId !== undefined && row.user_id === userId.toString()) {
      if (running) { myMachines += row.quantity; myHash += hashUnits(row.machine, row.quantity); }
      myOut += BigInt(row.accrued);
    }
  }
  return {
    asset: mined, machinesRunning: machines, hashrateThs: formatAmount(hash, 4), outputToday: formatAmount(today, scale),
    outputTotal: formatAmount(totalOut, scale),
    ...(userId === undefined ? {} : { my: { machines: myMachines, hashrateThs: formatAmount(myHash, 4), outputTotal: formatAmount(myOut, scale) } }),
  };
}

// ─── Back office ───────────────────────────────────────────────────────────────────────────────────

export async function listAdminOrders(db: Executor, query: { productId?: string; status?: string; userId?: string; pageNo?: number; pageSize?: number }, now: Date) {
  const { views, total, pageNo, pageSize } = await orderViews(db, {
    productId: query.productId ? BigInt(query.productId) : undefined, userId: query.userId ? BigInt(query.userId) : undefined, status: query.status,
  }, query, now);
  const scales = await assetScales(db);
  const accounts = await accountsOf(db, views.map((view) => view.order.userId));
  return {
    records: views.map((view) => ({
      ...orderWire(view, undefined, scales, now), userId: view.order.userId.toString(), account: accounts.get(view.order.userId) ?? '',
    })),
    total, size: pageSize, current: pageNo, pages: pageCount(total, pageSize),
  };
}

/** One order as the back office sees it. */
export async function adminOrder(db: Executor, orderId: bigint, now: Date) {
  const { views } = await orderViews(db, { orderId }, { pageSize: 1 }, now);
  if (!views[0]) throw notFound('order_not_found', 'There is no such order.');
  const scales = await assetScales(db);
  const accounts = await accountsOf(db, [views[0].order.userId]);
  return { ...orderWire(views[0], undefined, scales, now), userId: views[0].order.userId.toString(), account: accounts.get(views[0].order.userId) ?? '' };
}

/** How the back office names each user: e-mail, else +code phone, else username. */
async function accountsOf(db: Executor, userIds: bigint[]): Promise<Map<bigint, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.select({ id: users.id, email: users.email, phone: users.phone, code: users.phoneCountryCode, username: users.username })
    .from(users).where(inArray(users.id, [...new Set(userIds)]));
  return new Map(rows.map((row) => [row.id, row.email ?? (row.phone ? `+${row.code ?? ''} ${row.phone}` : row.username ?? row.id.toString())]));
}

/**
 * Freezes a running or not yet started order with a reason the user reads: no return is paid
 * while it is frozen and its principal stays held at the end of its term. Unfreezing puts it
 * back (running, or not_started before its start); the days it missed are paid at the next
 * accrual, so what it owes is paid in full.
 */
export async function setFrozen(tx: Tx, orderId: bigint, reason: string | undefined, now: Date): Promise<{ before: OrderRow; after: OrderRow; message?: WrittenMessage }> {
  const [before] = await tx.select().from(productOrders).where(eq(productOrders.id, orderId)).for('update');
  if (!before) throw notFound('order_not_found', 'There is no such order.');
  const [product] = await tx.select({ name: products.name, type: products.type, status: products.status }).from(products)
    .where(eq(products.id, before.productId));
  if (reason !== undefined) {
    if (before.status !== 'running' && before.status !== 'not_started') {
      throw conflict('record_already_decided', `Only a running or not yet started order can be frozen; this one is ${before.status}.`);
    }
    const [after] = await tx.update(productOrders).set({ status: 'frozen', frozenReason: reason }).where(eq(productOrders.id, orderId)).returning();
    const message = await writeMessage(tx, productMessage(after, product.name, 'product_frozen', { reason }, await freezeOrdinal(tx, after, 'product_frozen')), now);
    return { before, after, ...(message ? { message } : {}) };
  }
  if (before.status !== 'frozen') throw conflict('record_already_decided', `This order is not frozen; it is ${before.status}.`);
  const status = before.startsAt.getTime() > now.getTime() ? 'not_started' : 'running';
  const bondWaiting = product.type === 'bond' && product.status !== 'raised';
  const [after] = await tx.update(productOrders).set({ status: bondWaiting ? 'not_started' : status, frozenReason: null })
    .where(eq(productOrders.id, orderId)).returning();
  const message = await writeMessage(tx, productMessage(after, product.name, 'product_unfrozen', {}, await freezeOrdinal(tx, after, 'product_unfrozen')), now);
  return { before, after, ...(message ? { message } : {}) };
}

// ─── Messages ────────────────────────────────────────────────────────────────────────────────────

/** Product order events' internal messages (issue 22; the params are listed with messageKinds). */
export type ProductMessageKind = Extract<MessageKind, `product_${string}`>;

/**
 * One product order event's message: the order's id and its product's (English) name with
 * `params`, opening the caller's product orders (taoliOrder, every type, mining included) on the
 * tab of the order's status. Its dedupe key is the order's and the kind's, plus `ordinal` for an
 * event that can happen again (a second freeze).
 */
export function productMessage(order: Pick<OrderRow, 'id' | 'userId' | 'status'>, productName: string, kind: ProductMessageKind,
  params: Record<string, string>, ordinal?: number): NewMessage {
  return {
    userId: order.userId, kind, category: 'money', route: `/taoliOrder?status=${order.status}`,
    params: { id: String(order.id), product: productName, ...params },
    dedupeKey: `product-order:${order.id}:${kind}${ordinal === undefined ? '' : `:${ordinal}`}`,
  };
}

/**
 * Which freeze (or unfreeze) of the order this is, 1 for the first: its messages written before,
 * counted under the order's row lock. The clock can read the same time twice (a test's, or two
 * quick clicks), so the count, not the time, tells a second freeze from a replay.
 */
async function freezeOrdinal(tx: Tx, order: OrderRow, kind: ProductMessageKind): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(userMessages)
    .where(and(eq(userMessages.userId, order.userId), sql`${userMessages.dedupeKey} like ${`product-order:${order.id}:${kind}:%`}`));
  return Number(row?.n ?? 0) + 1;
}
