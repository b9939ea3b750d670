// Withdrawal requests and their review. Money moves only through the ledger's two-phase
// transfers: a request reserves amount + fee at once with a PENDING transfer from the user's spot
// account to withdrawal clearing (the balance limit, checked under the account's row lock, is
// what stops fifty requests at once from overdrawing); a rejection or a failed payout voids it
// (the money is back); a payout posts it and moves the fee on from clearing to the fees account
// in the same batch. Every operator decision locks the request's row, refuses a decided request
// before anything moves, and is audited in the same transaction. Two different operators approve
// once the user's withdrawals approved in the last 24 hours plus this one pass the currency's
// threshold (approvals.ts, shared with deposits).
import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { AdminWithdrawal, Withdrawal, WithdrawalApplyBody, WithdrawalStatus } from '../../../../src/api/contract/withdrawals.ts';
import { users, withdrawals } from '../../../db/schema.ts';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import type { Clock } from '../../../lib/time.ts';
import { AppError, assert, badRequest, conflict, notFound } from '../../../lib/errors.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import { systemAccountId, userAccountId } from '../../kernel/ledger/accounts.ts';
import { postTransfers } from '../../kernel/ledger/transfers.ts';
import type { TransferRequest } from '../../kernel/ledger/rules.ts';
import { recordAudit } from '../../kernel/audit.ts';
import type { AccountDeps } from '../identity/contacts.ts';
import { loadCurrency, parseUserAmount, requireNetwork } from './currencies.ts';
import { addApproval, approvalsOf, approvalsRequiredFor } from './approvals.ts';
import { voidDualControlDecision } from '../../kernel/ledger/dualControl.ts';
import { destinationNotFound, findOwnDestination, hasDestination, maskCardNumber } from './destinations.ts';
import { checkWithdrawPassword, hasWithdrawPassword, refuseIfLoginPassword } from './withdrawPassword.ts';
import { checkWithdrawalLimit } from './withdrawalLimit.ts';
import { requireGoogleCode } from '../identity/twoFactor.ts';
import { writeMessage, type WrittenMessage } from '../../kernel/messages.ts';

/** The network of a bank payout: withdrawals to cards are offered for a currency once an operator adds it. */
export const bankNetwork = 'BANK';

export const withdrawalStatus = { underReview: 0, rejected: -1, paidOut: 2, failed: -2 } as const;

const reference = (id: bigint) => `withdrawal:${id}`;
/** The shard key of the clearing account: the same for a request's hold and its fee transfer. */
const clearingKey = (userId: bigint) => `user:${userId}`;

type WithdrawalRow = typeof withdrawals.$inferSelect;

/**
 * Checks, cheapest first and the password last (argon2 and a guess of the throttle are spent only
 * on an otherwise valid request): something bound and a password set (each says what to set),
 * the currency, the amount, the destination (the user's own, for this currency), the network's
 * terms and minimum. Then one transaction records the request and reserves amount + fee.
 */
