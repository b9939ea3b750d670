// All browser storage in one place (STYLE §5): IndexedDB for the persisted store, localStorage
// for the spec's keys (`token`, `lang`, the last online report), the `token` cookie, and
// sessionStorage for the desktop redirect. Failures are logged, never thrown: private modes and
// full disks must not break the app.
import { createStore, del, get, set } from 'idb-keyval';

export const storageKeys = {
  token: 'token',
  lang: 'lang',
  customerOnlineAtMs: 'importantCustomerOnLineAt',
  pcReturnUrl: 'pcReturnUrl',
  /** The push offer (components/PushOffer.tsx) on this device: `offered|dismissed|accepted <ISO time>`. */
  pushOfferDone: 'pushOfferDone',
} as const;

const report = (what: string, error: unknown) => console.warn(`[storage] ${what} failed`, error);

export function readLocal(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch (error) {
    report(`read ${key}`, error);
    return null;
  }
}

export function writeLocal(key: string, value: string | null) {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, value);
  } catch (error) {
    report(`write ${key}`, error);
  }
}

export function readSession(key: string): string | null {
  try {
    return globalThis.sessionStorage?.getItem(key) ?? null;
  } catch (error) {
    report(`read session ${key}`, error);
    return null;
  }
}

export function writeSession(key: string, value: string) {
  try {
    globalThis.sessionStorage?.setItem(key, value);
  } catch (error) {
    report(`write session ${key}`, error);
  }
}

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(rest.join('=')) || null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Forgets a cookie set for this site's root or this page's path. */
export function clearCookie(name: string) {
  if (typeof document === 'undefined') return;
  for (const path of ['/', location.pathname]) document.cookie = `${name}=; Max-Age=0; path=${path}; SameSite=Lax`;
}

/** The persisted store's database, created lazily so importing this module touches nothing. */
let stateStore: ReturnType<typeof createStore> | undefined;
const idb = () => (stateStore ??= createStore('bourse', 'state'));

const pendingWrites = new Map<string, string>();
let flushTimer: ReturnType<typeof setTimeout> | undefined;
const writeDelayMs = 250;

async function flushWrites() {
  flushTimer = undefined;
  const writes = [...pendingWrites];
  pendingWrites.clear();
  await Promise.all(writes.map(([key, value]) => set(key, value, idb()).catch((error) => report(`idb write ${key}`, error))));
}

/** redux-persist storage over IndexedDB, with writes debounced and flushable. */
export const indexedDbStorage = {
  async getItem(key: string): Promise<string | null> {
    if (pendingWrites.has(key)) return pendingWrites.get(key)!;
    try {
      return (await get<string>(key, idb())) ?? null;
    } catch (error) {
      report(`idb read ${key}`, error);
      return null;
    }
  },
  async setItem(key: string, value: string): Promise<void> {
    pendingWrites.set(key, value);
    flushTimer ??= setTimeout(() => void flushWrites(), writeDelayMs);
  },
  async removeItem(key: string): Promise<void> {
    pendingWrites.delete(key);
    try {
      await del(key, idb());
    } catch (error) {
      report(`idb delete ${key}`, error);
    }
  },
};

/** Writes whatever is pending now, e.g. before the page is hidden. */
export async function flushStorage() {
  if (flushTimer) clearTimeout(flushTimer);
  await flushWrites();
}
