// The market data worth keeping on the device (persisted, see app/persistence.ts): the user's
// favourite symbols, and the last ticker list seen, so the market shows its prices with their
// age when the network is down instead of an empty page.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Ticker } from '../../api/contract/market.ts';

export const favouritesMax = 100;
export const savedTickersMax = 200;

export interface MarketState {
  /** Symbol codes, in the order they were starred. */
  favourites: string[];
  /** The last ticker list received, to show offline. */
  tickers: Ticker[];
  /** When `tickers` was saved on this device, ms since the epoch (0: never). */
  tickersSavedAtMs: number;
}

export const initialMarketState: MarketState = { favourites: [], tickers: [], tickersSavedAtMs: 0 };

export const marketSlice = createSlice({
  name: 'market',
  initialState: initialMarketState,
  reducers: {
    favouriteToggled(state, action: PayloadAction<string>) {
      const index = state.favourites.indexOf(action.payload);
      if (index >= 0) state.favourites.splice(index, 1);
      else if (state.favourites.length < favouritesMax) state.favourites.push(action.payload);
    },
    tickersSaved(state, action: PayloadAction<{ tickers: Ticker[]; savedAtMs: number }>) {
      state.tickers = action.payload.tickers.slice(0, savedTickersMax);
      state.tickersSavedAtMs = action.payload.savedAtMs;
    },
  },
});

export const { favouriteToggled, tickersSaved } = marketSlice.actions;
