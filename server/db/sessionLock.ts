// A named lock held for as long as some work runs, across every instance of one database (issue 38
// #11: the daily jobs' "already running" guard lived in one process, and two instances ran all
// seven jobs at once). On PostgreSQL it is a session-level advisory lock taken on a connection of
// its own, outside the pool: the work's queries go through the pool as usual, and when the process
// dies its session ends and PostgreSQL frees the lock, so a crash never leaves it held (the engine
// lock, market/leader.ts, is freed the same way). On embedded PGlite one process owns the database
// (pgliteLock.ts) through one session, where an advisory lock is re-entrant: the lock is taken all
// the same, and a per-database set in this process refuses a second holder of the same name.
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';

export type Locked<T> = { locked: true; value: T } | { locked: false };

/** Names held in this process, per database (the PGlite session cannot tell two holders apart). */
const heldHere = new WeakMap<Db, Set<string>>();

/** How long PostgreSQL waits on a silent peer before it ends the session and frees the lock. */
const keepaliveSql = 'set tcp_keepalives_idle = 10; set tcp_keepalives_interval = 5; set tcp_keepalives_count = 3';

/**
 * Runs `work` holding the lock `name`, or answers `{ locked: false }` at once when another holder
 * has it (no waiting: a second start is refused, not queued). The lock is released when `work`
 * ends, however it ends; `work`'s own error is thrown as it is.
 */
export async function withSessionLock<T>(db: Db, name: string, work: () => Promise<T>): Promise<Locked<T>> {
  const held = heldHere.get(db) ?? new Set<string>();
  heldHere.set(db, held);
  if (held.has(name)) return { locked: false };
  held.add(name);
  try {
    const client = (db as unknown as { $client: unknown }).$client;
    return client instanceof pg.Pool ? await onOwnSession(client, name, work) : await onSharedSession(db, name, work);
  } finally {
    held.delete(name);
  }
}

async function onOwnSession<T>(pool: pg.Pool, name: string, work: () => Promise<T>): Promise<Locked<T>> {
  const session = new pg.Client({
    ...pool.options, application_name: 'bourse-session-lock', keepAlive: true, connectionTimeoutMillis: 10_000,
  });
  // A session that fails while the work runs has lost the lock; the work goes on (every job is
  // idempotent per day), and the lock is free for the next start. Without a listener the error
  // would end the process.
  session.on('error', () => {});
  await session.connect();
  try {
    await session.query(keepaliveSql);
    const { rows } = await session.query<{ acquired: boolean }>(
      'select pg_try_advisory_lock(hashtextextended($1, 0)) as acquired', [name]);
    if (!rows[0].acquired) return { locked: false };
    try {
      return { locked: true, value: await work() };
    } finally {
      // Freed before the answer, so a start right after it finds the lock free; ending the
      // session would free it too, but a moment later, on the server's side.
      await session.query('select pg_advisory_unlock(hashtextextended($1, 0))', [name]).catch(() => {});
    }
  } finally {
    await session.end().catch(() => {});
  }
}

async function onSharedSession<T>(db: Db, name: string, work: () => Promise<T>): Promise<Locked<T>> {
  const acquired = await db.execute(sql`select pg_try_advisory_lock(hashtextextended(${name}, 0)) as acquired`) as unknown as {
    rows: Array<{ acquired: boolean }>;
  };
  if (!acquired.rows[0].acquired) return { locked: false };
  try {
    return { locked: true, value: await work() };
  } finally {
    await db.execute(sql`select pg_advisory_unlock(hashtextextended(${name}, 0))`);
  }
}
