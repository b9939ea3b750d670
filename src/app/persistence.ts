// Persisted state: versioned, validated on rehydrate, with defaults for anything missing or
// malformed, so an old or damaged IndexedDB entry can never crash the app.
import type { MigrationManifest, PersistedState } from 'redux-persist';
import { initialUserState, type CountryInfo, type UserState } from '../entities/session/userSlice.ts';
import {
  favouritesMax, initialMarketState, savedTickersMax, type MarketState,
} from '../entities/market/marketSlice.ts';
import type { Ticker } from '../api/contract/market.ts';

export const persistVersion = 2;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);

function parseCountry(value: unknown): CountryInfo {
  if (!isRecord(value)) return initialUserState.countryInfo;
  const fields = ['english_name', 'chinese_name', 'country_code', 'phone_code'] as const;
  if (!fields.every((field) => typeof value[field] === 'string')) return initialUserState.countryInfo;
  return Object.fromEntries(fields.map((field) => [field, value[field]])) as unknown as CountryInfo;
}

/** Returns a valid user state from anything read back from storage. */
export function parseUserState(value: unknown): UserState {
  if (!isRecord(value)) return initialUserState;
  const userInfo = isRecord(value.userInfo) && typeof value.userInfo.id === 'string' ? value.userInfo : {};
  return {
    token: text(value.token, ''),
    userInfo: userInfo as UserState['userInfo'],
    tradeAssetInfo: isRecord(value.tradeAssetInfo) ? value.tradeAssetInfo : {},
    positionsSummary: isRecord(value.positionsSummary) ? value.positionsSummary : {},
    countryInfo: parseCountry(value.countryInfo),
    redirectTo: text(value.redirectTo, ''),
    commonConfig: isRecord(value.commonConfig) ? value.commonConfig : {},
    address: text(value.address, ''),
  };
}

const symbolPattern = /^[A-Z0-9]{3,20}$/;
const decimalPattern = /^-?\d+(\.\d+)?$/;
const tickerDecimals = ['last', 'open24h', 'high24h', 'low24h', 'volume24h', 'quoteVolume24h', 'change24h', 'changePercent24h'] as const;

/** A stored ticker is kept only whole: a half-read price must not be shown as a price. */
function isTicker(value: unknown): value is Ticker {
  return isRecord(value) && typeof value.symbol === 'string' && symbolPattern.test(value.symbol)
    && ['displayName', 'base', 'quote'].every((field) => typeof value[field] === 'string')
    && ['crypto', 'metal', 'forex'].includes(value.class as string)
    && Number.isInteger(value.pricePrecision) && typeof value.open === 'boolean' && Number.isInteger(value.time)
    && tickerDecimals.every((field) => typeof value[field] === 'string' && decimalPattern.test(value[field]));
}

/** Returns a valid market state from anything read back from storage. */
export function parseMarketState(value: unknown): MarketState {
  if (!isRecord(value)) return initialMarketState;
  const favourites = Array.isArray(value.favourites)
    ? [...new Set(value.favourites.filter((symbol): symbol is string => typeof symbol === 'string' && symbolPattern.test(symbol)))]
      .slice(0, favouritesMax)
    : [];
  const tickers = Array.isArray(value.tickers) ? value.tickers.filter(isTicker).slice(0, savedTickersMax) : [];
  const savedAtMs = value.tickersSavedAtMs;
  return {
    favourites,
    tickers,
    tickersSavedAtMs: tickers.length > 0 && Number.isInteger(savedAtMs) && (savedAtMs as number) > 0 ? savedAtMs as number : 0,
  };
}

export interface PersistedRoot { user: UserState; market: MarketState }

export const migrations: MigrationManifest = {
  // Version 0 kept the token and user info at the top level of the persisted object.
  1: (state) => {
    const old = (state ?? {}) as Record<string, unknown>;
    const user = isRecord(old.user) ? old.user : { token: old.token, userInfo: old.userInfo, countryInfo: old.countryInfo };
    return { _persist: old._persist, user: parseUserState(user) } as unknown as PersistedState;
  },
  // Version 2 adds the market slice (favourites, the last ticker list); it starts empty.
  2: (state) => {
    const old = (state ?? {}) as Record<string, unknown>;
    return { ...old, market: parseMarketState(old.market) } as unknown as PersistedState;
  },
};

/** Applied after migrations: validates the current version's shape. */
export function validatePersisted(state: unknown): PersistedRoot {
  return {
    user: parseUserState(isRecord(state) ? state.user : undefined),
    market: parseMarketState(isRecord(state) ? state.market : undefined),
  };
}
