// The two-operator rule (DESIGN §5, issues 33 and 38), once, for every way money is created or paid
// out by an operator: deposits credited, withdrawals approved, product reserves and reward pools
// funded. A decision needs a second, different operator when any of these passes the threshold:
//   1. the amount with what the same user had decided of the same kind and currency in the last
//      24 hours, against that currency's own threshold (in its units);
//   2. its USDT value with the USDT value of the same user's decisions of the same kind in the last
//      24 hours, across currencies, against USDT's threshold;
//   3. its USDT value with what the same operator decided ALONE in the last 24 hours, across users,
//      currencies and kinds, against USDT's threshold — so one operator cannot split a sum across
//      users, currencies or fundings;
// and always when the currency has no price to value it with. Every decision is one row of
// dual_control_decisions with the USDT value at the price recorded then, so the windows are sums
// of those rows. Counts are made under a lock of the user and one of the operator (user first),
// taken in the deciding transaction, so two decisions at once are counted one after the other.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { dualControlDecisions, ledgerAssets, withdrawalSettings } from '../../../db/schema.ts';
import type { Executor, Tx } from '../../../db/client.ts';
import { assert } from '../../../lib/errors.ts';
import { parseAmount } from './amounts.ts';

export type DualControlKind = 'deposit' | 'withdrawal' | 'reserve_funding' | 'pool_funding';

/** The window of earlier decisions counted with a new one. */
export const dualControlWindowMs = 24 * 3_600_000;

/** The currency whose threshold every USDT-valued window is compared with. */
export const valuationCurrency = 'USDT';

/**
 * Above these amounts (whole units) a decision needs two operators, until an operator sets a
 * currency's own threshold (withdrawal_settings, kept under its old name). A currency without
 * either always needs two.
 */
const defaultDualApprovalAbove: Record<string, string> = { USDT: '10000', USDC: '10000', BTC: '0.1', ETH: '3' };

/** Where an amount's USDT value came from: null valueUsdt when the currency had no price. */
export interface Valuation {
  valueUsdt: bigint | null;
  /** "par", "tick:<id>", "candle", "operator" or null. */
  priceSource: string | null;
}

export interface DualControlSubject {
  kind: DualControlKind;
  /** The request's id (a deposit, a withdrawal, a funding). */
  subjectId: bigint;
  /** Whose money: null for a funding from the house. */
  userId: bigint | null;
  asset: string;
  scale: number;
  amountAtomic: bigint;
  valuation: Valuation;
}

export type DualControlReason = 'currency_threshold' | 'user_window' | 'operator_window' | 'unpriced';

export interface DualControlAssessment {
  approvalsRequired: 1 | 2;
  /** Why two are needed, in check order; empty when one is enough. */
  reasons: DualControlReason[];
}

/** A currency's threshold in its atomic units. */
export async function dualApprovalThreshold(db: Executor, currency: string, scale: number): Promise<bigint> {
  const [row] = await db.select().from(withdrawalSettings).where(eq(withdrawalSettings.currency, currency)).limit(1);
  if (row) return row.dualApprovalAbove;
  const text = defaultDualApprovalAbove[currency];
  const parsed = text === undefined ? undefined : parseAmount(text, scale);
  return parsed?.ok ? parsed.atomic : 0n;
}

async function valuationScale(db: Executor): Promise<number> {
  const [row] = await db.select({ scale: ledgerAssets.scale }).from(ledgerAssets).where(eq(ledgerAssets.code, valuationCurrency)).limit(1);
  assert(row, `the ledger holds ${valuationCurrency}`);
  return row.scale;
}

/** A whole-USDT bound ("10000") in USDT atomic units. */
export async function usdtAtomic(db: Executor, text: string): Promise<bigint> {
  const parsed = parseAmount(text, await valuationScale(db));
  assert(parsed.ok, `a USDT bound: ${text}`);
  return parsed.atomic;
}

/** The USDT threshold every valued window is compared with, in USDT atomic units. */
export async function valuationThreshold(db: Executor): Promise<bigint> {
  return dualApprovalThreshold(db, valuationCurrency, await valuationScale(db));
}

/**
 * Serialises the counts of one user's and one operator's decisions for the rest of the
 * transaction. The user is always locked before the operator, and a transaction decides for at
 * most one of each, so two deciding transactions never wait on each other in a cycle.
 */
export async function lockDualControl(tx: Executor, userId: bigint | null, operatorId: bigint | null): Promise<void> {
  if (userId !== null) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`dual-control|user|${userId}`}, 0))`);
  if (operatorId !== null) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`dual-control|operator|${operatorId}`}, 0))`);
}

const live = (since: Date) => and(gt(dualControlDecisions.decidedAt, since), isNull(dualControlDecisions.voidedAt));

async function userWindow(db: Executor, subject: DualControlSubject, since: Date) {
  assert(subject.userId !== null, 'a user window has a user');
  const [row] = await db.select({
    sameAsset: sql<string>`coalesce(sum(${dualControlDecisions.amount}) filter (where ${dualControlDecisions.asset} = ${subject.asset}), 0)::text`,
    valueUsdt: sql<string>`coalesce(sum(${dualControlDecisions.valueUsdt}), 0)::text`,
  }).from(dualControlDecisions)
    .where(and(eq(dualControlDecisions.userId, subject.userId), eq(dualControlDecisions.kind, subject.kind), live(since)));
  return { sameAsset: BigInt(row.sameAsset), valueUsdt: BigInt(row.valueUsdt) };
}

