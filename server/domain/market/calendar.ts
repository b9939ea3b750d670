// When a market trades. Crypto never closes. Forex and metals trade from Sunday 22:00 UTC to
// Friday 22:00 UTC (the usual retail week, daylight saving ignored), and not in between.
import type { SymbolClass } from '../../../src/api/contract/market.ts';

const weekCloseHourUtc = 22;
const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
const weekMs = 7 * dayMs;
/** Monday 1970-01-05 00:00 UTC, and the week's close and reopening as offsets from a Monday. */
const mondayOriginMs = 4 * dayMs;
const closeOffsetMs = 4 * dayMs + weekCloseHourUtc * hourMs;
const reopenOffsetMs = 6 * dayMs + weekCloseHourUtc * hourMs;
const closedPerWeekMs = reopenOffsetMs - closeOffsetMs;

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

/** Open time of the trading week between the week grid's origin and `timeMs` (negative before it). */
function weekOpenMsBefore(timeMs: number): number {
  const sinceOrigin = timeMs - mondayOriginMs;
  const weeks = Math.floor(sinceOrigin / weekMs);
  const intoWeek = sinceOrigin - weeks * weekMs;
  const openIntoWeek = intoWeek < closeOffsetMs ? intoWeek : intoWeek < reopenOffsetMs ? closeOffsetMs : intoWeek - closedPerWeekMs;
  return weeks * (weekMs - closedPerWeekMs) + openIntoWeek;
}

/** How long the market trades within [fromMs, toMs): what the model's clock advances by. */
export function tradingMs(klass: SymbolClass, fromMs: number, toMs: number): number {
  if (toMs <= fromMs) return 0;
  return klass === 'crypto' ? toMs - fromMs : weekOpenMsBefore(toMs) - weekOpenMsBefore(fromMs);
}

/** Fraction of a year a market trades, for scaling annualised volatility per open second. */
export function tradingSecondsPerYear(klass: SymbolClass): number {
  return klass === 'crypto' ? 365 * 86_400 : 52 * 5 * 86_400;
}
