// The refusals of products, jobs, loans and levels (contract/investErrors.ts) as the back office
// words them, before the general ones (admin/errors.ts); and the checks the forms make before
// sending, so an operator reads what is wrong in their language first (the server checks again).
import { msg } from '@lingui/core/macro';
import { i18n, type MessageDescriptor } from '@lingui/core';
import type { loanErrorCodes, productErrorCodes } from '../../../api/contract/investErrors.ts';
import { failureCode, failureMessage } from '../../errors.ts';

type InvestCode = (typeof productErrorCodes)[number] | (typeof loanErrorCodes)[number] | 'vip_levels_not_increasing' | 'level_not_found';

const investMessages: Partial<Record<InvestCode, MessageDescriptor>> = {
  product_not_found: msg`This product no longer exists.`,
  product_not_open: msg`This product is not on sale.`,
  product_sold_out: msg`The reserve does not cover what this would promise: the product is sold out.`,
  product_level_required: msg`The user's VIP level is below this product's.`,
  product_amount_out_of_range: msg`The amount is outside the product's limits.`,
  product_user_cap: msg`This is more than one user may hold in this product.`,
  product_wrong_kind: msg`This is not possible for this kind of product.`,
  product_kyc_required: msg`The user's verification level does not open products.`,
  order_not_found: msg`This order no longer exists.`,
  order_not_redeemable: msg`This order cannot be redeemed early.`,
  funding_not_found: msg`This funding no longer exists or was already decided.`,
  funding_approved_by_you: msg`You have already approved this funding: a second, different operator must approve it.`,
  job_unknown: msg`There is no such job.`,
  job_running: msg`This job is running now. Wait for it to finish and refresh.`,
  loan_setting_not_found: msg`This loan offer no longer exists.`,
  loan_disabled: msg`This loan offer is switched off.`,
  loan_amount_out_of_range: msg`The amount is outside the offer's limits.`,
  loan_days_out_of_range: msg`The term is outside the offer's limits.`,
  loan_over_limit: msg`This is above the user's credit limit.`,
  loan_already_open: msg`The user already has an open loan of this type.`,
  loan_terms_changed: msg`The terms changed since the user signed them.`,
  signature_invalid: msg`The signature is missing or not valid.`,
  collateral_unsupported: msg`This collateral asset is not accepted.`,
  collateral_insufficient: msg`The collateral does not cover the loan at the initial loan-to-value.`,
  loan_not_found: msg`This loan no longer exists.`,
  loan_not_active: msg`This loan is not active.`,
  repay_exceeds_owed: msg`This is more than is owed.`,
  loan_decided: msg`This application has already been decided by another operator. The list has been refreshed.`,
  loan_ltv_above_initial: msg`At the current price the loan-to-value is above the offer's initial limit: the collateral no longer covers this loan. Nothing was paid out; reject the application, or approve it once the price allows.`,
};

/** What a failed call says to the operator: the investment words for its code, else the general ones. */
export function investFailure(error: unknown): string {
  const code = failureCode(error) as InvestCode | undefined;
  const descriptor = code ? investMessages[code] : undefined;
  return descriptor ? i18n._(descriptor) : failureMessage(error);
}

// ─── Checks before sending ──────────────────────────────────────────────────────────────────

export type FieldProblem = 'required' | 'amount_format' | 'amount_positive' | 'rate_format' | 'max_below_min' | 'whole_number' | 'ltv_order';

/** A plain decimal ("12.5"): no sign, no exponent, no grouping. The currency's decimals are the server's to check. */
export const plainDecimal = /^[0-9]{1,30}(\.[0-9]{1,18})?$/;
/** A percentage as the contract's RateText: up to 3 whole digits and 4 decimals. */
export const rateText = /^[0-9]{1,3}(\.[0-9]{1,4})?$/;

/** Compares two plain decimals exactly (never as floats): -1, 0 or 1. */
export function compareDecimal(a: string, b: string): number {
  const [aWhole, aFraction = ''] = a.split('.');
  const [bWhole, bFraction = ''] = b.split('.');
  const width = Math.max(aFraction.length, bFraction.length);
  const left = BigInt(aWhole + aFraction.padEnd(width, '0'));
  const right = BigInt(bWhole + bFraction.padEnd(width, '0'));
  return left === right ? 0 : left < right ? -1 : 1;
}

export function amountProblem(value: string | undefined, { optional = false, zeroAllowed = false } = {}): FieldProblem | undefined {
  const trimmed = (value ?? '').trim();
  if (!trimmed) return optional ? undefined : 'required';
  if (!plainDecimal.test(trimmed)) return 'amount_format';
  if (!zeroAllowed && compareDecimal(trimmed, '0') <= 0) return 'amount_positive';
  return undefined;
}

export function rateProblem(value: string | undefined, optional = false): FieldProblem | undefined {
  const trimmed = (value ?? '').trim();
  if (!trimmed) return optional ? undefined : 'required';
  return rateText.test(trimmed) ? undefined : 'rate_format';
}

export function fieldProblemText(problem: FieldProblem): string {
  switch (problem) {
    case 'required': return i18n._(msg`This field is required.`);
    case 'amount_format': return i18n._(msg`Enter a plain decimal number, such as 12.5.`);
    case 'amount_positive': return i18n._(msg`Must be more than zero.`);
    case 'rate_format': return i18n._(msg`Enter a percentage with at most 4 decimals, such as 0.05.`);
    case 'max_below_min': return i18n._(msg`The maximum cannot be below the minimum.`);
    case 'whole_number': return i18n._(msg`Enter a whole number.`);
    case 'ltv_order': return i18n._(msg`The loan-to-values must rise: initial below margin call below liquidation, all below 100.`);
  }
}

/** An antd rule from a check (a problem rejects with its text). */
export const ruleOf = (check: (value: string | undefined) => FieldProblem | undefined) => ({
  validator: (_: unknown, value: string | undefined) => {
    const problem = check(value);
    return problem ? Promise.reject(new Error(fieldProblemText(problem))) : Promise.resolve();
  },
});
