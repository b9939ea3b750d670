// IEO token offerings with a provable lottery (issue 23; docs/fairness.md).
//
// - create (operator): the token becomes a new ledger asset (an existing code is refused); a
//   32-byte seed is drawn from crypto.randomBytes and only its SHA-256 (seedHash) is public.
// - apply (user, inside [opensAt, closesAt)): basic verification needed; one application per
//   verified person and project (kyc.ts verifiedPersonKey: two accounts verified with one document
//   are one person), lots ≤ the per-user cap. The cost of every lot applied for is held at once: a
//   pending transfer from spot to ieo_proceeds, shown to the user as frozen (issue 38: free
//   applications let fresh accounts take lots and lapse).
// - close (operator, at or after closesAt): the applications are fixed (the project row locked
//   FOR UPDATE while applies take it FOR SHARE) and published as the canonical list with its hash.
// - reveal (operator): the seed is published, checked against seedHash, and the winners are
//   drawWinners(seed, list, supplyLots) from src/api/ieoDraw.ts: every application's won lots
//   and amount (wonLots × lotAmount) are written; the others lose. Then settleHolds, a batch of
//   applications per transaction (never one transaction for every applicant): each winner's hold
//   is posted for the won lots' cost (the rest released) and the application is paid; each
//   loser's hold is voided. A crash half-way is resumed by a second reveal call or by the listing.
//   Nothing of the draw depends on the holds: the list and the seed are what they were.
// - pay (winner, before payDeadline): only for applications made before holds existed (no
//   hold): wonLots × lotSize × price from spot to ieo_proceeds (ieo_payment), one transaction
//   with the application's status. A held application is paid by its hold.
// - list (operator, at or after listsAt): holds still open are settled first; winners without a
//   hold who did not pay lapse (recorded on the row and in the audit); paid winners are credited
//   wonLots × lotSize of the token from ieo_issuance through a payout job (ieo_allocation, id
//   ieo-<project>-allocation); a second call resumes the job.
import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import {
  ieoAlgorithm, type AdminIeoProject, type CreateIeoBody, type IeoApplication, type IeoApplicationStatus, type IeoDraw, type IeoProject,
  type IeoProjectStatus,
} from '../../../../src/api/contract/ieo.ts';
import type { PageOf } from '../../../../src/api/contract/wallet.ts';
import { drawWinners, listText, seedHashOf, listHashOf } from '../../../../src/api/ieoDraw.ts';
import { ieoApplications, ieoProjects, ledgerAssets, walletCurrencies } from '../../../db/schema.ts';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import { AppError, assert, conflict, notFound } from '../../../lib/errors.ts';
import type { Clock } from '../../../lib/time.ts';
import { formatAmount, parseAmount } from '../../kernel/ledger/amounts.ts';
import { accountKeysMax, openAccounts, systemShard } from '../../kernel/ledger/accounts.ts';
import { postTransfers } from '../../kernel/ledger/transfers.ts';
import type { TransferRequest } from '../../kernel/ledger/rules.ts';
import { verifiedPersonKey } from '../../core/identity/kyc.ts';
import { createPayoutJob, payoutJob, runPayoutJob, type PayoutTarget } from '../../kernel/ledger/payouts.ts';
import { assetScales, scaleOf } from '../../kernel/ledger/assets.ts';
import { nameIn } from '../../kernel/shared/names.ts';
import { pageCount, pageParams } from '../../kernel/shared/paging.ts';

export type IeoRow = typeof ieoProjects.$inferSelect;
export type ApplicationRow = typeof ieoApplications.$inferSelect;

export const allocationJobId = (projectId: bigint) => `ieo-${projectId}-allocation`;

const notFoundError = () => notFound('ieo_not_found', 'There is no such token offering.');

/** The status users see: a stored upcoming project is issuing once its window opened. */
export function statusOf(row: IeoRow, now: Date): IeoProjectStatus {
  if (row.status === 'upcoming' || row.status === 'issuing') return now < row.opensAt ? 'upcoming' : 'issuing';
  return row.status as IeoProjectStatus;
}

/** Price × lotSize in the pay asset, exact (checked at creation). */
export function lotAmountOf(row: Pick<IeoRow, 'price' | 'lotSize'>, tokenScale: number): bigint {
  return (row.price * row.lotSize) / 10n ** BigInt(tokenScale);
}

