// Remembers every encrypted body the server accepted, so the same body (however its base64 text
// is spelt) is never accepted twice. The key is a digest of the body's unwrapped AES key, which a
// client draws at random for each request; it lives in the database so that a restart or another
// instance does not forget it. Rows expire after their window and are pruned in batches; the
// number of live rows is capped, and a full store refuses new bodies rather than forget old ones.
import { createHash } from 'node:crypto';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { requestReplayKeys } from '../db/schema.ts';
import { AppError } from './errors.ts';

export interface ReplayStore {
  /** True the first time this key is claimed; false when it was claimed before (a replay). */
  claim(aesKey: Buffer, expiresAtMs: number): Promise<boolean>;
  /** Deletes expired rows (in batches) and refreshes the size estimate; returns rows deleted. */
  prune(): Promise<number>;
  /** Live rows counted at the last prune plus the claims since, on this instance. */
  readonly sizeEstimate: number;
  close(): void;
}

export interface ReplayStoreOptions {
  db: Db;
  now: () => number;
  entriesMax: number;
  pruneIntervalMs: number;
  pruneBatchSize?: number;
  onError?: (error: unknown) => void;
}

/** 16 bytes of SHA-256 under a domain label: collisions need 2^64 requests, rows stay small. */
export function replayDigest(aesKey: Buffer): string {
  return createHash('sha256').update('bourse-replay-v1\0').update(aesKey).digest().subarray(0, 16).toString('base64url');
}

const busy = () => new AppError(429, 'rate_limited', 'The server is busy, please try again in a moment.',
  { retryAfterSeconds: 60 });

export function databaseReplayStore(options: ReplayStoreOptions): ReplayStore {
  const { db, now, entriesMax } = options;
  const pruneBatchSize = options.pruneBatchSize ?? 10_000;
  let sizeEstimate = 0;
  let pruning: Promise<number> | undefined;

  async function pruneOnce(): Promise<number> {
    const cutoff = new Date(now());
    let deleted = 0;
    for (;;) {
      // Batches keep each delete short, so claims are never held up behind one long statement.
      const rows = await db.delete(requestReplayKeys).where(sql`${requestReplayKeys.digest} in (
        select ${requestReplayKeys.digest} from ${requestReplayKeys}
        where ${lt(requestReplayKeys.expiresAt, cutoff)} limit ${pruneBatchSize})`)
        .returning({ digest: requestReplayKeys.digest });
      deleted += rows.length;
      if (rows.length < pruneBatchSize) break;
    }
    const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(requestReplayKeys);
    sizeEstimate = count;
    return deleted;
  }

  const store: ReplayStore = {
    async claim(aesKey, expiresAtMs) {
      if (sizeEstimate >= entriesMax) {
        await store.prune();
        if (sizeEstimate >= entriesMax) throw busy();
      }
      const rows = await db.insert(requestReplayKeys).values({ digest: replayDigest(aesKey), expiresAt: new Date(expiresAtMs) })
        .onConflictDoNothing().returning({ digest: requestReplayKeys.digest });
      if (rows.length === 1) sizeEstimate += 1;
      return rows.length === 1;
    },
    prune() {
      // One prune at a time per instance; callers arriving meanwhile share its result.
      pruning ??= pruneOnce().finally(() => { pruning = undefined; });
      return pruning;
    },
    get sizeEstimate() { return sizeEstimate; },
    close() { clearInterval(timer); },
  };
  const timer = setInterval(() => { store.prune().catch((error: unknown) => options.onError?.(error)); }, options.pruneIntervalMs);
  timer.unref();
  // The estimate starts from what is stored (a restart keeps the rows).
  store.prune().catch((error: unknown) => options.onError?.(error));
  return store;
}
