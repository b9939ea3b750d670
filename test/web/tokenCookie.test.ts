// The `token` cookie an OpenID login leaves for the app (spec §4): the store reads it once after
// rehydration and deletes it at once, whether it logs the user in or a token was already stored,
// so a session token never lingers in a cookie for the rest of its two minutes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialUserState } from '../../src/entities/session/userSlice.ts';

/** The persisted store's database, in memory (jsdom has no IndexedDB). */
const persisted = new Map<string, string>();
vi.mock('../../src/lib/storage.ts', async (importOriginal) => ({
  ...await importOriginal<typeof import('../../src/lib/storage.ts')>(),
  indexedDbStorage: {
    getItem: async (key: string) => persisted.get(key) ?? null,
    setItem: async (key: string, value: string) => { persisted.set(key, value); },
    removeItem: async (key: string) => { persisted.delete(key); },
  },
}));

const { createAppStore } = await import('../../src/app/store.ts');

/** Starts the store and waits until it has rehydrated, as main.tsx does. */
async function startStore() {
  const { store, persistor } = createAppStore();
  await vi.waitFor(() => expect(persistor.getState().bootstrapped).toBe(true));
  return store;
}

const cookieToken = () => /(?:^|;\s*)token=([^;]*)/.exec(document.cookie)?.[1];

describe('the token cookie at start', () => {
  beforeEach(() => {
    persisted.clear();
    localStorage.clear();
    document.cookie = 'token=from-provider; path=/';
  });
  afterEach(() => {
    document.cookie = 'token=; Max-Age=0; path=/';
  });

  it('logs in with the cookie\'s token when none is stored, and deletes the cookie', async () => {
    expect(cookieToken()).toBe('from-provider');
    const store = await startStore();
    expect(store.getState().user.token).toBe('from-provider');
    expect(cookieToken()).toBeUndefined();
    expect(localStorage.getItem('token')).toBe('from-provider');
  });

  it('deletes the cookie unused when a token is already stored, keeping the stored one', async () => {
    persisted.set('persist:bourse', JSON.stringify({
      user: JSON.stringify({ ...initialUserState, token: 'already-stored' }),
      _persist: JSON.stringify({ version: 2, rehydrated: true }),
    }));
    localStorage.setItem('token', 'already-stored');
    const store = await startStore();
    expect(store.getState().user.token).toBe('already-stored');
    expect(cookieToken()).toBeUndefined();
  });

  it('starts logged out, with nothing to delete, when there is no cookie and no stored token', async () => {
    document.cookie = 'token=; Max-Age=0; path=/';
    const store = await startStore();
    expect(store.getState().user.token).toBe('');
    expect(cookieToken()).toBeUndefined();
  });
});
