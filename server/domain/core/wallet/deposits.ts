// Deposits: a user sends coins to the platform's address, then applies with the amount and a
// proof; nothing moves until an operator approves. Approval is one transaction: the request row is
// locked, the approval is recorded (approvals.ts: a deposit that, with the user's deposits credited
// in the last 24 hours, passes the currency's threshold needs two different operators, and waits
// under review after the first), the approval that completes it has the ledger credit the user's
// spot account from deposit clearing under the transfer id "recharge:<id>" (so even a repeated
// approval could not credit twice), the row records the decision and the audit entry is written.
// Rejection by any operator records the reason the user sees.
import { and, count, desc, eq, inArray, or, type SQL } from 'drizzle-orm';
import type {
  AdminRechargeRecord, DepositAddress, RechargeApplyBody, RechargeRecord,
} from '../../../../src/api/contract/wallet.ts';
import { recordStatus, uploadUrl } from '../../../../src/api/contract/wallet.ts';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import { ledgerAssets, users, walletRecharges } from '../../../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../../../lib/errors.ts';
import type { Clock } from '../../../lib/time.ts';
import { openAccounts, systemShard } from '../../kernel/ledger/accounts.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import { postTransfers } from '../../kernel/ledger/transfers.ts';
import { parseUserAmount, requireDepositNetwork } from './currencies.ts';
import { addApproval, approvalsOf, approvalsRequiredFor } from './approvals.ts';
import { ownUpload } from '../../kernel/uploads.ts';
import { writeMessage, type WrittenMessage } from '../../kernel/messages.ts';

export interface PageOf<T> { records: T[]; total: number; size: number; current: number; pages: number }
export interface PageQuery { pageNo?: number; pageSize?: number }

/** The platform's address for a deposit of `currency` on `network`, with the minimum. */
export async function depositAddress(db: Executor, currency: string, network: string): Promise<DepositAddress> {
  const found = await requireDepositNetwork(db, currency, network);
  return {
    currency, network, address: found.depositAddress,
    depositMin: formatAmount(found.network.depositMin, found.currency.scale),
  };
}

type RechargeRow = typeof walletRecharges.$inferSelect;

function toRecord(row: RechargeRow, scale: number): RechargeRecord {
  return {
    id: String(row.id), currency: row.currency, network: row.network, amount: formatAmount(row.amount, scale),
    depositAddress: row.depositAddress, txHash: row.txHash, proofFileId: row.proofFileId, proofUrl: uploadUrl(row.proofFileId),
    status: row.status as RechargeRecord['status'], reason: row.reason, createTime: row.createdAt.getTime(),
    decideTime: row.decidedAt?.getTime() ?? null,
  };
}

/**
 * Records a deposit request under review. The amount is checked against the currency's scale and
 * the network's minimum, and the proof must be the caller's own deposit-proof upload.
 */
export async function applyRecharge(db: Db, userId: bigint, body: RechargeApplyBody, now: Date): Promise<RechargeRecord> {
  const found = await requireDepositNetwork(db, body.currency, body.network);
  const { scale } = found.currency;
  const amount = parseUserAmount(body.amount, scale);
  if (amount < found.network.depositMin) {
    throw new AppError(400, 'amount_below_minimum',
      `The minimum deposit is ${formatAmount(found.network.depositMin, scale)} ${body.currency}.`,
      { minimum: formatAmount(found.network.depositMin, scale) });
  }
  const proof = await ownUpload(db, userId, body.proofFileId);
  if (proof.purpose !== 'deposit_proof') throw notFound('file_not_found', 'No such file.');
  await refuseDuplicate(db, proof.id, body);
  // A first count for the back office's list; each approval counts again under the user's lock.
  const approvalsRequired = await approvalsRequiredFor(db, { kind: 'deposit', userId, currency: body.currency, scale, amount }, now);
  const [row] = await db.insert(walletRecharges).values({
    userId, currency: body.currency, network: body.network, amount, depositAddress: found.depositAddress,
    proofFileId: proof.id, txHash: body.txHash ?? null, status: recordStatus.underReview, approvalsRequired, createdAt: now,
  }).returning();
  return toRecord(row, scale);
}

/**
 * One proof, or one on-chain transaction, backs one deposit: a request under review or delivered
 * that already names it refuses the next (a rejected one does not, so a user can try again).
 * Checked in the application, so two requests sent at the same instant could both pass; the
 * operator's review is the line behind it, and the admin list shows both.
 */
async function refuseDuplicate(db: Executor, proofFileId: string, body: RechargeApplyBody) {
  const sameProof = eq(walletRecharges.proofFileId, proofFileId);
  const sameTx = body.txHash === undefined ? undefined
    : and(eq(walletRecharges.currency, body.currency), eq(walletRecharges.network, body.network), eq(walletRecharges.txHash, body.txHash));
  const [found] = await db.select({ id: walletRecharges.id }).from(walletRecharges)
    .where(and(or(sameProof, sameTx), inArray(walletRecharges.status, [recordStatus.underReview, recordStatus.delivered]))).limit(1);
  if (found) {
    throw conflict('deposit_duplicate', 'This proof or transaction already backs another deposit request.');
  }
}

