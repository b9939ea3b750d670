// The market engine: runs the price source on a fixed tick interval, folds ticks into candles of
// every period and the 24 h statistics, stores ticks and candles, and publishes one update per
// batch on the bus. Only one instance runs it (the holder of the engine lock). Time comes from
// the injected clock and `tickOnce` can be driven by tests, so the engine is deterministic.
import { candlePeriods, simulatorSourceName, type CandlePeriod } from '../../../../src/api/contract/market.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../../lib/time.ts';
import { reopensAtMs, tradingWindowStartMs } from './calendar.ts';
import { applyTick, periodStart, type CandleUnits, type TickLike } from './candles.ts';
import type { MarketBus, TickerState } from './bus.ts';
import { buildHistory, continueHistory, type History } from './history.ts';
import { seededSimulatorRandom, SymbolSimulator } from './simulator.ts';
import { secureRandom, type RandomSource } from './secureRandom.ts';
import {
  insertCandles, insertTicks, type RecordedTick, loadCandlesBetween, loadLastTickTimes, loadLatestCandles, pruneTicks, storedCandleSeries, upsertCandles,
} from './store.ts';
import { parsePrice, symbolSpecs, type SymbolSpec } from './symbols.ts';

/** Where prices come from. The simulator is the default; a venue adapter implements the same. */
export interface PriceSource {
  readonly name: string;
  /** Starts each symbol at its last known price. */
  init(lastPrices: Map<string, bigint>, startTimeMs: number): Promise<void>;
  ticksAt(timeMs: number): Promise<TickLike[]>;
  /**
   * The source a symbol's ticks will name, known before its first tick (a closed market's ticker
   * says whether its prices are simulated too). Absent: `name`.
   */
  sourceOf?(symbol: string): string | undefined;
}

/** Makes the random source of one symbol's simulated path, started at `startTimeMs`. */
export type SimulatorRandom = (symbol: string, startTimeMs: number) => RandomSource;

/** The live feed's choice: every symbol's path draws from its own secure generator. */
export const secureSimulatorRandom: SimulatorRandom = () => secureRandom();

/** Tests and benchmarks only: replayable paths from a seed (see seededSimulatorRandom). */
export const seededSimulator = (seed: string): SimulatorRandom => (symbol, startTimeMs) => seededSimulatorRandom(seed, symbol, startTimeMs);

/**
 * The simulated feed. Its ticks name their source `simulator` (the wire's simulatorSourceName), so
 * every stored tick, receipt and ticker says the price is simulated.
 */
export function simulatorSource(random: SimulatorRandom = secureSimulatorRandom, specs: SymbolSpec[] = symbolSpecs): PriceSource {
  const simulators: SymbolSimulator[] = [];
  const owned = new Set(specs.map((spec) => spec.symbol));
  return {
    name: simulatorSourceName,
    sourceOf: (symbol) => (owned.has(symbol) ? simulatorSourceName : undefined),
    async init(lastPrices, startTimeMs) {
      simulators.length = 0;
      for (const spec of specs) {
        simulators.push(new SymbolSimulator(spec, random(spec.symbol, startTimeMs), startTimeMs, lastPrices.get(spec.symbol)));
      }
    },
    async ticksAt(timeMs) {
      const ticks: TickLike[] = [];
      for (const simulator of simulators) {
        const tick = simulator.step(timeMs);
        if (tick) ticks.push({ ...tick, source: simulatorSourceName });
      }
      return ticks;
    },
  };
}

export interface EngineOptions {
  db: Db;
  clock: Clock;
  bus: MarketBus;
  source: PriceSource;
  /** Seeds the back-filled and continued history only (MARKET_SEED); live ticks come from `source`. */
  seed: string;
  tickIntervalMs: number;
  tickRetentionMs: number;
  specs?: SymbolSpec[];
  onError?: (error: unknown) => void;
  /**
   * Called with every batch of stored ticks, in order, after they are stored and before the
   * update is published: the trading engines (triggers, second-contract settlement) run from here,
   * on the one instance that holds the engine lock. Its failure is logged; the feed goes on.
   */
  onTicks?: (ticks: RecordedTick[]) => Promise<void>;
}

const dayMs = 86_400_000;
const minuteMs = 60_000;
const candleFlushIntervalMs = 5_000;
const pruneIntervalMs = 60_000;

interface SymbolState {
  spec: SymbolSpec;
  current: Map<CandlePeriod, CandleUnits>;
  /** 1m candles of the last 24 h, oldest first, the current one last. */
  minutes: CandleUnits[];
  lastTimeMs: number;
  /** The source of the symbol's last tick. */
  source: string;
}

export class MarketEngine {
  readonly #options: EngineOptions;
  readonly #specs: SymbolSpec[];
  readonly #states = new Map<string, SymbolState>();
  readonly #dirty = new Map<string, CandleUnits>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #lastFlushMs = 0;
  #lastPruneMs = 0;
  #busy = false;

  constructor(options: EngineOptions) {
    this.#options = options;
    this.#specs = options.specs ?? symbolSpecs;
  }

