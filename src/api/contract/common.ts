// Wire contract shared by the PWA and the reference server: TypeBox schemas the server validates
// with and the client takes its types from. Field names follow spec §3 where it names them.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { identityErrorCodes } from './identityErrors.ts';
import { loanErrorCodes, productErrorCodes } from './investErrors.ts';
import { competitionErrorCodes, ieoErrorCodes, rewardErrorCodes, teamErrorCodes } from './marketingErrors.ts';
import { pushErrorCodes } from './pushErrors.ts';
import { settingChangeErrorCodes } from './settingChanges.ts';
import { tradingErrorCodes } from './tradingErrors.ts';
import { withdrawalErrorCodes } from './withdrawalErrors.ts';

/** Every answer is wrapped in this envelope (spec §7–§8). `code` 200 means success. */
export const Envelope = <T extends TSchema>(result: T) => Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  code: Type.Integer(),
  result,
  timestamp: Type.Integer(),
});
export interface EnvelopeOf<T> {
  success: boolean;
  message: string;
  code: number;
  result: T;
  timestamp: number;
}

/**
 * Stable error identifiers carried in `result.error` of a failed envelope. The client maps each
 * to a translated message and falls back to the envelope's English `message`.
 */
export const errorCodes = [
  'invalid_request', 'body_not_encrypted', 'body_undecryptable', 'request_stale', 'request_replayed',
  'unauthorized', 'not_found', 'rate_limited', 'code_invalid', 'code_expired', 'code_send_too_soon',
  'account_exists', 'account_not_found', 'credentials_invalid', 'password_weak', 'password_common',
  'password_unchanged', 'too_many_attempts', 'invite_code_invalid', 'unknown_symbol', 'market_unavailable', 'internal_error',
  ...withdrawalErrorCodes,
  ...tradingErrorCodes,
  ...identityErrorCodes,
  ...pushErrorCodes,
  ...productErrorCodes,
  ...loanErrorCodes,
  ...competitionErrorCodes,
  ...ieoErrorCodes,
  ...rewardErrorCodes,
  ...teamErrorCodes,
  ...settingChangeErrorCodes,
  // Wallet: currencies, amounts, uploads and deposits (contract/wallet.ts).
  'currency_unknown', 'network_unknown', 'deposit_unavailable', 'amount_empty', 'amount_negative', 'amount_exponent',
  'amount_malformed', 'amount_too_many_decimals', 'amount_too_large', 'amount_not_positive', 'amount_below_minimum',
  'file_missing', 'file_type_unsupported', 'file_too_large', 'file_too_many_pixels', 'file_not_found',
  'record_already_decided', 'deposit_duplicate',
  // Operators (contract/admin.ts): a valid operator whose role may not do this.
  'forbidden',
] as const;
export type ErrorCode = (typeof errorCodes)[number];
export interface ErrorResult { error: ErrorCode; retryAfterSeconds?: number }

export const EmailAddress = Type.String({
  minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
});
/** National phone number, digits only. */
export const PhoneNumber = Type.String({ minLength: 4, maxLength: 15, pattern: '^[0-9]+$' });
/** International calling code without the plus sign, e.g. "1", "82". */
export const CountryCallingCode = Type.String({ minLength: 1, maxLength: 4, pattern: '^[0-9]+$' });
export const VerificationCode = Type.String({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' });
/** Strength beyond length (a letter and a digit) is checked by the domain, with its own error. */
export const Password = Type.String({ minLength: 8, maxLength: 64 });
export const InviteCode = Type.String({ minLength: 4, maxLength: 12, pattern: '^[A-Za-z0-9]+$' });

export const Empty = Type.Object({}, { additionalProperties: false });
export type StaticOf<T extends TSchema> = Static<T>;
