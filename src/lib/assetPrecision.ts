// How many decimals each asset shows (issue 19 #2, #7): one table for every page, so an amount
// reads the same on the form, the confirm sheet, the result and the records. The server's scale
// is how precisely an amount is KEPT (USDT 6, ETH 18); the display precision is how precisely it
// is SHOWN. Digits are cut with the truncating helpers of lib/number.ts, never through a float.
import { formatDecimal, formatSigned, truncateOrZero, type DecimalInput } from './number.ts';

/** Decimals shown for the assets whose habit is known; every other asset uses `otherDecimals`. */
const displayDecimalsByAsset: Readonly<Record<string, number>> = {
  BTC: 8, ETH: 8,
  USDT: 2, USDC: 2, BUSD: 2, DAI: 2, FDUSD: 2, TUSD: 2,
};

/** Fiat currencies a user may pick as a display currency; their decimals come from Intl (JPY 0, USD 2). */
const fiatCodes = new Set(['USD', 'EUR', 'GBP', 'CNY', 'TWD', 'HKD', 'JPY', 'KRW', 'THB', 'MYR', 'VND', 'SGD', 'AUD', 'CAD', 'CHF', 'INR', 'IDR', 'PHP']);

/** An asset without a known habit: enough for a coin worth cents (DOGE, XRP), never more than this. */
export const otherDecimals = 6;

/** A ceiling for any display precision, whatever the scale (ETH keeps 18). */
const displayDecimalsMax = 8;

const fiatDecimals = new Map<string, number>();

function decimalsOfFiat(code: string): number {
  let decimals = fiatDecimals.get(code);
  if (decimals === undefined) {
    decimals = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    fiatDecimals.set(code, decimals);
  }
  return decimals;
}

/**
 * The decimals `asset` shows: its habit (BTC 8, USDT 2, fiat as Intl says), else `otherDecimals`,
 * never more than the server's `scale` when it is known (an amount has no digits past its scale).
 */
export function displayDecimals(asset: string | undefined, scale?: number): number {
  const code = (asset ?? '').toUpperCase();
  const habit = displayDecimalsByAsset[code] ?? (fiatCodes.has(code) ? decimalsOfFiat(code) : otherDecimals);
  const shown = Math.min(habit, displayDecimalsMax);
  return scale === undefined || !Number.isInteger(scale) || scale < 0 ? shown : Math.min(shown, scale);
}

/** Decimals of a plain decimal string after its trailing zeros are dropped ("1.2300" → 2). */
function significantDecimals(value: DecimalInput): number {
  const digits = truncateOrZero(value, 40);
  const fraction = digits.split('.')[1] ?? '';
  return fraction.replace(/0+$/, '').length;
}

export interface AmountOptions {
  /** The server's scale of the asset, when known: no more decimals than it. */
  scale?: number;
  /** A fixed number of decimals instead of the asset's display precision. */
  decimals?: number;
  /**
   * An amount the user moved (typed, sent, received): keep its significant digits up to the scale
   * ("0.001 USDT" stays, "500.000000" → "500.00"), so a small amount never reads as 0.00.
   */
  exact?: boolean;
  /** A sign on every non-zero value ("+12.50", "-0.58"). */
  signed?: boolean;
}

/** The decimals an amount is shown with, under the rules of `AmountOptions`. */
export function decimalsFor(value: DecimalInput, asset: string | undefined, options: AmountOptions = {}): number {
  if (options.decimals !== undefined) return Math.max(0, options.decimals);
  const shown = displayDecimals(asset, options.scale);
  if (!options.exact) return shown;
  const limit = options.scale ?? Math.max(shown, 18);
  return Math.max(shown, Math.min(significantDecimals(value), limit));
}

/** An amount at its asset's display precision, truncated, grouped as the language groups ("1,234.50"). */
export function formatAssetAmount(value: DecimalInput, asset: string | undefined, intl: string, options: AmountOptions = {}): string {
  const decimals = decimalsFor(value, asset, options);
  return (options.signed ? formatSigned : formatDecimal)(value, decimals, intl);
}

