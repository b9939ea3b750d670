// The persisted-state schema (STYLE §3): it has a version, a schema and defaults; the defaults
// parse, anything damaged falls back to them, and the old version migrates with the token kept.
import { describe, expect, it } from 'vitest';
import { createMigrate, type PersistedState } from 'redux-persist';
import { migrations, parseMarketState, parseUserState, persistVersion, validatePersisted } from '../../src/app/persistence.ts';
import { initialUserState, type UserState } from '../../src/entities/session/userSlice.ts';
import { favouritesMax, initialMarketState, type MarketState } from '../../src/entities/market/marketSlice.ts';
import type { Ticker } from '../../src/api/contract/market.ts';
import { countries } from '../../src/lib/countries.ts';
import { defaultCountry } from '../../src/lib/country.ts';

const japan = countries.find((country) => country.country_code === 'JP')!;

const loggedInUser: UserState = {
  token: 'token-123',
  userInfo: { id: 'u-1', account: 'ada@example.com', accountType: 'email', inviteCode: 'ADA123' },
  tradeAssetInfo: { balance: '12.50' },
  positionsSummary: { open: 2 },
  countryInfo: japan,
  redirectTo: '/my',
  commonConfig: { theme: 'light' },
  address: '1 Main Street',
};

/** What the store does on rehydrate: redux-persist's migrations, then the schema. */
async function rehydrate(stored: unknown) {
  const migrated = await createMigrate(migrations, { debug: false })(stored as PersistedState, persistVersion);
  return { ...migrated, ...validatePersisted(migrated) };
}

describe('persisted user state: defaults', () => {
  it('parses nothing into the defaults', () => {
    expect(parseUserState(undefined)).toEqual(initialUserState);
    expect(parseUserState(null)).toEqual(initialUserState);
    expect(parseUserState({})).toEqual(initialUserState);
  });

  it('has defaults of a logged-out user in the United States (+1)', () => {
    expect(initialUserState).toEqual({
      token: '', userInfo: {}, tradeAssetInfo: {}, positionsSummary: {},
      countryInfo: { english_name: 'United States', chinese_name: '美国', country_code: 'US', phone_code: '1' },
      redirectTo: '', commonConfig: {}, address: '',
    });
    expect(defaultCountry).toEqual(initialUserState.countryInfo);
  });

  it('is at version 2', () => {
    expect(persistVersion).toBe(2);
  });
});

describe('persisted user state: damaged fields fall back to defaults', () => {
  it('treats user info without a string id as nobody logged in', () => {
    expect(parseUserState({ userInfo: { id: 5, account: 'x' } }).userInfo).toEqual({});
    expect(parseUserState({ userInfo: { account: 'x' } }).userInfo).toEqual({});
    expect(parseUserState({ userInfo: 'u-1' }).userInfo).toEqual({});
    expect(parseUserState({ userInfo: ['u-1'] }).userInfo).toEqual({});
  });

  it('keeps user info that has a string id', () => {
    expect(parseUserState({ userInfo: { id: 'u-1', account: 'ada' } }).userInfo).toEqual({ id: 'u-1', account: 'ada' });
  });

  it('falls back to the default country for a damaged country', () => {
    for (const countryInfo of [null, 'US', { english_name: 'Japan' }, { ...japan, phone_code: 81 }, [japan]]) {
      expect(parseUserState({ countryInfo }).countryInfo, JSON.stringify(countryInfo)).toEqual(defaultCountry);
    }
  });

  it('keeps a valid country and only its four fields', () => {
    expect(parseUserState({ countryInfo: { ...japan, flag: '🇯🇵' } }).countryInfo).toEqual(japan);
  });

  it('replaces text fields of the wrong type with empty text', () => {
    const parsed = parseUserState({ token: 42, redirectTo: { path: '/my' }, address: null });
    expect(parsed.token).toBe('');
    expect(parsed.redirectTo).toBe('');
    expect(parsed.address).toBe('');
  });

  it('replaces object fields of the wrong type with empty objects', () => {
    const parsed = parseUserState({ tradeAssetInfo: [1, 2], positionsSummary: 'x', commonConfig: 7 });
    expect(parsed.tradeAssetInfo).toEqual({});
    expect(parsed.positionsSummary).toEqual({});
    expect(parsed.commonConfig).toEqual({});
  });

  it('keeps the good fields next to the damaged ones', () => {
    const parsed = parseUserState({ ...loggedInUser, countryInfo: 'nowhere', userInfo: { id: 1 } });
    expect(parsed).toEqual({ ...loggedInUser, countryInfo: defaultCountry, userInfo: {} });
  });
});

const btc: Ticker = {
  symbol: 'BTCUSDT', displayName: 'BTC/USDT', base: 'BTC', quote: 'USDT', class: 'crypto', pricePrecision: 2,
  last: '67328.08', open24h: '69974.71', high24h: '70466.13', low24h: '66100.06', volume24h: '22110.6452',
  quoteVolume24h: '1503502975.20', change24h: '-2646.63', changePercent24h: '-3.78', open: true, time: 1_795_331_505_062,
};
const savedMarket: MarketState = { favourites: ['BTCUSDT', 'XAUUSD'], tickers: [btc], tickersSavedAtMs: 1_795_331_506_000 };

