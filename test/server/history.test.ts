// The back-filled history, without a database: one path per symbol folded into every period, so
// each coarser candle is exactly the fold of the finer candles inside it wherever both exist; the
// path runs up to now (the current candles hold the earlier part of their bucket) and ends at the
// price the live feed starts from; forex and metals neither trade nor move while closed.
import { describe, expect, it } from 'vitest';
import { candlePeriods, type CandlePeriod } from '../../src/api/contract/market.ts';
import { isMarketOpen, tradingMs } from '../../server/domain/core/market/calendar.ts';
import { nextPeriodStart, periodStart, type CandleUnits } from '../../server/domain/core/market/candles.ts';
import { buildHistory, continueHistory, historyCandleCount, historyRegions, type History } from '../../server/domain/core/market/history.ts';
import { parsePrice, symbolByCode, type SymbolSpec } from '../../server/domain/core/market/symbols.ts';

const minuteMs = 60_000;
const dayMs = 86_400_000;

/** The fold of candles, oldest first, into one candle of `period` opening at `openTimeMs`. */
function fold(candles: CandleUnits[], period: CandlePeriod, openTimeMs: number): CandleUnits {
  return {
    symbol: candles[0].symbol, period, openTimeMs, open: candles[0].open, close: candles.at(-1)!.close,
    high: candles.reduce((max, candle) => (candle.high > max ? candle.high : max), candles[0].high),
    low: candles.reduce((min, candle) => (candle.low < min ? candle.low : min), candles[0].low),
    volume: candles.reduce((sum, candle) => sum + candle.volume, 0n),
  };
}

/** Whether every candle of `coarse` is a whole number of `fine` candles (weeks and months are not). */
const nests = (fine: CandlePeriod, coarse: CandlePeriod) =>
  candlePeriods.indexOf(fine) < candlePeriods.indexOf(coarse) && !(fine === '1w' && coarse === '1M');

const cases: Array<{ name: string; spec: SymbolSpec; nowMs: number }> = [
  { name: 'BTCUSDT mid-minute on a Tuesday', spec: symbolByCode.get('BTCUSDT')!, nowMs: Date.UTC(2026, 5, 2, 13, 47, 21, 500) },
  { name: 'BTCUSDT on the hour', spec: symbolByCode.get('BTCUSDT')!, nowMs: Date.UTC(2026, 5, 1, 4, 0, 0) },
  // 1500 trading minutes back from Monday 03:17 reach Friday: the 1m history spans the weekend.
  { name: 'EURUSD early Monday, after a weekend', spec: symbolByCode.get('EURUSD')!, nowMs: Date.UTC(2026, 5, 8, 3, 17, 42) },
  { name: 'XAUUSD on a Saturday, market closed', spec: symbolByCode.get('XAUUSD')!, nowMs: Date.UTC(2026, 5, 6, 12, 0, 0) },
];