function parsed(text: string, scale: number, what: string): bigint {
  const result = parseAmount(text, scale);
  if (!result.ok) throw new AppError(400, result.refusal, `Please enter the ${what} as a plain number with at most ${scale} decimals.`, { scale });
  if (result.atomic <= 0n) throw new AppError(400, 'amount_not_positive', `Please enter a ${what} above zero.`);
  return result.atomic;
}

// ─── Operator: create, close, reveal, list ───────────────────────────────────────────────────────

export async function createIeo(tx: Executor, operatorId: bigint, body: CreateIeoBody, now: Date): Promise<IeoRow> {
  const [existing] = await tx.select({ code: ledgerAssets.code }).from(ledgerAssets).where(eq(ledgerAssets.code, body.token));
  if (existing) throw conflict('ieo_token_exists', `The ledger already has an asset ${body.token}: a token offering makes a new one.`);
  const [pay] = await tx.select().from(ledgerAssets).where(eq(ledgerAssets.code, body.payAsset));
  if (!pay) throw new AppError(400, 'currency_unknown', `There is no currency ${body.payAsset}.`);
  const price = parsed(body.price, pay.scale, 'price');
  const lotSize = parsed(body.lotSize, body.tokenScale, 'lot size');
  if ((price * lotSize) % 10n ** BigInt(body.tokenScale) !== 0n) {
    throw new AppError(400, 'ieo_lot_amount_inexact', `One lot must cost an exact amount of ${body.payAsset} (price × lot size has more than ${pay.scale} decimals).`);
  }
  if (!(body.opensAt >= now.getTime() - 60_000 && body.closesAt > body.opensAt && body.payDeadline >= body.closesAt && body.listsAt >= body.payDeadline)) {
    throw new AppError(400, 'ieo_dates_invalid', 'The dates must follow each other: opens (not in the past) < closes ≤ payment deadline ≤ listing.');
  }
  const supply = BigInt(body.supplyLots) * lotSize;
  await tx.insert(ledgerAssets).values({ code: body.token, name: body.tokenName.trim(), scale: body.tokenScale, transferAmountMax: supply, createdAt: now });
  const seed = randomBytes(32).toString('hex');
  const [row] = await tx.insert(ieoProjects).values({
    name: body.name.trim(), names: body.names ?? {}, token: body.token, payAsset: body.payAsset, price, lotSize,
    supplyLots: BigInt(body.supplyLots), perUserMaxLots: BigInt(body.perUserMaxLots), opensAt: new Date(body.opensAt),
    closesAt: new Date(body.closesAt), payDeadline: new Date(body.payDeadline), listsAt: new Date(body.listsAt), status: 'upcoming',
    seed, seedHash: seedHashOf(seed), createdBy: operatorId, createdAt: now, updatedAt: now,
  }).returning();
  return row;
}

async function lockProject(tx: Executor, id: bigint, mode: 'update' | 'share' = 'update'): Promise<IeoRow> {
  const [row] = await tx.select().from(ieoProjects).where(eq(ieoProjects.id, id)).for(mode);
  if (!row) throw notFoundError();
  return row;
}

const wrongState = (message: string) => conflict('ieo_wrong_state', message);

/** Fixes the application list and publishes it with its hash. Answers [before, after]. */
export async function closeIeo(tx: Executor, id: bigint, now: Date): Promise<[IeoRow, IeoRow]> {
  const before = await lockProject(tx, id);
  if (before.status !== 'upcoming' && before.status !== 'issuing') throw wrongState('Only an offering whose window is open can be closed.');
  if (now < before.closesAt) throw wrongState(`The subscription window closes at ${before.closesAt.toISOString()}.`);
  const applications = await tx.select({ id: ieoApplications.id, lots: ieoApplications.lots }).from(ieoApplications)
    .where(eq(ieoApplications.projectId, id)).orderBy(asc(ieoApplications.id));
  const list = listText(applications.map((application) => ({ id: String(application.id), lots: Number(application.lots) })));
  const [after] = await tx.update(ieoProjects).set({ status: 'closed', list, listHash: listHashOf(list), closedAt: now, updatedAt: now })
    .where(eq(ieoProjects.id, id)).returning();
  return [before, after];
}

