// The `token` cookie an OpenID login leaves for the app (spec §4): the store reads it once after
// rehydration and deletes it at once, whether it logs the user in or a token was already stored,
// so a session token never lingers in a cookie for the rest of its two minutes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialUserState, loggedIn } from '../../src/features/session/userSlice.ts';

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
  const { store, restored } = createAppStore();
  await restored;
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

describe('the persisted store', () => {
  beforeEach(() => {
    persisted.clear();
    localStorage.clear();
  });

  /** What the store wrote, parsed as redux-persist 6 wrote it: each slice a JSON string of its own. */
  const written = () => {
    const outer = JSON.parse(persisted.get('persist:bourse') ?? 'null') as Record<string, string> | null;
    return outer && Object.fromEntries(Object.entries(outer).map(([key, value]) => [key, JSON.parse(value)]));
  };

  it('writes a changed slice in the stored format with its version, and the next start reads it back', async () => {
    const store = await startStore();
    expect(persisted.has('persist:bourse')).toBe(false);
    store.dispatch(loggedIn({ token: 'new-session' }));
    expect(written()).toMatchObject({ user: { token: 'new-session' }, market: { favourites: [] }, _persist: { version: 2 } });
    const next = await startStore();
    expect(next.getState().user.token).toBe('new-session');
  });

  it('saves a token taken from the cookie at start', async () => {
    document.cookie = 'token=from-provider; path=/';
    await startStore();
    expect(written()?.user.token).toBe('from-provider');
  });

  it('starts from the defaults when what was saved cannot be read', async () => {
    persisted.set('persist:bourse', '{"user": not json');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const store = await startStore();
    expect(store.getState().user).toEqual(initialUserState);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
