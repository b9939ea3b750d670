// The market model without a database: the simulator's determinism, realism and trading week,
// the candle fold against a brute-force oracle, and the back-filled history.
import { describe, expect, it } from 'vitest';
import { candlePeriods, type CandlePeriod } from '../../src/api/contract/market.ts';
import { applyTick, nextPeriodStart, periodStart, type CandleUnits, type TickLike } from '../../server/domain/core/market/candles.ts';
import { buildHistory, historyCandleCount } from '../../server/domain/core/market/history.ts';
import { SymbolSimulator, seededRandom, seededSimulatorRandom } from '../../server/domain/core/market/simulator.ts';
import { formatUnits, parsePrice, symbolByCode } from '../../server/domain/core/market/symbols.ts';
import { isMarketOpen, reopensAtMs, tradingMs, tradingWindowStartMs } from '../../server/domain/core/market/calendar.ts';

const btc = symbolByCode.get('BTCUSDT')!;
const eur = symbolByCode.get('EURUSD')!;
const gold = symbolByCode.get('XAUUSD')!;
const monday = Date.UTC(2026, 5, 1, 4, 0, 0);

function run(simulator: SymbolSimulator, startMs: number, steps: number, stepMs: number) {
  const ticks = [];
  for (let i = 1; i <= steps; i += 1) {
    const tick = simulator.step(startMs + i * stepMs);
    if (tick) ticks.push(tick);
  }
  return ticks;
}

