// When a market trades. Crypto never closes. Forex and metals trade from Sunday 22:00 UTC to
// Friday 22:00 UTC (the usual retail week, daylight saving ignored), and not in between.
import type { SymbolClass } from '../../../../src/api/contract/market.ts';

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

/** Wall time of a point on the trading clock; a point at a week's close maps to the reopening. */
function wallMsOf(tradingClockMs: number): number {
  const tradingWeekMs = weekMs - closedPerWeekMs;
  const weeks = Math.floor(tradingClockMs / tradingWeekMs);
  const intoWeek = tradingClockMs - weeks * tradingWeekMs;
  return mondayOriginMs + weeks * weekMs + (intoWeek < closeOffsetMs ? intoWeek : intoWeek + closedPerWeekMs);
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

/**
 * The start of the stretch that holds the last `durationMs` of trading up to `endMs`: the 24 h
 * statistics of a market are over its last 24 hours of trading, so at the weekend they are the
 * last session's (the day before Friday's close) and early on Monday they reach back into Friday.
 */
export function tradingWindowStartMs(klass: SymbolClass, endMs: number, durationMs: number): number {
  return klass === 'crypto' ? endMs - durationMs : wallMsOf(weekOpenMsBefore(endMs) - durationMs);
}

/** When a closed market opens again (the Sunday reopening); undefined while it trades. */
export function reopensAtMs(klass: SymbolClass, timeMs: number): number | undefined {
  if (isMarketOpen(klass, timeMs)) return undefined;
  const intoWeek = (((timeMs - mondayOriginMs) % weekMs) + weekMs) % weekMs;
  return timeMs - intoWeek + reopenOffsetMs;
}
