// The candles last shown for each (symbol, period), kept on the device so a chart opened offline
// shows them with their age instead of an empty axis (issue 8 #14). A database of its own in the
// device's storage (lib/storage.ts openDeviceStore: memory when IndexedDB fails). Bounded: the
// newest page of candles per chart, for the charts seen most recently. Failures are logged, never
// thrown (private modes, full disks).
import type { Candle, CandlePeriod } from '../../api/contract/market.ts';
import { openDeviceStore } from '../../lib/storage.ts';
import { candlePageSize } from './chartData.ts';

/** Charts whose candles are kept; the one seen longest ago goes first. */
export const savedChartsMax = 24;

export interface SavedCandles {
  savedAtMs: number;
  /** Oldest first, at most one page. */
  candles: Candle[];
}

const decimalPattern = /^-?\d+(\.\d+)?$/;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

const isCandle = (value: unknown): value is Candle => isRecord(value) && Number.isInteger(value.time)
  && (['open', 'high', 'low', 'close', 'volume'] as const).every((field) => typeof value[field] === 'string' && decimalPattern.test(value[field]));

/** A stored entry read back: whole and well-formed, or nothing (a half-read price is not shown as a price). */
export function parseSavedCandles(value: unknown): SavedCandles | undefined {
  if (!isRecord(value) || !Number.isInteger(value.savedAtMs) || (value.savedAtMs as number) <= 0 || !Array.isArray(value.candles)) return undefined;
  if (value.candles.length === 0 || !value.candles.every(isCandle)) return undefined;
  return { savedAtMs: value.savedAtMs as number, candles: value.candles.slice(-candlePageSize) };
}

/** The candles with the live one put in its place: the same opening time replaces, a newer one is appended. */
export function withLiveCandle(candles: Candle[], live: Candle): Candle[] {
  const last = candles.at(-1);
  if (!last || live.time > last.time) return [...candles, live].slice(-candlePageSize);
  if (live.time === last.time) return [...candles.slice(0, -1), live];
  return candles;
}

/** The last price known and when it was ticked (the ticker the page's header shows). */
export interface LastTick { price: string; timeMs: number }

const minuteMs = 60_000;
const periodLengthMs: Partial<Record<CandlePeriod, number>> = {
  '1m': minuteMs, '5m': 5 * minuteMs, '15m': 15 * minuteMs, '30m': 30 * minuteMs, '1h': 60 * minuteMs, '4h': 240 * minuteMs,
  '1d': 1440 * minuteMs, '1w': 7 * 1440 * minuteMs,
};

/**
 * Opening time of the candle of `period` that holds `timeMs`, on the server's grid
 * (server/domain/core/market/candles.ts): UTC multiples of the length, weeks from Monday, months from the first.
 */
export function periodStartMs(period: CandlePeriod, timeMs: number): number {
  if (period === '1M') {
    const date = new Date(timeMs);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  }
  const length = periodLengthMs[period]!;
  // 1970-01-01 was a Thursday; the week grid starts on Monday 1970-01-05.
  const originMs = period === '1w' ? 4 * 1440 * minuteMs : 0;
  return Math.floor((timeMs - originMs) / length) * length + originMs;
}

/**
 * Kept candles made to agree with the last tick the page shows above them (issue 19 #6): the two
 * are saved at different moments, so offline the header said 67,390.45 and the last candle
 * 67,397.09. Candles opening after the tick's are dropped; the tick's own candle closes at its
 * price (high and low stretched to reach it), or one is started at it. A tick older than every
 * kept candle changes nothing.
 */
export function withLastTick(candles: Candle[], tick: LastTick, period: CandlePeriod): Candle[] {
  const startMs = periodStartMs(period, tick.timeMs);
  if (candles.length === 0 || startMs < candles[0].time) return candles;
  const upToTick = candles.filter((candle) => candle.time <= startMs);
  const last = upToTick.at(-1)!;
  const { price } = tick;
  if (last.time === startMs) {
    // The chart draws floats anyway; the strings themselves are kept.
    const high = Number(price) > Number(last.high) ? price : last.high;
    const low = Number(price) < Number(last.low) ? price : last.low;
    return [...upToTick.slice(0, -1), { ...last, high, low, close: price }];
  }
  return [...upToTick, { time: startMs, open: price, high: price, low: price, close: price, volume: '0' }].slice(-candlePageSize);
}

/** Keys to delete so that at most `max` charts stay: those saved longest ago. */
export function keysBeyond(saved: Array<[string, number]>, max: number): string[] {
  return [...saved].sort((a, b) => b[1] - a[1]).slice(max).map(([key]) => key);
}

const store = openDeviceStore('bourse-candles', 'candles');
const keyOf = (symbol: string, period: CandlePeriod) => `${symbol}|${period}`;

export async function readSavedCandles(symbol: string, period: CandlePeriod): Promise<SavedCandles | undefined> {
  return parseSavedCandles(await store.get(keyOf(symbol, period)));
}

/** Which charts are kept and when each was saved, so pruning does not read every chart's candles. */
const indexKey = '#saved';

function parseIndex(value: unknown): Record<string, number> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
}

export async function saveCandles(symbol: string, period: CandlePeriod, candles: Candle[], savedAtMs: number): Promise<void> {
  if (candles.length === 0) return;
  const key = keyOf(symbol, period);
  const index = parseIndex(await store.get(indexKey));
  index[key] = savedAtMs;
  const dropped = keysBeyond(Object.entries(index), savedChartsMax);
  for (const old of dropped) delete index[old];
  await store.setMany([[key, { savedAtMs, candles: candles.slice(-candlePageSize) } satisfies SavedCandles], [indexKey, index]]);
  if (dropped.length > 0) await store.delMany(dropped);
}
