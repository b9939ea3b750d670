// The user store of spec §3. userInfo is an empty object when nobody is logged in.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { UserInfo } from '../../api/contract/accounts.ts';
import { sessionExpired } from '../../api/session.ts';
import { defaultCountry, type CountryInfo } from '../../lib/country.ts';

export type { CountryInfo };


export interface UserState {
  token: string;
  userInfo: Partial<UserInfo>;
  /** Filled by the trading features (second-contract head call, positions summary). */
  tradeAssetInfo: Record<string, unknown>;
  positionsSummary: Record<string, unknown>;
  countryInfo: CountryInfo;
  redirectTo: string;
  commonConfig: Record<string, unknown>;
  address: string;
}

export const initialUserState: UserState = {
  token: '', userInfo: {}, tradeAssetInfo: {}, positionsSummary: {}, countryInfo: defaultCountry,
  redirectTo: '', commonConfig: {}, address: '',
};

const cleared = (state: UserState): UserState => ({ ...initialUserState, countryInfo: state.countryInfo, redirectTo: state.redirectTo });

export const userSlice = createSlice({
  name: 'user',
  initialState: initialUserState,
  reducers: {
    loggedIn(state, action: PayloadAction<{ token: string }>) {
      state.token = action.payload.token;
      state.userInfo = {};
    },
    userInfoReceived(state, action: PayloadAction<UserInfo>) {
      state.userInfo = action.payload;
    },
    userInfoCleared(state) {
      state.userInfo = {};
    },
    loggedOut: cleared,
    countryChosen(state, action: PayloadAction<CountryInfo>) {
      state.countryInfo = action.payload;
    },
    redirectRemembered(state, action: PayloadAction<string>) {
      // The login page itself is never a redirect target (spec §2); asking to remember it keeps
      // the page remembered before, so a 401 answered on /login does not lose the way back.
      if (!action.payload.startsWith('/login')) state.redirectTo = action.payload;
    },
    redirectConsumed(state) {
      state.redirectTo = '';
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionExpired, cleared);
  },
});

export const {
  loggedIn, userInfoReceived, userInfoCleared, loggedOut, countryChosen, redirectRemembered, redirectConsumed,
} = userSlice.actions;
