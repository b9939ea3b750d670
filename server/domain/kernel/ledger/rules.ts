// The transfer rules, pure: given the locked accounts and the pending transfers a batch refers
// to, apply the batch in order or name the first transfer that breaks a rule and why. No I/O
// here; transfers.ts loads the state under row locks and writes the outcome. The refusals are
// listed in the order they are checked (TigerBeetle's habit), so a transfer that breaks several
// rules always gets the same answer.
import type { ledgerTransfers } from '../../../db/schema.ts';
import { assert } from '../../../lib/errors.ts';
import { atomicMax } from './amounts.ts';
import { entryHash, transferEncoding, type HashedTransfer } from './chain.ts';

/**
 * What a transfer is for, shown to the user as the entry's type. Later features add theirs here;
 * the column is text, so a new kind needs no migration.
 */
export const transferKinds = [
  'deposit', 'withdrawal', 'withdrawal_fee', 'correction', 'demo_grant',
  // Trading (issue 10): margin held and released, fees, profit or loss against the house, second
  // contracts' stakes and payouts, swaps and their fees, a demo account's reset.
  'trade_margin', 'trade_fee', 'trade_pnl', 'second_stake', 'second_payout', 'swap', 'swap_fee', 'demo_reset',
  // Products and loans (issue 22): a reserve funded by operators, principal held and returned,
  // returns paid from the reserve, early-redemption costs, machine rentals, bond refunds; loans
  // paid out, their interest and penalties, repayments, collateral locked, released and liquidated.
  'reserve_funding', 'product_purchase', 'product_principal', 'product_interest', 'product_redeem_fee', 'miner_purchase',
  'mining_output', 'bond_refund', 'loan_disbursal', 'loan_interest', 'loan_penalty', 'loan_repayment', 'collateral_lock',
  'collateral_release', 'collateral_liquidation', 'liquidation_proceeds', 'liquidation_fee',
  // Issue 23: reward and prize pools funded by operators; competition entry funds in and out and
  // prizes; IEO payments and token allocations; welfare rewards, VIP bonuses, red envelopes and
  // team income.
  'reward_funding', 'competition_entry', 'competition_return', 'competition_prize', 'ieo_payment', 'ieo_allocation',
  'welfare_reward', 'vip_bonus', 'red_envelope', 'team_commission',
] as const;
export type TransferKind = (typeof transferKinds)[number];

/** Why a batch was refused, in the order the rules are checked. */
export const transferRefusals = [
  'id_invalid', // empty, longer than 64, or a character outside A-Z a-z 0-9 : . _ -
  'id_duplicated_in_batch',
  'kind_invalid',
  'reference_invalid', // empty, longer than 64, or a control character
  'remark_too_long',
  'amount_must_be_positive',
  'accounts_must_be_different',
  'exists_with_different_fields', // the id was used before, for a different transfer
  'debit_account_not_found',
  'credit_account_not_found',
  'pending_transfer_not_found',
  'pending_transfer_not_pending',
  'pending_transfer_already_posted',
  'pending_transfer_already_voided',
  'ledgers_must_match', // a demo account and a real one
  'assets_must_match',
  'amount_exceeds_asset_limit',
  'amount_exceeds_pending_amount',
  'exceeds_credits', // the debit account would be spent below zero: insufficient balance
  'exceeds_debits', // the credit account would be repaid beyond what it owes
  'overflow', // a running total would pass NUMERIC(38,0)
] as const;
export type TransferRefusal = (typeof transferRefusals)[number];

/** A new transfer: posted at once, or pending (reserved until posted or voided). */
export interface NewTransferRequest {
  id: string;
  debitAccountId: bigint;
  creditAccountId: bigint;
  amountAtomic: bigint;
  kind: TransferKind;
  reference: string;
  remark?: string;
  pending?: boolean;
}

/**
 * Resolves a pending transfer, once: post moves the amount (all of it, or less with the rest
 * released), void releases all of it. Accounts, kind and reference are the pending transfer's.
 */
export type ResolveRequest =
  | { id: string; pendingId: string; action: 'post'; amountAtomic?: bigint; remark?: string }
  | { id: string; pendingId: string; action: 'void'; remark?: string };

export type TransferRequest = NewTransferRequest | ResolveRequest;
export const isResolve = (request: TransferRequest): request is ResolveRequest => 'pendingId' in request;

export type TransferRow = typeof ledgerTransfers.$inferSelect;

/** What postTransfers answers a batch: its transfers (stored now, or before: replayed) or the first refusal. */
export type PostResult =
  | { ok: true; replayed: boolean; transfers: TransferRow[] }
  | { ok: false; index: number; refusal: TransferRefusal };
export type NewTransferRow = Omit<TransferRow, 'seq'>;