/** Publishes the seed and draws the winners (src/api/ieoDraw.ts). */
export async function revealIeo(tx: Executor, id: bigint, now: Date): Promise<{ before: IeoRow; after: IeoRow; winners: number; wonLots: number }> {
  const before = await lockProject(tx, id);
  if (before.status !== 'closed') throw wrongState('The seed is revealed once, after the application list is published.');
  assert(seedHashOf(before.seed) === before.seedHash, 'the stored seed matches its commitment');
  assert(before.list !== null && listHashOf(before.list) === before.listHash, 'the published list matches its hash');
  const winners = drawWinners(before.seed, before.list, Number(before.supplyLots));
  const tokenScale = scaleOf(await assetScales(tx), before.token);
  const lotAmount = lotAmountOf(before, tokenScale);
  await tx.update(ieoApplications).set({ status: 'lost', wonLots: 0n, amount: 0n }).where(eq(ieoApplications.projectId, id));
  const chunk = 10_000;
  for (let start = 0; start < winners.length; start += chunk) {
    const part = winners.slice(start, start + chunk);
    await tx.execute(sql`update ieo_applications a set status = 'won', won_lots = v.won, amount = v.won * ${lotAmount.toString()}::numeric
      from unnest(${`{${part.map((winner) => winner.id).join(',')}}`}::bigint[], ${`{${part.map((winner) => winner.won).join(',')}}`}::bigint[]) as v(id, won)
      where a.id = v.id and a.project_id = ${id}`);
  }
  const [after] = await tx.update(ieoProjects).set({ status: 'drawn', seedRevealedAt: now, updatedAt: now })
    .where(eq(ieoProjects.id, id)).returning();
  return { before, after, winners: winners.length, wonLots: winners.reduce((sum, winner) => sum + winner.won, 0) };
}

export interface ListingOutcome {
  before: IeoRow;
  after: IeoRow;
  lapsed: number;
  lapsedLots: number;
  credited: number;
  /** Holds a stopped reveal left open, settled by this call. */
  settled: HoldSettlement;
}

/**
 * Lists the token: unpaid winners lapse, paid winners get their tokens through a payout job. The
 * first step is one transaction (status listed); the credit is the job, resumed by a second call.
 */
export async function listIeo(db: Db, id: bigint, clock: Clock): Promise<ListingOutcome> {
  // Holds a reveal left open (a crash between its batches) are settled before anything lapses.
  const settled = await settleHolds(db, id, clock);
  const now = clock.now();
  const step = await db.transaction(async (tx) => {
    const before = await lockProject(tx, id);
    if (before.status === 'listed') return { before, after: before, lapsed: 0, lapsedLots: 0 };
    if (before.status !== 'drawn') throw wrongState('An offering is listed after its draw.');
    if (now < before.listsAt) throw wrongState(`This offering lists at ${before.listsAt.toISOString()}.`);
    // Only an application without a hold can lapse: a held one was paid by its hold at the draw.
    const lapsed = await tx.update(ieoApplications).set({ status: 'lapsed' })
      .where(and(eq(ieoApplications.projectId, id), eq(ieoApplications.status, 'won'), isNull(ieoApplications.holdTransferId)))
      .returning({ wonLots: ieoApplications.wonLots });
    const [after] = await tx.update(ieoProjects).set({ status: 'listed', listedAt: now, updatedAt: now }).where(eq(ieoProjects.id, id)).returning();
    // The token's wallet currency (disabled until the operator opens a network), valued at the offering price.
    const scales = await assetScales(tx);
    await tx.insert(walletCurrencies).values({
      code: before.token, enabled: false, sortOrder: 50,
      usdtRate: before.payAsset === 'USDT' ? formatAmount(before.price, scaleOf(scales, before.payAsset)) : null,
      usdtRateUpdatedAt: before.payAsset === 'USDT' ? now : null,
    }).onConflictDoNothing();
    return { before, after, lapsed: lapsed.length, lapsedLots: lapsed.reduce((sum, row) => sum + Number(row.wonLots), 0) };
  });
  const paid = await db.select({ id: ieoApplications.id, userId: ieoApplications.userId, wonLots: ieoApplications.wonLots })
    .from(ieoApplications).where(and(eq(ieoApplications.projectId, id), inArray(ieoApplications.status, ['paid', 'completed'])))
    .orderBy(asc(ieoApplications.id));
  if (paid.length > 0) {
    const targets: PayoutTarget[] = [];
    for (let start = 0; start < paid.length; start += accountKeysMax) {
      const part = paid.slice(start, start + accountKeysMax);
      const accounts = await openAccounts(db, part.map((row) => ({ ledger: 'real' as const, asset: step.after.token, kind: 'spot' as const, ownerUserId: row.userId })));
      part.forEach((row, index) => targets.push({ accountId: accounts[index], amountAtomic: row.wonLots * step.after.lotSize }));
    }
    const jobId = allocationJobId(id);
    await createPayoutJob(db, {
      id: jobId, ledger: 'real', asset: step.after.token, sourceKind: 'ieo_issuance', direction: 'credit', kind: 'ieo_allocation',
      reference: `ieo:${id}`, remark: `${step.after.name}: ${step.after.token} allocation`,
    }, targets, clock);
    const job = await runPayoutJob(db, jobId, { clock });
    assert(job.state === 'done' && job.targetsRefused === 0, `allocation job ${jobId} credited every paid winner`);
    await db.update(ieoApplications).set({ status: 'completed' }).where(and(eq(ieoApplications.projectId, id), eq(ieoApplications.status, 'paid')));
  }
  return { ...step, credited: paid.length, settled };
}

