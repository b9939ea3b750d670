// The loans' arithmetic, pure and exact (bigint atomic units; rates in ppm of the amount per day,
// loan-to-value thresholds in basis points). Shared by the application, the repayment, the daily
// accrual, the LTV monitor and the tests' oracle, so every place charges and compares the same way.
//
// Days: a loan's day k (k ≥ 1) is the 24 h from startsAt + (k−1)·24 h. Each day's start falls on a
// different UTC date (startDate + k − 1), so the last day charged is kept as that UTC date
// (loans.last_accrued_day) and the count of days charged is read back from it exactly.
import { assert } from '../../../lib/errors.ts';

export const dayMs = 86_400_000;
export const ppmDenominator = 1_000_000n;
export const bpDenominator = 10_000n;

/** The UTC day of a time, YYYY-MM-DD. */
export const utcDay = (time: Date) => time.toISOString().slice(0, 10);

/** Whole days from UTC day `from` to UTC day `to` (both YYYY-MM-DD). */
export function dayDiff(to: string, from: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs);
}

/** The UTC date on which loan day `k` (1-based) starts. */
export function loanDayDate(startsAt: Date, k: number): string {
  assert(Number.isInteger(k) && k >= 1, `loan day ${k}`);
  return utcDay(new Date(startsAt.getTime() + (k - 1) * dayMs));
}

/** How many loan days were charged, read from last_accrued_day (null: none). */
export function daysCharged(startsAt: Date, lastAccruedDay: string | null): number {
  if (lastAccruedDay === null) return 0;
  const days = dayDiff(lastAccruedDay, utcDay(startsAt)) + 1;
  assert(days >= 1, `last accrued day ${lastAccruedDay} is not before the start`);
  return days;
}

/** Loan days started at `now` (a started day counts; at least one once the loan runs). */
export function startedDays(startsAt: Date, now: Date): number {
  const elapsed = now.getTime() - startsAt.getTime();
  return Math.max(1, Math.ceil(elapsed / dayMs));
}

/** Loan days that started before the UTC day `day` began: what the daily job for `day` charges through. */
export function daysBeforeDay(startsAt: Date, day: string): number {
  return Math.max(0, dayDiff(day, utcDay(startsAt)));
}

export interface LoanTerms {
  amount: bigint;
  days: number;
  dailyRatePpm: number;
  penaltyRatePpm: number;
}

/** One day's interest (rounded down: never more than the stated rate). */
export const dailyInterest = (terms: LoanTerms) => (terms.amount * BigInt(terms.dailyRatePpm)) / ppmDenominator;
/** One overdue day's penalty, charged on top of the day's interest. */
export const dailyPenalty = (terms: LoanTerms) => (terms.amount * BigInt(terms.penaltyRatePpm)) / ppmDenominator;
/** The interest of the whole term: days × one day's interest. */
export const totalInterest = (terms: LoanTerms) => dailyInterest(terms) * BigInt(terms.days);

/** Interest and penalty of loan days 1..n. */
export function chargesThrough(terms: LoanTerms, n: number): { interest: bigint; penalty: bigint } {
  assert(Number.isInteger(n) && n >= 0, `days ${n}`);
  return {
    interest: dailyInterest(terms) * BigInt(n),
    penalty: dailyPenalty(terms) * BigInt(Math.max(0, n - terms.days)),
  };
}

/** What days charged+1..target add: interest and penalty apart (two transfer kinds). */
export function chargesBetween(terms: LoanTerms, charged: number, target: number) {
  const before = chargesThrough(terms, charged);
  const after = chargesThrough(terms, Math.max(charged, target));
  return { interest: after.interest - before.interest, penalty: after.penalty - before.penalty };
}

// ─── Loan-to-value ──────────────────────────────────────────────────────────────────────────────

/** A collateral's figures: its atomic scale and the price's (units of 10^-pricePrecision USDT). */
export interface CollateralScales {
  collateralScale: number;
  loanScale: number;
  pricePrecision: number;
}

/** The collateral's value in the loan asset's atomic units at `priceUnits` (rounded down). */
export function collateralValue(collateral: bigint, priceUnits: bigint, scales: CollateralScales): bigint {
  return (collateral * priceUnits * 10n ** BigInt(scales.loanScale)) / 10n ** BigInt(scales.collateralScale + scales.pricePrecision);
}

