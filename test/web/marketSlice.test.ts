// The market slice: favourites toggle in the order they were starred, up to a limit, and the
// last ticker list is saved with its time.
import { describe, expect, it } from 'vitest';
import {
  favouriteToggled, favouritesMax, initialMarketState, marketSlice, savedTickersMax, tickersSaved,
} from '../../src/entities/market/marketSlice.ts';
import type { Ticker } from '../../src/api/contract/market.ts';

const reduce = marketSlice.reducer;

describe('market slice: favourites', () => {
  it('stars and unstars a symbol, keeping the order of the others', () => {
    let state = reduce(initialMarketState, favouriteToggled('BTCUSDT'));
    state = reduce(state, favouriteToggled('XAUUSD'));
    state = reduce(state, favouriteToggled('EURUSD'));
    expect(state.favourites).toEqual(['BTCUSDT', 'XAUUSD', 'EURUSD']);
    state = reduce(state, favouriteToggled('XAUUSD'));
    expect(state.favourites).toEqual(['BTCUSDT', 'EURUSD']);
  });

  it(`stops at ${favouritesMax} favourites, while unstarring still works`, () => {
    let state = initialMarketState;
    for (let index = 0; index < favouritesMax + 5; index += 1) state = reduce(state, favouriteToggled(`SYM${index}`));
    expect(state.favourites).toHaveLength(favouritesMax);
    expect(state.favourites).not.toContain(`SYM${favouritesMax}`);
    state = reduce(state, favouriteToggled('SYM0'));
    expect(state.favourites).toHaveLength(favouritesMax - 1);
  });
});

describe('market slice: saved tickers', () => {
  const ticker = (symbol: string) => ({ symbol } as Ticker);

  it('saves the list with its time, replacing the previous one', () => {
    let state = reduce(initialMarketState, tickersSaved({ tickers: [ticker('BTCUSDT')], savedAtMs: 10 }));
    state = reduce(state, tickersSaved({ tickers: [ticker('ETHUSDT'), ticker('SOLUSDT')], savedAtMs: 20 }));
    expect(state.tickers.map((item) => item.symbol)).toEqual(['ETHUSDT', 'SOLUSDT']);
    expect(state.tickersSavedAtMs).toBe(20);
    expect(state.favourites).toEqual([]);
  });

  it(`keeps at most ${savedTickersMax} tickers`, () => {
    const many = Array.from({ length: savedTickersMax + 10 }, (_, index) => ticker(`SYM${index}`));
    expect(reduce(initialMarketState, tickersSaved({ tickers: many, savedAtMs: 1 })).tickers).toHaveLength(savedTickersMax);
  });
});
