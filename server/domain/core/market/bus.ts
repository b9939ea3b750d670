// The market's event bus. The engine (on the one instance that holds the engine lock) publishes
// one update per tick batch; every instance's MarketView consumes them. In one process the bus is
// an in-memory emitter; with Redis it carries the same updates to every instance.
import type { CandleUnits } from './candles.ts';

export interface TickerState {
  symbol: string;
  timeMs: number;
  last: bigint;
  open24h: bigint;
  high24h: bigint;
  low24h: bigint;
  /** Base-asset volume units. */
  volume24h: bigint;
  /** Quote value in price units. */
  quoteVolume24h: bigint;
  open: boolean;
  /** When a closed market reopens, ms since the epoch. */
  reopensAtMs?: number;
  source: string;
}

export interface MarketUpdate {
  timeMs: number;
  tickers: TickerState[];
  /** The current candles that changed, one per symbol and period. */
  candles: CandleUnits[];
}

export type UpdateListener = (update: MarketUpdate) => void;

export interface MarketBus {
  /**
   * Hands the update to this instance's listeners at once, whatever the bus between instances
   * does, and then (with Redis) to the other instances: the engine's own sockets never depend on
   * Redis.
   */
  publish(update: MarketUpdate): Promise<void>;
  subscribe(listener: UpdateListener): () => void;
  /** Whether updates reach the other instances right now; the in-process bus always does. */
  readonly connected: boolean;
  close(): Promise<void>;
}

export function localBus(): MarketBus {
  const listeners = new Set<UpdateListener>();
  return {
    async publish(update) {
      for (const listener of listeners) listener(update);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    connected: true,
    async close() {
      listeners.clear();
    },
  };
}

/** JSON with bigints as strings, for carrying updates between processes. */
export function encodeUpdate(update: MarketUpdate): string {
  return JSON.stringify(update, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
}

export function decodeUpdate(text: string): MarketUpdate {
  return JSON.parse(text, (_key, value: unknown) =>
    (typeof value === 'string' && /^-?\d+n$/.test(value) ? BigInt(value.slice(0, -1)) : value)) as MarketUpdate;
}
