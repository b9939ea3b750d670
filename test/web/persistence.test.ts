// The persisted-state schema (STYLE §3): it has a version, a schema and defaults; the defaults
// parse, anything damaged falls back to them, and the old version migrates with the token kept.
import { describe, expect, it } from 'vitest';
import { createMigrate, type PersistedState } from 'redux-persist';
import { migrations, parseUserState, persistVersion, validatePersisted } from '../../src/app/persistence.ts';
import { initialUserState, type UserState } from '../../src/features/auth/userSlice.ts';
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

  it('is at version 1', () => {
    expect(persistVersion).toBe(1);
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

describe('persisted state: validation', () => {
  it('keeps a good state intact', () => {
    expect(validatePersisted({ user: loggedInUser })).toEqual({ user: loggedInUser });
  });

  it('gives the defaults for a state that is not an object or has no user', () => {
    expect(validatePersisted(undefined)).toEqual({ user: initialUserState });
    expect(validatePersisted('garbage')).toEqual({ user: initialUserState });
    expect(validatePersisted({ user: null })).toEqual({ user: initialUserState });
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

  it('leaves a current-version state as it is', async () => {
    const state = await rehydrate({ user: loggedInUser, _persist: { version: 1, rehydrated: false } });
    expect(state.user).toEqual(loggedInUser);
  });
});
