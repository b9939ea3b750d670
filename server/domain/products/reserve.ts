// Funding a product's reserve (issue 22): house → product_reserve ('reserve_funding') in the
// product's payout asset. Up to the currency's two-operator threshold (wallet/approvals.ts
// dualApprovalThreshold, the one deposits and withdrawals use) it is done at once; above it the
// request waits for a SECOND, different operator's approval (the requester's request is the first
// approval; the primary key of product_reserve_approvals refuses the same operator twice). The
// transfer and the product's `reserve` move in one transaction, with the product row locked.
import { asc, desc, eq } from 'drizzle-orm';
import type { ReserveFunding } from '../../../src/api/contract/products.ts';
import { productReserveApprovals, productReserveFundings, products } from '../../db/schema.ts';
import type { Executor, Tx } from '../../db/client.ts';
import { AppError, assert, conflict, notFound } from '../../lib/errors.ts';
import { formatAmount, parseAmount } from '../ledger/amounts.ts';
import { openAccounts, systemShard } from '../ledger/accounts.ts';
import { postTransfers } from '../ledger/transfers.ts';
import { dualApprovalThreshold } from '../wallet/approvals.ts';
import { addToFigures, assetScales, lockProduct, scaleOf } from './products.ts';

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

/** Moves the funding's amount from the house into the reserve and marks it done (product row locked by the caller). */
async function complete(tx: Tx, funding: FundingRow, asset: string, now: Date): Promise<FundingRow> {
  const shardKey = `product:${funding.productId}`;
  const [house, reserve] = await openAccounts(tx, [
    { ledger: 'real', asset, kind: 'house', shard: systemShard(shardKey) },
    { ledger: 'real', asset, kind: 'product_reserve', shard: systemShard(shardKey) },
  ]);
  const transferId = `rf-${funding.id}`;
  const result = await postTransfers(tx, [{
    id: transferId, kind: 'reserve_funding', reference: `product:${funding.productId}`, amountAtomic: funding.amount,
    debitAccountId: house, creditAccountId: reserve, remark: `reserve funding ${funding.id}`,
  }], { now: () => now });
  if (!result.ok) throw new Error(`reserve funding refused by the ledger: ${result.refusal}`);
  await addToFigures(tx, funding.productId, { reserve: funding.amount }, now);
  const [done] = await tx.update(productReserveFundings).set({ status: 'done', transferId, completedAt: now })
    .where(eq(productReserveFundings.id, funding.id)).returning();
  return done;
}

/** An operator funds a reserve: done at once up to the threshold, else pending a second operator. */
export async function requestFunding(tx: Tx, productId: bigint, operatorId: bigint, amountText: string, now: Date): Promise<ReserveFunding> {
  const product = await lockProduct(tx, productId);
  if (!product) throw notFound('product_not_found', 'There is no such product.');
  const scale = scaleOf(await assetScales(tx), product.payoutAsset);
  const parsed = parseAmount(amountText, scale);
  if (!parsed.ok) throw new AppError(400, parsed.refusal, `Please enter the amount as a plain number with at most ${scale} decimals.`, { scale });
  if (parsed.atomic <= 0n) throw new AppError(400, 'amount_not_positive', 'Please enter an amount above zero.');
  const threshold = await dualApprovalThreshold(tx, product.payoutAsset, scale);
  const approvalsRequired = parsed.atomic > threshold ? 2 : 1;
  const [funding] = await tx.insert(productReserveFundings).values({
    productId, amount: parsed.atomic, status: 'pending', approvalsRequired, requestedBy: operatorId, createdAt: now,
  }).returning();
  await tx.insert(productReserveApprovals).values({ fundingId: funding.id, operatorId, createdAt: now });
  const row = approvalsRequired === 1 ? await complete(tx, funding, product.payoutAsset, now) : funding;
  return fundingWire(tx, row, product.payoutAsset, scale);
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
  const added = await tx.insert(productReserveApprovals).values({ fundingId, operatorId, createdAt: now }).onConflictDoNothing()
    .returning({ operatorId: productReserveApprovals.operatorId });
  if (added.length === 0) throw conflict('funding_approved_by_you', 'You approved this funding already; a different operator must approve it.');
  const approvals = await tx.select().from(productReserveApprovals).where(eq(productReserveApprovals.fundingId, fundingId));
  const row = approvals.length >= funding.approvalsRequired ? await complete(tx, funding, product.payoutAsset, now) : funding;
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
