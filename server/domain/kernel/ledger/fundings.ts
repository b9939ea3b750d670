// One funding mechanism (issues 33 and 38): house money into a system account — a product's
// reserve, the rewards pool, the prize pool — requested by one operator and approved under the one
// two-operator rule (dualControl.ts). The request is its requester's approval; up to the threshold
// (with the requester's own last 24 hours of decisions alone, in USDT) it moves at once, above it
// it waits for a second, different operator. Each kind keeps its request rows where it always
// has (products' and rewards' tables, so their wire stays as it was) and hands this module an
// ApprovalStore over them; the money moves here, once, with an id derived from the request.
import type { Tx } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import { parseAmount } from './amounts.ts';
import { openAccounts, systemShard, type SystemAccountKind } from './accounts.ts';
import { approveUnderDualControl, type ApprovalOutcome, type ApprovalStore, type Valuation } from './dualControl.ts';
import type { TransferKind } from './rules.ts';
import { postTransfers } from './transfers.ts';

export interface HouseFunding {
  kind: 'reserve_funding' | 'pool_funding';
  /** The request's id in its kind's table. */
  fundingId: bigint;
  asset: string;
  scale: number;
  amountAtomic: bigint;
  valuation: Valuation;
  /** The account funded, sharded by `shardKey`. */
  accountKind: SystemAccountKind;
  shardKey: string;
  /** Derived from the request: the ledger never posts it twice. */
  transferId: string;
  transferKind: TransferKind;
  reference: string;
  remark: string;
}

/** Parses an operator's funding amount in the asset's scale: positive, at most `scale` decimals. */
export function parseFundingAmount(text: string, scale: number): bigint {
  const parsed = parseAmount(text, scale);
  if (!parsed.ok) throw new AppError(400, parsed.refusal, `Please enter the amount as a plain number with at most ${scale} decimals.`, { scale });
  if (parsed.atomic <= 0n) throw new AppError(400, 'amount_not_positive', 'Please enter an amount above zero.');
  return parsed.atomic;
}

const ruleSubject = (funding: HouseFunding) => ({
  kind: funding.kind, subjectId: funding.fundingId, userId: null, asset: funding.asset, scale: funding.scale,
  amountAtomic: funding.amountAtomic, valuation: funding.valuation,
});

/**
 * An operator's approval of a funding the caller has locked and checked pending — the first one is
 * the request itself (`approvalsRequiredBefore` 1). Answers null when this operator had approved
 * already. When the approval completes it, the money moves in the same transaction.
 */
export async function approveHouseFunding(tx: Tx, funding: HouseFunding, approvalsRequiredBefore: number, operatorId: bigint,
  store: ApprovalStore, now: Date): Promise<ApprovalOutcome | null> {
  const outcome = await approveUnderDualControl(tx, ruleSubject(funding), approvalsRequiredBefore, operatorId, store, now);
  if (outcome?.reached) await postHouseFunding(tx, funding, now);
  return outcome;
}

/** Moves the funding's amount from the house into its account. */
async function postHouseFunding(tx: Tx, funding: HouseFunding, now: Date): Promise<void> {
  const shard = systemShard(funding.shardKey);
  const [house, target] = await openAccounts(tx, [
    { ledger: 'real', asset: funding.asset, kind: 'house', shard },
    { ledger: 'real', asset: funding.asset, kind: funding.accountKind, shard },
  ]);
  const result = await postTransfers(tx, [{
    id: funding.transferId, kind: funding.transferKind, reference: funding.reference, amountAtomic: funding.amountAtomic,
    debitAccountId: house, creditAccountId: target, remark: funding.remark,
  }], { now: () => now });
  if (!result.ok) throw new Error(`${funding.kind} ${funding.fundingId} refused by the ledger: ${result.refusal}`);
}
