// The server's stable error codes (api/contract/common.ts) as the back office words them, from the
// admin catalog. A code missing here falls back to the server's English message.
import { msg } from '@lingui/core/macro';
import { i18n, type MessageDescriptor } from '@lingui/core';
import type { ApiError } from '../api/baseQuery.ts';
import type { ErrorCode } from '../api/contract/common.ts';
import { settingBounds } from '../api/contract/settingChanges.ts';
import { formatCount } from './format.ts';

const messages: Partial<Record<ErrorCode, MessageDescriptor>> = {
  invalid_request: msg`Some of the information entered is not valid.`,
  body_not_encrypted: msg`The request could not be sent securely. Please reload the page.`,
  body_undecryptable: msg`The request could not be sent securely. Please try again.`,
  request_stale: msg`The request has expired. Please check this computer's clock and try again.`,
  request_replayed: msg`This request was already received.`,
  unauthorized: msg`Your session has ended. Please log in again.`,
  forbidden: msg`Your role does not allow this.`,
  not_found: msg`Not found.`,
  rate_limited: msg`Too many requests. Please wait a moment and try again.`,
  credentials_invalid: msg`The account, password or code is wrong.`,
  too_many_attempts: msg`Too many failed logins. Please wait and try again.`,
  internal_error: msg`Something went wrong on the server. Please try again.`,
  record_already_decided: msg`This record has already been decided by another operator. The list has been refreshed.`,
  withdrawal_not_found: msg`This withdrawal no longer exists.`,
  withdrawal_not_approved: msg`This withdrawal is not fully approved yet: it cannot be marked paid or failed.`,
  withdrawal_fully_approved: msg`This withdrawal is already fully approved: mark it paid or failed.`,
  withdrawal_approved_by_you: msg`You have already approved this withdrawal: a second, different operator must approve it.`,
  deposit_approved_by_you: msg`You have already approved this deposit: a second, different operator must approve it.`,
  withdrawal_unavailable: msg`Withdrawals of this currency are not available.`,
  currency_unknown: msg`Unknown currency.`,
  network_unknown: msg`Unknown network.`,
  amount_empty: msg`Enter an amount.`,
  amount_negative: msg`The amount cannot be negative.`,
  amount_exponent: msg`Write the amount in plain digits, without an exponent.`,
  amount_malformed: msg`The amount is not a valid number.`,
  amount_too_many_decimals: msg`The amount has more decimals than the currency allows.`,
  amount_too_large: msg`The amount is too large.`,
  amount_not_positive: msg`The amount must be greater than zero.`,
  address_invalid: msg`The address is not valid for this network.`,
  file_not_found: msg`The file was not found.`,
  kyc_not_found: msg`This verification application no longer exists.`,
  kyc_settings_invalid: msg`These limits are not valid: amounts are plain USDT amounts, and a higher level may not unlock less than a lower one.`,
  kyc_photo_invalid: msg`This photo cannot be shown.`,
  operator_totp_ticket_invalid: msg`This new secret has expired or was already used. Please start again.`,
  operator_totp_code_invalid: msg`The code from the new secret is wrong. Check that the app shows the new entry.`,
  operator_totp_current_invalid: msg`The code from your current secret is wrong or was used already. Wait for the next code.`,
  setting_change_not_found: msg`This setting change no longer exists.`,
  setting_change_requested_by_you: msg`You asked for this change: an operator other than you must approve it.`,
};

/** The bounds no approval may pass (contract/settingChanges.ts), written out when a value goes past one. */
function outOfBoundsText(): string {
  const count = (value: string) => formatCount(Number(value));
  const threshold = count(settingBounds.dualThresholdUsdtMax);
  const bonus = count(settingBounds.vipBonusUsdtMax);
  const envelope = count(settingBounds.vipEnvelopeUsdtMax);
  const reward = count(settingBounds.welfareRewardUsdtMax);
  const rate = settingBounds.productDailyRatePercentMax;
  return i18n._(msg`This value is above what any approval allows: a two-operator threshold is at most ${threshold} USDT in value, a VIP bonus ${bonus} USDT, a weekly envelope ${envelope} USDT, a welfare reward ${reward} USDT, and a product's daily rate ${rate} %.`);
}

export const genericErrorText = () => i18n._(msg`The request failed. Please try again.`);
export const networkErrorText = () => i18n._(msg`The server cannot be reached. Check the connection and try again.`);

export function errorText(code: string | undefined): string | undefined {
  if (code === 'setting_out_of_bounds') return outOfBoundsText();
  const descriptor = code ? messages[code as ErrorCode] : undefined;
  return descriptor ? i18n._(descriptor) : undefined;
}

/** What a failed call says to the operator, in place (a form's or a drawer's alert). */
export function failureMessage(error: unknown): string {
  const failure = error as ApiError | undefined;
  if (!failure || typeof failure !== 'object' || !('kind' in failure)) return genericErrorText();
  if (failure.kind === 'api' && failure.error === 'too_many_attempts' && failure.retryAfterSeconds) {
    const seconds = failure.retryAfterSeconds;
    const minutes = Math.ceil(seconds / 60);
    return seconds < 120
      ? i18n._(msg`Too many failed logins. Please try again in ${seconds} seconds.`)
      : i18n._(msg`Too many failed logins. Please try again in ${minutes} minutes.`);
  }
  if (failure.kind === 'api') {
    // A refused form names the field the server refused (its detail, in English): an operator
    // fixes that field instead of guessing.
    if (failure.error === 'invalid_request' && failure.serverMessage) {
      return `${errorText(failure.error) ?? failure.message} (${failure.serverMessage})`;
    }
    return errorText(failure.error) ?? failure.message;
  }
  return failure.message;
}

/** The error code of a failed call, if the server gave one. */
export const failureCode = (error: unknown): string | undefined =>
  (error && typeof error === 'object' && 'error' in error ? (error as { error?: string }).error : undefined);
