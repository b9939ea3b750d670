// Exact amounts: decimal strings on the wire, integers of atomic units (bigint) inside, never a
// binary float. Shared by the server (server/domain/kernel/ledger/amounts.ts) and the wallet pages, so a
// form refuses exactly what the server would refuse, before it is sent. Parsing user input is strict and answers a typed refusal instead of guessing:
// no sign, no exponent, no more decimals than the asset's scale, no more digits than the
// NUMERIC(38,0) columns hold.

/** Digits of the NUMERIC(38,0) columns that hold amounts and running totals. */
export const atomicDigitsMax = 38;
/** The largest amount or total a column holds: 10^38 - 1 atomic units. */
export const atomicMax = 10n ** BigInt(atomicDigitsMax) - 1n;
/** Longer input is refused before it is looked at (a megabyte of zeros is not an amount). */
const amountTextLengthMax = 80;

/** Why a decimal string is not an amount, in the order the checks run. */
export type AmountRefusal =
  | 'amount_empty' | 'amount_negative' | 'amount_exponent' | 'amount_malformed' | 'amount_too_many_decimals' | 'amount_too_large';

export type ParsedAmount = { ok: true; atomic: bigint } | { ok: false; refusal: AmountRefusal };

const decimalPattern = /^([0-9]+)(?:\.([0-9]+))?$/;

/**
 * "12.5" with scale 6 → 12500000n. Zero parses (whether zero is allowed is the caller's rule).
 * Trailing zeros beyond the scale are accepted ("1.50" with scale 1), since they change nothing;
 * a significant digit beyond it is refused rather than rounded away.
 */
export function parseAmount(text: string, scale: number): ParsedAmount {
  if (!Number.isInteger(scale) || scale < 0 || scale > 18) throw new Error(`asset scale ${scale} is out of range`);
  if (text.length === 0) return { ok: false, refusal: 'amount_empty' };
  if (text.startsWith('-')) return { ok: false, refusal: 'amount_negative' };
  if (/[eE]/.test(text)) return { ok: false, refusal: 'amount_exponent' };
  if (text.length > amountTextLengthMax) return { ok: false, refusal: 'amount_too_large' };
  const match = decimalPattern.exec(text);
  if (!match) return { ok: false, refusal: 'amount_malformed' };
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > scale) return { ok: false, refusal: 'amount_too_many_decimals' };
  const digits = (match[1] + fraction.padEnd(scale, '0')).replace(/^0+(?=.)/, '');
  if (digits.length > atomicDigitsMax) return { ok: false, refusal: 'amount_too_large' };
  return { ok: true, atomic: BigInt(digits) };
}

/**
 * 12500000n with scale 6 → "12.500000": every decimal of the scale, exact, a minus sign for a
 * negative total. The market's prices use the same rule (server/domain/core/market/symbols.ts).
 */
export function formatAmount(atomic: bigint, scale: number): string {
  const negative = atomic < 0n;
  const digits = (negative ? -atomic : atomic).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}
