// The loan pages' figures, exact: decimal strings read as integers with their decimals (bigint),
// never a binary float. Interest is one day's (amount × daily rate, cut toward zero at the loan
// asset's scale) times the days, as the server charges it; a started day counts as a whole day; the
// loan-to-value ratio is what is owed over the collateral's value at the feed price, in percent. The pages show these live as the user
// types and refuse, before sending, what the server would refuse.
import { formatAmount, parseAmount } from '../../api/contract/amounts.ts';

export const dayMs = 86_400_000;

/** A decimal string as integer units and their decimals ("12.50" → 1250n, 2); undefined if not a plain non-negative decimal. */
export function unitsOf(text: string | undefined | null): { units: bigint; decimals: number } | undefined {
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec((text ?? '').trim());
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  return { units: BigInt(match[1] + fraction), decimals: fraction.length };
}

/** Decimals a server amount is written with ("100.000000" → 6): the asset's scale. */
export const scaleOf = (text: string) => text.split('.')[1]?.length ?? 0;

/** Atomic units of `text` at `scale`, or undefined when it is not an amount of that scale. */
export function atomicAt(text: string, scale: number): bigint | undefined {
  const parsed = parseAmount(text.trim().replace(',', '.'), scale);
  return parsed.ok ? parsed.atomic : undefined;
}

/**
 * Interest on `amountAtomic` at `dailyRate` percent per day for `days` days, in the same atomic
 * units, as the server charges it (server/domain/programs/loans/math.ts): one day's interest, amount × rate
 * / 100 cut toward zero (never more than the stated rate), times the days.
 */
export function interestAtomic(amountAtomic: bigint, dailyRate: string, days: number): bigint {
  const rate = unitsOf(dailyRate);
  if (!rate || amountAtomic <= 0n || !Number.isInteger(days) || days <= 0) return 0n;
  return ((amountAtomic * rate.units) / (100n * 10n ** BigInt(rate.decimals))) * BigInt(days);
}

/**
 * What a running loan has cost after `started` days, as the server charges it on repayment: the
 * interest of every started day, and the penalty of every started day past the term.
 */
export function chargesAtomic(amountAtomic: bigint, dailyRate: string, penaltyRate: string, termDays: number, started: number): bigint {
  return interestAtomic(amountAtomic, dailyRate, started) + interestAtomic(amountAtomic, penaltyRate, Math.max(0, started - termDays));
}

/**
 * Everything a repayment of all takes now: what is owed, plus the interest (and penalty) of the
 * started days the server has not charged yet (it charges them first, then takes the repayment).
 */
export function payoffAtomic(owedAtomic: bigint, chargedAtomic: bigint, dueNowAtomic: bigint): bigint {
  return owedAtomic + (dueNowAtomic > chargedAtomic ? dueNowAtomic - chargedAtomic : 0n);
}

/** The same on decimal strings: the total interest as the asset's scale writes it, or undefined for an amount that is not one. */
export function totalInterestText(amount: string, dailyRate: string, days: number, scale: number): string | undefined {
  const atomic = atomicAt(amount, scale);
  if (atomic === undefined) return undefined;
  return formatAmount(interestAtomic(atomic, dailyRate, days), scale);
}

/** Days a loan has run at `nowMs`: every started day counts, at least one (the day it was paid out). */
export function startedDays(startsAtMs: number, nowMs: number): number {
  if (!(nowMs > startsAtMs)) return 1;
  return Math.max(1, Math.ceil((nowMs - startsAtMs) / dayMs));
}

export type CreditCheck = 'empty' | 'invalid' | 'below_minimum' | 'above_maximum' | 'over_limit' | 'days_invalid' | 'ok';

export interface CreditTerms { minAmount: string; maxAmount: string; minDays: number; maxDays: number; available?: string }

/** Whether a typed credit application can be sent, in the server's order: the amount's form, its range, the limit, then the days. */
export function checkCredit(amount: string, daysText: string, terms: CreditTerms): CreditCheck {
  if (amount.trim() === '') return 'empty';
  const scale = scaleOf(terms.minAmount);
  const atomic = atomicAt(amount, scale);
  if (atomic === undefined || atomic <= 0n) return 'invalid';
  if (atomic < (atomicAt(terms.minAmount, scale) ?? 0n)) return 'below_minimum';
  if (atomic > (atomicAt(terms.maxAmount, scale) ?? 0n)) return 'above_maximum';
  if (terms.available !== undefined && atomic > (atomicAt(terms.available, scale) ?? 0n)) return 'over_limit';
  return checkDays(daysText, terms);
}

