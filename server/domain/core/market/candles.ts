// Candles: the period grid and the fold of ticks into OHLCV. Intraday periods are aligned to UTC
// multiples of their length, days to UTC midnight, weeks to Monday 00:00 UTC, months to the first
// of the month. The fold is pure, so aggregation can be checked against a brute-force fold.
import type { CandlePeriod } from '../../../../src/api/contract/market.ts';

export interface CandleUnits {
  symbol: string;
  period: CandlePeriod;
  openTimeMs: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
}

export interface TickLike {
  symbol: string;
  timeMs: number;
  priceUnits: bigint;
  volumeUnits: bigint;
  /** Which feed produced the tick, when a batch mixes sources. */
  source?: string;
}

const minuteMs = 60_000;
export const fixedPeriodMs: Partial<Record<CandlePeriod, number>> = {
  '1m': minuteMs, '5m': 5 * minuteMs, '15m': 15 * minuteMs, '30m': 30 * minuteMs,
  '1h': 60 * minuteMs, '4h': 240 * minuteMs, '1d': 1440 * minuteMs, '1w': 7 * 1440 * minuteMs,
};

/** Opening time of the candle of `period` that contains `timeMs`. */
export function periodStart(period: CandlePeriod, timeMs: number): number {
  if (period === '1M') {
    const date = new Date(timeMs);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  }
  if (period === '1w') {
    // 1970-01-01 was a Thursday; Monday 1970-01-05 is the week grid's origin.
    const mondayOriginMs = 4 * 86_400_000;
    const weekMs = fixedPeriodMs['1w']!;
    return Math.floor((timeMs - mondayOriginMs) / weekMs) * weekMs + mondayOriginMs;
  }
  const length = fixedPeriodMs[period]!;
  return Math.floor(timeMs / length) * length;
}

/** Opening time of the candle after the one opening at `openTimeMs`. */
export function nextPeriodStart(period: CandlePeriod, openTimeMs: number): number {
  if (period === '1M') {
    const date = new Date(openTimeMs);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  }
  return openTimeMs + fixedPeriodMs[period]!;
}

/** Opening time of the candle before the one opening at `openTimeMs`. */
export function previousPeriodStart(period: CandlePeriod, openTimeMs: number): number {
  if (period === '1M') {
    const date = new Date(openTimeMs);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1);
  }
  return openTimeMs - fixedPeriodMs[period]!;
}

/** Folds one tick into the candle it belongs to; returns a new candle when the period changed. */
export function applyTick(candle: CandleUnits | undefined, tick: TickLike, period: CandlePeriod): CandleUnits {
  const openTimeMs = periodStart(period, tick.timeMs);
  if (!candle || candle.openTimeMs !== openTimeMs) {
    return {
      symbol: tick.symbol, period, openTimeMs, open: tick.priceUnits, high: tick.priceUnits, low: tick.priceUnits,
      close: tick.priceUnits, volume: tick.volumeUnits,
    };
  }
  return {
    ...candle,
    high: tick.priceUnits > candle.high ? tick.priceUnits : candle.high,
    low: tick.priceUnits < candle.low ? tick.priceUnits : candle.low,
    close: tick.priceUnits,
    volume: candle.volume + tick.volumeUnits,
  };
}