// ─── User: apply, pay ────────────────────────────────────────────────────────────────────────────

/** The application's reference in the ledger, and the proceeds shard its money goes to. */
const applicationReference = (applicationId: bigint) => `ieo-application:${applicationId}`;

async function paymentAccounts(tx: Executor, project: IeoRow, userId: bigint, applicationId: bigint): Promise<[bigint, bigint]> {
  const [spot, proceeds] = await openAccounts(tx, [
    { ledger: 'real', asset: project.payAsset, kind: 'spot', ownerUserId: userId },
    { ledger: 'real', asset: project.payAsset, kind: 'ieo_proceeds', shard: systemShard(applicationReference(applicationId)) },
  ]);
  return [spot, proceeds];
}

/**
 * Applies for `lots` and holds their whole cost, in one transaction. Refusals in order, each
 * leaving nothing behind: not issuing, above the cap, no basic verification
 * (verification_required), this account applied already (ieo_applied_already), another account
 * of the same verified person applied already (ieo_person_applied_already), the balance short of
 * the cost (balance_insufficient). Two applications racing are ordered by the unique indexes.
 */
export async function applyIeo(db: Db, userId: bigint, projectId: bigint, lots: number, now: Date): Promise<ApplicationRow> {
  return db.transaction(async (tx) => {
    const project = await lockProject(tx, projectId, 'share');
    if (statusOf(project, now) !== 'issuing' || now >= project.closesAt) {
      throw conflict('ieo_not_issuing', 'Subscriptions to this offering are not open.');
    }
    if (BigInt(lots) > project.perUserMaxLots) {
      throw new AppError(400, 'ieo_lots_over_cap', `One person may apply for at most ${project.perUserMaxLots} lots.`, { max: Number(project.perUserMaxLots) });
    }
    const personKey = await verifiedPersonKey(tx, userId);
    if (personKey === null) {
      throw new AppError(403, 'verification_required', 'Applying to a token offering needs basic identity verification.');
    }
    const scales = await assetScales(tx);
    const cost = BigInt(lots) * lotAmountOf(project, scaleOf(scales, project.token));
    const holdTransferId = `ieo-hold-${randomBytes(12).toString('hex')}`;
    const [row] = await tx.insert(ieoApplications).values({
      projectId, userId, lots: BigInt(lots), personKey, holdTransferId, heldAmount: cost, createdAt: now,
    }).onConflictDoNothing().returning();
    if (!row) {
      const [own] = await tx.select({ id: ieoApplications.id }).from(ieoApplications)
        .where(and(eq(ieoApplications.projectId, projectId), eq(ieoApplications.userId, userId)));
      if (own) throw conflict('ieo_applied_already', 'You have already applied to this offering.');
      throw conflict('ieo_person_applied_already', 'Another account verified with your identity document has already applied to this offering: one person applies once.');
    }
    const [spot, proceeds] = await paymentAccounts(tx, project, userId, row.id);
    const result = await postTransfers(tx, [{
      id: holdTransferId, pending: true, kind: 'ieo_payment', reference: applicationReference(row.id), amountAtomic: cost,
      debitAccountId: spot, creditAccountId: proceeds, remark: `${project.name}: ${lots} lots of ${project.token} held until the draw`,
    }], { now: () => now });
    if (!result.ok) {
      const scale = scaleOf(scales, project.payAsset);
      if (result.refusal === 'exceeds_credits') {
        throw new AppError(400, 'balance_insufficient',
          `Your ${project.payAsset} balance does not cover ${formatAmount(cost, scale)} ${project.payAsset}, the cost of the lots applied for, which is held until the draw.`,
          { amount: formatAmount(cost, scale) });
      }
      if (result.refusal === 'amount_exceeds_asset_limit') throw new AppError(400, 'amount_too_large', 'The amount is too large.');
      throw new Error(`IEO hold refused by the ledger: ${result.refusal}`);
    }
    return row;
  });
}

