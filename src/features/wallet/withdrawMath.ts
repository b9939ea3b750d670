// The withdrawal's figures, exact: atomic units of the currency's scale (bigint), never a float.
// The network's fee is taken on top of the amount (server/domain/core/wallet/withdrawals.ts): the
// destination receives the amount, and amount + fee leaves the available balance. The page shows
// these live as the user types, and refuses before sending what the server would refuse.
import { formatAmount, parseAmount, type AmountRefusal } from '../../api/contract/amounts.ts';

/** A decimal string the server wrote ("12.500000") as atomic units; anything unreadable is 0. */
export function atomicOf(text: string | null | undefined, scale: number): bigint {
  if (!text) return 0n;
  const parsed = parseAmount(text, scale);
  return parsed.ok ? parsed.atomic : 0n;
}

/** The most that can be withdrawn: what is available less the fee, never below zero. */
export function maxWithdrawal(available: bigint, fee: bigint): bigint {
  const max = available - fee;
  return max > 0n ? max : 0n;
}

/** What leaves the balance: the amount and the fee. */
export const totalDebit = (amount: bigint, fee: bigint) => amount + fee;

/** What the destination receives: the amount itself (the fee is on top of it). */
export const arrivalAmount = (amount: bigint) => amount;

/** "All": the maximum as the amount field shows it, trailing zeros dropped ("89", "0.5"). */
export function maxWithdrawalText(available: bigint, fee: bigint, scale: number): string {
  return plainText(maxWithdrawal(available, fee), scale);
}

/** 12500000n with scale 6 → "12.5"; 0n → "0". */
export function plainText(atomic: bigint, scale: number): string {
  const text = formatAmount(atomic, scale);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

export interface WithdrawTerms {
  scale: number;
  available: bigint;
  fee: bigint;
  minimum: bigint;
}

export type QuoteRefusal = AmountRefusal | 'amount_not_positive' | 'amount_below_minimum' | 'balance_insufficient';

export interface Quote {
  amount: bigint;
  fee: bigint;
  total: bigint;
  arrival: bigint;
}

export type QuoteResult = ({ ok: true } & Quote) | { ok: false; refusal: QuoteRefusal; quote?: Quote };

/**
 * The figures of a typed amount against the terms, or why it cannot be sent, in the server's
 * order: the amount's form, more than zero, the minimum, then amount + fee against the balance.
 * A refusal for the minimum or the balance still carries the figures, so the page shows them.
 */
export function quoteWithdrawal(text: string, terms: WithdrawTerms): QuoteResult {
  const parsed = parseAmount(text.trim(), terms.scale);
  if (!parsed.ok) return { ok: false, refusal: parsed.refusal };
  const amount = parsed.atomic;
  if (amount === 0n) return { ok: false, refusal: 'amount_not_positive' };
  const quote: Quote = { amount, fee: terms.fee, total: totalDebit(amount, terms.fee), arrival: arrivalAmount(amount) };
  if (amount < terms.minimum) return { ok: false, refusal: 'amount_below_minimum', quote };
  if (quote.total > terms.available) return { ok: false, refusal: 'balance_insufficient', quote };
  return { ok: true, ...quote };
}
