// Opens the system of record: embedded PGlite by default, PostgreSQL when a URL is given.
// Both go through Drizzle with the same schema and the same generated migrations, applied here.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import * as schema from './schema.ts';
import { lockPgliteDir } from './pgliteLock.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A transaction handle has the same query surface as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface OpenOptions {
  /** PostgreSQL connection string; when absent PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory, or 'memory://' for an in-memory database. */
  pgliteDir?: string;
  /** A PGlite data-directory dump to start from (fast test databases). */
  pgliteLoadDataDir?: Blob | File;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection can end under the pool (a server restart, an administrator, a dropped
    // database); without a listener that error would crash the process. The pool discards the
    // connection and opens another for the next query, so a line in the log is all it needs.
    pool.on('error', (error) => console.error(`database connection lost while idle: ${error.message}`));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await migratePg(drizzlePg(pool, { schema }), { migrationsFolder });
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  // A directory on disk is one process's at a time (pgliteLock.ts); memory:// is nobody else's.
  const unlock = options.pgliteDir && !options.pgliteDir.includes('://') ? lockPgliteDir(options.pgliteDir) : () => {};
  try {
    const client = new PGlite(options.pgliteDir ?? 'memory://', options.pgliteLoadDataDir
      ? { loadDataDir: options.pgliteLoadDataDir } : {});
    await client.waitReady;
    const database = drizzlePglite(client, { schema });
    await migratePglite(database, { migrationsFolder });
    return { db: database as unknown as Db, kind: 'pglite', close: async () => { try { await client.close(); } finally { unlock(); } } };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** Runs the migrations on a fresh in-memory PGlite and dumps it, for cloning in tests. */
export async function pgliteTemplate(): Promise<Blob | File> {
  const client = new PGlite('memory://');
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
  const dump = await client.dumpDataDir('none');
  await client.close();
  return dump;
}
