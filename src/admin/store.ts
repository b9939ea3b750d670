// The back office's Redux store: its own API slice and the operator's session. The token is kept
// in sessionStorage (this tab only); a 401 from any call clears it and shows the login screen.
import { configureStore, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { adminApi } from './api.ts';
import { readToken, writeToken } from './transport.ts';

const session = createSlice({
  name: 'session',
  initialState: { token: readToken(), expired: false },
  reducers: {
    loggedIn(state, action: PayloadAction<string>) {
      state.token = action.payload;
      state.expired = false;
    },
    loggedOut(state, action: PayloadAction<{ expired: boolean }>) {
      state.token = '';
      state.expired = action.payload.expired;
    },
  },
});

const { loggedIn, loggedOut } = session.actions;

/** Opens the operator's session: the token goes to sessionStorage and every screen shows. */
export function logIn(store: AdminStore, token: string) {
  writeToken(token);
  store.dispatch(loggedIn(token));
}

/** Ends it (logout, or a 401 when `expired`): the token and every cached answer go. */
export function logOut(store: AdminStore, expired: boolean) {
  writeToken('');
  store.dispatch(loggedOut({ expired }));
  store.dispatch(adminApi.util.resetApiState());
}

export function createAdminStore() {
  return configureStore({
    reducer: { [adminApi.reducerPath]: adminApi.reducer, session: session.reducer },
    middleware: (getDefault) => getDefault().concat(adminApi.middleware),
  });
}

export type AdminStore = ReturnType<typeof createAdminStore>;
export type AdminState = ReturnType<AdminStore['getState']>;
