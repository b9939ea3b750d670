// Two operators for money created or paid above a threshold (DESIGN §5): the wallet's side of the
// one rule (ledger/dualControl.ts) for deposits and withdrawals. Each approval is one row (the
// primary key refuses the same operator twice), counted under the user's row lock and the rule's
// lock of the operator, so two approvals at once are counted one after the other; the approval
// that completes a request records the decision with its USDT value for the later windows.
import { eq, inArray } from 'drizzle-orm';
import { settingBounds } from '../../../../src/api/contract/settingChanges.ts';
import type { WithdrawalSetting } from '../../../../src/api/contract/withdrawals.ts';
import { rechargeApprovals, users, withdrawalApprovals, withdrawalSettings } from '../../../db/schema.ts';
import type { Executor, Tx } from '../../../db/client.ts';
import { AppError, conflict, notFound } from '../../../lib/errors.ts';
import { formatAmount, parseAmount } from '../../kernel/ledger/amounts.ts';
import {
  approveUnderDualControl, assessDualControl, dualApprovalThreshold, usdtAtomic, type ApprovalOutcome, type ApprovalStore, type DualControlSubject,
} from '../../kernel/ledger/dualControl.ts';
import { loadCurrencies, loadCurrency, valueForDualControl } from './currencies.ts';

export { dualApprovalThreshold, type ApprovalOutcome };

/** What needs approving: a deposit (money created) or a withdrawal (money paid out). */
export type ApprovalKind = 'deposit' | 'withdrawal';

/** Every wallet currency's two-operator threshold, as the back office shows it. */
export async function listDualApprovalThresholds(db: Executor): Promise<WithdrawalSetting[]> {
  const settings: WithdrawalSetting[] = [];
  for (const currency of await loadCurrencies(db)) {
    settings.push({ currency: currency.code, dualApprovalAbove: formatAmount(await dualApprovalThreshold(db, currency.code, currency.scale), currency.scale) });
  }
  return settings;
}

/**
 * Sets a currency's two-operator threshold for deposits and withdrawals, inside the caller's
 * transaction; the caller audits it (as "withdrawal.settings", its first name, so the trail reads
 * as one history) and asks a second operator when it is raised (domain/kernel/settingChanges.ts).
 * Bounded: valued in USDT, at most settingBounds.dualThresholdUsdtMax. Requests already made keep
 * the count they were given; approvals recount.
 */
export async function applyDualApprovalThreshold(tx: Executor, code: string, aboveText: string, now: Date)
  : Promise<{ before: WithdrawalSetting; after: WithdrawalSetting }> {
  const currency = await loadCurrency(tx, code);
  if (!currency) throw notFound('currency_unknown', `The currency ${code} is not offered.`);
  const parsed = parseAmount(aboveText, currency.scale);
  if (!parsed.ok) throw new AppError(400, parsed.refusal, 'Please enter the threshold as a plain amount of the currency.', { scale: currency.scale });
  const value = await valueForDualControl(tx, code, currency.scale, parsed.atomic, now);
  if (value.valueUsdt !== null && value.valueUsdt > await usdtAtomic(tx, settingBounds.dualThresholdUsdtMax)) {
    throw new AppError(400, 'setting_out_of_bounds', `A two-operator threshold is at most ${settingBounds.dualThresholdUsdtMax} USDT in value.`,
      { max: settingBounds.dualThresholdUsdtMax });
  }
  const before = await dualApprovalThreshold(tx, code, currency.scale);
  await tx.insert(withdrawalSettings).values({ currency: code, dualApprovalAbove: parsed.atomic, updatedAt: now })
    .onConflictDoUpdate({ target: withdrawalSettings.currency, set: { dualApprovalAbove: parsed.atomic, updatedAt: now } });
  return {
    before: { currency: code, dualApprovalAbove: formatAmount(before, currency.scale) },
    after: { currency: code, dualApprovalAbove: formatAmount(parsed.atomic, currency.scale) },
  };
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

async function ruleSubject(db: Executor, subject: Omit<ApprovalSubject, 'approvalsRequired'>, now: Date): Promise<DualControlSubject> {
  return {
    kind: subject.kind, subjectId: subject.id, userId: subject.userId, asset: subject.currency, scale: subject.scale,
    amountAtomic: subject.amount, valuation: await valueForDualControl(db, subject.currency, subject.scale, subject.amount, now),
  };
}

/** A first count when the user files a request (no operator yet), for the back office's list. */
export async function approvalsRequiredFor(db: Executor, subject: Omit<ApprovalSubject, 'id' | 'approvalsRequired'>, now: Date): Promise<1 | 2> {
  return (await assessDualControl(db, await ruleSubject(db, { ...subject, id: 0n }, now), null, now)).approvalsRequired;
}

/** Where deposits' and withdrawals' approvals are kept. */
function approvalStore(tx: Tx, kind: ApprovalKind, id: bigint): ApprovalStore {
  return {
    insert: async (operatorId, now) => {
      const added = kind === 'deposit'
        ? await tx.insert(rechargeApprovals).values({ rechargeId: id, operatorId, createdAt: now }).onConflictDoNothing()
          .returning({ operatorId: rechargeApprovals.operatorId })
        : await tx.insert(withdrawalApprovals).values({ withdrawalId: id, operatorId, createdAt: now }).onConflictDoNothing()
          .returning({ operatorId: withdrawalApprovals.operatorId });
      return added.length === 1;
    },
    approvers: async () => {
      const rows = kind === 'deposit'
        ? await tx.select({ operatorId: rechargeApprovals.operatorId }).from(rechargeApprovals).where(eq(rechargeApprovals.rechargeId, id))
        : await tx.select({ operatorId: withdrawalApprovals.operatorId }).from(withdrawalApprovals).where(eq(withdrawalApprovals.withdrawalId, id));
      return rows.map((row) => row.operatorId);
    },
  };
}

/**
 * Records one operator's approval of a request whose row the caller has locked (and checked
 * undecided), through the one rule (ledger/dualControl.ts approveUnderDualControl), with the
 * user's row locked first as every write to the user's money does. The same operator twice is
 * refused (deposit_approved_by_you, withdrawal_approved_by_you) and, thrown inside the caller's
 * transaction, changes nothing.
 */
export async function addApproval(tx: Tx, subject: ApprovalSubject, operatorId: bigint, now: Date): Promise<ApprovalOutcome> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, subject.userId)).for('update');
  const rule = await ruleSubject(tx, subject, now);
  const outcome = await approveUnderDualControl(tx, rule, subject.approvalsRequired, operatorId, approvalStore(tx, subject.kind, subject.id), now);
  if (!outcome) {
    const what = subject.kind === 'deposit' ? 'deposit' : 'withdrawal';
    throw conflict(`${subject.kind}_approved_by_you`, `You have approved this ${what} already; a second operator must approve it.`);
  }
  return outcome;
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
