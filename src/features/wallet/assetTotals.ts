// What the asset centre and the home balance card share: the total in the display currency
// (converted exactly, with bigint, at the rate the server quotes), the user's display-currency
// choice, and the one "hide amounts" flag, so the eye on either hides the amounts on both.
import { useSyncExternalStore } from 'react';
import { formatAmount } from '../../api/contract/amounts.ts';
import type { CurrencyRate } from '../../api/contract/wallet.ts';
import { readLocal, writeLocal } from '../../lib/storage.ts';

export const displayCurrencyKey = 'bourse.displayCurrency';
export const hideAmountsKey = 'bourse.hideAmounts';
/** What replaces an amount while amounts are hidden. */
export const hiddenAmount = '****';
/** A total in a display currency needs no more than this many decimals, whatever the currency's scale. */
export const displayDecimalsMax = 8;

/** A decimal string as an integer and its decimals: "-12.50" → -1250n, 2. */
export function decimalUnits(text: string): { units: bigint; decimals: number } | undefined {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(text.trim());
  if (!match) return undefined;
  const fraction = match[3] ?? '';
  const units = BigInt(match[2] + fraction);
  return { units: match[1] ? -units : units, decimals: fraction.length };
}

/**
 * A USDT amount in another currency, `rate` being USDT per unit of it: usdt / rate, cut toward
 * zero at `scale` decimals, exactly (integers only). Undefined when either is not a decimal or
 * the rate is not positive.
 */
export function convertFromUsdt(usdt: string, rate: string, scale: number): string | undefined {
  const amount = decimalUnits(usdt);
  const perUnit = decimalUnits(rate);
  if (!amount || !perUnit || perUnit.units <= 0n) return undefined;
  // (A / 10^a) / (R / 10^b) at `scale` decimals = A · 10^(b + scale) / (R · 10^a)
  const atomic = (amount.units * 10n ** BigInt(perUnit.decimals + scale)) / (perUnit.units * 10n ** BigInt(amount.decimals));
  return formatAmount(atomic, scale);
}

export { decimalsOf } from '../../lib/number.ts';

/** The display currency to use: the stored choice if still offered, else BTC, else the first that is not USDT. */
export function pickDisplayCurrency(stored: string | null, offered: readonly string[]): string | undefined {
  if (stored && offered.includes(stored)) return stored;
  if (offered.includes('BTC')) return 'BTC';
  return offered.find((code) => code !== 'USDT') ?? offered[0];
}

export const storedDisplayCurrency = () => readLocal(displayCurrencyKey);
export const storeDisplayCurrency = (code: string) => writeLocal(displayCurrencyKey, code);

/**
 * The total in the display currency: its decimals (the currency's scale, at most 8), the rate if
 * it is this currency's, and the converted amount when there is one.
 */
export function displayTotalOf(totalUsdt: string, currency: { currency: string; scale: number }, rate: CurrencyRate | undefined) {
  const decimals = Math.min(currency.scale, displayDecimalsMax);
  const usable = rate && rate.currency === currency.currency ? rate : undefined;
  const converted = usable ? convertFromUsdt(totalUsdt, usable.rate, decimals) : undefined;
  return { decimals, usable, converted };
}

const hiddenListeners = new Set<() => void>();
const readHidden = () => readLocal(hideAmountsKey) === '1';

/** Hides or shows amounts on every page that shows them, now and on later visits. */
export function setAmountsHidden(hidden: boolean) {
  writeLocal(hideAmountsKey, hidden ? '1' : '0');
  for (const listener of hiddenListeners) listener();
}

/** Whether amounts are hidden (the eye), kept in step across the pages mounted at once. */
export function useAmountsHidden(): boolean {
  return useSyncExternalStore((listener) => {
    hiddenListeners.add(listener);
    return () => hiddenListeners.delete(listener);
  }, readHidden, readHidden);
}