/** Applications one settlement transaction resolves (a ledger batch of as many transfers). */
export const holdSettlementBatchSize = 500;

/**
 * Resolves the holds of drawn applications in one ledger batch: a winner's is posted for what the
 * won lots cost (the rest of it released) and the application is paid; a loser's is voided. The
 * rows are locked by the caller and still hold (held_amount > 0).
 */
async function settleRows(tx: Tx, rows: ApplicationRow[], now: Date): Promise<{ paid: bigint[]; released: bigint[] }> {
  const batch: TransferRequest[] = rows.map((row) => {
    assert(row.holdTransferId !== null && row.heldAmount > 0n && (row.status === 'won' || row.status === 'lost'),
      `application ${row.id} is drawn and holds its cost`);
    return row.status === 'won'
      ? { id: `${row.holdTransferId}-post`, pendingId: row.holdTransferId, action: 'post', amountAtomic: row.amount }
      : { id: `${row.holdTransferId}-void`, pendingId: row.holdTransferId, action: 'void', remark: 'Not drawn: the held amount is released' };
  });
  const result = await postTransfers(tx, batch, { now: () => now });
  assert(result.ok, `IEO holds settled: ${result.ok ? '' : result.refusal}`);
  const paid = rows.filter((row) => row.status === 'won').map((row) => row.id);
  const released = rows.filter((row) => row.status === 'lost').map((row) => row.id);
  if (paid.length > 0) {
    await tx.update(ieoApplications).set({
      status: 'paid', heldAmount: 0n, paidAt: now, paymentTransferId: sql`${ieoApplications.holdTransferId} || '-post'`,
    }).where(inArray(ieoApplications.id, paid));
  }
  if (released.length > 0) await tx.update(ieoApplications).set({ heldAmount: 0n }).where(inArray(ieoApplications.id, released));
  return { paid, released };
}

export interface HoldSettlement { paid: number; released: number }

/**
 * Settles every hold of a drawn project, a batch of applications per transaction, in id order.
 * Safe to call again at any time: a settled application holds nothing and is not read again.
 */
export async function settleHolds(db: Db, projectId: bigint, clock: Clock): Promise<HoldSettlement> {
  const outcome: HoldSettlement = { paid: 0, released: 0 };
  let afterId = 0n;
  for (;;) {
    const last = await db.transaction(async (tx) => {
      const project = await lockProject(tx, projectId, 'share');
      if (project.status !== 'drawn' && project.status !== 'listed') return undefined;
      const rows = await tx.select().from(ieoApplications).where(and(
        eq(ieoApplications.projectId, projectId), gt(ieoApplications.id, afterId), gt(ieoApplications.heldAmount, 0n),
        inArray(ieoApplications.status, ['won', 'lost']),
      )).orderBy(asc(ieoApplications.id)).limit(holdSettlementBatchSize).for('update');
      if (rows.length === 0) return undefined;
      const settled = await settleRows(tx, rows, clock.now());
      outcome.paid += settled.paid.length;
      outcome.released += settled.released.length;
      return rows.at(-1)!.id;
    });
    if (last === undefined) return outcome;
    afterId = last;
  }
}

/** Whether a drawn project still has holds to settle (a reveal stopped half-way). */
export async function holdsOpen(db: Executor, projectId: bigint): Promise<boolean> {
  const [row] = await db.select({ id: ieoApplications.id }).from(ieoApplications).where(and(
    eq(ieoApplications.projectId, projectId), gt(ieoApplications.heldAmount, 0n), inArray(ieoApplications.status, ['won', 'lost']),
  )).limit(1);
  return row !== undefined;
}