describe('persisted market state', () => {
  it('parses nothing into the defaults: no favourites, no saved list', () => {
    expect(initialMarketState).toEqual({ favourites: [], tickers: [], tickersSavedAtMs: 0 });
    for (const value of [undefined, null, 'x', [], {}]) expect(parseMarketState(value), JSON.stringify(value)).toEqual(initialMarketState);
  });

  it('keeps a good state intact', () => {
    expect(parseMarketState(savedMarket)).toEqual(savedMarket);
  });

  it('keeps only well-formed, distinct favourites, up to the limit', () => {
    const favourites = ['BTCUSDT', 'btcusdt', 'BTCUSDT', 7, null, 'X', 'ETHUSDT', '<script>'];
    expect(parseMarketState({ favourites }).favourites).toEqual(['BTCUSDT', 'ETHUSDT']);
    const many = Array.from({ length: favouritesMax + 20 }, (_, index) => `SYM${index}`);
    expect(parseMarketState({ favourites: many }).favourites).toHaveLength(favouritesMax);
  });

  it('drops saved tickers that are not whole, and the save time with them when none is left', () => {
    const damaged = [
      { ...btc, last: 67328.08 }, { ...btc, symbol: 'btc' }, { ...btc, class: 'stock' }, { ...btc, time: '1' },
      { ...btc, changePercent24h: 'n/a' }, { ...btc, open: 'yes' }, 'BTCUSDT', null,
    ];
    expect(parseMarketState({ ...savedMarket, tickers: damaged })).toEqual({ ...savedMarket, tickers: [], tickersSavedAtMs: 0 });
    expect(parseMarketState({ ...savedMarket, tickers: [...damaged, btc] }).tickers).toEqual([btc]);
    expect(parseMarketState({ ...savedMarket, tickersSavedAtMs: 'yesterday' }).tickersSavedAtMs).toBe(0);
  });
});

describe('persisted state: validation', () => {
  it('keeps a good state intact', () => {
    expect(validatePersisted({ user: loggedInUser, market: savedMarket })).toEqual({ user: loggedInUser, market: savedMarket });
  });

  it('gives the defaults for a state that is not an object or has no user', () => {
    const defaults = { user: initialUserState, market: initialMarketState };
    expect(validatePersisted(undefined)).toEqual(defaults);
    expect(validatePersisted('garbage')).toEqual(defaults);
    expect(validatePersisted({ user: null, market: 3 })).toEqual(defaults);
  });
});

describe('persisted state: migration from version 0', () => {
  const version0 = {
    token: 'old-token',
    userInfo: { id: 'u-7', account: 'grace@example.com' },
    countryInfo: japan,
    _persist: { version: 0, rehydrated: false },
  };

  it('moves the top-level token and user info under user, keeping the token', () => {
    const migrated = migrations[1](version0 as unknown as PersistedState) as unknown as { user: UserState; _persist: unknown };
    expect(migrated._persist).toEqual(version0._persist);
    expect(migrated.user).toEqual({
      ...initialUserState, token: 'old-token', userInfo: { id: 'u-7', account: 'grace@example.com' }, countryInfo: japan,
    });
    expect(migrated).not.toHaveProperty('token');
    expect(migrated).not.toHaveProperty('userInfo');
  });

  it('keeps the user logged in through the store’s rehydrate path', async () => {
    const state = await rehydrate(version0);
    expect(state.user.token).toBe('old-token');
    expect(state.user.userInfo).toEqual({ id: 'u-7', account: 'grace@example.com' });
    expect(state.user.countryInfo).toEqual(japan);
  });

  it('migrates a version-0 state that was saved without a version number', async () => {
    const { _persist: _ignored, ...unversioned } = version0;
    const state = await rehydrate({ ...unversioned, _persist: { rehydrated: false } });
    expect(state.user.token).toBe('old-token');
  });

  it('gives the defaults for a damaged version-0 state', async () => {
    const state = await rehydrate({ token: 17, userInfo: 'x', _persist: { version: 0, rehydrated: false } });
    expect(state.user).toEqual(initialUserState);
  });

  it('arrives at the current version with an empty market state', async () => {
    const state = await rehydrate(version0);
    expect(state.market).toEqual(initialMarketState);
  });
});

describe('persisted state: migration from version 1', () => {
  const version1 = { user: loggedInUser, _persist: { version: 1, rehydrated: false } };

  it('adds the market state with its defaults and keeps the user as it was', async () => {
    const state = await rehydrate(version1);
    expect(state.user).toEqual(loggedInUser);
    expect(state.market).toEqual(initialMarketState);
  });

  it('migration 2 alone keeps everything else', () => {
    const migrated = migrations[2](version1 as unknown as PersistedState) as unknown as Record<string, unknown>;
    expect(migrated).toEqual({ ...version1, market: initialMarketState });
  });

  it('leaves a current-version state as it is', async () => {
    const state = await rehydrate({ user: loggedInUser, market: savedMarket, _persist: { version: 2, rehydrated: false } });
    expect(state.user).toEqual(loggedInUser);
    expect(state.market).toEqual(savedMarket);
  });
});
