// All browser storage in one place (STYLE §5): IndexedDB for every store the app keeps on the
// device (the persisted Redux state, the chat's history and outbox, the chart's candles, the asset
// centre's figures), localStorage for the spec's keys (`token`, `lang`, the last online report),
// the `token` cookie, and sessionStorage for the desktop redirect. Failures are logged, never
// thrown: private modes and full disks must not break the app. An IndexedDB store that cannot be
// opened, or whose transaction fails, says so once and keeps its data in memory for the rest of
// the page's life, so the pages above it work on (without a copy across reloads).
import { createStore, del, delMany, get, set, setMany, type UseStore } from 'idb-keyval';

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

/** One IndexedDB key-value store on the device: answers always, from memory once IndexedDB failed. */
export interface DeviceStore {
  get<Value>(key: string): Promise<Value | undefined>;
  set(key: string, value: unknown): Promise<void>;
  setMany(entries: Array<[string, unknown]>): Promise<void>;
  del(key: string): Promise<void>;
  delMany(keys: string[]): Promise<void>;
}

/**
 * The store `storeName` of the database `databaseName` (idb-keyval), opened on first use so that
 * importing a module that names one touches nothing. When IndexedDB is missing, refuses to open
 * (a private mode, a denied permission, a broken profile) or a transaction fails (a full disk),
 * the store warns once and from then on reads and writes a map in memory: what this page wrote is
 * still read back, nothing is kept across a reload, and no caller sees an exception.
 */
export function openDeviceStore(databaseName: string, storeName: string): DeviceStore {
  let onDisk: UseStore | undefined;
  let inMemory: Map<string, unknown> | undefined;
  const fallBack = (what: string, error: unknown) => {
    if (inMemory) return inMemory;
    console.warn(`[storage] IndexedDB ${databaseName} failed (${what}); its data is kept in memory for this page`, error);
    inMemory = new Map();
    return inMemory;
  };
  /** IndexedDB copies what it stores; the map does too, so a caller changing a value later changes no stored one. */
  const copy = <Value>(value: Value): Value => (value === undefined ? value : structuredClone(value));
  async function run<Result>(what: string, disk: (store: UseStore) => Promise<Result>, memory: (map: Map<string, unknown>) => Result) {
    if (!inMemory) {
      try {
        // The database opens at the first read or write: where IndexedDB is missing or denied the
        // call throws at once, where opening fails it rejects; a failed transaction rejects too.
        onDisk ??= createStore(databaseName, storeName);
        return await disk(onDisk);
      } catch (error) {
        fallBack(what, error);
      }
    }
    try {
      return memory(inMemory!);
    } catch (error) {
      // A value the structured clone cannot copy: a programmer's error, logged like the rest.
      report(`memory ${what} in ${databaseName}`, error);
      return undefined as Result;
    }
  }
  return {
    get: <Value>(key: string) => run(`read ${key}`, (store) => get<Value>(key, store), (map) => copy(map.get(key) as Value | undefined)),
    set: (key, value) => run(`write ${key}`, (store) => set(key, value, store), (map) => { map.set(key, copy(value)); }),
    setMany: (entries) => run('write', (store) => setMany(entries, store), (map) => {
      for (const [key, value] of entries) map.set(key, copy(value));
    }),
    del: (key) => run(`delete ${key}`, (store) => del(key, store), (map) => { map.delete(key); }),
    delMany: (keys) => run('delete', (store) => delMany(keys, store), (map) => {
      for (const key of keys) map.delete(key);
    }),
  };
}

/** The persisted Redux state's database (app/store.ts, redux-persist). */
const stateStore = openDeviceStore('bourse', 'state');

const pendingWrites = new Map<string, string>();
let flushTimer: ReturnType<typeof setTimeout> | undefined;
const writeDelayMs = 250;

async function flushWrites() {
  flushTimer = undefined;
  const writes = [...pendingWrites];
  pendingWrites.clear();
  await Promise.all(writes.map(([key, value]) => stateStore.set(key, value)));
}

/** redux-persist storage over IndexedDB (memory when IndexedDB fails), with writes debounced and flushable. */
export const indexedDbStorage = {
  async getItem(key: string): Promise<string | null> {
    if (pendingWrites.has(key)) return pendingWrites.get(key)!;
    return (await stateStore.get<string>(key)) ?? null;
  },
  async setItem(key: string, value: string): Promise<void> {
    pendingWrites.set(key, value);
    flushTimer ??= setTimeout(() => void flushWrites(), writeDelayMs);
  },
  async removeItem(key: string): Promise<void> {
    pendingWrites.delete(key);
    await stateStore.del(key);
  },
};

/** Writes whatever is pending now, e.g. before the page is hidden. */
export async function flushStorage() {
  if (flushTimer) clearTimeout(flushTimer);
  await flushWrites();
}