export async function payIeo(db: Db, userId: bigint, projectId: bigint, now: Date): Promise<ApplicationRow> {
  return db.transaction(async (tx) => {
    const project = await lockProject(tx, projectId, 'share');
    const [application] = await tx.select().from(ieoApplications)
      .where(and(eq(ieoApplications.projectId, projectId), eq(ieoApplications.userId, userId))).for('update');
    if (application && (application.status === 'paid' || application.status === 'completed')) {
      throw conflict('ieo_paid_already', 'You have already paid for your lots.');
    }
    if (application?.status === 'lapsed') throw conflict('ieo_pay_deadline_passed', 'The payment deadline has passed: the allocation has lapsed.');
    if (!application || application.status !== 'won' || project.status !== 'drawn') {
      throw conflict('ieo_not_won', 'You have no winning lots to pay for in this offering.');
    }
    // A held application is paid by its hold: settled here when the draw's settlement has not reached it yet.
    if (application.holdTransferId !== null) {
      await settleRows(tx, [application], now);
      const [paid] = await tx.select().from(ieoApplications).where(eq(ieoApplications.id, application.id));
      return paid;
    }
    if (now >= project.payDeadline) throw conflict('ieo_pay_deadline_passed', 'The payment deadline has passed: the allocation has lapsed.');
    const [spot, proceeds] = await paymentAccounts(tx, project, userId, application.id);
    const transferId = `ieo-pay-${application.id}`;
    const result = await postTransfers(tx, [{
      id: transferId, kind: 'ieo_payment', reference: applicationReference(application.id), amountAtomic: application.amount,
      debitAccountId: spot, creditAccountId: proceeds, remark: `${project.name}: ${application.wonLots} lots of ${project.token}`,
    }], { now: () => now });
    if (!result.ok) {
      if (result.refusal === 'exceeds_credits') {
        const scale = scaleOf(await assetScales(tx), project.payAsset);
        throw new AppError(400, 'balance_insufficient', `Your ${project.payAsset} balance does not cover ${formatAmount(application.amount, scale)} ${project.payAsset}.`);
      }
      throw new Error(`IEO payment refused by the ledger: ${result.refusal}`);
    }
    const [paid] = await tx.update(ieoApplications).set({ status: 'paid', paymentTransferId: transferId, paidAt: now })
      .where(eq(ieoApplications.id, application.id)).returning();
    return paid;
  });
}

// ─── Reading ─────────────────────────────────────────────────────────────────────────────────────

interface Figures { applicants: number; appliedLots: number; wonLots: number; paidLots: number; lapsedLots: number; proceeds: bigint; held: bigint }

async function figuresOf(db: Executor, ids: bigint[]): Promise<Map<string, Figures>> {
  const figures = new Map<string, Figures>();
  if (ids.length === 0) return figures;
  const rows = await db.select({
    projectId: ieoApplications.projectId,
    applicants: count(),
    appliedLots: sql<string>`coalesce(sum(${ieoApplications.lots}), 0)::text`,
    wonLots: sql<string>`coalesce(sum(${ieoApplications.wonLots}), 0)::text`,
    paidLots: sql<string>`coalesce(sum(${ieoApplications.wonLots}) filter (where ${ieoApplications.status} in ('paid', 'completed')), 0)::text`,
    lapsedLots: sql<string>`coalesce(sum(${ieoApplications.wonLots}) filter (where ${ieoApplications.status} = 'lapsed'), 0)::text`,
    proceeds: sql<string>`coalesce(sum(${ieoApplications.amount}) filter (where ${ieoApplications.status} in ('paid', 'completed')), 0)::text`,
    held: sql<string>`coalesce(sum(${ieoApplications.heldAmount}), 0)::text`,
  }).from(ieoApplications).where(inArray(ieoApplications.projectId, ids)).groupBy(ieoApplications.projectId);
  for (const row of rows) {
    figures.set(String(row.projectId), {
      applicants: Number(row.applicants), appliedLots: Number(row.appliedLots), wonLots: Number(row.wonLots), paidLots: Number(row.paidLots),
      lapsedLots: Number(row.lapsedLots), proceeds: BigInt(row.proceeds), held: BigInt(row.held),
    });
  }
  return figures;
}

const noFigures: Figures = { applicants: 0, appliedLots: 0, wonLots: 0, paidLots: 0, lapsedLots: 0, proceeds: 0n, held: 0n };

export function applicationWire(row: ApplicationRow, project: IeoRow, scales: Map<string, number>, lang: string | undefined): IeoApplication {
  const tokenScale = scaleOf(scales, project.token);
  const payScale = scaleOf(scales, project.payAsset);
  const lotAmount = lotAmountOf(project, tokenScale);
  const price = formatAmount(project.price, payScale);
  return {
    id: String(row.id), projectId: String(project.id), name: nameIn(project, lang), token: project.token, payAsset: project.payAsset,
    lots: Number(row.lots), quantity: formatAmount(row.lots * project.lotSize, tokenScale), wonLots: Number(row.wonLots),
    wonQuantity: formatAmount(row.wonLots * project.lotSize, tokenScale), amount: formatAmount(row.amount, payScale),
    appliedAmount: formatAmount(row.lots * lotAmount, payScale), estimatedPrice: price,
    ...(row.holdTransferId !== null ? { heldAmount: formatAmount(row.heldAmount, payScale) } : {}),
    ...(project.seedRevealedAt ? { winningPrice: price } : {}),
    status: row.status as IeoApplicationStatus, payDeadline: project.payDeadline.getTime(), createdAt: row.createdAt.getTime(),
    ...(row.paidAt ? { paidAt: row.paidAt.getTime() } : {}),
  };
}