export function checkDays(daysText: string, terms: Pick<CreditTerms, 'minDays' | 'maxDays'>): 'days_invalid' | 'ok' {
  const days = Number(daysText);
  return /^[0-9]{1,4}$/.test(daysText.trim()) && days >= terms.minDays && days <= terms.maxDays ? 'ok' : 'days_invalid';
}

/**
 * Loan-to-value in percent with two decimals, rounded up as the server rounds it ("61.53"): `owed`
 * over `collateral` × `price`. Undefined when a figure is not a decimal or the collateral is worth nothing.
 */
export function ltvPercent(owed: string, collateral: string, price: string): string | undefined {
  const [debt, held, unit] = [unitsOf(owed), unitsOf(collateral), unitsOf(price)];
  if (!debt || !held || !unit || held.units === 0n || unit.units === 0n) return undefined;
  // (D/10^d) / ((C/10^c)(P/10^p)) × 100 × 100 = D · 10^(c+p) · 10^4 / (C · P · 10^d), in hundredths of a percent.
  const numerator = debt.units * 10n ** BigInt(held.decimals + unit.decimals + 4);
  const denominator = held.units * unit.units * 10n ** BigInt(debt.decimals);
  return formatAmount((numerator + denominator - 1n) / denominator, 2);
}

/** Whether `owed` / (`collateral` × `price`) is above `limitPercent` percent, exactly (no rounding). */
export function ltvAbove(owed: string, collateral: string, price: string, limitPercent: string): boolean {
  const [debt, held, unit, limit] = [unitsOf(owed), unitsOf(collateral), unitsOf(price), unitsOf(limitPercent)];
  if (!debt || !held || !unit || !limit) return false;
  if (held.units === 0n || unit.units === 0n) return debt.units > 0n;
  // D/10^d > (C/10^c)(P/10^p)(L/10^l)/100  ⟺  D · 10^(c+p+l) · 100 > C · P · L · 10^d
  return debt.units * 10n ** BigInt(held.decimals + unit.decimals + limit.decimals) * 100n
    > held.units * unit.units * limit.units * 10n ** BigInt(debt.decimals);
}

/** The most that can be borrowed against `collateral` at `price` and `limitPercent`, at `scale`, cut toward zero. */
export function maxLoanText(collateral: string, price: string, limitPercent: string, scale: number): string | undefined {
  const [held, unit, limit] = [unitsOf(collateral), unitsOf(price), unitsOf(limitPercent)];
  if (!held || !unit || !limit) return undefined;
  const atomic = (held.units * unit.units * limit.units * 10n ** BigInt(scale))
    / (100n * 10n ** BigInt(held.decimals + unit.decimals + limit.decimals));
  return formatAmount(atomic, scale);
}

export type LtvZone = 'safe' | 'margin_call' | 'liquidation';

/** Where an LTV stands against the offer's thresholds. */
export function ltvZone(ltv: string, marginCallLtv: string | undefined, liquidationLtv: string | undefined): LtvZone {
  const at = (limit: string | undefined) => limit !== undefined && compareDecimal(ltv, limit) >= 0;
  if (at(liquidationLtv)) return 'liquidation';
  if (at(marginCallLtv)) return 'margin_call';
  return 'safe';
}

/** Orders two plain non-negative decimal strings exactly. */
export function compareDecimal(a: string, b: string): number {
  const [x, y] = [unitsOf(a), unitsOf(b)];
  if (!x || !y) return 0;
  const scale = Math.max(x.decimals, y.decimals);
  const left = x.units * 10n ** BigInt(scale - x.decimals);
  const right = y.units * 10n ** BigInt(scale - y.decimals);
  return left === right ? 0 : left < right ? -1 : 1;
}

/** A repayment amount as typed: all that is owed when empty, else a positive amount of the scale no more than owed. */
export function checkRepayment(amount: string, owed: string, scale: number): 'ok' | 'invalid' | 'above_owed' {
  if (amount.trim() === '') return 'ok';
  const atomic = atomicAt(amount, scale);
  if (atomic === undefined || atomic <= 0n) return 'invalid';
  return atomic > (atomicAt(owed, scale) ?? 0n) ? 'above_owed' : 'ok';
}

/** 12.500000 → "12.5": an amount as an input shows it. */
export function plainAmount(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** A new client order id for an application: sent again unchanged by a retry, so a retry cannot apply twice. */
export function newLoanClientOrderId(): string {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return `loan-${random}`;
}