  /**
   * Back-fills history where a symbol has none (all its periods from one path that ends now, in
   * one statement or transaction) and continues it where the stored history stops short of now
   * (a restart: the same model from the stored last close, so there is neither gap nor jump at
   * the seam), then sets up the current state: the latest candle of every period, the 1m
   * candles of the 24 h window and the time of the last tick. `publishSnapshot` then tells the views.
   */
  async init() {
    const { db, clock } = this.#options;
    const nowMs = clock.now().getTime();
    const generated = await this.#backfill(nowMs);
    const stored = this.#specs.filter((spec) => !generated.has(spec.symbol));
    const symbols = stored.map((spec) => spec.symbol);
    const latest = symbols.length > 0 ? await loadLatestCandles(db, symbols, candlePeriods, nowMs + 1) : [];
    const lastTicks = symbols.length > 0 ? await loadLastTickTimes(db, symbols, nowMs + 1) : new Map<string, number>();
    const continued = await this.#continue(stored, latest, lastTicks, nowMs);
    const windowFromMs = Math.min(...stored.map((spec) => statisticsWindowStartMs(spec, nowMs)));
    const minutes = symbols.length > 0 ? await loadCandlesBetween(db, symbols, '1m', windowFromMs - 1, nowMs + 1) : [];
    const lastPrices = new Map<string, bigint>();
    for (const spec of this.#specs) {
      const { source } = this.#options;
      const state: SymbolState = { spec, current: new Map(), minutes: [], lastTimeMs: 0, source: source.sourceOf?.(spec.symbol) ?? source.name };
      const windowStartMs = statisticsWindowStartMs(spec, nowMs);
      const history = generated.get(spec.symbol);
      if (history) {
        for (const period of candlePeriods) {
          const last = history[period].at(-1);
          if (last) state.current.set(period, last);
        }
        state.minutes = history['1m'].filter((candle) => candle.openTimeMs >= windowStartMs);
      } else {
        for (const candle of latest) if (candle.symbol === spec.symbol) state.current.set(candle.period, candle);
        for (const candle of continued) if (candle.symbol === spec.symbol) state.current.set(candle.period, candle);
        state.minutes = minutes.filter((candle) => candle.symbol === spec.symbol && candle.openTimeMs >= windowStartMs);
      }
      const lastMinute = state.current.get('1m');
      lastPrices.set(spec.symbol, lastMinute?.close ?? parsePrice(spec.startPrice, spec.pricePrecision));
      // The last tick, unless a back-filled or continued path ends later: then the end of its
      // last minute that traded.
      const pathEndMs = lastMinute ? Math.min(nowMs, lastMinute.openTimeMs + minuteMs) : nowMs;
      const lastTickMs = lastTicks.get(spec.symbol);
      state.lastTimeMs = lastTickMs === undefined || history || continued.some((candle) => candle.symbol === spec.symbol)
        ? pathEndMs : lastTickMs;
      this.#states.set(spec.symbol, state);
    }
    await this.#options.source.init(lastPrices, nowMs);
  }