function projectWire(row: IeoRow, scales: Map<string, number>, lang: string | undefined, now: Date, figures: Figures,
  my: ApplicationRow | undefined): IeoProject {
  const tokenScale = scaleOf(scales, row.token);
  const payScale = scaleOf(scales, row.payAsset);
  const price = formatAmount(row.price, payScale);
  return {
    id: String(row.id), name: nameIn(row, lang), token: row.token, tokenScale, payAsset: row.payAsset, estimatedPrice: price,
    ...(row.seedRevealedAt ? { winningPrice: price } : {}),
    lotSize: formatAmount(row.lotSize, tokenScale), lotAmount: formatAmount(lotAmountOf(row, tokenScale), payScale),
    supplyLots: Number(row.supplyLots), perUserMaxLots: Number(row.perUserMaxLots), opensAt: row.opensAt.getTime(),
    closesAt: row.closesAt.getTime(), payDeadline: row.payDeadline.getTime(), listsAt: row.listsAt.getTime(), status: statusOf(row, now),
    applicants: figures.applicants, appliedLots: figures.appliedLots, seedHash: row.seedHash,
    ...(row.listHash ? { listHash: row.listHash } : {}), seedRevealed: row.seedRevealedAt !== null,
    ...(my ? { my: applicationWire(my, row, scales, lang) } : {}),
  };
}

async function myApplications(db: Executor, userId: bigint | undefined, projectIds: bigint[]): Promise<Map<string, ApplicationRow>> {
  if (userId === undefined || projectIds.length === 0) return new Map();
  const rows = await db.select().from(ieoApplications).where(and(eq(ieoApplications.userId, userId), inArray(ieoApplications.projectId, projectIds)));
  return new Map(rows.map((row) => [String(row.projectId), row]));
}

/** Public projects (not cancelled), newest first; the caller's application on each when logged in. `mine` keeps only those applied to. */
export async function listProjects(db: Executor, query: { pageNo?: number; pageSize?: number }, lang: string | undefined, now: Date,
  userId: bigint | undefined, mine = false): Promise<PageOf<IeoProject>> {
  const { pageNo, pageSize, offset } = pageParams(query);
  const where = mine && userId !== undefined
    ? sql`${ieoProjects.status} <> 'cancelled' and exists (select 1 from ieo_applications a where a.project_id = ${ieoProjects.id} and a.user_id = ${userId})`
    : sql`${ieoProjects.status} <> 'cancelled'`;
  const [{ total }] = await db.select({ total: count() }).from(ieoProjects).where(where);
  const rows = await db.select().from(ieoProjects).where(where).orderBy(desc(ieoProjects.opensAt), desc(ieoProjects.id)).limit(pageSize).offset(offset);
  const ids = rows.map((row) => row.id);
  const [scales, figures, mineRows] = await Promise.all([assetScales(db), figuresOf(db, ids), myApplications(db, userId, ids)]);
  return {
    records: rows.map((row) => projectWire(row, scales, lang, now, figures.get(String(row.id)) ?? noFigures, mineRows.get(String(row.id)))),
    total: Number(total), size: pageSize, current: pageNo, pages: pageCount(Number(total), pageSize),
  };
}

/** The caller's applications (subscription records and lottery results), newest first. */
export async function listMyApplications(db: Executor, userId: bigint, query: { status?: IeoApplicationStatus; pageNo?: number; pageSize?: number },
  lang: string | undefined): Promise<PageOf<IeoApplication>> {
  const { pageNo, pageSize, offset } = pageParams(query);
  const where = and(eq(ieoApplications.userId, userId), query.status ? eq(ieoApplications.status, query.status) : undefined);
  const [{ total }] = await db.select({ total: count() }).from(ieoApplications).where(where);
  const rows = await db.select({ application: ieoApplications, project: ieoProjects }).from(ieoApplications)
    .innerJoin(ieoProjects, eq(ieoProjects.id, ieoApplications.projectId)).where(where)
    .orderBy(desc(ieoApplications.id)).limit(pageSize).offset(offset);
  const scales = await assetScales(db);
  return {
    records: rows.map((row) => applicationWire(row.application, row.project, scales, lang)),
    total: Number(total), size: pageSize, current: pageNo, pages: pageCount(Number(total), pageSize),
  };
}