describe('the price simulator', () => {
  it('gives the same ticks for the same seed, and different ones for another seed', () => {
    const first = run(new SymbolSimulator(btc, seededSimulatorRandom('seed-a', btc.symbol, monday), monday), monday, 2000, 1000);
    const again = run(new SymbolSimulator(btc, seededSimulatorRandom('seed-a', btc.symbol, monday), monday), monday, 2000, 1000);
    const other = run(new SymbolSimulator(btc, seededSimulatorRandom('seed-b', btc.symbol, monday), monday), monday, 2000, 1000);
    expect(again).toEqual(first);
    expect(other.map((tick) => tick.priceUnits)).not.toEqual(first.map((tick) => tick.priceUnits));
  });

  it.each([
    ['BTCUSDT', 0.6],
    ['EURUSD', 0.07],
    ['XAUUSD', 0.15],
  ])('realises %s annualised volatility near its configured %s over a long run', (symbol, configured) => {
    const spec = symbolByCode.get(symbol)!;
    // Floats here are statistics of the model, not money.
    const simulator = new SymbolSimulator(spec, seededSimulatorRandom('volatility', spec.symbol, monday), monday, 10n ** 12n);
    const stepSeconds = 60;
    const returns: number[] = [];
    let previous = Math.log(Number(simulator.priceUnits));
    for (let i = 1; i <= 60_000; i += 1) {
      const tick = simulator.step(monday + i * stepSeconds * 1000);
      if (!tick) continue;
      const current = Math.log(Number(tick.priceUnits));
      returns.push(current - previous);
      previous = current;
    }
    const mean = returns.reduce((sum, value) => sum + value, 0) / returns.length;
    const variance = returns.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (returns.length - 1);
    const secondsPerYear = spec.class === 'crypto' ? 365 * 86_400 : 52 * 5 * 86_400;
    const realised = Math.sqrt(variance * (secondsPerYear / stepSeconds));
    expect(realised).toBeGreaterThan(configured * 0.9);
    expect(realised).toBeLessThan(configured * 1.2);
  });

  it('produces no forex or gold ticks from Friday 22:00 to Sunday 22:00 UTC, while crypto trades on', () => {
    const friday = Date.UTC(2026, 5, 5, 20, 0, 0);
    const minutes = 60 * 52;
    for (const spec of [eur, gold]) {
      const ticks = run(new SymbolSimulator(spec, seededSimulatorRandom('weekend', spec.symbol, friday), friday), friday, minutes, 60_000);
      const weekend = ticks.filter((tick) => tick.timeMs > Date.UTC(2026, 5, 5, 22, 0, 0) - 1
        && tick.timeMs < Date.UTC(2026, 5, 7, 22, 0, 0));
      expect(weekend).toEqual([]);
      expect(ticks.some((tick) => tick.timeMs < Date.UTC(2026, 5, 5, 22, 0, 0))).toBe(true);
      expect(ticks.some((tick) => tick.timeMs >= Date.UTC(2026, 5, 7, 22, 0, 0))).toBe(true);
    }
    expect(run(new SymbolSimulator(btc, seededSimulatorRandom('weekend', btc.symbol, friday), friday), friday, minutes, 60_000)).toHaveLength(minutes);
    expect(isMarketOpen('forex', Date.UTC(2026, 5, 6, 12, 0, 0))).toBe(false);
  });

  it('says when a closed market reopens, and where its last 24 hours of trading start', () => {
    const hour = 3_600_000;
    const day = 24 * hour;
    const cases: Array<[string, number, number | undefined, number]> = [
      // [when, now, reopens at, window start]
      ['Wednesday noon', Date.UTC(2026, 5, 3, 12), undefined, Date.UTC(2026, 5, 2, 12)],
      ['Friday 21:59', Date.UTC(2026, 5, 5, 21, 59), undefined, Date.UTC(2026, 5, 4, 21, 59)],
      ['Friday 22:00, the close', Date.UTC(2026, 5, 5, 22), Date.UTC(2026, 5, 7, 22), Date.UTC(2026, 5, 4, 22)],
      ['Saturday', Date.UTC(2026, 5, 6, 10, 30), Date.UTC(2026, 5, 7, 22), Date.UTC(2026, 5, 4, 22)],
      ['Sunday 21:59', Date.UTC(2026, 5, 7, 21, 59), Date.UTC(2026, 5, 7, 22), Date.UTC(2026, 5, 4, 22)],
      ['Sunday 22:00, the reopening', Date.UTC(2026, 5, 7, 22), undefined, Date.UTC(2026, 5, 4, 22)],
      ['Monday 01:00', Date.UTC(2026, 5, 8, 1), undefined, Date.UTC(2026, 5, 5, 1)],
    ];
    for (const [when, nowMs, reopens, windowStart] of cases) {
      expect(reopensAtMs('forex', nowMs), when).toBe(reopens);
      expect(tradingWindowStartMs('metal', nowMs, day), when).toBe(windowStart);
      expect(tradingMs('forex', windowStart, nowMs), when).toBe(day);
      expect(reopensAtMs('crypto', nowMs), when).toBeUndefined();
      expect(tradingWindowStartMs('crypto', nowMs, day), when).toBe(nowMs - day);
    }
  });

  it('keeps every price on the tick grid and positive', () => {
    const ticks = run(new SymbolSimulator(eur, seededSimulatorRandom('grid', eur.symbol, monday), monday), monday, 5000, 1000);
    for (const tick of ticks) {
      expect(tick.priceUnits % eur.tickSizeUnits).toBe(0n);
      expect(tick.priceUnits > 0n).toBe(true);
      expect(tick.volumeUnits >= 0n).toBe(true);
    }
  });
});

