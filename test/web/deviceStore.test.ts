// The device's IndexedDB stores (lib/storage.ts openDeviceStore), which the persisted state, the
// chat, the chart's candles and the asset centre's figures all use: while IndexedDB works they read
// and write it; when it is missing, refuses to open or a transaction fails (a full disk), the store
// warns once, never throws, and keeps what the page writes in memory, read back as copies.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDeviceStore } from '../../src/lib/storage.ts';

interface FakeRequest { result?: unknown; error?: DOMException; onsuccess?: () => void; onerror?: () => void; oncomplete?: () => void; onabort?: () => void }

/** A request that answers on the next turn, as IndexedDB's do. */
function answer(request: FakeRequest, error?: DOMException) {
  setTimeout(() => {
    if (error) {
      request.error = error;
      (request.onerror ?? request.onabort)?.();
    } else {
      (request.onsuccess ?? request.oncomplete)?.();
    }
  }, 0);
  return request;
}

/**
 * An IndexedDB over a map that opens and reads, and whose write transactions abort with the
 * given error once `full` is set (a disk that filled up while the page was open).
 */
function diskThatFills(disk: Map<string, unknown>) {
  const state = { full: false, opens: 0 };
  const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  const database = {
    transaction: () => {
      const transaction: FakeRequest & { objectStore(): unknown } = {
        objectStore: () => ({
          transaction,
          get: (key: string) => answer({ result: structuredClone(disk.get(key)) }),
          put: (value: unknown, key: string) => {
            if (!state.full) disk.set(key, structuredClone(value));
            answer(transaction, state.full ? quota : undefined);
          },
          delete: (key: string) => {
            disk.delete(key);
            answer(transaction);
          },
        }),
      };
      return transaction;
    },
  };
  const indexedDB = {
    open: () => {
      state.opens += 1;
      return answer({ result: database });
    },
  };
  return { indexedDB, state };
}

let warnings: unknown[][];
beforeEach(() => {
  warnings = [];
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => { warnings.push(args); });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a device store', () => {
  it('reads and writes IndexedDB while it works, and warns of nothing', async () => {
    const disk = new Map<string, unknown>([['kept', { seq: 1 }]]);
    vi.stubGlobal('indexedDB', diskThatFills(disk).indexedDB);
    const store = openDeviceStore('bourse-test-working', 'kept');
    expect(await store.get('kept')).toEqual({ seq: 1 });
    await store.setMany([['a', 1], ['b', 2]]);
    await store.del('kept');
    expect([...disk.entries()]).toEqual([['a', 1], ['b', 2]]);
    expect(warnings).toEqual([]);
  });

  it('keeps its data in memory, warning once, when opening IndexedDB throws', async () => {
    const open = vi.fn(() => { throw new DOMException('The operation is insecure.', 'SecurityError'); });
    vi.stubGlobal('indexedDB', { open });
    const store = openDeviceStore('bourse-test-denied', 'kept');
    expect(await store.get('history')).toBeUndefined();
    const history = { messages: [{ seq: 1, text: 'Hello' }] };
    await store.set('history', history);
    history.messages.push({ seq: 2, text: 'changed after the write' });
    expect(await store.get('history')).toEqual({ messages: [{ seq: 1, text: 'Hello' }] });
    await store.setMany([['a', 1], ['b', 2]]);
    await store.delMany(['a']);
    await store.del('history');
    expect([await store.get('a'), await store.get('b'), await store.get('history')]).toEqual([undefined, 2, undefined]);
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0][0])).toContain('IndexedDB bourse-test-denied failed');
    // Memory from the first failure on: IndexedDB is not asked again.
    expect(open).toHaveBeenCalledOnce();
  });

  it('keeps its data in memory when IndexedDB is missing or its open request fails', async () => {
    vi.stubGlobal('indexedDB', undefined);
    const missing = openDeviceStore('bourse-test-missing', 'kept');
    await missing.set('a', 'kept in memory');
    expect(await missing.get('a')).toBe('kept in memory');

    vi.stubGlobal('indexedDB', { open: () => answer({}, new DOMException('Permission denied', 'UnknownError')) });
    const refused = openDeviceStore('bourse-test-refused', 'kept');
    await refused.set('b', 'kept in memory too');
    expect(await refused.get('b')).toBe('kept in memory too');
    expect(warnings.map((args) => String(args[0]).match(/IndexedDB (\S+)/)?.[1])).toEqual(['bourse-test-missing', 'bourse-test-refused']);
  });

  it('goes on in memory, warning once, when a write transaction aborts (a full disk)', async () => {
    const disk = new Map<string, unknown>([['last', 'on disk']]);
    const { indexedDB, state } = diskThatFills(disk);
    vi.stubGlobal('indexedDB', indexedDB);
    const store = openDeviceStore('bourse-test-full', 'kept');
    expect(await store.get('last')).toBe('on disk');
    state.full = true;
    await expect(store.set('last', 'newer')).resolves.toBeUndefined();
    expect(await store.get('last')).toBe('newer');
    await store.set('other', 'also newer');
    expect(await store.get('other')).toBe('also newer');
    expect(disk.get('last')).toBe('on disk');
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0][0])).toContain('IndexedDB bourse-test-full failed (write last)');
  });
});