export async function applyWithdrawal(deps: AccountDeps, userId: bigint, body: WithdrawalApplyBody): Promise<Withdrawal> {
  const { db, clock } = deps;
  if (!(await hasDestination(db, userId))) {
    throw new AppError(400, 'destination_required', 'Please bind a bank card or a wallet address before withdrawing.',
      { setPath: '/user/appUserWithdrawalInfoSet/addAccount' });
  }
  if (!(await hasWithdrawPassword(db, userId))) {
    throw new AppError(400, 'withdraw_password_required', 'Please set a withdrawal password before withdrawing.',
      { setPath: '/user/appUser/setWithdrawPassword' });
  }
  const currency = await loadCurrency(db, body.currency);
  if (!currency || !currency.enabled) throw notFound('currency_unknown', `The currency ${body.currency} is not offered.`);
  const amount = parseUserAmount(body.amount, currency.scale);
  const destination = await findOwnDestination(db, userId, BigInt(body.withdrawalInfoId));
  if (!destination) throw destinationNotFound();
  if (destination.type === 'chain' && destination.currency !== currency.code) {
    throw badRequest('destination_currency_mismatch', `This address is for ${destination.currency}, not ${currency.code}.`);
  }
  const networkCode = destination.type === 'chain' ? destination.network! : bankNetwork;
  const { network } = await requireNetwork(db, currency.code, networkCode);
  if (!network.withdrawalEnabled) {
    throw badRequest('withdrawal_unavailable', `Withdrawals of ${currency.code} on ${networkCode} are not available at the moment.`);
  }
  if (amount < network.withdrawalMin) {
    const minimum = formatAmount(network.withdrawalMin, currency.scale);
    throw new AppError(400, 'amount_below_minimum', `The minimum withdrawal is ${minimum} ${currency.code}.`, { minimum });
  }
  const fee = network.withdrawalFee;
  // What the user had approved in the last 24 hours counts with this amount; each approval counts again.
  const approvalsRequired = await approvalsRequiredFor(db, { kind: 'withdrawal', userId, currency: currency.code, scale: currency.scale, amount }, clock.now());
  await checkWithdrawPassword(deps, userId, body.withdrawPassword);
  await refuseIfLoginPassword(db, userId, body.withdrawPassword);
  // Last, as it uses the code up: a wrong withdrawal password does not cost the user their code.
  await requireGoogleCode(deps, userId, body.googleCode);
  const holdTransferId = `withdrawal-hold-${randomBytes(12).toString('hex')}`;
  const row = await db.transaction(async (tx) => {
    // The daily limit of the user's verification level (KYC), counted under the user's row lock.
    await checkWithdrawalLimit(tx, userId, currency.code, currency.scale, amount, clock);
    const [inserted] = await tx.insert(withdrawals).values({
      userId, currency: currency.code, network: networkCode, amount, fee, destinationId: destination.id,
      destinationType: destination.type, bankName: destination.bankName, realName: destination.realName,
      cardNumber: destination.cardNumber, address: destination.address, holdTransferId, approvalsRequired,
      createdAt: clock.now(),
    }).returning();
    const result = await postTransfers(tx, [{
      id: holdTransferId, pending: true, kind: 'withdrawal', reference: reference(inserted.id), amountAtomic: amount + fee,
      debitAccountId: await userAccountId(tx, userId, currency.code, 'spot'),
      creditAccountId: await systemAccountId(tx, currency.code, 'withdrawal_clearing', clearingKey(userId)),
    }], clock);
    if (!result.ok) {
      if (result.refusal === 'exceeds_credits') {
        throw new AppError(400, 'balance_insufficient', `The balance does not cover ${formatAmount(amount + fee, currency.scale)} ${currency.code} (the amount and the fee).`,
          { fee: formatAmount(fee, currency.scale) });
      }
      if (result.refusal === 'amount_exceeds_asset_limit') throw badRequest('amount_too_large', 'The amount is too large.');
      throw new Error(`withdrawal hold refused: ${result.refusal}`);
    }
    return inserted;
  });
  return toWithdrawal(row, currency.scale);
}

function toWithdrawal(row: WithdrawalRow, digits: number): Withdrawal {
  return {
    id: row.id.toString(), currency: row.currency, network: row.network,
    amount: formatAmount(row.amount, digits), fee: formatAmount(row.fee, digits), total: formatAmount(row.amount + row.fee, digits),
    status: row.status as WithdrawalStatus, reason: row.reason, payoutReference: row.payoutReference,
    destination: {
      type: row.destinationType as 'bank' | 'chain', bankName: row.bankName, realName: row.realName,
      cardNumber: maskCardNumber(row.cardNumber), address: row.address,
    },
    createTime: row.createdAt.getTime(), decideTime: row.decidedAt?.getTime() ?? null,
  };
}

/** Scales of the currencies rows name, to format their amounts. */
async function scalesOf(db: Executor, codes: string[]): Promise<Map<string, number>> {
  const scales = new Map<string, number>();
  for (const code of new Set(codes)) {
    const currency = await loadCurrency(db, code);
    if (currency) scales.set(code, currency.scale);
  }
  return scales;
}

export interface WithdrawalQuery { pageNo?: number; pageSize?: number; status?: number }

function page(query: WithdrawalQuery) {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 10;
  return { pageNo, pageSize, offset: (pageNo - 1) * pageSize };
}

async function formatRows(db: Executor, rows: WithdrawalRow[]) {
  const scales = await scalesOf(db, rows.map((row) => row.currency));
  return rows.map((row) => {
    const scale = scales.get(row.currency);
    assert(scale !== undefined, `currency ${row.currency} of withdrawal ${row.id} is known`);
    return toWithdrawal(row, scale);
  });
}

