// Group commit (issue 20): concurrent postTransfers calls on one database are gathered into one
// database transaction, the way TigerBeetle batches its clients' requests. There is no timer: the
// first request with no group in flight starts a group at once (a lone transfer never waits for
// company); requests arriving while groups are in flight queue, and the next free slot takes as many
// of them as fit under the size cap. What runs a group (and answers each request on its own) is
// transfers.ts; this file holds the queue, its limits, and the plain SQL connection groups run on.
import pg from 'pg';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../../db/client.ts';
import { assert } from '../../../lib/errors.ts';
import type { PostResult, TransferRequest } from './rules.ts';

/** One caller's batch waiting for (or riding in) a group, and how to answer that caller. */
export interface QueuedRequest {
  batch: readonly TransferRequest[];
  now: Date;
  resolve(result: PostResult): void;
  reject(error: unknown): void;
}

export interface GroupCommitLimits {
  /** Transfers in one group at most (one caller's batch is never split across groups). */
  transfersPerGroupMax: number;
  /** Groups in their own transactions at once: 1 on PGlite (one connection), more on a pool. */
  groupsInFlightMax: number;
  /**
   * With a group in flight, another starts only when this many transfers wait: single transfers
   * then gather behind the one in flight into a group of all of them (8 callers: 8 a group and
   * 5 182/s, against 3.7 a group and 4 119/s when a second group started at once), while
   * batches of 100 still overlap one group's commit with the next one's work.
   */
  parallelGroupTransfersMin: number;
  /** Transfers waiting at most; beyond it a caller is refused with an error (overload), not queued. */
  transfersQueuedMax: number;
}

export interface GroupCommitStats {
  groupsInFlight: number;
  requestsQueued: number;
  /** Groups run since the committer was made, their largest size, and requests that ran alone. */
  groups: number;
  transfersPerGroupLargest: number;
  requestsAlone: number;
}

export type RunGroup = (requests: QueuedRequest[]) => Promise<void>;

export class GroupCommitter {
  readonly #queue: QueuedRequest[] = [];
  #queuedTransfers = 0;
  #inFlight = 0;
  readonly stats = { groups: 0, transfersPerGroupLargest: 0, requestsAlone: 0 };

  constructor(readonly limits: GroupCommitLimits, private readonly runGroup: RunGroup) {}

  /**
   * Queues the batch and, when a slot is free, starts a group before returning: the caller's
   * transaction is under way in the same tick, with no timer in between.
   */
  submit(batch: readonly TransferRequest[], now: Date): Promise<PostResult> {
    if (this.#queuedTransfers + batch.length > this.limits.transfersQueuedMax) {
      return Promise.reject(new Error(`the ledger's queue holds ${this.#queuedTransfers} transfers already (overloaded)`));
    }
    return new Promise<PostResult>((resolve, reject) => {
      this.#queue.push({ batch, now, resolve, reject });
      this.#queuedTransfers += batch.length;
      this.#drain();
    });
  }

  current(): GroupCommitStats {
    return { groupsInFlight: this.#inFlight, requestsQueued: this.#queue.length, ...this.stats };
  }

  #drain() {
    while (this.#queue.length > 0 && (this.#inFlight === 0
      || (this.#inFlight < this.limits.groupsInFlightMax && this.#queuedTransfers >= this.limits.parallelGroupTransfersMin))) {
      const group = this.#take();
      this.#inFlight += 1;
      // runGroup answers every request itself and never rejects; the catch is the last guard.
      this.runGroup(group)
        .catch((error) => { for (const request of group) request.reject(error); })
        .finally(() => {
          this.#inFlight -= 1;
          this.#drain();
        });
    }
  }

  /** The longest run of queued requests, oldest first, whose transfers fit under the cap. */
  #take(): QueuedRequest[] {
    const group: QueuedRequest[] = [];
    let transfers = 0;
    while (this.#queue.length > 0 && (group.length === 0 || transfers + this.#queue[0].batch.length <= this.limits.transfersPerGroupMax)) {
      const request = this.#queue.shift()!;
      transfers += request.batch.length;
      group.push(request);
    }
    this.#queuedTransfers -= transfers;
    this.stats.groups += 1;
    this.stats.transfersPerGroupLargest = Math.max(this.stats.transfersPerGroupLargest, transfers);
    return group;
  }
}

/**
 * Plain SQL, for the hot path: parameters as $1..$n (all text: numbers and arrays are cast in the
 * statement), rows with the names the query gives them.
 */
export type Query = (text: string, values: readonly string[], options?: QueryOptions) => Promise<Array<Record<string, unknown>>>;

export interface QueryOptions {
  /** Makes it a prepared statement on drivers that keep one per connection (node-postgres). */
  name?: string;
  /** Nothing follows in the transaction: a driver may send COMMIT with it (then it must raise on failure). */
  last?: boolean;
}
export type Transaction = <T>(work: (query: Query) => Promise<T>) => Promise<T>;

