// The store: the one api, the user and market slices, persisted into IndexedDB (redux-persist over
// lib/storage.ts, which keeps it in memory when IndexedDB fails), and the chat page's slice (not
// persisted: the chat keeps its own copy on the device). A listener middleware runs the listeners
// pages add while they are open (the chat's, features/chat/chatListeners.ts).
// The token is mirrored to localStorage `token`; at start it is also taken from the `token` cookie,
// which is deleted as soon as it has been read.
import { combineReducers, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import {
  createMigrate, persistReducer, persistStore, FLUSH, PAUSE, PERSIST, PURGE, REGISTER, REHYDRATE,
} from 'redux-persist';
import { api } from '../api/api.ts';
import { userSlice, loggedIn } from '../entities/session/userSlice.ts';
import { marketSlice } from '../entities/market/marketSlice.ts';
import { chatSlice } from '../features/chat/chatSlice.ts';
import { clearCookie, indexedDbStorage, readCookie, readLocal, storageKeys, writeLocal } from '../lib/storage.ts';
import { migrations, persistVersion, validatePersisted } from './persistence.ts';

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  user: userSlice.reducer,
  market: marketSlice.reducer,
  chat: chatSlice.reducer,
});

const migrate = createMigrate(migrations, { debug: false });
const persistedReducer = persistReducer({
  key: 'bourse',
  version: persistVersion,
  storage: indexedDbStorage,
  whitelist: ['user', 'market'],
  migrate: async (state, version) => {
    const migrated = await migrate(state, version);
    if (!migrated) return migrated;
    return { ...migrated, ...validatePersisted(migrated) };
  },
}, rootReducer);

export function createAppStore() {
  const listeners = createListenerMiddleware();
  const store = configureStore({
    reducer: persistedReducer,
    middleware: (getDefault) => getDefault({
      serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
    }).prepend(listeners.middleware).concat(api.middleware),
  });
  setupListeners(store.dispatch);
  const persistor = persistStore(store, null, () => {
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
  });
  return { store, persistor };
}

export type AppStore = ReturnType<typeof createAppStore>['store'];
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
