// The swap form's checks on what the user typed, in integers of the currency's scale: a typed
// amount read exactly, "All" as the available balance, and whether the amount may be quoted.
// The quote itself (rate, fee, receive) is the server's, made with src/api/contract/swapMath.ts.

/** A typed amount as atomic units of `scale` decimals; undefined when unreadable or with too many decimals. */
export function parseAmountAtomic(text: string, scale: number): bigint | undefined {
  const match = /^(\d{1,20})(?:\.(\d*))?$/.exec(text.trim().replace(',', '.'));
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  if (fraction.length > scale) return undefined;
  return BigInt(match[1]) * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
}

/** "12.340000" → "12.34", "5.000" → "5": an amount as the user would type it. */
export const trimAmount = (text: string) => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);

export type SwapAmountCheck = 'empty' | 'invalid' | 'above_balance' | 'ok';

export function checkSwapAmount(text: string, scale: number, available: string | undefined): SwapAmountCheck {
  if (text.trim() === '') return 'empty';
  const amount = parseAmountAtomic(text, scale);
  if (amount === undefined || amount <= 0n) return 'invalid';
  const balance = available === undefined ? undefined : parseAmountAtomic(available, Math.max(scale, decimalsOf(available)));
  const amountAtBalanceScale = available === undefined ? amount : amount * 10n ** BigInt(Math.max(0, decimalsOf(available) - scale));
  if (balance !== undefined && amountAtBalanceScale > balance) return 'above_balance';
  return 'ok';
}

const decimalsOf = (text: string) => text.split('.')[1]?.length ?? 0;

/** Whole seconds left until `expiresAtMs`, never below zero. */
export const secondsLeft = (expiresAtMs: number, nowMs: number) => Math.max(0, Math.ceil((expiresAtMs - nowMs) / 1000));

/** Refusals after which the quote shown can no longer be used, and a new one is offered. */
export const quoteGoneCodes = ['quote_expired', 'quote_used', 'quote_not_found'] as const;
