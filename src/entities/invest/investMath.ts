// The figures of a purchase, exact: atomic units of the asset's scale (bigint), never a float.
// The server promises owed = floor(amount × dailyRatePpm × days / 10^6) at purchase and pays it
// day by day (each day floor(amount × ppm / 10^6), the last day the remainder), so the form
// shows the very figure the order will carry. The checks run in the server's order, so the form
// refuses before sending what the server would refuse.
import { formatAmount, parseAmount, type AmountRefusal } from '../../api/contract/amounts.ts';
import type { Product } from '../../api/contract/products.ts';

const ppmPerUnit = 1_000_000n;

/** Decimals of a decimal string the server wrote at the asset's scale ("100.000000" → 6). */
export function scaleOf(text: string | undefined): number {
  const fraction = (text ?? '').split('.')[1] ?? '';
  return /^[0-9]*$/.test(fraction) ? Math.min(fraction.length, 18) : 0;
}

/** A decimal string the server wrote as atomic units of `scale`; anything unreadable is 0. */
export function atomicOf(text: string | null | undefined, scale: number): bigint {
  if (!text) return 0n;
  const parsed = parseAmount(text.trim(), scale);
  return parsed.ok ? parsed.atomic : 0n;
}

/** A percent string with up to 4 decimals as parts per million: "0.05" → 500n, "1.5" → 15000n; unreadable → 0n. */
export function ppmOfPercent(percent: string | undefined): bigint {
  const match = /^([0-9]{1,6})(?:\.([0-9]{1,4}))?$/.exec((percent ?? '').trim());
  if (!match) return 0n;
  return BigInt(match[1]) * 10_000n + BigInt((match[2] ?? '').padEnd(4, '0'));
}

/** What a principal earns over the whole term: floor(amount × ppm × days / 10^6). */
export function expectedReturn(amount: bigint, ratePpm: bigint, days: number): bigint {
  if (amount <= 0n || ratePpm <= 0n || days <= 0) return 0n;
  return (amount * ratePpm * BigInt(days)) / ppmPerUnit;
}

/** One day's income of a principal: floor(amount × ppm / 10^6). */
export function dailyIncome(amount: bigint, ratePpm: bigint): bigint {
  if (amount <= 0n || ratePpm <= 0n) return 0n;
  return (amount * ratePpm) / ppmPerUnit;
}

/** The stated cost of redeeming early: floor(principal × fee ppm / 10^6). */
export function redemptionFee(principal: bigint, feePpm: bigint): bigint {
  if (principal <= 0n || feePpm <= 0n) return 0n;
  return (principal * feePpm) / ppmPerUnit;
}

export type PurchaseRefusal = AmountRefusal | 'amount_not_positive' | 'amount_below_product_minimum' | 'amount_above_product_maximum'
  | 'amount_above_user_cap' | 'amount_above_remaining' | 'balance_insufficient';

export interface PurchaseTerms {
  scale: number;
  minimum: bigint;
  maximum: bigint;
  ratePpm: bigint;
  days: number;
  /** The caller's spot balance of the asset; undefined when not known (the server then decides). */
  available?: bigint;
  /** What is left to sell (cap or bond target less sold); undefined when the product has no cap. */
  remaining?: bigint;
}

export interface PurchaseQuote { amount: bigint; expected: bigint; daily: bigint; total: bigint }
export type PurchaseCheck = ({ ok: true } & PurchaseQuote) | { ok: false; refusal: PurchaseRefusal; quote?: PurchaseQuote };

/**
 * A typed amount against the product's terms, in the server's order: the amount's form, more
 * than zero, the product's minimum and maximum, what is left to sell, then the balance. A refusal
 * past the amount's form still carries the figures, so the page keeps showing them.
 */
export function checkPurchase(text: string, terms: PurchaseTerms): PurchaseCheck {
  const parsed = parseAmount(text.trim(), terms.scale);
  if (!parsed.ok) return { ok: false, refusal: parsed.refusal };
  const amount = parsed.atomic;
  if (amount === 0n) return { ok: false, refusal: 'amount_not_positive' };
  const expected = expectedReturn(amount, terms.ratePpm, terms.days);
  const quote: PurchaseQuote = { amount, expected, daily: dailyIncome(amount, terms.ratePpm), total: amount + expected };
  if (amount < terms.minimum) return { ok: false, refusal: 'amount_below_product_minimum', quote };
  if (terms.maximum > 0n && amount > terms.maximum) return { ok: false, refusal: 'amount_above_product_maximum', quote };
  if (terms.remaining !== undefined && amount > terms.remaining) return { ok: false, refusal: 'amount_above_remaining', quote };
  if (terms.available !== undefined && amount > terms.available) return { ok: false, refusal: 'balance_insufficient', quote };
  return { ok: true, ...quote };
}

/** The purchase terms a product states, with the caller's balance when known. */
export function termsOf(product: Product, available?: bigint): PurchaseTerms {
  const scale = scaleOf(product.minAmount);
  const cap = atomicOf(product.type === 'bond' ? product.target : product.totalCap, scale);
  const sold = atomicOf(product.sold, scale);
  return {
    scale,
    minimum: atomicOf(product.minAmount, scale),
    maximum: atomicOf(product.maxAmount, scale),
    ratePpm: ppmOfPercent(product.dailyRate),
    days: product.days,
    available,
    remaining: cap > 0n ? (cap > sold ? cap - sold : 0n) : undefined,
  };
}

/** The price of `quantity` machines at `unitPrice` atomic units each. */
export const machinesCost = (unitPrice: bigint, quantity: number) => unitPrice * BigInt(Math.max(0, Math.trunc(quantity)));

/** 12500000n with scale 6 → "12.5" (what an amount field shows); 0n → "0". */
export function plainText(atomic: bigint, scale: number): string {
  const text = formatAmount(atomic, scale);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** A typed amount as the parser reads it: "12,5" (a decimal comma keyboard) is "12.5"; spaces go. */
export const normaliseAmountText = (text: string) => {
  const trimmed = text.replace(/\s/g, '');
  return trimmed.includes(',') && !trimmed.includes('.') && trimmed.split(',').length === 2 ? trimmed.replace(',', '.') : trimmed;
};

/** A retry key for one confirmation (ClientOrderId: 8–64 of [A-Za-z0-9_.:-]). */
export function newClientOrderId(): string {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return `inv-${random}`;
}

/** Coverage as the page reads it: "∞", or a percent string; `low` under 100 %. */
export function coverageView(coverage: string): { infinite: boolean; percent: string; low: boolean } {
  if (coverage === '∞' || coverage.trim() === '') return { infinite: true, percent: '', low: false };
  const [whole] = coverage.split('.');
  return { infinite: false, percent: coverage, low: /^[0-9]+$/.test(whole ?? '') && Number(whole) < 100 };
}
