// Translated messages for the server's stable error codes (contract/common.ts). A code missing
// here falls back to the server's English message.
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { i18n } from '../lib/i18n.ts';
import type { ErrorCode } from './contract/common.ts';
import type { ApiError } from './baseQuery.ts';

/**
 * The messages every screen can meet: the protocol's and the session's. A feature whose calls have
 * error codes of their own (the wallet's, the login and password pages', trading's) registers their
 * messages when its pages load, from its own catalog, so the first screen carries none of them
 * (DESIGN §8).
 */
const messages: Partial<Record<ErrorCode, MessageDescriptor | ErrorText>> = {
  invalid_request: msg`Some of the information entered is not valid.`,
  body_not_encrypted: msg`The request could not be sent securely. Please reload the page.`,
  body_undecryptable: msg`The request could not be sent securely. Please try again.`,
  request_stale: msg`The request has expired. Please check your device clock and try again.`,
  request_replayed: msg`This request was already received.`,
  unauthorized: msg`Please log in again.`,
  not_found: msg`Not found.`,
  rate_limited: msg`Too many attempts. Please wait a moment and try again.`,
  internal_error: msg`Something went wrong on our side. Please try again.`,
};

/**
 * A message that names values of the refusal's result (errorValues.ts builds them): the text, or
 * undefined when the refusal lacks a value it names (the server's English message names them).
 */
export type ErrorText = (details: Record<string, unknown>) => string | undefined;

export function registerErrorMessages(more: Partial<Record<ErrorCode, MessageDescriptor | ErrorText>>) {
  Object.assign(messages, more);
}

/**
 * The message of an error code in the current language; `details` is the refusal's result, which
 * a message registered with values reads (errorValues.ts).
 */
export function translateError(code: string | undefined, details?: Record<string, unknown>): string | undefined {
  const entry = code ? messages[code as ErrorCode] : undefined;
  return typeof entry === 'function' ? entry(details ?? {}) : entry && i18n._(entry);
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
