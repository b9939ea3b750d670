// Market data on the wire (issue 3): symbols with 24 h statistics, last prices, the ticker list
// for rankings, the rise-and-fall distribution, candle history and the realtime socket protocol.
// Prices and volumes travel as decimal strings, formatted with each symbol's precision.
import { Type, type Static } from '@sinclair/typebox';
import type { ChatEvent } from './chat.ts';
import { candleLimitMax, candlePeriods, heartbeatIntervalMs, realtimePath, subscriptionsPerConnectionMax } from './marketConstants.ts';

export { candleLimitMax, candlePeriods, heartbeatIntervalMs, realtimePath, subscriptionsPerConnectionMax };

export const SymbolClass = Type.Union([Type.Literal('crypto'), Type.Literal('metal'), Type.Literal('forex')]);
export type SymbolClass = Static<typeof SymbolClass>;

export type CandlePeriod = (typeof candlePeriods)[number];
export const CandlePeriod = Type.Union(candlePeriods.map((period) => Type.Literal(period)));

/** e.g. "BTCUSDT", "XAUUSD", "EURUSD". */
export const SymbolCode = Type.String({ minLength: 3, maxLength: 20, pattern: '^[A-Z0-9]+$' });
export const DecimalString = Type.String({ pattern: '^-?[0-9]+(\\.[0-9]+)?$' });

export const Ticker = Type.Object({
  symbol: SymbolCode,
  /** "BTC/USDT" */
  displayName: Type.String(),
  base: Type.String(),
  quote: Type.String(),
  class: SymbolClass,
  pricePrecision: Type.Integer(),
  last: DecimalString,
  open24h: DecimalString,
  high24h: DecimalString,
  low24h: DecimalString,
  /** Traded quantity over 24 h, in the base asset. */
  volume24h: DecimalString,
  /** Traded value over 24 h, in the quote asset. */
  quoteVolume24h: DecimalString,
  change24h: DecimalString,
  /** Percent with two decimals, e.g. "-1.25". */
  changePercent24h: DecimalString,
  /**
   * Whether the market trades now (forex and metals close at the weekend). A closed market's 24 h
   * figures are those of its last 24 hours of trading, up to the close.
   */
  open: Type.Boolean(),
  /** Time of the last tick, ms since the epoch. */
  time: Type.Integer(),
  /** Extension: when a closed market reopens, ms since the epoch; absent while it trades. */
  reopensAt: Type.Optional(Type.Integer()),
  /**
   * Extension (issue 18): where the last price came from, as on recorded ticks: "simulator" for
   * the simulated feed (the app then says "Simulated prices"), or a venue such as "ccxt:binance".
   */
  source: Type.Optional(Type.String()),
});
export type Ticker = Static<typeof Ticker>;

/** The `source` of every price the simulated feed makes (tickers, last prices, recorded ticks). */
export const simulatorSourceName = 'simulator';

export const SymbolListQuery = Type.Object({ class: Type.Optional(SymbolClass) }, { additionalProperties: false });
export const SymbolQuery = Type.Object({ symbol: SymbolCode }, { additionalProperties: false });

export const LastPrice = Type.Object({ symbol: SymbolCode, price: DecimalString, time: Type.Integer(), source: Type.String() });
export type LastPrice = Static<typeof LastPrice>;

/**
 * Markets by 24 h change (see marketDistribution.ts). A bucket whose bounds are equal holds exactly
 * that change (the flat bucket, 0); the bucket starting there then holds only changes above it.
 */
