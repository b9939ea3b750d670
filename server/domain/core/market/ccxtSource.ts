// A real price source for crypto venues through ccxt. Each engine tick polls the venue's tickers
// for the crypto symbols; the last traded price becomes the tick (exactly, from its decimal
// text, cut to the symbol's precision) and the growth of the venue's 24 h base volume since the
// previous poll becomes the tick's volume. Symbols the venue does not quote (forex, metals) keep
// coming from the simulator through `compositeSource`.
import type { TickLike } from './candles.ts';
import type { PriceSource } from './engine.ts';
import type { SymbolSpec } from './symbols.ts';

/** The part of a ccxt Exchange this adapter uses (ccxt's unified fetchTickers). */
export interface TickerVenue {
  id: string;
  fetchTickers(symbols: string[]): Promise<Record<string, { symbol: string; last?: number; baseVolume?: number; timestamp?: number }>>;
}

/** A decimal number's exact text cut (not rounded) to `precision` decimals, as integer units. */
export function unitsOf(value: number, precision: number): bigint | undefined {
  if (!Number.isFinite(value) || value <= 0) return undefined;
  const text = value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole + fraction.slice(0, precision).padEnd(precision, '0'));
}

export function ccxtSource(venue: TickerVenue, specs: SymbolSpec[]): PriceSource {
  const unified = new Map(specs.map((spec) => [`${spec.base}/${spec.quote}`, spec]));
  const lastVolume = new Map<string, number>();
  const name = `ccxt:${venue.id}`;
  return {
    name,
    sourceOf: (symbol) => (specs.some((spec) => spec.symbol === symbol) ? name : undefined),
    async init() {
      lastVolume.clear();
    },
    async ticksAt(timeMs) {
      const tickers = await venue.fetchTickers([...unified.keys()]);
      const ticks: TickLike[] = [];
      for (const ticker of Object.values(tickers)) {
        const spec = unified.get(ticker.symbol);
        const priceUnits = spec && ticker.last !== undefined ? unitsOf(ticker.last, spec.pricePrecision) : undefined;
        if (!spec || priceUnits === undefined) continue;
        const volume = ticker.baseVolume ?? 0;
        const previous = lastVolume.get(spec.symbol);
        lastVolume.set(spec.symbol, volume);
        // The 24 h volume rolls; a fall means older trades left the window, not negative trading.
        const traded = previous === undefined ? 0 : Math.max(0, volume - previous);
        ticks.push({
          symbol: spec.symbol, timeMs, priceUnits, source: name,
          volumeUnits: unitsOf(traded, spec.volumePrecision) ?? 0n,
        });
      }
      return ticks;
    },
  };
}

/** Several sources as one, each owning its own symbols. */
export function compositeSource(sources: PriceSource[]): PriceSource {
  return {
    name: sources.map((source) => source.name).join('+'),
    sourceOf: (symbol) => sources.map((source) => source.sourceOf?.(symbol)).find((name) => name !== undefined),
    async init(lastPrices, startTimeMs) {
      for (const source of sources) await source.init(lastPrices, startTimeMs);
    },
    async ticksAt(timeMs) {
      const batches = await Promise.all(sources.map((source) => source.ticksAt(timeMs)
        .then((ticks) => ticks.map((tick) => ({ ...tick, source: tick.source ?? source.name })))));
      return batches.flat();
    },
  };
}
