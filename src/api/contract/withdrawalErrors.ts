// The stable error codes of withdrawals, destinations and the withdrawal password, spread into
// common.ts's errorCodes. A file of its own (importing nothing) so the shared list grows by one
// line and no import cycle forms. Currency, network and amount refusals are the wallet's
// (common.ts), shared with deposits.
export const withdrawalErrorCodes = [
  'balance_insufficient', 'address_invalid', 'address_wrong_network', 'card_number_invalid', 'destinations_too_many',
  'destination_not_found', 'destination_currency_mismatch', 'destination_required', 'withdraw_password_required',
  'withdraw_password_invalid', 'withdraw_password_no_contact', 'withdrawal_not_found', 'withdrawal_not_approved',
  'withdrawal_fully_approved', 'withdrawal_approved_by_you', 'withdrawal_unavailable',
  // Deposits share the two-operator approval of withdrawals (server/domain/core/wallet/approvals.ts).
  'deposit_approved_by_you',
  // The two passwords must differ (issue 19): a withdrawal password equal to the login password, or a
  // new login password equal to the withdrawal password, is refused.
  'withdraw_password_same_as_login', 'password_same_as_withdraw_password',
] as const;