export const DistributionBucket = Type.Object({
  /** Lower bound in percent, inclusive; null means unbounded. */
  fromPercent: Type.Union([Type.Number(), Type.Null()]),
  /** Upper bound in percent, exclusive; null means unbounded. */
  toPercent: Type.Union([Type.Number(), Type.Null()]),
  count: Type.Integer(),
});
export const PriceDistribution = Type.Object({
  /** Markets that trade now, by the sign of their 24 h change; the buckets add up to the same. */
  rising: Type.Integer(),
  falling: Type.Integer(),
  flat: Type.Integer(),
  /** Extension: closed markets, left out of the counts above (their change is the last session's). */
  closed: Type.Optional(Type.Integer()),
  buckets: Type.Array(DistributionBucket),
  time: Type.Integer(),
});
export type PriceDistribution = Static<typeof PriceDistribution>;

/** The last millisecond of the year 9999: every time parameter is bounded by it (a Date holds it). */
export const timeMsMax = 253_402_300_799_999;

export const KlineQuery = Type.Object({
  symbol: SymbolCode,
  period: CandlePeriod,
  /** Only candles that open before this time (ms) are returned; absent means up to now. */
  endTime: Type.Optional(Type.Integer({ minimum: 0, maximum: timeMsMax })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: candleLimitMax, default: 300 })),
}, { additionalProperties: false });

export const Candle = Type.Object({
  /** Opening time of the candle, ms since the epoch. */
  time: Type.Integer(),
  open: DecimalString,
  high: DecimalString,
  low: DecimalString,
  close: DecimalString,
  volume: DecimalString,
});
export type Candle = Static<typeof Candle>;
export const KlineResult = Type.Object({
  symbol: SymbolCode,
  period: CandlePeriod,
  /** Oldest first. Page backwards by passing the first candle's time as the next endTime. */
  candles: Type.Array(Candle),
});
export type KlineResult = Static<typeof KlineResult>;

// Realtime socket at /api/ws (JSON text frames).
// Channels: "tickers" (every symbol), "ticker.<SYMBOL>", "candle.<SYMBOL>.<PERIOD>".

export type ClientMessage =
  | { op: 'subscribe'; channels: string[] }
  | { op: 'unsubscribe'; channels: string[] }
  /** Asks for a fresh snapshot after the client saw a gap in `seq`. */
  | { op: 'resync'; channel: string }
  | { op: 'ping' };
/**
 * Ours (issue 10): authenticates the connection with the session token and subscribes it to the
 * user's own channel "user"; answered with `subscribed` ["user"] or an `unauthorized` error.
 */
export interface AuthMessage {
  op: 'auth';
  token: string;
  /** Ours (issue 21): 'operator' authenticates a back-office session and joins the operators' "chat" channel. */
  as?: 'operator';
}
/** The user channel's name. */
export const userChannel = 'user';

/** What the user channel carries: what changed, so the app refetches it. */
export interface UserEvent {
  /**
   * 'chat': a support chat event (issue 21), carried in `chat`. 'message': an internal message
   * was written for the user (issue 21): the app refetches the unread count.
   */
  kind: 'position' | 'second' | 'swap' | 'balance' | 'chat' | 'message';
  demo: boolean;
  id?: string;
  /** The record's new status ("running", "closed", "won", ...). */
  status?: string;
  /** A chat event (kind 'chat', issue 21). */
  chat?: ChatEvent;
}

export type ServerMessage =
  | { type: 'snapshot'; channel: string; seq: number; data: unknown }
  | { type: 'update'; channel: string; seq: number; data: unknown }
  | { type: 'subscribed'; channels: string[] }
  | { type: 'unsubscribed'; channels: string[] }
  /**
   * One per client message at most. `channel` is the first name the message had refused and `code`
   * its reason; `channels` lists the first few refused names (the message counts them all).
   * `rate_limited`: the connection asked for more replies than its byte budget; it is then closed.
   */
  | {
    type: 'error';
    code: 'malformed' | 'unknown_channel' | 'too_many_subscriptions' | 'not_subscribed' | 'rate_limited' | 'unauthorized';
    message: string;
    channel?: string;
    channels?: string[];
  }
  | { type: 'heartbeat'; time: number }
  | { type: 'pong'; time: number };