/** What the operator decided alone in the window, in USDT, across users, currencies and kinds. */
export async function operatorSoloWindow(db: Executor, operatorId: bigint, now: Date): Promise<bigint> {
  const since = new Date(now.getTime() - dualControlWindowMs);
  const [row] = await db.select({ valueUsdt: sql<string>`coalesce(sum(${dualControlDecisions.valueUsdt}), 0)::text` })
    .from(dualControlDecisions).where(and(eq(dualControlDecisions.soloOperatorId, operatorId), live(since)));
  return BigInt(row.valueUsdt);
}

/**
 * How many operators `subject` needs if `operatorId` decides it now (null: no operator yet, as
 * when a user files a request and the back office's list shows a first count).
 */
export async function assessDualControl(db: Executor, subject: DualControlSubject, operatorId: bigint | null, now: Date): Promise<DualControlAssessment> {
  assert(subject.amountAtomic >= 0n, `amount of ${subject.kind} ${subject.subjectId}`);
  const since = new Date(now.getTime() - dualControlWindowMs);
  const reasons: DualControlReason[] = [];
  const currencyThreshold = await dualApprovalThreshold(db, subject.asset, subject.scale);
  const valued = subject.valuation.valueUsdt;
  const usdtThreshold = await valuationThreshold(db);
  if (subject.userId !== null) {
    const earlier = await userWindow(db, subject, since);
    if (earlier.sameAsset + subject.amountAtomic > currencyThreshold) reasons.push('currency_threshold');
    if (valued !== null && earlier.valueUsdt + valued > usdtThreshold) reasons.push('user_window');
  } else if (subject.amountAtomic > currencyThreshold) {
    reasons.push('currency_threshold');
  }
  if (operatorId !== null && valued !== null && (await operatorSoloWindow(db, operatorId, now)) + valued > usdtThreshold) {
    reasons.push('operator_window');
  }
  if (valued === null && subject.amountAtomic > 0n) reasons.push('unpriced');
  return { approvalsRequired: reasons.length > 0 ? 2 : 1, reasons };
}

/**
 * Records a completed decision, in the deciding transaction: `approverIds` are the operators who
 * approved it (one: decided alone, counted in that operator's window too).
 */
export async function recordDualControlDecision(tx: Tx, subject: DualControlSubject, approverIds: readonly bigint[], now: Date): Promise<void> {
  const approvers = new Set(approverIds);
  assert(approvers.size >= 1 && approvers.size === approverIds.length, `approvers of ${subject.kind} ${subject.subjectId}`);
  await tx.insert(dualControlDecisions).values({
    kind: subject.kind, subjectId: subject.subjectId, userId: subject.userId,
    soloOperatorId: approvers.size === 1 ? approverIds[0] : null, approvals: approvers.size,
    asset: subject.asset, amount: subject.amountAtomic, valueUsdt: subject.valuation.valueUsdt,
    priceSource: subject.valuation.priceSource, decidedAt: now,
  });
}

/** A decided withdrawal that failed or was refused gave the money back: it no longer counts. */
export async function voidDualControlDecision(tx: Tx, kind: DualControlKind, subjectId: bigint, now: Date): Promise<void> {
  await tx.update(dualControlDecisions).set({ voidedAt: now })
    .where(and(eq(dualControlDecisions.kind, kind), eq(dualControlDecisions.subjectId, subjectId), isNull(dualControlDecisions.voidedAt)));
}

/** Where a kind of request keeps its approvals (one row per operator, the same one twice refused). */
export interface ApprovalStore {
  /** Adds the operator's approval; false when that operator had approved already. */
  insert(operatorId: bigint, now: Date): Promise<boolean>;
  /** Every operator who approved, the new one included. */
  approvers(): Promise<bigint[]>;
}

export interface ApprovalOutcome {
  approvals: number;
  approvalsRequired: 1 | 2;
  /** Whether this approval completes the request: the caller then moves the money, in this transaction. */
  reached: boolean;
}

/**
 * One operator's approval of a request the caller has locked (and checked undecided), the one way
 * every kind is approved: the user (if any) and the operator are locked, the rule counts again,
 * the count required is raised when a window now passes the threshold and never lowered, and the
 * approval that completes the request records the decision. Answers null when this operator had
 * approved already (the caller refuses with its own code; nothing was written).
 */
export async function approveUnderDualControl(tx: Tx, subject: DualControlSubject, approvalsRequiredBefore: number,
  operatorId: bigint, store: ApprovalStore, now: Date): Promise<ApprovalOutcome | null> {
  assert(approvalsRequiredBefore === 1 || approvalsRequiredBefore === 2, `approvals required of ${subject.kind} ${subject.subjectId}`);
  await lockDualControl(tx, subject.userId, operatorId);
  const counted = (await assessDualControl(tx, subject, operatorId, now)).approvalsRequired;
  const approvalsRequired = Math.max(approvalsRequiredBefore, counted) as 1 | 2;
  if (!(await store.insert(operatorId, now))) return null;
  const approvers = await store.approvers();
  const reached = approvers.length >= approvalsRequired;
  if (reached) await recordDualControlDecision(tx, subject, approvers, now);
  return { approvals: approvers.length, approvalsRequired, reached };
}