/** The user's own requests, newest first, with outcome and reason. */
export async function listMyWithdrawals(db: Executor, userId: bigint, query: WithdrawalQuery) {
  const { pageNo, pageSize, offset } = page(query);
  const conditions: SQL[] = [eq(withdrawals.userId, userId)];
  if (query.status !== undefined) conditions.push(eq(withdrawals.status, query.status));
  const [{ total }] = await db.select({ total: count() }).from(withdrawals).where(and(...conditions));
  const rows = await db.select().from(withdrawals).where(and(...conditions)).orderBy(desc(withdrawals.id))
    .limit(pageSize).offset(offset);
  return { records: await formatRows(db, rows), total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
}

/** Every request for operators, newest first, with the user's account and the approvals so far. */
export async function listWithdrawals(db: Executor, query: WithdrawalQuery) {
  const { pageNo, pageSize, offset } = page(query);
  const where = query.status === undefined ? undefined : eq(withdrawals.status, query.status);
  const [{ total }] = await db.select({ total: count() }).from(withdrawals).where(where);
  const rows = await db.select().from(withdrawals).where(where).orderBy(desc(withdrawals.id)).limit(pageSize).offset(offset);
  return { records: await toAdminRecords(db, rows), total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
}

async function toAdminRecords(db: Executor, rows: WithdrawalRow[]): Promise<AdminWithdrawal[]> {
  if (rows.length === 0) return [];
  const formatted = await formatRows(db, rows);
  const approvals = await approvalsOf(db, 'withdrawal', rows.map((row) => row.id));
  const owners = await db.select({ id: users.id, email: users.email, phone: users.phone, code: users.phoneCountryCode, username: users.username })
    .from(users).where(inArray(users.id, [...new Set(rows.map((row) => row.userId))]));
  const accountOf = new Map(owners.map((owner) => [owner.id, owner.email ?? (owner.phone ? `+${owner.code} ${owner.phone}` : owner.username ?? '')]));
  return rows.map((row, index) => ({
    ...formatted[index], userId: row.userId.toString(), account: accountOf.get(row.userId) ?? '', cardNumber: row.cardNumber,
    approvalsRequired: row.approvalsRequired,
    approvals: approvals.get(row.id) ?? [],
    approvedTime: row.approvedAt?.getTime() ?? null,
  }));
}

export type Decision =
  | { action: 'approve' }
  | { action: 'reject'; reason: string }
  | { action: 'paid'; reference: string }
  | { action: 'failed'; reason: string };

/**
 * An operator's decision on a request, in one transaction with its ledger batch and its audit
 * record. The row lock orders decisions on one request; a request already decided, a second
 * approval by the same operator, or a payout before enough approvals is refused and moves nothing.
 */
export async function decideWithdrawal(db: Db, clock: Clock, operatorId: bigint, id: bigint, decision: Decision,
  messages?: WrittenMessage[], balanceMoved?: (userId: bigint) => void): Promise<AdminWithdrawal> {
  const row = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).for('update');
    if (!before) throw notFound('withdrawal_not_found', 'This withdrawal was not found.');
    if (before.status !== withdrawalStatus.underReview) {
      throw conflict('record_already_decided', 'This withdrawal has been decided already.');
    }
    const now = clock.now();
    let after: WithdrawalRow;
    if (decision.action === 'approve') {
      after = await approve(tx, before, operatorId, now);
    } else if (decision.action === 'reject') {
      await resolveHold(tx, clock, before, 'void', decision.reason);
      await voidDualControlDecision(tx, 'withdrawal', before.id, now);
      after = await settle(tx, before, { status: withdrawalStatus.rejected, reason: decision.reason }, operatorId, now);
    } else {
      if (before.approvedAt === null) {
        throw conflict('withdrawal_not_approved', `This withdrawal needs ${before.approvalsRequired} operators' approval before it is paid out or failed.`);
      }
      if (decision.action === 'paid') {
        await resolveHold(tx, clock, before, 'post');
        after = await settle(tx, before, { status: withdrawalStatus.paidOut, payoutReference: decision.reference }, operatorId, now);
      } else {
        await resolveHold(tx, clock, before, 'void', decision.reason);
        // The money came back: the approval no longer counts toward the two-operator windows.
        await voidDualControlDecision(tx, 'withdrawal', before.id, now);
        after = await settle(tx, before, { status: withdrawalStatus.failed, reason: decision.reason }, operatorId, now);
      }
    }
    // The user hears of a payout, a rejection or a failed payout (issue 21), in this transaction.
    if (decision.action !== 'approve') {
      const scale = (await loadCurrency(tx, before.currency))?.scale;
      assert(scale !== undefined, `currency ${before.currency} of withdrawal ${before.id} is known`);
      const message = await writeMessage(tx, {
        userId: before.userId, kind: decision.action === 'paid' ? 'withdrawal_paid' : 'withdrawal_rejected', category: 'money',
        route: '/chongzhitixianRecord',
        params: {
          id: String(before.id), amount: formatAmount(before.amount, scale), fee: formatAmount(before.fee, scale),
          currency: before.currency, network: before.network,
          ...(decision.action === 'paid' ? {} : { reason: decision.reason, status: decision.action === 'failed' ? 'failed' : 'rejected' }),
        },
        dedupeKey: `withdrawal:${before.id}:${decision.action}`,
      }, now);
      if (message) messages?.push(message);
    }
    await recordAudit(tx, {
      operatorId, action: `withdrawal.${decision.action}`, targetType: 'withdrawal', targetId: id, userId: before.userId,
      before: auditState(before), after: auditState(after),
      reason: decision.action === 'reject' || decision.action === 'failed' ? decision.reason : decision.action === 'paid' ? decision.reference : null,
    }, clock);
    return after;
  });
  const [record] = await toAdminRecords(db, [row]);
  // A withdrawal paid out may lower the user's VIP level: re-checked after commit, without waiting.
  if (decision.action === 'paid') balanceMoved?.(row.userId);
  return record;
}