/** A locked account row with the ceiling of its asset, updated in place as the batch applies. */
export interface AccountState {
  id: bigint;
  ledger: number;
  asset: string;
  debitsMustNotExceedCredits: boolean;
  creditsMustNotExceedDebits: boolean;
  debitsPending: bigint;
  debitsPosted: bigint;
  creditsPending: bigint;
  creditsPosted: bigint;
  entryCount: bigint;
  chainHead: string;
  transferAmountMax: bigint;
}

/** A pending transfer a resolution in the batch refers to (stored, or earlier in the batch). */
export type PendingTransfer = Pick<TransferRow,
  'id' | 'ledger' | 'asset' | 'debitAccountId' | 'creditAccountId' | 'amount' | 'kind' | 'phase' | 'reference'>;

export interface BatchContext {
  accounts: Map<bigint, AccountState>;
  pendings: Map<string, PendingTransfer>;
  /** How each pending transfer of `pendings` was resolved already, if it was. */
  resolutions: Map<string, 'post' | 'void'>;
  now: Date;
}

export type BatchOutcome =
  | { ok: true; rows: NewTransferRow[] }
  | { ok: false; index: number; refusal: TransferRefusal };

const idPattern = /^[A-Za-z0-9:._-]{1,64}$/;
const controlCharacters = /[\u0000-\u001f\u007f]/;
export const remarkLengthMax = 200;

/** The rules a transfer can be checked against without looking at any account. */
export function shapeRefusal(request: TransferRequest): TransferRefusal | undefined {
  if (typeof request.id !== 'string' || !idPattern.test(request.id)) return 'id_invalid';
  const resolve = isResolve(request);
  if (!resolve) {
    if (!(transferKinds as readonly string[]).includes(request.kind)) return 'kind_invalid';
    if (!validReference(request.reference)) return 'reference_invalid';
  }
  if (request.remark !== undefined && request.remark.length > remarkLengthMax) return 'remark_too_long';
  // A new transfer names its amount; a post may leave it out (all of the pending amount).
  const amount = resolve ? (request.action === 'post' ? request.amountAtomic : undefined) : request.amountAtomic;
  if ((!resolve || amount !== undefined) && (typeof amount !== 'bigint' || amount <= 0n)) return 'amount_must_be_positive';
  if (!resolve && request.debitAccountId === request.creditAccountId) return 'accounts_must_be_different';
  return undefined;
}

const validReference = (reference: unknown) => typeof reference === 'string' && reference.length >= 1
  && reference.length <= 64 && !controlCharacters.test(reference);

/** The first shape refusal of a batch, duplicate ids included, or undefined. */
export function batchShapeRefusal(batch: readonly TransferRequest[]): { index: number; refusal: TransferRefusal } | undefined {
  const seen = new Set<string>();
  for (const [index, request] of batch.entries()) {
    const refusal = shapeRefusal(request);
    if (refusal) return { index, refusal };
    if (seen.has(request.id)) return { index, refusal: 'id_duplicated_in_batch' };
    seen.add(request.id);
  }
  return undefined;
}

/**
 * Applies the batch in order to the context's accounts (mutating them) and returns the rows to
 * insert, or the first refusal; on a refusal the context is left half-applied and is discarded.
 */
export function applyBatch(batch: readonly TransferRequest[], context: BatchContext): BatchOutcome {
  const rows: NewTransferRow[] = [];
  for (const [index, request] of batch.entries()) {
    const outcome = isResolve(request) ? resolvePending(request, context) : applyNew(request, context);
    if (typeof outcome === 'string') return { ok: false, index, refusal: outcome };
    rows.push(outcome);
  }
  return { ok: true, rows };
}

function accountPair(context: BatchContext, debitId: bigint, creditId: bigint) {
  const debit = context.accounts.get(debitId);
  if (!debit) return 'debit_account_not_found' as const;
  const credit = context.accounts.get(creditId);
  if (!credit) return 'credit_account_not_found' as const;
  if (debit.ledger !== credit.ledger) return 'ledgers_must_match' as const;
  if (debit.asset !== credit.asset) return 'assets_must_match' as const;
  return { debit, credit };
}

function applyNew(request: NewTransferRequest, context: BatchContext): NewTransferRow | TransferRefusal {
  const pair = accountPair(context, request.debitAccountId, request.creditAccountId);
  if (typeof pair === 'string') return pair;
  const { debit, credit } = pair;
  const amount = request.amountAtomic;
  if (amount > debit.transferAmountMax) return 'amount_exceeds_asset_limit';
  if (debit.debitsMustNotExceedCredits && debit.debitsPending + debit.debitsPosted + amount > debit.creditsPosted) {
    return 'exceeds_credits';
  }
  if (credit.creditsMustNotExceedDebits && credit.creditsPending + credit.creditsPosted + amount > credit.debitsPosted) {
    return 'exceeds_debits';
  }
  const pending = request.pending === true;
  const debitTotal = pending ? debit.debitsPending + amount : debit.debitsPosted + amount;
  const creditTotal = pending ? credit.creditsPending + amount : credit.creditsPosted + amount;
  if (debitTotal > atomicMax || creditTotal > atomicMax) return 'overflow';
  if (pending) {
    debit.debitsPending = debitTotal;
    credit.creditsPending = creditTotal;
  } else {
    debit.debitsPosted = debitTotal;
    credit.creditsPosted = creditTotal;
  }
  const row = chainEntries(debit, credit, {
    id: request.id, ledger: debit.ledger, asset: debit.asset, debitAccountId: debit.id, creditAccountId: credit.id,
    amount, kind: request.kind, phase: pending ? 'pending' : 'single', pendingId: null, reference: request.reference,
    remark: request.remark ?? null, createdAt: context.now,
  });
  if (pending) context.pendings.set(row.id, row);
  return row;
}