describe('candle aggregation', () => {
  const bruteForce = (ticks: TickLike[], period: CandlePeriod): CandleUnits[] => {
    const groups = new Map<number, TickLike[]>();
    for (const tick of ticks) {
      const key = periodStart(period, tick.timeMs);
      groups.set(key, [...(groups.get(key) ?? []), tick]);
    }
    return [...groups].sort(([a], [b]) => a - b).map(([openTimeMs, group]) => ({
      symbol: group[0].symbol, period, openTimeMs,
      open: group[0].priceUnits, close: group.at(-1)!.priceUnits,
      high: group.reduce((max, tick) => (tick.priceUnits > max ? tick.priceUnits : max), group[0].priceUnits),
      low: group.reduce((min, tick) => (tick.priceUnits < min ? tick.priceUnits : min), group[0].priceUnits),
      volume: group.reduce((sum, tick) => sum + tick.volumeUnits, 0n),
    }));
  };

  it('folds random tick streams exactly like a brute-force grouping, for every period', () => {
    for (let trial = 0; trial < 40; trial += 1) {
      const random = seededRandom(1000 + trial);
      let timeMs = Date.UTC(2024, 0, 1) + Math.floor(random() * 1e10);
      const ticks: TickLike[] = [];
      const count = 50 + Math.floor(random() * 400);
      // Gaps from a second to several weeks, so every period boundary is crossed.
      const gapScaleMs = [1000, 60_000, 3_600_000, 86_400_000, 5 * 86_400_000][trial % 5];
      for (let i = 0; i < count; i += 1) {
        timeMs += 1 + Math.floor(random() * gapScaleMs);
        ticks.push({ symbol: 'BTCUSDT', timeMs, priceUnits: BigInt(1 + Math.floor(random() * 1e9)), volumeUnits: BigInt(Math.floor(random() * 1e6)) });
      }
      for (const period of candlePeriods) {
        const folded: CandleUnits[] = [];
        let current: CandleUnits | undefined;
        for (const tick of ticks) {
          const next = applyTick(current, tick, period);
          if (current && next.openTimeMs !== current.openTimeMs) folded.push(current);
          current = next;
        }
        if (current) folded.push(current);
        expect(folded, `${period} trial ${trial}`).toEqual(bruteForce(ticks, period));
      }
    }
  });

  it('aligns weeks to Monday 00:00 UTC and months to the first of the month', () => {
    const thursday = Date.UTC(2026, 10, 19, 15, 30);
    expect(new Date(periodStart('1w', thursday)).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(new Date(periodStart('1M', thursday)).toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(new Date(periodStart('4h', thursday)).toISOString()).toBe('2026-11-19T12:00:00.000Z');
    expect(new Date(periodStart('1d', thursday)).toISOString()).toBe('2026-11-19T00:00:00.000Z');
  });
});

describe('back-filled history', () => {
  // One path for every period (test/server/history.test.ts checks that the periods agree).
  const history = buildHistory(gold, monday, 'history');

  it.each(candlePeriods.map((period) => [period]))('has its count of consistent %s candles, the last ending at the start price', (period) => {
    const candles = history[period];
    const currentOpenMs = periodStart(period, monday);
    expect(candles.filter((candle) => candle.openTimeMs < currentOpenMs).length).toBeGreaterThanOrEqual(Math.max(500, historyCandleCount[period]));
    expect(candles.at(-1)!.close).toBe(parsePrice(gold.startPrice, gold.pricePrecision));
    expect(candles.at(-1)!.openTimeMs).toBeLessThanOrEqual(currentOpenMs);
    // Problems are collected and compared once: thousands of candles, one assertion.
    const problems: string[] = [];
    candles.forEach((candle, i) => {
      const at = new Date(candle.openTimeMs).toISOString();
      if (!(candle.high >= candle.open && candle.high >= candle.close)) problems.push(`${at}: high`);
      if (!(candle.low <= candle.open && candle.low <= candle.close)) problems.push(`${at}: low`);
      if (i > 0 && candle.openTimeMs <= candles[i - 1].openTimeMs) problems.push(`${at}: out of order`);
      // No candle without trading in it: intraday candles open while the market is open, and every
      // candle's span (up to now) holds open market time.
      if (['1m', '5m', '15m', '30m', '1h'].includes(period) && !isMarketOpen('metal', candle.openTimeMs)) problems.push(`${at}: closed`);
      if (tradingMs('metal', candle.openTimeMs, Math.min(monday, nextPeriodStart(period, candle.openTimeMs))) === 0) problems.push(`${at}: no trading`);
    });
    expect(problems).toEqual([]);
    expect(buildHistory(gold, monday, 'history')[period]).toEqual(candles);
  });
});

describe('price units', () => {
  it('round-trips decimal prices through integer units', () => {
    expect(parsePrice('1.08450', 5)).toBe(108450n);
    expect(formatUnits(108450n, 5)).toBe('1.08450');
    expect(formatUnits(-5n, 2)).toBe('-0.05');
    expect(formatUnits(7n, 0)).toBe('7');
    expect(() => parsePrice('1.084501', 5)).toThrow();
  });
});
