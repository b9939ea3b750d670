// Refusals of competitions, IEO, welfare tasks, VIP rewards, red envelopes and team invitation
// (issue 23), in `result.error` of a failed envelope. Kept apart from their contracts so common.ts
// can list them without cycles. An insufficient spot balance is the wallet's `balance_insufficient`.
export const competitionErrorCodes = [
  'competition_not_found', 'competition_closed', 'competition_joined_already', 'competition_full', 'competition_not_joined',
  'competition_ended', 'competition_busy', 'competition_symbol_not_allowed', 'competition_not_running',
] as const;

export const ieoErrorCodes = [
  'ieo_not_found', 'ieo_not_issuing', 'ieo_applied_already', 'ieo_lots_over_cap', 'ieo_not_won', 'ieo_paid_already',
  'ieo_pay_deadline_passed', 'ieo_wrong_state', 'ieo_token_exists', 'ieo_lot_amount_inexact', 'ieo_dates_invalid',
  // Issue 38: another account of the same verified person applied already (basic verification
  // missing is the shared `verification_required`, listed with the rewards' codes).
  'ieo_person_applied_already',
] as const;

export const rewardErrorCodes = [
  'task_not_found', 'task_not_done', 'task_claimed', 'envelope_not_found', 'envelope_opened', 'envelope_expired',
  'envelopes_issued_this_week', 'checkin_done_today', 'pool_insufficient',
  // Issue 38: rewards (and IEO applications) need an approved basic verification.
  'verification_required',
] as const;

export const teamErrorCodes = [
  'short_link_not_found', 'invite_self', 'invite_cycle', 'inviter_bound',
] as const;
