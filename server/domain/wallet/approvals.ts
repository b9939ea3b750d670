// Two operators for money created or paid above a threshold (DESIGN §5): one mechanism for
// deposits and withdrawals. A currency's threshold (withdrawal_settings, kept under its old name)
// is compared with the amount plus what the user had approved in the 24 hours before, so a large
// sum split into pieces just under it still needs a second operator. Each approval is one row
// (the primary key refuses the same operator twice), counted under the user's row lock so two
// approvals of one user's money at once are counted one after the other.
import { and, count, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { WithdrawalSetting } from '../../../src/api/contract/withdrawals.ts';
import { rechargeApprovals, users, walletRecharges, withdrawalApprovals, withdrawals, withdrawalSettings } from '../../db/schema.ts';
import type { Db, Executor, Tx } from '../../db/client.ts';
import type { Clock } from '../../lib/time.ts';
import { AppError, assert, conflict, notFound } from '../../lib/errors.ts';
import { formatAmount, parseAmount } from '../ledger/amounts.ts';
import { recordAudit } from '../audit.ts';
import { loadCurrencies, loadCurrency } from './currencies.ts';

/** What needs approving: a deposit (money created) or a withdrawal (money paid out). */
export type ApprovalKind = 'deposit' | 'withdrawal';

/** The window of earlier approvals counted with a new one. */
export const approvalWindowMs = 24 * 3_600_000;

/**
 * Above these amounts (whole units) a deposit or a withdrawal needs two different operators'
 * approval, until an operator sets a currency's own threshold (withdrawal_settings). A currency
 * without either always needs two.
 */
const defaultDualApprovalAbove: Record<string, string> = { USDT: '10000', USDC: '10000', BTC: '0.1', ETH: '3' };

export async function dualApprovalThreshold(db: Executor, currency: string, scale: number): Promise<bigint> {
  const [row] = await db.select().from(withdrawalSettings).where(eq(withdrawalSettings.currency, currency)).limit(1);
  if (row) return row.dualApprovalAbove;
  const text = defaultDualApprovalAbove[currency];
  const parsed = text === undefined ? undefined : parseAmount(text, scale);
  return parsed?.ok ? parsed.atomic : 0n;
}

/** Every wallet currency's two-operator threshold, as the back office shows it. */
export async function listDualApprovalThresholds(db: Executor): Promise<WithdrawalSetting[]> {
  const settings: WithdrawalSetting[] = [];
  for (const currency of await loadCurrencies(db)) {
    settings.push({ currency: currency.code, dualApprovalAbove: formatAmount(await dualApprovalThreshold(db, currency.code, currency.scale), currency.scale) });
  }
  return settings;
}

/**
 * Sets a currency's two-operator threshold for deposits and withdrawals, audited in the same
 * transaction. The audit action keeps its first name ("withdrawal.settings") so the trail reads
 * as one history. Requests already made keep the count they were given; approvals recount.
 */
export async function setDualApprovalThreshold(db: Db, clock: Clock, operatorId: bigint, code: string, aboveText: string): Promise<WithdrawalSetting> {
  const currency = await loadCurrency(db, code);
  if (!currency) throw notFound('currency_unknown', `The currency ${code} is not offered.`);
  const parsed = parseAmount(aboveText, currency.scale);
  if (!parsed.ok) throw new AppError(400, parsed.refusal, 'Please enter the threshold as a plain amount of the currency.', { scale: currency.scale });
  const before = await dualApprovalThreshold(db, code, currency.scale);
  const now = clock.now();
  await db.transaction(async (tx) => {
    await tx.insert(withdrawalSettings).values({ currency: code, dualApprovalAbove: parsed.atomic, updatedAt: now })
      .onConflictDoUpdate({ target: withdrawalSettings.currency, set: { dualApprovalAbove: parsed.atomic, updatedAt: now } });
    await recordAudit(tx, {
      operatorId, action: 'withdrawal.settings', targetType: 'currency', targetId: code,
      before: { dualApprovalAbove: formatAmount(before, currency.scale) }, after: { dualApprovalAbove: formatAmount(parsed.atomic, currency.scale) },
    }, clock);
  });
  return { currency: code, dualApprovalAbove: formatAmount(parsed.atomic, currency.scale) };
}

/**
 * What the user had approved of `currency` in the window before `now`: deposits credited, and
 * withdrawals fully approved that are awaiting payout or paid (a rejected or failed one gave the
 * money back, so it does not count).
 */
async function approvedInWindow(db: Executor, kind: ApprovalKind, userId: bigint, currency: string, now: Date): Promise<bigint> {
  const since = new Date(now.getTime() - approvalWindowMs);
  if (kind === 'deposit') {
    const [row] = await db.select({ total: sql<string>`coalesce(sum(${walletRecharges.amount}), 0)` }).from(walletRecharges)
      .where(and(eq(walletRecharges.userId, userId), eq(walletRecharges.currency, currency), eq(walletRecharges.status, 1),
        gte(walletRecharges.decidedAt, since)));
    return BigInt(row.total);
  }
  const [row] = await db.select({ total: sql<string>`coalesce(sum(${withdrawals.amount}), 0)` }).from(withdrawals)
    .where(and(eq(withdrawals.userId, userId), eq(withdrawals.currency, currency), inArray(withdrawals.status, [0, 2]),
      isNotNull(withdrawals.approvedAt), gte(withdrawals.approvedAt, since)));
  return BigInt(row.total);
}

export interface ApprovalSubject {
  kind: ApprovalKind;
  /** The request's id (a deposit or a withdrawal). */
  id: bigint;
  userId: bigint;
  currency: string;
  scale: number;
  amount: bigint;
  /** What the request holds now: never lowered by a later count. */
  approvalsRequired: number;
}

/**
 * How many operators a request of `amount` needs: two when it, with what the user had approved
 * of the same currency in the last 24 hours, passes the currency's threshold.
 */
export async function approvalsRequiredFor(db: Executor, subject: Omit<ApprovalSubject, 'id' | 'approvalsRequired'>, now: Date): Promise<1 | 2> {
  const threshold = await dualApprovalThreshold(db, subject.currency, subject.scale);
  const earlier = await approvedInWindow(db, subject.kind, subject.userId, subject.currency, now);
  return earlier + subject.amount > threshold ? 2 : 1;
}

async function insertApproval(tx: Tx, kind: ApprovalKind, id: bigint, operatorId: bigint, now: Date): Promise<boolean> {
  const added = kind === 'deposit'
    ? await tx.insert(rechargeApprovals).values({ rechargeId: id, operatorId, createdAt: now }).onConflictDoNothing()
      .returning({ operatorId: rechargeApprovals.operatorId })
    : await tx.insert(withdrawalApprovals).values({ withdrawalId: id, operatorId, createdAt: now }).onConflictDoNothing()
      .returning({ operatorId: withdrawalApprovals.operatorId });
  return added.length === 1;
}

async function countApprovals(tx: Tx, kind: ApprovalKind, id: bigint): Promise<number> {
  const [{ approvals }] = kind === 'deposit'
    ? await tx.select({ approvals: count() }).from(rechargeApprovals).where(eq(rechargeApprovals.rechargeId, id))
    : await tx.select({ approvals: count() }).from(withdrawalApprovals).where(eq(withdrawalApprovals.withdrawalId, id));
  return approvals;
}

export interface ApprovalOutcome {
  approvals: number;
  approvalsRequired: 1 | 2;
  /** Whether this approval completes the request's: then the caller credits or releases it. */
  reached: boolean;
}

/**
 * Records one operator's approval of a request whose row the caller has locked (and checked
 * undecided). The user's row is locked next, so the 24-hour count is exact against approvals of
 * the user's other requests; the count required is raised when that window now passes the
 * threshold, never lowered. The same operator twice is refused (deposit_approved_by_you,
 * withdrawal_approved_by_you) and, thrown inside the caller's transaction, changes nothing.
 */
export async function addApproval(tx: Tx, subject: ApprovalSubject, operatorId: bigint, now: Date): Promise<ApprovalOutcome> {
  assert(subject.approvalsRequired === 1 || subject.approvalsRequired === 2, `approvals required of ${subject.kind} ${subject.id}`);
  await tx.select({ id: users.id }).from(users).where(eq(users.id, subject.userId)).for('update');
  const counted = await approvalsRequiredFor(tx, subject, now);
  const approvalsRequired = Math.max(subject.approvalsRequired, counted) as 1 | 2;
  if (!(await insertApproval(tx, subject.kind, subject.id, operatorId, now))) {
    const what = subject.kind === 'deposit' ? 'deposit' : 'withdrawal';
    throw conflict(`${subject.kind}_approved_by_you`, `You have approved this ${what} already; a second operator must approve it.`);
  }
  const approvals = await countApprovals(tx, subject.kind, subject.id);
  return { approvals, approvalsRequired, reached: approvals >= approvalsRequired };
}

export interface ApprovalRecord { operatorId: string; time: number }

/** The approvals of each of `ids` (of one kind), oldest first, for the back office's lists. */
export async function approvalsOf(db: Executor, kind: ApprovalKind, ids: bigint[]): Promise<Map<bigint, ApprovalRecord[]>> {
  const byId = new Map<bigint, ApprovalRecord[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byId;
  const rows = kind === 'deposit'
    ? await db.select({ id: rechargeApprovals.rechargeId, operatorId: rechargeApprovals.operatorId, createdAt: rechargeApprovals.createdAt })
      .from(rechargeApprovals).where(inArray(rechargeApprovals.rechargeId, ids)).orderBy(rechargeApprovals.createdAt)
    : await db.select({ id: withdrawalApprovals.withdrawalId, operatorId: withdrawalApprovals.operatorId, createdAt: withdrawalApprovals.createdAt })
      .from(withdrawalApprovals).where(inArray(withdrawalApprovals.withdrawalId, ids)).orderBy(withdrawalApprovals.createdAt);
  for (const row of rows) byId.get(row.id)?.push({ operatorId: row.operatorId.toString(), time: row.createdAt.getTime() });
  return byId;
}
