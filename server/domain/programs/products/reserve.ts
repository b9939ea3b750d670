// Funding a product's reserve (issue 22): house → product_reserve ('reserve_funding') in the
// product's payout asset, through the one funding mechanism and two-operator rule of the ledger
// (ledger/fundings.ts, ledger/dualControl.ts): done at once up to the threshold, counting the
// requester's own decisions of the last 24 hours in USDT, else pending a SECOND, different
// operator's approval (the requester's request is the first approval; the primary key of
// product_reserve_approvals refuses the same operator twice). The transfer and the product's
// `reserve` move in one transaction, with the product row locked.
import { asc, desc, eq } from 'drizzle-orm';
import type { ReserveFunding } from '../../../../src/api/contract/products.ts';
import { productReserveApprovals, productReserveFundings, products } from '../../../db/schema.ts';
import type { Executor, Tx } from '../../../db/client.ts';
import { assert, conflict, notFound } from '../../../lib/errors.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import type { ApprovalStore } from '../../kernel/ledger/dualControl.ts';
import { approveHouseFunding, parseFundingAmount, type HouseFunding } from '../../kernel/ledger/fundings.ts';
import { valueForDualControl } from '../../core/wallet/currencies.ts';
import { addToFigures, lockProduct } from './products.ts';
import { assetScales, scaleOf } from '../../kernel/ledger/assets.ts';

type FundingRow = typeof productReserveFundings.$inferSelect;

async function fundingWire(db: Executor, row: FundingRow, asset: string, scale: number): Promise<ReserveFunding> {
  const approvals = await db.select().from(productReserveApprovals).where(eq(productReserveApprovals.fundingId, row.id))
    .orderBy(asc(productReserveApprovals.createdAt));
  return {
    id: row.id.toString(), productId: row.productId.toString(), asset, amount: formatAmount(row.amount, scale),
    status: row.status as ReserveFunding['status'], approvalsRequired: row.approvalsRequired,
    approvals: approvals.map((approval) => ({ operatorId: approval.operatorId.toString(), time: approval.createdAt.getTime() })),
    requestedBy: row.requestedBy.toString(), createdAt: row.createdAt.getTime(),
    ...(row.completedAt ? { completedAt: row.completedAt.getTime() } : {}),
  };
}

function approvalStore(tx: Tx, fundingId: bigint): ApprovalStore {
  return {
    insert: async (operatorId, now) => (await tx.insert(productReserveApprovals).values({ fundingId, operatorId, createdAt: now })
      .onConflictDoNothing().returning({ operatorId: productReserveApprovals.operatorId })).length === 1,
    approvers: async () => (await tx.select({ operatorId: productReserveApprovals.operatorId }).from(productReserveApprovals)
      .where(eq(productReserveApprovals.fundingId, fundingId))).map((row) => row.operatorId),
  };
}

async function houseFunding(tx: Tx, funding: FundingRow, asset: string, scale: number, now: Date): Promise<HouseFunding> {
  return {
    kind: 'reserve_funding', fundingId: funding.id, asset, scale, amountAtomic: funding.amount,
    valuation: await valueForDualControl(tx, asset, scale, funding.amount, now),
    accountKind: 'product_reserve', shardKey: `product:${funding.productId}`, transferId: `rf-${funding.id}`, transferKind: 'reserve_funding',
    reference: `product:${funding.productId}`, remark: `reserve funding ${funding.id}`,
  };
}

/**
 * One operator's approval (the request's own first): when it completes the funding, the money
 * moves and the product's figures follow; else the count required is kept on the row.
 */
