// When a market trades. Crypto never closes. Forex and metals trade from Sunday 22:00 UTC to
// Friday 22:00 UTC (the usual retail week, daylight saving ignored), and not in between.
import type { SymbolClass } from '../../../src/api/contract/market.ts';

const weekCloseHourUtc = 22;

export function isMarketOpen(klass: SymbolClass, timeMs: number): boolean {
  if (klass === 'crypto') return true;
  const date = new Date(timeMs);
  const day = date.getUTCDay();
  const hour = date.getUTCHours();
  if (day === 6) return false;
  if (day === 5) return hour < weekCloseHourUtc;
  if (day === 0) return hour >= weekCloseHourUtc;
  return true;
}

/** Fraction of a year a market trades, for scaling annualised volatility per open second. */
export function tradingSecondsPerYear(klass: SymbolClass): number {
  return klass === 'crypto' ? 365 * 86_400 : 52 * 5 * 86_400;
}
