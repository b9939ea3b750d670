// The store a page test renders with: the API slice and the user slice, as the app's store has
// them (without persistence), logged in when a token is given.
import { configureStore } from '@reduxjs/toolkit';
import { api } from '../../src/api/api.ts';
import { loggedIn, userSlice } from '../../src/entities/session/userSlice.ts';

export function testStore(token?: string) {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  if (token) store.dispatch(loggedIn({ token }));
  return store;
}