async function approve(tx: Tx, funding: FundingRow, asset: string, scale: number, operatorId: bigint, now: Date): Promise<FundingRow> {
  const outcome = await approveHouseFunding(tx, await houseFunding(tx, funding, asset, scale, now), funding.approvalsRequired, operatorId,
    approvalStore(tx, funding.id), now);
  if (!outcome) throw conflict('funding_approved_by_you', 'You approved this funding already; a different operator must approve it.');
  if (!outcome.reached) {
    const [waiting] = await tx.update(productReserveFundings).set({ approvalsRequired: outcome.approvalsRequired })
      .where(eq(productReserveFundings.id, funding.id)).returning();
    return waiting;
  }
  await addToFigures(tx, funding.productId, { reserve: funding.amount }, now);
  const [done] = await tx.update(productReserveFundings)
    .set({ status: 'done', transferId: `rf-${funding.id}`, approvalsRequired: outcome.approvalsRequired, completedAt: now })
    .where(eq(productReserveFundings.id, funding.id)).returning();
  return done;
}

/** An operator funds a reserve: done at once up to the threshold, else pending a second operator. */
export async function requestFunding(tx: Tx, productId: bigint, operatorId: bigint, amountText: string, now: Date): Promise<ReserveFunding> {
  const product = await lockProduct(tx, productId);
  if (!product) throw notFound('product_not_found', 'There is no such product.');
  const scale = scaleOf(await assetScales(tx), product.payoutAsset);
  const amount = parseFundingAmount(amountText, scale);
  const [funding] = await tx.insert(productReserveFundings).values({
    productId, amount, status: 'pending', approvalsRequired: 1, requestedBy: operatorId, createdAt: now,
  }).returning();
  return fundingWire(tx, await approve(tx, funding, product.payoutAsset, scale, operatorId, now), product.payoutAsset, scale);
}

async function lockedFunding(tx: Tx, fundingId: bigint) {
  const [peek] = await tx.select().from(productReserveFundings).where(eq(productReserveFundings.id, fundingId));
  if (!peek) throw notFound('funding_not_found', 'There is no such reserve funding.');
  const product = await lockProduct(tx, peek.productId);
  assert(product, 'a funding has its product');
  const [funding] = await tx.select().from(productReserveFundings).where(eq(productReserveFundings.id, fundingId)).for('update');
  if (funding.status !== 'pending') throw conflict('record_already_decided', `This funding is ${funding.status} already.`);
  return { funding, product, scale: scaleOf(await assetScales(tx), product.payoutAsset) };
}

/** A second operator approves; the requester approving again is refused (funding_approved_by_you). */
export async function approveFunding(tx: Tx, fundingId: bigint, operatorId: bigint, now: Date) {
  const { funding, product, scale } = await lockedFunding(tx, fundingId);
  const before = await fundingWire(tx, funding, product.payoutAsset, scale);
  const row = await approve(tx, funding, product.payoutAsset, scale, operatorId, now);
  return { before, after: await fundingWire(tx, row, product.payoutAsset, scale) };
}

export async function rejectFunding(tx: Tx, fundingId: bigint, now: Date) {
  const { funding, product, scale } = await lockedFunding(tx, fundingId);
  const before = await fundingWire(tx, funding, product.payoutAsset, scale);
  const [row] = await tx.update(productReserveFundings).set({ status: 'rejected', completedAt: now })
    .where(eq(productReserveFundings.id, fundingId)).returning();
  return { before, after: await fundingWire(tx, row, product.payoutAsset, scale) };
}

/** Pending fundings (or all, newest first, up to 200). */
export async function listFundings(db: Executor, all = false): Promise<ReserveFunding[]> {
  const rows = await db.select({ funding: productReserveFundings, asset: products.payoutAsset }).from(productReserveFundings)
    .innerJoin(products, eq(products.id, productReserveFundings.productId))
    .where(all ? undefined : eq(productReserveFundings.status, 'pending')).orderBy(desc(productReserveFundings.id)).limit(200);
  const scales = await assetScales(db);
  const out: ReserveFunding[] = [];
  for (const row of rows) out.push(await fundingWire(db, row.funding, row.asset, scaleOf(scales, row.asset)));
  return out;
}