const pageOf = (query: PageQuery) => {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 10;
  return { pageNo, pageSize, offset: (pageNo - 1) * pageSize };
};
const pages = (total: number, size: number) => Math.ceil(total / size);

async function listRows(db: Executor, where: SQL | undefined, query: PageQuery) {
  const { pageNo, pageSize, offset } = pageOf(query);
  const [{ total }] = await db.select({ total: count() }).from(walletRecharges).where(where);
  const rows = await db.select({ recharge: walletRecharges, scale: ledgerAssets.scale, user: users })
    .from(walletRecharges)
    .innerJoin(ledgerAssets, eq(ledgerAssets.code, walletRecharges.currency))
    .innerJoin(users, eq(users.id, walletRecharges.userId))
    .where(where).orderBy(desc(walletRecharges.id)).limit(pageSize).offset(offset);
  return { rows, total: Number(total), pageNo, pageSize };
}

/** The caller's deposit requests, newest first, with the outcome and the operator's reason. */
export async function listMyRecharges(db: Executor, userId: bigint, query: PageQuery & { status?: number }): Promise<PageOf<RechargeRecord>> {
  const where = and(eq(walletRecharges.userId, userId),
    query.status === undefined ? undefined : eq(walletRecharges.status, query.status));
  const { rows, total, pageNo, pageSize } = await listRows(db, where, query);
  return {
    records: rows.map((row) => toRecord(row.recharge, row.scale)), total, size: pageSize, current: pageNo, pages: pages(total, pageSize),
  };
}

const accountName = (user: typeof users.$inferSelect) =>
  user.email ?? (user.phone ? `+${user.phoneCountryCode} ${user.phone}` : user.username ?? `#${user.id}`);

type ApprovalList = AdminRechargeRecord['approvals'];

function toAdminRecord(row: RechargeRow, scale: number, user: typeof users.$inferSelect, approvals: ApprovalList): AdminRechargeRecord {
  return {
    ...toRecord(row, scale), userId: String(row.userId), userAccount: accountName(user),
    proofAdminUrl: `/api/admin/files/${row.proofFileId}`, decidedBy: row.decidedBy === null ? null : String(row.decidedBy),
    approvalsRequired: row.approvalsRequired, approvals,
  };
}

/** Every user's deposit requests for operators, by status, newest first, with the approvals so far. */
export async function listRecharges(db: Executor, query: PageQuery & { status?: number; id?: bigint }): Promise<PageOf<AdminRechargeRecord>> {
  const where = and(query.status === undefined ? undefined : eq(walletRecharges.status, query.status),
    query.id === undefined ? undefined : eq(walletRecharges.id, query.id));
  const { rows, total, pageNo, pageSize } = await listRows(db, where, query);
  const approvals = await approvalsOf(db, 'deposit', rows.map((row) => row.recharge.id));
  return {
    records: rows.map((row) => toAdminRecord(row.recharge, row.scale, row.user, approvals.get(row.recharge.id) ?? [])),
    total, size: pageSize, current: pageNo, pages: pages(total, pageSize),
  };
}

/** One request as operators see it (after a decision). */
async function adminRecord(db: Executor, id: bigint): Promise<AdminRechargeRecord> {
  const { records: [record] } = await listRecharges(db, { id, pageSize: 1 });
  if (!record) throw notFound('not_found', 'No such deposit request.');
  return record;
}

/** What the decision functions write to the audit log, in their transaction. */
export interface AuditEntry {
  operatorId: bigint;
  action: string;
  targetType: string;
  targetId: string;
  userId?: bigint;
  before?: unknown;
  after?: unknown;
  reason?: string;
}
export type AuditWriter = (tx: Tx, entry: AuditEntry) => Promise<unknown>;

export interface Decision {
  operatorId: bigint; audit: AuditWriter; clock: Clock;
  /** Receives the internal message the decision wrote (issue 21), to deliver after commit. */
  messages?: WrittenMessage[];
  /** Told after commit that a credit moved the user's balance (the balanceMoved port: the VIP level is re-checked). */
  balanceMoved?: (userId: bigint) => void;
}

/** The ledger transfer of an approved deposit: its id is fixed by the request, so it lands once. */
export const rechargeTransferId = (id: bigint) => `recharge:${id}`;

/** Locks a request under review, or refuses: missing, or decided already (nothing moves then). */
async function lockUndecided(tx: Tx, id: bigint): Promise<{ row: RechargeRow; scale: number }> {
  const [found] = await tx.select({ recharge: walletRecharges, scale: ledgerAssets.scale }).from(walletRecharges)
    .innerJoin(ledgerAssets, eq(ledgerAssets.code, walletRecharges.currency))
    .where(eq(walletRecharges.id, id)).for('update', { of: walletRecharges });
  if (!found) throw notFound('not_found', 'No such deposit request.');
  if (found.recharge.status !== recordStatus.underReview) {
    throw conflict('record_already_decided', 'This deposit request was decided already.');
  }
  return { row: found.recharge, scale: found.scale };
}

