// The user store (spec §3–§4), driven by the events the app dispatches.
import { describe, expect, it } from 'vitest';
import { sessionExpired } from '../../src/api/session.ts';
import {
  countryChosen, initialUserState, loggedIn, loggedOut, redirectConsumed, redirectRemembered, userInfoCleared,
  userInfoReceived, userSlice, type UserState,
} from '../../src/entities/session/userSlice.ts';
import type { UserInfo } from '../../src/api/contract/accounts.ts';
import { countries } from '../../src/lib/countries.ts';

const reduce = userSlice.reducer;
const korea = countries.find((country) => country.country_code === 'KR')!;

const userInfo = {
  id: 'u-1', account: 'ada@example.com', accountType: 'email', email: 'ada@example.com', phone: null, countryCode: null,
  hasInitialPassword: false, inviteCode: 'ADA123', surname: null, firstName: null, gender: null, birthday: null,
  country: null, address: null, contactPhone: null, createTime: '2026-01-02 08:00:00',
} satisfies UserInfo;

const loggedInState: UserState = {
  ...initialUserState,
  token: 'token-1',
  userInfo,
  tradeAssetInfo: { balance: '10.00' },
  positionsSummary: { open: 1 },
  countryInfo: korea,
  commonConfig: { a: 1 },
  address: 'Seoul',
};

describe('user slice', () => {
  it('starts logged out', () => {
    expect(reduce(undefined, { type: 'init' })).toEqual(initialUserState);
  });

  it('loggedIn stores the token and forgets the previous user until the new one is fetched', () => {
    const state = reduce(loggedInState, loggedIn({ token: 'token-2' }));
    expect(state.token).toBe('token-2');
    expect(state.userInfo).toEqual({});
    expect(state.countryInfo).toEqual(korea);
  });

  it('userInfoReceived stores the user, userInfoCleared forgets it and keeps the token', () => {
    const received = reduce(reduce(undefined, loggedIn({ token: 't' })), userInfoReceived(userInfo));
    expect(received.userInfo).toEqual(userInfo);
    const cleared = reduce(received, userInfoCleared());
    expect(cleared.userInfo).toEqual({});
    expect(cleared.token).toBe('t');
  });

  it('loggedOut clears the token and the user but keeps the chosen country', () => {
    const state = reduce(loggedInState, loggedOut());
    expect(state.token).toBe('');
    expect(state.userInfo).toEqual({});
    expect(state.tradeAssetInfo).toEqual({});
    expect(state.positionsSummary).toEqual({});
    expect(state.address).toBe('');
    expect(state.countryInfo).toEqual(korea);
  });

  it('sessionExpired clears the token and the user but keeps the country and the page to come back to', () => {
    const remembered = reduce(loggedInState, redirectRemembered('/my?tab=assets'));
    const state = reduce(remembered, sessionExpired());
    expect(state.token).toBe('');
    expect(state.userInfo).toEqual({});
    expect(state.countryInfo).toEqual(korea);
    expect(state.redirectTo).toBe('/my?tab=assets');
  });

  it('countryChosen stores the country', () => {
    expect(reduce(undefined, countryChosen(korea)).countryInfo).toEqual(korea);
  });

  it('redirectRemembered stores the path to return to after login', () => {
    expect(reduce(undefined, redirectRemembered('/gerenziliao')).redirectTo).toBe('/gerenziliao');
    expect(reduce(undefined, redirectRemembered('/bisaiDetail?id=3')).redirectTo).toBe('/bisaiDetail?id=3');
  });

  it('redirectRemembered never stores the login page', () => {
    for (const path of ['/login', '/login?mode=register']) {
      expect(reduce(undefined, redirectRemembered(path)).redirectTo, path).toBe('');
      expect(reduce(loggedInState, redirectRemembered(path)).redirectTo, path).not.toContain('login');
    }
  });

  it('redirectConsumed clears the stored path', () => {
    const state = reduce(reduce(undefined, redirectRemembered('/my')), redirectConsumed());
    expect(state.redirectTo).toBe('');
  });

  it('keeps the state serialisable', () => {
    let state = reduce(undefined, loggedIn({ token: 't' }));
    state = reduce(state, userInfoReceived(userInfo));
    state = reduce(state, redirectRemembered('/my'));
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });
});
