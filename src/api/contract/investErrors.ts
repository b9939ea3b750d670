// Refusals of investment products, jobs and loans (issue 22), in `result.error` of a failed
// envelope. Kept apart from products.ts and loans.ts so common.ts can list them without cycles.
// An insufficient spot balance is the wallet's `balance_insufficient`.
export const productErrorCodes = [
  'product_not_found', 'product_not_open', 'product_sold_out', 'product_level_required', 'product_amount_out_of_range',
  'product_user_cap', 'product_wrong_kind', 'product_kyc_required', 'order_not_found', 'order_not_redeemable',
  'funding_not_found', 'funding_approved_by_you', 'job_unknown', 'job_running',
] as const;

export const loanErrorCodes = [
  'loan_setting_not_found', 'loan_disabled', 'loan_amount_out_of_range', 'loan_days_out_of_range', 'loan_over_limit',
  'loan_already_open', 'loan_terms_changed', 'signature_invalid', 'collateral_unsupported', 'collateral_insufficient',
  'loan_not_found', 'loan_not_active', 'repay_exceeds_owed', 'loan_decided',
  // Issue 38: a signature image above signatureSidesMaxPx, one without a real inked area, and an
  // approval refused because the loan-to-value at the current price is above the offer's initial one.
  'signature_too_large', 'signature_empty', 'loan_ltv_above_initial',
] as const;
