// Market endpoints (spec §7), injected into the one api. The ticker list and the live candle are
// also fed by the realtime socket through `onCacheEntryAdded`, so the RTK Query cache stays the
// one source of truth whichever way a price arrives; when the socket is down the pages poll
// (see useMarketData.ts). Every read is quiet: the pages show failures in place (offline, stale).
import { api } from '../../api/api.ts';
import type {
  Candle, CandlePeriod, KlineResult, PriceDistribution, Ticker,
} from '../../api/contract/market.ts';
import { paths } from '../../api/contract/paths.ts';
import { realtime } from '../../api/realtime.ts';
import { candleFromPayload, mergeTickers, tickersFromPayload } from './tickers.ts';

export const tickersChannel = 'tickers';
export const candleChannel = (symbol: string, period: CandlePeriod) => `candle.${symbol}.${period}`;

export interface CandlesArgs { symbol: string; period: CandlePeriod; endTime?: number; limit?: number }

/** The newer of two candles; the same candle (same opening time) takes the later copy. */
const newerCandle = (current: Candle | null, incoming: Candle | null) =>
  (!current || (incoming && incoming.time >= current.time) ? incoming : current);

export const marketApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Every symbol's ticker: the market page, the home rankings and the chart header. */
    getTickerList: build.query<Ticker[], void>({
      query: () => ({ url: paths.tickerList, quiet: true }),
      merge: (current, incoming) => void mergeTickers(current, incoming),
      async onCacheEntryAdded(_arg, { updateCachedData, cacheDataLoaded, cacheEntryRemoved, getCacheEntry }) {
        try {
          await cacheDataLoaded;
        } catch {
          return; // removed before it ever loaded
        }
        const stop = realtime().subscribe(tickersChannel, (message) => {
          const tickers = tickersFromPayload(message.data);
          const current = getCacheEntry().data;
          if (tickers.length === 0 || !current) return;
          // Merged into a copy and handed over whole: merging into an immer draft of the list would
          // wrap every ticker in a proxy on every tick, which cost the first screen's main thread
          // more than the rows' own drawing. Tickers not in the message keep their objects.
          const next = mergeTickers([...current], tickers);
          updateCachedData(() => next);
        });
        await cacheEntryRemoved;
        stop();
      },
    }),
    getPriceDistribution: build.query<PriceDistribution, void>({
      query: () => ({ url: paths.priceDistribution, quiet: true }),
    }),
    /** A page of candle history, oldest first (the chart's data loader). */
    getCandles: build.query<KlineResult, CandlesArgs>({
      query: ({ symbol, period, endTime, limit }) => ({ url: paths.kline, params: { symbol, period, endTime, limit }, quiet: true }),
    }),
    /** The current candle of a symbol and period, kept live from `candle.<SYMBOL>.<PERIOD>`. */
    getLiveCandle: build.query<Candle | null, { symbol: string; period: CandlePeriod }>({
      query: ({ symbol, period }) => ({ url: paths.kline, params: { symbol, period, limit: 1 }, quiet: true }),
      transformResponse: (result: KlineResult) => result.candles.at(-1) ?? null,
      merge: (current, incoming) => newerCandle(current, incoming),
      async onCacheEntryAdded({ symbol, period }, { updateCachedData, cacheDataLoaded, cacheEntryRemoved }) {
        try {
          await cacheDataLoaded;
        } catch {
          return;
        }
        const stop = realtime().subscribe(candleChannel(symbol, period), (message) => {
          const candle = candleFromPayload(message.data);
          if (candle) updateCachedData((current) => newerCandle(current, candle));
        });
        await cacheEntryRemoved;
        stop();
      },
    }),
  }),
});

export const {
  useGetTickerListQuery, useGetPriceDistributionQuery, useGetCandlesQuery,
  useGetLiveCandleQuery,
} = marketApi;
