// The candles last shown for each (symbol, period), kept on the device so a chart opened offline
// shows them with their age instead of an empty axis (issue 8 #14). A small IndexedDB store of
// its own (idb-keyval, as lib/storage.ts uses): it loads with the chart page only, so the first
// screen's bundle does not carry it. Bounded: the newest page of candles per chart, for the
// charts seen most recently. Failures are logged, never thrown (private modes, full disks).
import { createStore, delMany, get, setMany } from 'idb-keyval';
import type { Candle, CandlePeriod } from '../../api/contract/market.ts';
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

/** Keys to delete so that at most `max` charts stay: those saved longest ago. */
export function keysBeyond(saved: Array<[string, number]>, max: number): string[] {
  return [...saved].sort((a, b) => b[1] - a[1]).slice(max).map(([key]) => key);
}

let store: ReturnType<typeof createStore> | undefined;
const db = () => (store ??= createStore('bourse-candles', 'candles'));
const keyOf = (symbol: string, period: CandlePeriod) => `${symbol}|${period}`;
const report = (what: string, error: unknown) => console.warn(`[candles] ${what} failed`, error);

export async function readSavedCandles(symbol: string, period: CandlePeriod): Promise<SavedCandles | undefined> {
  try {
    return parseSavedCandles(await get(keyOf(symbol, period), db()));
  } catch (error) {
    report('read', error);
    return undefined;
  }
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
  try {
    const index = parseIndex(await get(indexKey, db()));
    index[key] = savedAtMs;
    const dropped = keysBeyond(Object.entries(index), savedChartsMax);
    for (const old of dropped) delete index[old];
    await setMany([[key, { savedAtMs, candles: candles.slice(-candlePageSize) } satisfies SavedCandles], [indexKey, index]], db());
    if (dropped.length > 0) await delMany(dropped, db());
  } catch (error) {
    report('write', error);
  }
}