const auditState = (record: RechargeRecord) => ({ status: record.status, amount: record.amount, currency: record.currency, reason: record.reason });

/**
 * Records the operator's approval; the one that completes what the deposit needs credits it to
 * the user's spot balance and marks it delivered. A first of two leaves it under review (the user
 * sees nothing change) with the approval audited. Answers the request as operators see it.
 */
export async function approveRecharge(db: Db, id: bigint, decision: Decision): Promise<AdminRechargeRecord> {
  await db.transaction(async (tx) => {
    const { row, scale } = await lockUndecided(tx, id);
    const now = decision.clock.now();
    const outcome = await addApproval(tx, {
      kind: 'deposit', id: row.id, userId: row.userId, currency: row.currency, scale, amount: row.amount,
      approvalsRequired: row.approvalsRequired,
    }, decision.operatorId, now);
    const before = { ...auditState(toRecord(row, scale)), approvalsRequired: row.approvalsRequired, approvals: outcome.approvals - 1 };
    if (!outcome.reached) {
      await tx.update(walletRecharges).set({ approvalsRequired: outcome.approvalsRequired }).where(eq(walletRecharges.id, row.id));
      await decision.audit(tx, {
        operatorId: decision.operatorId, action: 'recharge.approve', targetType: 'recharge', targetId: String(row.id), userId: row.userId,
        before, after: { ...before, approvalsRequired: outcome.approvalsRequired, approvals: outcome.approvals, waitingForSecondOperator: true },
      });
      return;
    }
    await credit(tx, row, decision);
    const [updated] = await tx.update(walletRecharges)
      .set({ status: recordStatus.delivered, approvalsRequired: outcome.approvalsRequired, decidedBy: decision.operatorId, decidedAt: now })
      .where(eq(walletRecharges.id, row.id)).returning();
    const message = await writeMessage(tx, {
      userId: row.userId, kind: 'deposit_credited', category: 'money', route: '/chongzhitixianRecord',
      params: { id: String(row.id), amount: formatAmount(row.amount, scale), currency: row.currency, network: row.network },
      dedupeKey: `recharge:${row.id}:credited`,
    }, now);
    if (message) decision.messages?.push(message);
    await decision.audit(tx, {
      operatorId: decision.operatorId, action: 'recharge.approve', targetType: 'recharge', targetId: String(row.id), userId: row.userId,
      before, after: {
        ...auditState(toRecord(updated, scale)), approvalsRequired: outcome.approvalsRequired, approvals: outcome.approvals,
        transferId: rechargeTransferId(row.id),
      },
    });
  });
  const record = await adminRecord(db, id);
  // A credited deposit may raise the user's VIP level: re-checked after commit, without waiting.
  if (record.status === recordStatus.delivered) decision.balanceMoved?.(BigInt(record.userId));
  return record;
}

/** The ledger credit of an approved deposit, from the user's deposit clearing to their spot account. */
async function credit(tx: Tx, row: RechargeRow, decision: Decision) {
  const [clearing, spot] = await openAccounts(tx, [
    { ledger: 'real', asset: row.currency, kind: 'deposit_clearing', shard: systemShard(`user:${row.userId}`) },
    { ledger: 'real', asset: row.currency, kind: 'spot', ownerUserId: row.userId },
  ]);
  const posted = await postTransfers(tx, [{
    id: rechargeTransferId(row.id), debitAccountId: clearing, creditAccountId: spot, amountAtomic: row.amount,
    kind: 'deposit', reference: `recharge:${row.id}`, remark: `${row.currency} ${row.network}`,
  }], decision.clock);
  if (!posted.ok) {
    // The only refusal a credit from clearing can meet is the asset's per-transfer ceiling.
    throw badRequest(posted.refusal === 'amount_exceeds_asset_limit' ? 'amount_too_large' : 'invalid_request',
      `The deposit cannot be credited (${posted.refusal}).`);
  }
}

/** Marks the request rejected with the reason the user reads; no money moves. */
export async function rejectRecharge(db: Db, id: bigint, reason: string, decision: Decision): Promise<RechargeRecord> {
  return db.transaction(async (tx) => {
    const { row, scale } = await lockUndecided(tx, id);
    const [updated] = await tx.update(walletRecharges)
      .set({ status: recordStatus.rejected, reason, decidedBy: decision.operatorId, decidedAt: decision.clock.now() })
      .where(eq(walletRecharges.id, row.id)).returning();
    const after = toRecord(updated, scale);
    const message = await writeMessage(tx, {
      userId: row.userId, kind: 'deposit_rejected', category: 'money', route: '/chongzhitixianRecord',
      params: { id: String(row.id), amount: after.amount, currency: row.currency, network: row.network, reason },
      dedupeKey: `recharge:${row.id}:rejected`,
    }, decision.clock.now());
    if (message) decision.messages?.push(message);
    await decision.audit(tx, {
      operatorId: decision.operatorId, action: 'recharge.reject', targetType: 'recharge', targetId: String(row.id),
      userId: row.userId, before: auditState(toRecord(row, scale)), after: auditState(after), reason,
    });
    return after;
  });
}
