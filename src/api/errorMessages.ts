// Translated messages for the server's stable error codes (contract/common.ts). A code missing
// here falls back to the server's English message.
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { i18n } from '../lib/i18n.ts';
import type { ErrorCode } from './contract/common.ts';
import type { ApiError } from './baseQuery.ts';

const messages: Partial<Record<ErrorCode, MessageDescriptor>> = {
  invalid_request: msg`Some of the information entered is not valid.`,
  body_not_encrypted: msg`The request could not be sent securely. Please reload the page.`,
  body_undecryptable: msg`The request could not be sent securely. Please try again.`,
  request_stale: msg`The request has expired. Please check your device clock and try again.`,
  request_replayed: msg`This request was already received.`,
  unauthorized: msg`Please log in again.`,
  not_found: msg`Not found.`,
  rate_limited: msg`Too many attempts. Please wait a moment and try again.`,
  code_invalid: msg`The verification code is wrong. Please check it or request a new one.`,
  code_expired: msg`The verification code has expired. Please request a new one.`,
  code_send_too_soon: msg`Please wait before requesting another code.`,
  account_exists: msg`Account already exists, please log in with your password.`,
  account_not_found: msg`No account was found. Please register first.`,
  credentials_invalid: msg`The account or password is wrong.`,
  password_weak: msg`The password must be 8–64 characters with at least one letter and one digit.`,
  password_common: msg`This password is one of the most commonly used ones. Please choose another.`,
  password_unchanged: msg`The new password must differ from the current one.`,
  password_same_as_withdraw_password: msg`Your login password must differ from your withdrawal password.`,
  withdraw_password_same_as_login: msg`The withdrawal password must differ from your login password.`,
  too_many_attempts: msg`Too many wrong passwords. Please wait, or reset your password.`,
  invite_code_invalid: msg`The invitation code does not exist.`,
  internal_error: msg`Something went wrong on our side. Please try again.`,
};

/**
 * A feature whose calls have error codes of their own (the wallet's) registers their messages when
 * its pages load, from its own catalog, so the first screen carries none of them (DESIGN §8).
 */
export function registerErrorMessages(more: Partial<Record<ErrorCode, MessageDescriptor>>) {
  Object.assign(messages, more);
}

/**
 * The message of an error code in the current language. `details` is the refusal's result: a
 * message may name the bound the server sends with it ("at least {quantityMin}"); one whose values
 * did not all come is not used (the server's English message names them).
 */
export function translateError(code: string | undefined, details?: Record<string, unknown>): string | undefined {
  const descriptor = code ? messages[code as ErrorCode] : undefined;
  if (!descriptor) return undefined;
  const values: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(details ?? {})) {
    if (typeof value === 'string' || typeof value === 'number') values[key] = value;
  }
  // Production builds strip the descriptor's source text, so a message's values are listed beside it.
  if (needs[code!]?.some((name) => !(name in values))) return undefined;
  // A named descriptor, not an object literal in the call: Lingui's extractor reads every i18n._({ … }) as a message.
  const withValues: MessageDescriptor = { ...descriptor, values: { ...descriptor.values, ...values } };
  return i18n._(withValues);
}

const needs: Record<string, readonly string[]> = {};

/**
 * Messages that name values of the refusal's result ("{quantityMin}"): `values` lists them, and
 * translateError uses such a message only when the refusal carries them all.
 */
export function registerErrorMessagesWithValues(more: Partial<Record<ErrorCode, { message: MessageDescriptor; values: readonly string[] }>>) {
  for (const [code, entry] of Object.entries(more)) {
    if (!entry) continue;
    messages[code as ErrorCode] = entry.message;
    needs[code] = entry.values;
  }
}

/** "in 2 minutes", "2분 후", "2 分钟后": a wait in the current language, its plural rules included. */
function inTime(seconds: number): string {
  const format = new Intl.RelativeTimeFormat(i18n.locales ?? 'en-US', { numeric: 'always' });
  return seconds < 120 ? format.format(Math.ceil(seconds), 'second') : format.format(Math.ceil(seconds / 60), 'minute');
}

/**
 * A refusal as a form shows it in place: translated by its error code, with the server's wait
 * when it names one, else the message the call already carries (network errors included).
 */
export function failureText(error: unknown): string {
  const failure = error as Partial<ApiError> | undefined;
  if (failure?.kind === 'api' && failure.retryAfterSeconds) {
    const when = inTime(failure.retryAfterSeconds);
    if (failure.error === 'too_many_attempts') return i18n._(msg`Too many wrong passwords. Please try again ${when}, or reset your password.`);
    if (failure.error === 'rate_limited') return i18n._(msg`Too many attempts. Please try again ${when}.`);
  }
  return failure?.message || genericErrorText();
}

export const genericErrorText = () => i18n._(msg`Something went wrong. Please try again.`);
export const networkErrorText = () => i18n._(msg`Network error. Please check your connection and try again.`);