  /**
   * Continues each stored symbol's history from where it stops (its last tick inside its last 1m
   * candle, else that candle's end) up to now and stores the candles the continuation touched;
   * returns, per period, each symbol's latest candle after it.
   */
  async #continue(specs: SymbolSpec[], latest: CandleUnits[], lastTicks: Map<string, number>, nowMs: number): Promise<CandleUnits[]> {
    const touched: CandleUnits[] = [];
    const newest: CandleUnits[] = [];
    for (const spec of specs) {
      const own = new Map(latest.filter((candle) => candle.symbol === spec.symbol).map((candle) => [candle.period, candle]));
      const lastMinute = own.get('1m');
      if (!lastMinute) continue;
      const lastTickMs = lastTicks.get(spec.symbol);
      const minuteEndMs = lastMinute.openTimeMs + minuteMs;
      const fromMs = lastTickMs !== undefined && lastTickMs >= lastMinute.openTimeMs && lastTickMs < minuteEndMs ? lastTickMs : minuteEndMs;
      if (fromMs >= nowMs) continue;
      const history = continueHistory(spec, own, fromMs, nowMs, this.#options.seed);
      for (const period of candlePeriods) {
        touched.push(...history[period]);
        const last = history[period].at(-1);
        if (last) newest.push(last);
      }
    }
    if (touched.length > 0) await upsertCandles(this.#options.db, touched);
    return newest;
  }

  /** Back-fills the symbols and periods that have no candles; returns the symbols made in full. */
  async #backfill(nowMs: number): Promise<Map<string, History>> {
    const { db, seed } = this.#options;
    const stored = await storedCandleSeries(db, this.#specs.map((spec) => spec.symbol), candlePeriods);
    const generated = new Map<string, History>();
    const candles: CandleUnits[] = [];
    for (const spec of this.#specs) {
      const missing = candlePeriods.filter((period) => !stored.has(`${spec.symbol}|${period}`));
      if (missing.length === 0) continue;
      const history = buildHistory(spec, nowMs, seed);
      for (const period of missing) candles.push(...history[period]);
      if (missing.length === candlePeriods.length) generated.set(spec.symbol, history);
    }
    if (candles.length > 0) await insertCandles(db, candles);
    return generated;
  }

  /**
   * Publishes the whole state: the ticker of every symbol (closed markets too) and the current
   * candle of every symbol and period. The instance does this before it takes requests, so its
   * views answer from the first one.
   */
  async publishSnapshot(timeMs = this.#options.clock.now().getTime()) {
    const candles = [...this.#states.values()].flatMap((state) => [...state.current.values()]);
    await this.#options.bus.publish({ timeMs, tickers: this.tickers(timeMs), candles });
  }

  start() {
    this.#timer ??= setInterval(() => {
      if (this.#busy) return;
      this.#busy = true;
      this.tickOnce(this.#options.clock.now().getTime())
        .catch((error: unknown) => this.#options.onError?.(error))
        .finally(() => { this.#busy = false; });
    }, this.#options.tickIntervalMs);
  }

  async stop() {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  /** Produces, stores and publishes the ticks at `timeMs`. */
  async tickOnce(timeMs: number) {
    const { db, source, bus } = this.#options;
    const ticks = await source.ticksAt(timeMs);
    const changed: CandleUnits[] = [];
    for (const tick of ticks) {
      const state = this.#states.get(tick.symbol);
      if (!state) continue;
      state.lastTimeMs = tick.timeMs;
      state.source = tick.source ?? source.name;
      for (const period of candlePeriods) {
        const next = applyTick(state.current.get(period), tick, period);
        state.current.set(period, next);
        changed.push(next);
        this.#dirty.set(`${next.symbol}|${next.period}|${next.openTimeMs}`, next);
        if (period === '1m') this.#recordMinute(state, next, timeMs);
      }
    }
    // Stored first (a price anyone sees is a recorded tick), then published at once: the trading
    // engines' work on these ticks (10 000 second contracts expiring take about a second), the
    // candle flush and the pruning no longer hold every client's price back.
    const recorded = ticks.length > 0 ? await insertTicks(db, ticks, source.name) : [];
    await bus.publish({ timeMs, tickers: this.tickers(timeMs), candles: changed });
    if (recorded.length > 0) await this.#options.onTicks?.(recorded).catch((error: unknown) => this.#options.onError?.(error));
    if (timeMs - this.#lastFlushMs >= candleFlushIntervalMs) await this.flush(timeMs);
    if (timeMs - this.#lastPruneMs >= pruneIntervalMs) {
      this.#lastPruneMs = timeMs;
      await pruneTicks(db, timeMs - this.#options.tickRetentionMs);
    }
  }

  async flush(timeMs = this.#options.clock.now().getTime()) {
    this.#lastFlushMs = timeMs;
    const candles = [...this.#dirty.values()];
    this.#dirty.clear();
    if (candles.length > 0) await upsertCandles(this.#options.db, candles);
  }

  #recordMinute(state: SymbolState, minute: CandleUnits, nowMs: number) {
    const last = state.minutes.at(-1);
    if (last && last.openTimeMs === minute.openTimeMs) state.minutes[state.minutes.length - 1] = minute;
    else state.minutes.push(minute);
    const windowStartMs = statisticsWindowStartMs(state.spec, nowMs);
    while (state.minutes.length > 0 && state.minutes[0].openTimeMs < windowStartMs) state.minutes.shift();
  }

  /** The 24 h statistics of every symbol, from its 1m candles. */
  tickers(nowMs = this.#options.clock.now().getTime()): TickerState[] {
    return [...this.#states.values()].map((state) => tickerOf(state, nowMs));
  }
}

/**
 * Opening time of the oldest 1m candle of a symbol's 24 h statistics: the last 24 hours of its
 * market's trading, up to the current minute. A closed market keeps its last session's figures
 * (the 24 h before the close) instead of showing a flat day.
 */
function statisticsWindowStartMs(spec: SymbolSpec, nowMs: number): number {
  return tradingWindowStartMs(spec.class, periodStart('1m', nowMs) + minuteMs, dayMs);
}

function tickerOf(state: SymbolState, nowMs: number): TickerState {
  const { spec, minutes } = state;
  const last = state.current.get('1m')?.close ?? parsePrice(spec.startPrice, spec.pricePrecision);
  const windowStartMs = statisticsWindowStartMs(spec, nowMs);
  const window = minutes.filter((candle) => candle.openTimeMs >= windowStartMs);
  let high = last;
  let low = last;
  let volume = 0n;
  let quoteVolume = 0n;
  const volumeScale = 10n ** BigInt(spec.volumePrecision);
  for (const candle of window) {
    if (candle.high > high) high = candle.high;
    if (candle.low < low) low = candle.low;
    volume += candle.volume;
    quoteVolume += (candle.volume * candle.close) / volumeScale;
  }
  const reopensAt = reopensAtMs(spec.class, nowMs);
  return {
    symbol: spec.symbol, timeMs: state.lastTimeMs, last, open24h: window[0]?.open ?? last, high24h: high, low24h: low,
    volume24h: volume, quoteVolume24h: quoteVolume, open: reopensAt === undefined, source: state.source,
    ...(reopensAt === undefined ? {} : { reopensAtMs: reopensAt }),
  };
}