/** Whether postTransfers was handed a caller's transaction (which it must not leave or group). */
export const isTransaction = (executor: Executor): boolean => executor instanceof PgTransaction;

/** Whether the database runs on node-postgres's pool (several connections) rather than PGlite (one). */
export const onPool = (db: Db): boolean => (db as unknown as { $client: unknown }).$client instanceof pg.Pool;

/** A transaction straight on the driver under Drizzle (pg's pool or PGlite), for groups. */
export function driverTransaction(db: Db): Transaction {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool) return poolTransaction(client);
  const pglite = client as PgliteClient;
  assert(typeof pglite?.transaction === 'function', 'the database is a pg pool or PGlite');
  return (work) => pglite.transaction((tx) => work(async (text, values) => (await tx.query(text, [...values])).rows));
}

interface PgliteClient {
  transaction<T>(work: (tx: { query(text: string, values: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }> }) => Promise<T>): Promise<T>;
}

function poolTransaction(pool: pg.Pool): Transaction {
  return async (work) => {
    const client = await pool.connect();
    let begun = false;
    let committed = false;
    // BEGIN rides with the first statement and COMMIT with the last, as one simple-protocol message
    // each, their values inlined as dollar-quoted literals: a group's transaction costs two round
    // trips instead of four. A value holding the quote's tag goes the ordinary way.
    const query: Query = async (text, values, options = {}) => {
      const inlined = foldRoundTrips ? inlineValues(text, values) : undefined;
      // Marked begun before it is sent: if the message fails half-way, the transaction is rolled back.
      const wasBegun = begun;
      begun = true;
      if (inlined === undefined) {
        if (!wasBegun) await client.query('begin');
        return (await client.query({ text, values: [...values], name: options.name })).rows;
      }
      const statements = `${wasBegun ? '' : 'begin;\n'}${inlined}${options.last ? ';\ncommit' : ''}`;
      const results = await client.query(statements) as unknown as pg.QueryResult | pg.QueryResult[];
      committed = options.last === true;
      return (Array.isArray(results) ? results[wasBegun ? 0 : 1] : results).rows;
    };
    let broken: Error | undefined;
    try {
      const result = await work(query);
      if (begun && !committed) await client.query('commit');
      return result;
    } catch (error) {
      // A connection that cannot even roll back is handed back as broken, so the pool drops it.
      if (begun && !committed) await client.query('rollback').catch((rollbackError: Error) => { broken = rollbackError; });
      throw error;
    } finally {
      client.release(broken);
    }
  };
}

// LEDGER_FOLD=0 sends every statement apart (prepared by name), to measure one way against the other.
const foldRoundTrips = process.env.LEDGER_FOLD !== '0';
const quoteTag = '$bourse_ledger$';

/**
 * The statement with each $n replaced by its value as a dollar-quoted literal, or undefined. A value
 * holding any '$' goes the ordinary way: the values are array literals (they end in '}'), so only the
 * whole tag could end a literal early today, but a value ending in '$bourse_ledger' would too, with the
 * closing tag's own '$' — no encoding of the values need be trusted for this.
 */
function inlineValues(text: string, values: readonly string[]): string | undefined {
  if (values.some((value) => value.includes('$'))) return undefined;
  return text.replace(/\$(\d+)/g, (_match, position: string) => `${quoteTag}${values[Number(position) - 1]}${quoteTag}`);
}

/**
 * A transaction through Drizzle: a savepoint inside a caller's transaction, or a new one. On
 * node-postgres the statements go to the transaction's own connection as they are, prepared by
 * name (an open, a settlement chunk or a payout batch no longer has PostgreSQL parse and plan the
 * ledger's lock and write each time: measured at 0.2 and 0.4 ms of planning an open); on PGlite
 * the plain statement is turned back into Drizzle's SQL (its values are strings or null, bound one
 * each).
 */
export function drizzleTransaction(executor: Executor): Transaction {
  return (work) => executor.transaction((tx) => {
    const client = pgClientOf(tx);
    if (client) {
      return work(async (text, values, options = {}) => (await client.query({ text, values: [...values], name: options.name })).rows);
    }
    return work(async (text, values) => {
      const result = await tx.execute(drizzleQuery(text, values));
      return (result as unknown as { rows: Array<Record<string, unknown>> }).rows;
    });
  });
}

/** The node-postgres connection a Drizzle transaction runs on, or undefined (PGlite). */
function pgClientOf(tx: unknown): pg.ClientBase | undefined {
  const client = (tx as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Client ? client : undefined;
}

function drizzleQuery(text: string, values: readonly unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  for (const [index, part] of parts.entries()) {
    chunks.push(index % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1]}`);
  }
  return sql.join(chunks);
}
