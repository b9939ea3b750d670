// The market data the pages show, with one rule for freshness: while the socket delivers a
// channel the cache is fed from it and nothing polls; otherwise the query polls over REST. The
// ticker list is also saved on the device now and then, and shown from there (with its age) when
// neither the network nor the service worker's cache can give it.
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import type { CandlePeriod, Ticker } from '../../api/contract/market.ts';
import { realtime } from '../../api/realtime.ts';
import { serverNow } from '../../api/serverClock.ts';
import { useOnline } from '../../components/OfflineBanner.tsx';
import {
  candleChannel, tickersChannel, useGetLiveCandleQuery, useGetPriceDistributionQuery, useGetTickerListQuery,
} from './marketApi.ts';
import { favouriteToggled, tickersSaved, type MarketState } from './marketSlice.ts';
import { newestTickMs } from './tickers.ts';

export const tickerPollIntervalMs = 3_000;
export const candlePollIntervalMs = 2_000;
export const distributionPollIntervalMs = 15_000;
/** The saved copy of the list is refreshed at most this often (it goes to IndexedDB). */
export const tickerSaveIntervalMs = 15_000;
/** A list whose newest tick is older than this is shown with its age. */
export const staleAfterMs = 60_000;

const selectMarket = (state: { market: MarketState }) => state.market;

export function useChannelLive(channel: string): boolean {
  const subscribe = useCallback((onChange: () => void) => realtime().onChange(onChange), []);
  return useSyncExternalStore(subscribe, () => realtime().isLive(channel), () => false);
}

export interface TickerView {
  tickers: Ticker[] | undefined;
  /** Newest tick of the list shown. */
  asOfMs: number;
  /** The list may be old: offline, the last request failed, or it came from the device. */
  stale: boolean;
  offline: boolean;
  /** Nothing to show yet and a request is on its way. */
  loading: boolean;
  /** Nothing to show and the request failed. */
  failed: boolean;
  live: boolean;
  refetch: () => Promise<unknown>;
}

export function useTickers(): TickerView {
  const dispatch = useDispatch();
  const live = useChannelLive(tickersChannel);
  const online = useOnline();
  const query = useGetTickerListQuery(undefined, {
    pollingInterval: live ? 0 : tickerPollIntervalMs, skipPollingIfUnfocused: true,
  });
  const saved = useSelector(selectMarket);
  const lastSavedAtMs = useRef(0);

  useEffect(() => {
    if (!query.data || query.data.length === 0) return;
    const nowMs = Date.now();
    if (nowMs - lastSavedAtMs.current < tickerSaveIntervalMs) return;
    lastSavedAtMs.current = nowMs;
    dispatch(tickersSaved({ tickers: query.data, savedAtMs: nowMs }));
  }, [query.data, dispatch]);

  const fromDevice = !query.data && saved.tickers.length > 0;
  const tickers = query.data ?? (fromDevice ? saved.tickers : undefined);
  const asOfMs = tickers ? newestTickMs(tickers) : 0;
  const old = asOfMs > 0 && serverNow() - asOfMs > staleAfterMs;
  return {
    tickers,
    asOfMs,
    stale: Boolean(tickers) && (!online || query.isError || fromDevice || old),
    offline: !online,
    loading: !tickers && (query.isLoading || query.isFetching),
    failed: !tickers && query.isError,
    live,
    refetch: query.refetch,
  };
}

export function useFavourites() {
  const dispatch = useDispatch();
  const favourites = useSelector(selectMarket).favourites;
  const toggle = useCallback((symbol: string) => dispatch(favouriteToggled(symbol)), [dispatch]);
  return { favourites, toggle };
}

export function useDistribution() {
  return useGetPriceDistributionQuery(undefined, { pollingInterval: distributionPollIntervalMs, skipPollingIfUnfocused: true });
}

export function useLiveCandle(symbol: string, period: CandlePeriod, skip = false) {
  const live = useChannelLive(candleChannel(symbol, period));
  return useGetLiveCandleQuery({ symbol, period }, {
    skip, pollingInterval: live ? 0 : candlePollIntervalMs, skipPollingIfUnfocused: true,
  });
}