describe.each(cases)('history of $name', ({ spec, nowMs }) => {
  const history: History = buildHistory(spec, nowMs, 'history-test');
  const startPrice = parsePrice(spec.startPrice, spec.pricePrecision);

  it('gives every period at least its count of candles before the current one, in order, without gaps in price', () => {
    // Problems are collected and compared once: thousands of candles, one assertion.
    const problems: string[] = [];
    for (const period of candlePeriods) {
      const candles = history[period];
      const before = candles.filter((candle) => candle.openTimeMs < periodStart(period, nowMs));
      if (before.length < historyCandleCount[period]) problems.push(`${period}: only ${before.length} candles`);
      candles.forEach((candle, i) => {
        const at = `${period} ${new Date(candle.openTimeMs).toISOString()}`;
        if (!(candle.low > 0n && candle.low <= candle.open && candle.low <= candle.close)) problems.push(`${at}: low`);
        if (!(candle.high >= candle.open && candle.high >= candle.close)) problems.push(`${at}: high`);
        if (candle.volume < 0n) problems.push(`${at}: volume`);
        if (i === 0) return;
        if (candle.openTimeMs <= candles[i - 1].openTimeMs) problems.push(`${at}: out of order`);
        // One path: each candle opens where the one before closed (a closed market does not move).
        if (candle.open !== candles[i - 1].close) problems.push(`${at}: opens at ${candle.open}, previous closed at ${candles[i - 1].close}`);
      });
    }
    expect(problems).toEqual([]);
  });

  it('folds each coarser candle exactly from the finer candles inside it, wherever the finer period has history', () => {
    let compared = 0;
    for (const fine of candlePeriods) {
      const fineCandles = history[fine];
      const fineFromMs = fineCandles[0].openTimeMs;
      for (const coarse of candlePeriods.filter((period) => nests(fine, period))) {
        const groups = new Map<number, CandleUnits[]>();
        for (const candle of fineCandles) {
          const key = periodStart(coarse, candle.openTimeMs);
          groups.set(key, [...(groups.get(key) ?? []), candle]);
        }
        const coarseByOpen = new Map(history[coarse].map((candle) => [candle.openTimeMs, candle]));
        // Every finer candle lies in a coarser one that exists…
        for (const key of groups.keys()) expect(coarseByOpen.has(key), `${coarse} at ${new Date(key).toISOString()}`).toBe(true);
        // …and every coarser candle the finer history covers is the fold of the finer ones inside it.
        for (const candle of history[coarse]) {
          if (candle.openTimeMs < fineFromMs) continue;
          const inside = groups.get(candle.openTimeMs);
          expect(inside, `${fine} inside ${coarse} ${new Date(candle.openTimeMs).toISOString()}`).toBeDefined();
          expect(candle, `${coarse} from ${fine} at ${new Date(candle.openTimeMs).toISOString()}`)
            .toEqual(fold(inside!, coarse, candle.openTimeMs));
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(1500);
  });

  it('makes no candle in which the market is closed', () => {
    const problems: string[] = [];
    for (const period of candlePeriods) {
      for (const candle of history[period]) {
        const endMs = Math.min(nowMs, nextPeriodStart(period, candle.openTimeMs));
        const closed = tradingMs(spec.class, candle.openTimeMs, endMs) === 0
          || (fixedUpToAnHour(period) && !isMarketOpen(spec.class, candle.openTimeMs));
        if (closed) problems.push(`${period} ${new Date(candle.openTimeMs).toISOString()}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('runs up to now and ends at the price the live feed starts from', () => {
    const lastMinute = history['1m'].at(-1)!;
    for (const period of candlePeriods) {
      const last = history[period].at(-1)!;
      expect(last.close, period).toBe(startPrice);
      // The last candle of each period is the one holding the last minute that traded.
      expect(last.openTimeMs, period).toBe(periodStart(period, lastMinute.openTimeMs));
    }
    if (isMarketOpen(spec.class, nowMs - 1)) {
      // The last minute that traded is the current one (or the one that just ended, on the minute).
      expect(lastMinute.openTimeMs).toBe(periodStart('1m', nowMs - 1));
    } else {
      expect(tradingMs(spec.class, lastMinute.openTimeMs + minuteMs, nowMs)).toBe(0);
    }
  });

  it('is the same for the same seed and time, and another path for another seed', () => {
    expect(buildHistory(spec, nowMs, 'history-test')).toEqual(history);
    expect(buildHistory(spec, nowMs, 'other-seed')['1m'].map((candle) => candle.close))
      .not.toEqual(history['1m'].map((candle) => candle.close));
  });
});

describe('history volumes and regions', () => {
  it('trades about the daily volume in the last 24 h, and the current day holds the part of it since midnight', () => {
    const btc = symbolByCode.get('BTCUSDT')!;
    const nowMs = Date.UTC(2026, 5, 2, 13, 47, 21, 500);
    const history = buildHistory(btc, nowMs, 'volume-test');
    const scale = 10 ** btc.volumePrecision;
    // Floats only to compare the totals with the configured mean.
    const total = (candles: CandleUnits[]) => Number(candles.reduce((sum, candle) => sum + candle.volume, 0n)) / scale;
    const lastDay = history['1m'].filter((candle) => candle.openTimeMs > periodStart('1m', nowMs) - dayMs);
    expect(lastDay.length).toBe(1440);
    expect(total(lastDay) / btc.dailyVolume).toBeGreaterThan(0.9);
    expect(total(lastDay) / btc.dailyVolume).toBeLessThan(1.1);

    const today = history['1d'].at(-1)!;
    expect(today.openTimeMs).toBe(Date.UTC(2026, 5, 2));
    const sinceMidnight = history['1m'].filter((candle) => candle.openTimeMs >= today.openTimeMs);
    expect(sinceMidnight[0].openTimeMs).toBe(today.openTimeMs);
    expect(today).toEqual(fold(sinceMidnight, '1d', today.openTimeMs));
    const dayFraction = (nowMs - today.openTimeMs) / dayMs;
    expect(total([today]) / (btc.dailyVolume * dayFraction)).toBeGreaterThan(0.85);
    expect(total([today]) / (btc.dailyVolume * dayFraction)).toBeLessThan(1.15);
  });

  it('steps each region at its period, contiguously from decades ago up to now, each start on the next coarser grid', () => {
    const nowMs = Date.UTC(2026, 5, 2, 13, 47, 21);
    const regions = historyRegions(symbolByCode.get('EURUSD')!, nowMs);
    expect(regions.map((region) => region.period)).toEqual([...candlePeriods].reverse());
    expect(regions.at(-1)!.endMs).toBe(nowMs);
    for (let i = 1; i < regions.length; i += 1) expect(regions[i].startMs).toBe(regions[i - 1].endMs);
    for (const region of regions) {
      const coarser = candlePeriods[candlePeriods.indexOf(region.period) + 1];
      const grid = coarser && coarser !== '1M' ? coarser : region.period;
      expect(periodStart(grid, region.startMs), region.period).toBe(region.startMs);
    }
  });
});

function fixedUpToAnHour(period: CandlePeriod) {
  return ['1m', '5m', '15m', '30m', '1h'].includes(period);
}

describe('continuing a history after a restart', () => {
  const btc = symbolByCode.get('BTCUSDT')!;
  const stoppedMs = Date.UTC(2026, 5, 2, 18, 44, 37);
  const history = buildHistory(btc, stoppedMs, 'continue-test');
  const latest = new Map(candlePeriods.map((period) => [period, history[period].at(-1)!]));

  it('runs every minute from the last tick to now from the last close, continuing the candles it started in', () => {
    const nowMs = stoppedMs + 3 * 60 * minuteMs + 25_000;
    const continued = continueHistory(btc, latest, stoppedMs, nowMs, 'continue-test');
    const minutes = continued['1m'];
    expect(minutes.map((candle) => candle.openTimeMs)).toEqual(
      Array.from({ length: 182 }, (_, i) => periodStart('1m', stoppedMs) + i * minuteMs));
    // The minute it stopped in keeps its opening and its volume so far, and grows.
    expect(minutes[0].open).toBe(latest.get('1m')!.open);
    expect(minutes[0].volume).toBeGreaterThan(latest.get('1m')!.volume);
    minutes.slice(1).forEach((candle, i) => expect(candle.open, new Date(candle.openTimeMs).toISOString()).toBe(minutes[i].close));
    // Each longer period's candles are the folds of the stored minutes and the continued ones.
    const allMinutes = [...history['1m'].slice(0, -1), ...minutes];
    for (const period of ['5m', '1h', '1d'] as const) {
      for (const candle of continued[period]) {
        const inside = allMinutes.filter((minute) => periodStart(period, minute.openTimeMs) === candle.openTimeMs);
        expect(candle, `${period} ${new Date(candle.openTimeMs).toISOString()}`).toEqual(fold(inside, period, candle.openTimeMs));
      }
    }
    expect(continueHistory(btc, latest, stoppedMs, nowMs, 'continue-test')).toEqual(continued);
  });

  it('steps coarser before the last week when it was down longer, still from the last close', () => {
    const nowMs = stoppedMs + 20 * dayMs;
    const continued = continueHistory(btc, latest, stoppedMs, nowMs, 'continue-test');
    // Minutes for the last week (and a little more, to the next coarser grid), longer steps before.
    expect(continued['1m'][0].openTimeMs).toBeGreaterThan(stoppedMs);
    expect(nowMs - continued['1m'][0].openTimeMs).toBeGreaterThanOrEqual(7 * dayMs);
    expect(continued['1d'][0]).toMatchObject({ openTimeMs: latest.get('1d')!.openTimeMs, open: latest.get('1d')!.open });
    const days = continued['1d'];
    days.slice(1).forEach((candle, i) => expect(candle.open).toBe(days[i].close));
    expect(days.at(-1)!.openTimeMs).toBe(periodStart('1d', nowMs));
  });
});