export async function myApplication(db: Executor, userId: bigint, projectId: bigint, lang: string | undefined): Promise<IeoApplication> {
  const [row] = await db.select({ application: ieoApplications, project: ieoProjects }).from(ieoApplications)
    .innerJoin(ieoProjects, eq(ieoProjects.id, ieoApplications.projectId))
    .where(and(eq(ieoApplications.userId, userId), eq(ieoApplications.projectId, projectId)));
  assert(row, 'the application exists');
  return applicationWire(row.application, row.project, await assetScales(db), lang);
}

/** The published draw: what is public at the project's stage. */
export async function drawOf(db: Executor, id: bigint, now: Date): Promise<IeoDraw> {
  const [row] = await db.select().from(ieoProjects).where(eq(ieoProjects.id, id));
  if (!row || row.status === 'cancelled') throw notFoundError();
  const draw: IeoDraw = { id: String(row.id), status: statusOf(row, now),
    supplyLots: Number(row.supplyLots), seedHash: row.seedHash, algorithm: ieoAlgorithm };
  if (row.list !== null && row.listHash !== null && row.closedAt) {
    const lines = row.list === '' ? [] : row.list.slice(0, -1).split('\n');
    Object.assign(draw, {
      list: row.list, listHash: row.listHash, closedAt: row.closedAt.getTime(), applications: lines.length,
      totalLots: lines.reduce((sum, line) => sum + Number(line.slice(line.indexOf(':') + 1)), 0),
    });
  }
  if (row.seedRevealedAt) {
    const winners = await db.select({ id: ieoApplications.id, lots: ieoApplications.lots, won: ieoApplications.wonLots }).from(ieoApplications)
      .where(and(eq(ieoApplications.projectId, id), gt(ieoApplications.wonLots, 0n))).orderBy(asc(ieoApplications.id));
    Object.assign(draw, {
      seed: row.seed, revealedAt: row.seedRevealedAt.getTime(),
      winners: winners.map((winner) => ({ id: String(winner.id), lots: Number(winner.lots), won: Number(winner.won) })),
    });
  }
  return draw;
}

// ─── Back office ─────────────────────────────────────────────────────────────────────────────────

export async function adminProjectWire(db: Executor, row: IeoRow, now: Date): Promise<AdminIeoProject> {
  const [scales, figures] = await Promise.all([assetScales(db), figuresOf(db, [row.id])]);
  const own = figures.get(String(row.id)) ?? noFigures;
  const job = row.status === 'listed' ? await payoutJob(db, allocationJobId(row.id)) : undefined;
  return {
    ...projectWire(row, scales, undefined, now, own, undefined), names: row.names ?? {},
    wonLots: own.wonLots, paidLots: own.paidLots, lapsedLots: own.lapsedLots, proceeds: formatAmount(own.proceeds, scaleOf(scales, row.payAsset)),
    held: formatAmount(own.held, scaleOf(scales, row.payAsset)),
    ...(row.closedAt ? { closedAt: row.closedAt.getTime() } : {}),
    ...(row.seedRevealedAt ? { revealedAt: row.seedRevealedAt.getTime() } : {}),
    ...(row.listedAt ? { listedAt: row.listedAt.getTime() } : {}),
    ...(job ? { allocation: { jobId: job.jobId, state: job.state, targets: job.targetCount, posted: job.targetsPosted, refused: job.targetsRefused } } : {}),
    createdAt: row.createdAt.getTime(),
  };
}

export async function adminProject(db: Executor, id: bigint, now: Date): Promise<AdminIeoProject> {
  const [row] = await db.select().from(ieoProjects).where(eq(ieoProjects.id, id));
  if (!row) throw notFoundError();
  return adminProjectWire(db, row, now);
}

export async function listAdminProjects(db: Executor, query: { pageNo?: number; pageSize?: number }, now: Date): Promise<PageOf<AdminIeoProject>> {
  const { pageNo, pageSize, offset } = pageParams(query);
  const [{ total }] = await db.select({ total: count() }).from(ieoProjects);
  const rows = await db.select().from(ieoProjects).orderBy(desc(ieoProjects.id)).limit(pageSize).offset(offset);
  const records: AdminIeoProject[] = [];
  for (const row of rows) records.push(await adminProjectWire(db, row, now));
  return { records, total: Number(total), size: pageSize, current: pageNo, pages: pageCount(Number(total), pageSize) };
}