/** LTV in basis points, rounded up (0 collateral value: infinite, answered as a huge number). */
export function ltvBp(owed: bigint, collateral: bigint, priceUnits: bigint, scales: CollateralScales): bigint {
  const denominator = collateral * priceUnits * 10n ** BigInt(scales.loanScale);
  if (denominator === 0n) return owed > 0n ? 10n ** 12n : 0n;
  const numerator = owed * bpDenominator * 10n ** BigInt(scales.collateralScale + scales.pricePrecision);
  return (numerator + denominator - 1n) / denominator;
}

/**
 * Whether LTV = owed / (collateral × price) has reached `thresholdBp`, exactly:
 * owed·10⁴·10^(cs+pp) ≥ threshold·collateral·price·10^ls.
 */
export function ltvReached(owed: bigint, collateral: bigint, priceUnits: bigint, thresholdBp: number, scales: CollateralScales): boolean {
  const left = owed * bpDenominator * 10n ** BigInt(scales.collateralScale + scales.pricePrecision);
  const right = BigInt(thresholdBp) * collateral * priceUnits * 10n ** BigInt(scales.loanScale);
  return left >= right;
}

/**
 * The highest price (in price units) at which the LTV has reached `thresholdBp`: the loan fires at
 * every tick at or below it. −1 when no positive price reaches it (nothing owed).
 */
export function thresholdPrice(owed: bigint, collateral: bigint, thresholdBp: number, scales: CollateralScales): bigint {
  if (owed <= 0n) return -1n;
  const divisor = BigInt(thresholdBp) * collateral * 10n ** BigInt(scales.loanScale);
  // No collateral: any price reaches it.
  if (divisor === 0n) return 10n ** 30n;
  return (owed * bpDenominator * 10n ** BigInt(scales.collateralScale + scales.pricePrecision)) / divisor;
}

export interface LiquidationSplit {
  proceeds: bigint;
  repaid: bigint;
  fee: bigint;
  returned: bigint;
  /** What the house pays beyond the proceeds when they do not cover what is owed. */
  shortfall: bigint;
}

/**
 * The collateral sold to the house at the tick: the proceeds repay what is owed, the stated fee
 * (proceeds × fee) comes out of what is left, and the rest goes back to the user. When the proceeds
 * do not cover what is owed the house still closes the loan in full and absorbs the gap (the
 * shortfall), and takes no fee.
 */
export function liquidationSplit(owed: bigint, proceeds: bigint, feeBp: number): LiquidationSplit {
  assert(owed >= 0n && proceeds >= 0n, 'liquidation figures are not negative');
  const left = proceeds > owed ? proceeds - owed : 0n;
  const statedFee = (proceeds * BigInt(feeBp)) / bpDenominator;
  const fee = statedFee < left ? statedFee : left;
  return { proceeds, repaid: owed, fee, returned: left - fee, shortfall: owed > proceeds ? owed - proceeds : 0n };
}

/** "0.05" percent per day from 500 ppm; "65" percent from 6500 bp. */
export const ppmToPercent = (ppm: number) => (ppm / 10_000).toFixed(4).replace(/\.?0+$/, '') || '0';
export const bpToPercent = (bp: number) => (bp / 100).toFixed(2).replace(/\.?0+$/, '') || '0';

/** A percent text with up to 4 decimals ("0.05") as ppm; with up to 2 ("65") as bp. Exact, no float. */
export function percentToPpm(text: string): number {
  const [whole, fraction = ''] = text.split('.');
  return Number(whole) * 10_000 + Number(fraction.padEnd(4, '0').slice(0, 4));
}
export function percentToBp(text: string): number | undefined {
  const [whole, fraction = ''] = text.split('.');
  if (fraction.replace(/0+$/, '').length > 2) return undefined;
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

/** Whether the LTV is strictly above `thresholdBp` (an application may reach the initial LTV, not pass it). */
export function ltvAbove(owed: bigint, collateral: bigint, priceUnits: bigint, thresholdBp: number, scales: CollateralScales): boolean {
  const left = owed * bpDenominator * 10n ** BigInt(scales.collateralScale + scales.pricePrecision);
  const right = BigInt(thresholdBp) * collateral * priceUnits * 10n ** BigInt(scales.loanScale);
  return left > right;
}