function resolvePending(request: ResolveRequest, context: BatchContext): NewTransferRow | TransferRefusal {
  const pending = context.pendings.get(request.pendingId);
  if (!pending) return 'pending_transfer_not_found';
  if (pending.phase !== 'pending') return 'pending_transfer_not_pending';
  const resolution = context.resolutions.get(pending.id);
  if (resolution === 'post') return 'pending_transfer_already_posted';
  if (resolution === 'void') return 'pending_transfer_already_voided';
  const pair = accountPair(context, pending.debitAccountId, pending.creditAccountId);
  // A stored pending transfer's accounts exist (foreign keys) and were locked with the batch's.
  assert(typeof pair !== 'string', `the accounts of pending transfer ${pending.id} are locked`);
  const { debit, credit } = pair;
  const postAmount = request.action === 'post' ? request.amountAtomic ?? pending.amount : 0n;
  if (postAmount > pending.amount) return 'amount_exceeds_pending_amount';
  assert(debit.debitsPending >= pending.amount && credit.creditsPending >= pending.amount,
    `pending transfer ${pending.id} is reserved on its accounts`);
  const debitPosted = debit.debitsPosted + postAmount;
  const creditPosted = credit.creditsPosted + postAmount;
  if (debitPosted > atomicMax || creditPosted > atomicMax) return 'overflow';
  debit.debitsPending -= pending.amount;
  credit.creditsPending -= pending.amount;
  debit.debitsPosted = debitPosted;
  credit.creditsPosted = creditPosted;
  context.resolutions.set(pending.id, request.action);
  return chainEntries(debit, credit, {
    id: request.id, ledger: pending.ledger, asset: pending.asset, debitAccountId: debit.id, creditAccountId: credit.id,
    amount: request.action === 'post' ? postAmount : pending.amount, kind: pending.kind, phase: request.action,
    pendingId: pending.id, reference: pending.reference, remark: request.remark ?? null, createdAt: context.now,
  });
}

/** Appends the transfer to both accounts' chains (their balances already updated). */
function chainEntries(debit: AccountState, credit: AccountState, transfer: HashedTransfer): NewTransferRow {
  // Written out for both sides rather than mapped over them: this runs for every transfer posted.
  const encoded = transferEncoding(transfer);
  debit.entryCount += 1n;
  const debitBalanceAfter = debit.creditsPosted - debit.debitsPosted;
  debit.chainHead = entryHash(debit.chainHead,
    { accountId: debit.id, side: 'debit', entryNo: debit.entryCount, balanceAfter: debitBalanceAfter }, transfer, encoded);
  credit.entryCount += 1n;
  const creditBalanceAfter = credit.creditsPosted - credit.debitsPosted;
  credit.chainHead = entryHash(credit.chainHead,
    { accountId: credit.id, side: 'credit', entryNo: credit.entryCount, balanceAfter: creditBalanceAfter }, transfer, encoded);
  return {
    id: transfer.id, ledger: transfer.ledger, asset: transfer.asset, debitAccountId: transfer.debitAccountId,
    creditAccountId: transfer.creditAccountId, amount: transfer.amount, kind: transfer.kind, phase: transfer.phase,
    pendingId: transfer.pendingId, reference: transfer.reference, remark: transfer.remark, createdAt: transfer.createdAt,
    debitEntryNo: debit.entryCount, creditEntryNo: credit.entryCount, debitBalanceAfter, creditBalanceAfter,
    debitChainHash: debit.chainHead, creditChainHash: credit.chainHead,
  };
}

/** Whether a stored transfer is the one `request` asks for (a retry), field by field. */
export function sameTransfer(request: TransferRequest, stored: TransferRow): boolean {
  if ((request.remark ?? null) !== stored.remark) return false;
  if (isResolve(request)) {
    const amountMatches = request.action === 'void' || request.amountAtomic === undefined || request.amountAtomic === stored.amount;
    return stored.pendingId === request.pendingId && stored.phase === request.action && amountMatches;
  }
  return stored.phase === (request.pending === true ? 'pending' : 'single') && stored.pendingId === null
    && stored.debitAccountId === request.debitAccountId && stored.creditAccountId === request.creditAccountId
    && stored.amount === request.amountAtomic && stored.kind === request.kind && stored.reference === request.reference;
}
