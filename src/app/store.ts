// The store: the one api, the user and market slices, the last two persisted into IndexedDB
// (app/persistence.ts has the format, the versions and the validation): read once at start and
// handed to the store in one action, then written again (debounced, lib/storage.ts) whenever
// either slice changes. A few lines of our own where redux-persist was: the same stored format,
// without its 8 kB in the first screen's code (DESIGN §8 budget).
// The token is mirrored to localStorage `token`; at start it is also taken from the `token` cookie,
// which is deleted as soon as it has been read.
import { combineReducers, configureStore, createAction, type Reducer, type UnknownAction } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api } from '../api/api.ts';
import { userSlice, loggedIn } from '../features/session/userSlice.ts';
import { marketSlice } from '../features/market/marketSlice.ts';
import { clearCookie, indexedDbStorage, readCookie, readLocal, storageKeys, writeLocal } from '../lib/storage.ts';
import { migratePersisted, parseStored, persistKey, serialisePersisted, type PersistedRoot } from './persistence.ts';

/** What was read back from the device at start (undefined: nothing, or nothing readable). */
export const persistedStateRestored = createAction<PersistedRoot | undefined>('app/persistedStateRestored');

const slices = combineReducers({
  [api.reducerPath]: api.reducer,
  user: userSlice.reducer,
  market: marketSlice.reducer,
});
type SlicesState = ReturnType<typeof slices>;

const rootReducer: Reducer<SlicesState, UnknownAction, Partial<SlicesState>> = (state, action) => {
  const next = slices(state, action);
  return persistedStateRestored.match(action) && action.payload ? { ...next, ...action.payload } : next;
};

/** Reads the persisted slices; a failure is logged and leaves the store as it starts. */
async function readPersisted(): Promise<PersistedRoot | undefined> {
  try {
    return migratePersisted(parseStored(await indexedDbStorage.getItem(persistKey)));
  } catch (error) {
    console.warn('[store] the saved state could not be read', error);
    return undefined;
  }
}

/** Writes the persisted slices whenever one of them is a new object. */
function persistChanges(store: AppStore) {
  let { user, market } = store.getState();
  store.subscribe(() => {
    const state = store.getState();
    if (state.user === user && state.market === market) return;
    ({ user, market } = state);
    void indexedDbStorage.setItem(persistKey, serialisePersisted({ user, market }));
  });
}

/** Takes the `token` cookie and the localStorage token after rehydration, and mirrors the token. */
function adoptToken(store: AppStore) {
  // The `token` cookie is an OpenID login's hand-over (spec §4): it is read once and deleted at
  // once, used or not. Left in place it would keep a session token readable for its whole two
  // minutes and be taken again at the next start, even over a logout or another login.
  const cookieToken = readCookie(storageKeys.token);
  if (cookieToken !== null) clearCookie(storageKeys.token);
  // After rehydration: a token in localStorage or the cookie counts when the store has none.
  if (!store.getState().user.token) {
    const token = readLocal(storageKeys.token) || cookieToken;
    if (token) store.dispatch(loggedIn({ token }));
  }
  // Only now mirror the token, so the empty pre-rehydration state never erases it.
  let mirroredToken = readLocal(storageKeys.token) ?? '';
  const mirror = () => {
    const { token } = store.getState().user;
    if (token !== mirroredToken) {
      mirroredToken = token;
      writeLocal(storageKeys.token, token || null);
    }
  };
  mirror();
  store.subscribe(mirror);
}

export function createAppStore() {
  const store = configureStore({
    reducer: rootReducer,
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  setupListeners(store.dispatch);
  /** Settles once the saved state is in the store (or there was none): the first screen waits for it. */
  const restored = readPersisted().then((persisted) => {
    store.dispatch(persistedStateRestored(persisted));
    // Watched before the token is adopted, so a token from the cookie is saved as well.
    persistChanges(store);
    adoptToken(store);
  });
  return { store, restored };
}

export type AppStore = ReturnType<typeof createAppStore>['store'];
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
