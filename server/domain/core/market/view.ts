// The read side of the market on every instance: the latest tickers and current candles, kept
// from the bus's updates, and the wire shapes of the REST calls. Candle history comes from the
// database with the live candle laid over it.
import type { CandlePeriod, Candle, LastPrice, PriceDistribution, SymbolClass, Ticker } from '../../../../src/api/contract/market.ts';
import { priceDistribution } from '../../../../src/api/contract/marketDistribution.ts';
import type { Db } from '../../../db/client.ts';
import type { CandleUnits } from './candles.ts';
import type { MarketBus, MarketUpdate, TickerState } from './bus.ts';
import { loadCandles } from './store.ts';
import { formatUnits, symbolByCode, symbolSpecs, type SymbolSpec } from './symbols.ts';

export class MarketView {
  readonly #tickers = new Map<string, TickerState>();
  readonly #current = new Map<string, CandleUnits>();
  readonly #listeners = new Set<(update: MarketUpdate) => void>();
  readonly #unsubscribe: () => void;

  constructor(readonly db: Db, bus: MarketBus) {
    this.#unsubscribe = bus.subscribe((update) => this.#apply(update));
  }

  #apply(update: MarketUpdate) {
    for (const ticker of update.tickers) this.#tickers.set(ticker.symbol, ticker);
    for (const candle of update.candles) this.#current.set(`${candle.symbol}|${candle.period}`, candle);
    for (const listener of this.#listeners) listener(update);
  }

  /** Called with every update after the view has applied it (the realtime socket listens here). */
  onUpdate(listener: (update: MarketUpdate) => void) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close() {
    this.#unsubscribe();
    this.#listeners.clear();
  }

  /** Whether an update has arrived: from then on the market calls answer with data. */
  get ready() {
    return this.#tickers.size > 0;
  }

  /** Resolves true once the view is ready, or false if it is not within `timeoutMs`. */
  whenReady(timeoutMs: number): Promise<boolean> {
    if (this.ready) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ready: boolean) => {
        clearTimeout(timer);
        stop();
        resolve(ready);
      };
      const timer = setTimeout(() => done(this.ready), timeoutMs);
      const stop = this.onUpdate(() => {
        if (this.ready) done(true);
      });
    });
  }

  tickers(klass?: SymbolClass): Ticker[] {
    return symbolSpecs.filter((spec) => !klass || spec.class === klass)
      .flatMap((spec) => {
        const state = this.#tickers.get(spec.symbol);
        return state ? [toTicker(spec, state)] : [];
      });
  }

  ticker(symbol: string): Ticker | undefined {
    const spec = symbolByCode.get(symbol);
    const state = this.#tickers.get(symbol);
    return spec && state ? toTicker(spec, state) : undefined;
  }

  lastPrice(symbol: string): LastPrice | undefined {
    const spec = symbolByCode.get(symbol);
    const state = this.#tickers.get(symbol);
    if (!spec || !state) return undefined;
    return { symbol, price: formatUnits(state.last, spec.pricePrecision), time: state.timeMs, source: state.source };
  }

  currentCandle(symbol: string, period: CandlePeriod): Candle | undefined {
    const spec = symbolByCode.get(symbol);
    const candle = this.#current.get(`${symbol}|${period}`);
    return spec && candle ? toCandle(spec, candle) : undefined;
  }

  distribution(nowMs: number): PriceDistribution {
    return priceDistribution(this.tickers(), nowMs);
  }

  /** Candles opening before `endTimeMs`, oldest first, with the live candle in place of its stored copy. */
  async candles(symbol: string, period: CandlePeriod, endTimeMs: number, limit: number): Promise<Candle[]> {
    const spec = symbolByCode.get(symbol)!;
    const stored = await loadCandles(this.db, symbol, period, endTimeMs, limit);
    const live = this.#current.get(`${symbol}|${period}`);
    if (live && live.openTimeMs < endTimeMs) {
      const last = stored.at(-1);
      if (last && last.openTimeMs === live.openTimeMs) stored[stored.length - 1] = live;
      else if (!last || last.openTimeMs < live.openTimeMs) {
        stored.push(live);
        if (stored.length > limit) stored.shift();
      }
    }
    return stored.map((candle) => toCandle(spec, candle));
  }
}

export function toCandle(spec: SymbolSpec, candle: CandleUnits): Candle {
  const price = (units: bigint) => formatUnits(units, spec.pricePrecision);
  return {
    time: candle.openTimeMs, open: price(candle.open), high: price(candle.high), low: price(candle.low),
    close: price(candle.close), volume: formatUnits(candle.volume, spec.volumePrecision),
  };
}

export function toTicker(spec: SymbolSpec, state: TickerState): Ticker {
  const price = (units: bigint) => formatUnits(units, spec.pricePrecision);
  const change = state.last - state.open24h;
  // Percent with two decimals, truncated toward zero, computed on integers.
  const basisPoints = state.open24h > 0n ? (change * 10_000n) / state.open24h : 0n;
  return {
    symbol: spec.symbol, displayName: `${spec.base}/${spec.quote}`, base: spec.base, quote: spec.quote, class: spec.class,
    pricePrecision: spec.pricePrecision, last: price(state.last), open24h: price(state.open24h), high24h: price(state.high24h),
    low24h: price(state.low24h), volume24h: formatUnits(state.volume24h, spec.volumePrecision),
    quoteVolume24h: price(state.quoteVolume24h), change24h: price(change), changePercent24h: formatUnits(basisPoints, 2),
    open: state.open, time: state.timeMs, ...(state.reopensAtMs === undefined ? {} : { reopensAt: state.reopensAtMs }),
    source: state.source,
  };
}