/**
 * The same amount with every significant digit it carries (what a tap on a shortened figure
 * shows): never fewer decimals than the display precision, trailing zeros beyond it dropped.
 */
export function formatFullAmount(value: DecimalInput, asset: string | undefined, intl: string, options: Pick<AmountOptions, 'scale' | 'signed' | 'decimals'> = {}): string {
  const shown = decimalsFor(value, asset, { scale: options.scale, decimals: options.decimals });
  const decimals = Math.max(shown, significantDecimals(value));
  return (options.signed ? formatSigned : formatDecimal)(value, decimals, intl);
}

// Rates (issue 19 #10): a quote's rate has up to 18 decimals ("1 USDT = 0.00001482436968110603116
// BTC"); it is shown at the quoted asset's display precision, or with four significant digits
// when that shows fewer, trailing zeros past the display precision dropped; and its inverse,
// computed exactly with integers, so both directions read at a glance.

const rateDigitsMax = 18;
const rateSignificantDigits = 4;

/** A plain positive decimal as an integer and its decimals ("0.0125" → 125n, 4), or undefined. */
function unitsOf(text: string): { units: bigint; decimals: number } | undefined {
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(text.trim());
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  return { units: BigInt(match[1] + fraction), decimals: fraction.length };
}

/** The decimals that show `significant` significant digits of a positive decimal ("0.0001482…" → 8 for 4). */
function decimalsForSignificant(text: string, significant: number): number {
  const [whole = '0', fraction = ''] = text.split('.');
  if (/[1-9]/.test(whole)) return Math.max(0, significant - whole.replace(/^0+/, '').length);
  const zeros = /^0*/.exec(fraction)![0].length;
  return zeros + significant;
}

/** 1 ÷ rate, exactly truncated at 18 decimals, as a plain decimal string; undefined for 0 or text that is not a rate. */
export function inverseRate(rate: string): string | undefined {
  const parsed = unitsOf(rate);
  if (!parsed || parsed.units === 0n) return undefined;
  // 1 / (U / 10^d) = 10^d / U, at 18 decimals: 10^(d + 18) / U.
  const atomic = 10n ** BigInt(parsed.decimals + rateDigitsMax) / parsed.units;
  const digits = atomic.toString().padStart(rateDigitsMax + 1, '0');
  return `${digits.slice(0, -rateDigitsMax)}.${digits.slice(-rateDigitsMax)}`;
}

/**
 * A rate in units of `asset`, readable: its display precision or four significant digits, whichever
 * shows more, trailing zeros past the display precision dropped. `cut` says whether digits were left out.
 */
export function formatRate(rate: string, asset: string, intl: string): { text: string; cut: boolean } {
  const plain = truncateOrZero(rate, rateDigitsMax);
  if (!/^\d+(\.\d+)?$/.test(plain)) return { text: rate, cut: false };
  const shown = displayDecimals(asset);
  const wanted = Math.min(rateDigitsMax, Math.max(shown, decimalsForSignificant(plain, rateSignificantDigits)));
  const kept = truncateOrZero(plain, wanted);
  const fraction = (kept.split('.')[1] ?? '').replace(/0+$/, '');
  const decimals = Math.max(shown, fraction.length);
  return { text: formatDecimal(kept, decimals, intl), cut: significantDecimals(plain) > decimals };
}

/** The decimals a decimal string carries, trailing zeros included ("12.500000" → 6): a server figure's own precision. */
export const decimalsIn = (text: string) => text.split('.')[1]?.length ?? 0;

/** A server figure with every decimal it carries, grouped as the language groups ("67244.89" → "67,244.89"); receipts use it. */
export const formatExact = (text: string, intl: string) => formatDecimal(text, decimalsIn(text), intl);
