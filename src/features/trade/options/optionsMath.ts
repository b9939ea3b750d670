// The figures the options form shows before a second contract is bought, in integers: what a win
// pays (stake × (1 + rate), truncated to the micro-USDT),
// the stake typed by the user read as atomic USDT, and a countdown's text. Kept apart from the
// component so the web tests check the arithmetic exactly.
import { marginScale, parseRate } from '../../../api/contract/tradingMath.ts';

/** A typed amount as atomic units of `scale` decimals; undefined when it is not a plain decimal or has too many decimals. */
export function parseAtomic(text: string, scale = marginScale): bigint | undefined {
  const match = /^(\d{1,15})(?:\.(\d*))?$/.exec(text.trim());
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  if (fraction.length > scale) return undefined;
  return BigInt(match[1]) * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
}

/** Atomic units back to a plain decimal string with all `scale` decimals ("12.500000"). */
export function formatAtomic(atomic: bigint, scale = marginScale): string {
  const negative = atomic < 0n;
  const magnitude = negative ? -atomic : atomic;
  const factor = 10n ** BigInt(scale);
  const whole = (magnitude / factor).toString();
  const fraction = scale > 0 ? `.${(magnitude % factor).toString().padStart(scale, '0')}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** What a won contract pays back in atomic USDT: amount × (1 + rate), truncated; undefined for an unreadable rate. */
export function winPayoutAtomic(amountAtomic: bigint, payoutRate: string): bigint | undefined {
  const ratePpm = parseRate(payoutRate);
  if (ratePpm === undefined) return undefined;
  return (amountAtomic * (1_000_000n + BigInt(ratePpm))) / 1_000_000n;
}

/** The payout rate in percent, exactly ("0.85" → "85", "0.875" → "87.5"); undefined for an unreadable rate. */
export function ratePercent(payoutRate: string): string | undefined {
  const ratePpm = parseRate(payoutRate);
  if (ratePpm === undefined) return undefined;
  const fraction = String(ratePpm % 10_000).padStart(4, '0').replace(/0+$/, '');
  return `${Math.trunc(ratePpm / 10_000)}${fraction ? `.${fraction}` : ''}`;
}

export type StakeCheck = 'empty' | 'invalid' | 'below_min' | 'above_max' | 'above_balance' | 'ok';

/** Whether a typed stake can be sent: a number of at most 6 decimals, within the set's bounds and the balance. */
export function checkStake(text: string, min: string, max: string, balance: string | undefined): StakeCheck {
  if (text.trim() === '') return 'empty';
  const amount = parseAtomic(text);
  if (amount === undefined || amount <= 0n) return 'invalid';
  const minimum = parseAtomic(min);
  const maximum = parseAtomic(max);
  if (minimum !== undefined && amount < minimum) return 'below_min';
  if (maximum !== undefined && amount > maximum) return 'above_max';
  const available = balance === undefined ? undefined : parseAtomic(balance);
  if (available !== undefined && amount > available) return 'above_balance';
  return 'ok';
}

/** Seconds left as "m:ss" (or "h:mm:ss"), never below zero. */
export function countdownText(remainingMs: number): string {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** A retry key for one order (ClientOrderId: 8–64 of [A-Za-z0-9_.:-]). */
export function newClientOrderId(): string {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return `so-${random}`;
}


/** Decimals to show an amount exactly: its significant ones, at least two ("61.666666" → 6, "37.000000" → 2). */
export function shownDecimals(text: string): number {
  const fraction = (text.split('.')[1] ?? '').replace(/0+$/, '');
  return Math.max(2, fraction.length);
}