const auditState = (row: WithdrawalRow) => ({
  status: row.status, amount: row.amount, fee: row.fee, currency: row.currency, network: row.network,
  approvalsRequired: row.approvalsRequired, approvedAt: row.approvedAt, reason: row.reason, payoutReference: row.payoutReference,
});

async function approve(tx: Tx, before: WithdrawalRow, operatorId: bigint, now: Date): Promise<WithdrawalRow> {
  if (before.approvedAt !== null) {
    throw conflict('withdrawal_fully_approved', 'This withdrawal is approved already; it can now be marked paid or failed.');
  }
  const scale = (await loadCurrency(tx, before.currency))?.scale;
  assert(scale !== undefined, `currency ${before.currency} of withdrawal ${before.id} is known`);
  const outcome = await addApproval(tx, {
    kind: 'withdrawal', id: before.id, userId: before.userId, currency: before.currency, scale, amount: before.amount,
    approvalsRequired: before.approvalsRequired,
  }, operatorId, now);
  if (!outcome.reached && outcome.approvalsRequired === before.approvalsRequired) return before;
  const [after] = await tx.update(withdrawals)
    .set({ approvalsRequired: outcome.approvalsRequired, ...(outcome.reached ? { approvedAt: now } : {}) })
    .where(eq(withdrawals.id, before.id)).returning();
  return after;
}

async function settle(tx: Tx, before: WithdrawalRow, change: Partial<WithdrawalRow>, operatorId: bigint, now: Date) {
  const [after] = await tx.update(withdrawals).set({ ...change, decidedAt: now, decidedBy: operatorId })
    .where(eq(withdrawals.id, before.id)).returning();
  return after;
}

/**
 * Voids the hold (the money is back in spot), or posts it and moves the fee from clearing to the
 * fees account, as one batch. The row's state was checked under its lock, so a refusal here is
 * a bug, not a user error.
 */
async function resolveHold(tx: Tx, clock: Clock, row: WithdrawalRow, action: 'post' | 'void', remark?: string) {
  const batch: TransferRequest[] = action === 'void'
    ? [{ id: `${row.holdTransferId}-void`, pendingId: row.holdTransferId, action: 'void', remark }]
    : [{ id: `${row.holdTransferId}-post`, pendingId: row.holdTransferId, action: 'post' }];
  if (action === 'post' && row.fee > 0n) {
    batch.push({
      id: `${row.holdTransferId}-fee`, kind: 'withdrawal_fee', reference: reference(row.id), amountAtomic: row.fee,
      debitAccountId: await systemAccountId(tx, row.currency, 'withdrawal_clearing', clearingKey(row.userId)),
      creditAccountId: await systemAccountId(tx, row.currency, 'fees', reference(row.id)),
    });
  }
  const result = await postTransfers(tx, batch, clock);
  assert(result.ok, `withdrawal ${row.id} ${action}: ${result.ok ? '' : result.refusal}`);
}

