// Database I/O of the market: ticks in, candles in and out. Batches are bounded. Candles go in as
// columns (one array parameter per column, unnested by the database), so a statement carries
// thousands of rows for a handful of parameters: the engine's periodic flush is one statement. The
// first start's back-fill goes in with COPY on embedded PGlite (its fastest path) and in such
// statements on PostgreSQL.
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import type { CandlePeriod } from '../../../../src/api/contract/market.ts';
import { marketTicks } from '../../../db/schema.ts';
import type { Db, Executor } from '../../../db/client.ts';
import type { CandleUnits, TickLike } from './candles.ts';
import { tokenArrayLiteral } from '../../../db/arrays.ts';

const insertBatchMax = 1000;
const candleBatchMax = 10_000;

/** A tick as stored: its id is what receipts cite. */
export interface RecordedTick extends TickLike {
  id: bigint;
  source: string;
}

/** Stores the ticks and returns them with their ids and sources, in the order given. */
export async function insertTicks(db: Executor, ticks: TickLike[], source: string): Promise<RecordedTick[]> {
  const recorded: RecordedTick[] = [];
  for (let i = 0; i < ticks.length; i += insertBatchMax) {
    const slice = ticks.slice(i, i + insertBatchMax);
    const rows = await db.insert(marketTicks).values(slice.map((tick) => ({
      symbol: tick.symbol, price: tick.priceUnits, volume: tick.volumeUnits, source: tick.source ?? source, time: new Date(tick.timeMs),
    }))).returning({ id: marketTicks.id });
    // INSERT ... RETURNING answers in the order of the VALUES list.
    slice.forEach((tick, index) => recorded.push({ ...tick, id: rows[index].id, source: tick.source ?? source }));
  }
  return recorded;
}


function candleRows(candles: CandleUnits[]): SQL {
  const column = (pick: (candle: CandleUnits) => string | bigint | number) => tokenArrayLiteral(candles.map(pick));
  // Times travel as integer milliseconds since the epoch: exact, and cheaper to parse than text.
  return sql`select symbol, period, timestamptz 'epoch' + ms * interval '1 millisecond', open, high, low, close, volume from unnest(
    ${column((candle) => candle.symbol)}::varchar[], ${column((candle) => candle.period)}::varchar[],
    ${column((candle) => candle.openTimeMs)}::bigint[],
    ${column((candle) => candle.open)}::bigint[], ${column((candle) => candle.high)}::bigint[],
    ${column((candle) => candle.low)}::bigint[], ${column((candle) => candle.close)}::bigint[],
    ${column((candle) => candle.volume)}::bigint[]
  ) as rows(symbol, period, ms, open, high, low, close, volume)`;
}

/** The embedded PGlite behind a Drizzle handle, if that is what it is. */
function pgliteOf(db: Db): PGlite | undefined {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof PGlite ? client : undefined;
}

/**
 * Inserts candles that are not stored yet (the back-fill), all or none. Stored ones are left as
 * they are, except on PGlite, where the candles go in with one COPY that fails on any stored one.
 */
export async function insertCandles(db: Db, candles: CandleUnits[]) {
  const pglite = pgliteOf(db);
  if (pglite) {
    const lines = candles.map((candle) => `${candle.symbol}\t${candle.period}\t${new Date(candle.openTimeMs).toISOString()}\t`
      + `${candle.open}\t${candle.high}\t${candle.low}\t${candle.close}\t${candle.volume}\n`);
    await pglite.query(`copy market_candles (symbol, period, open_time, open, high, low, close, volume) from '/dev/blob'`, [],
      { blob: new Blob(lines) });
    return;
  }
  await db.transaction(async (tx) => {
    for (let i = 0; i < candles.length; i += candleBatchMax) {
      await tx.execute(sql`insert into market_candles (symbol, period, open_time, open, high, low, close, volume)
        ${candleRows(candles.slice(i, i + candleBatchMax))} on conflict do nothing`);
    }
  });
}

/** Writes the live candles: new ones are inserted, stored ones get their new high, low, close and volume. */
export async function upsertCandles(db: Executor, candles: CandleUnits[]) {
  for (let i = 0; i < candles.length; i += candleBatchMax) {
    await db.execute(sql`insert into market_candles (symbol, period, open_time, open, high, low, close, volume)
      ${candleRows(candles.slice(i, i + candleBatchMax))}
      on conflict (symbol, period, open_time) do update
      set high = excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume`);
  }
}

interface CandleRow {
  symbol: string; period: string; open_time: string | Date;
  open: string | bigint; high: string | bigint; low: string | bigint; close: string | bigint; volume: string | bigint;
}

async function selectCandles(db: Executor, query: SQL): Promise<CandleUnits[]> {
  const result = await db.execute(query) as unknown as { rows: CandleRow[] };
  return result.rows.map((row) => ({
    symbol: row.symbol, period: row.period as CandlePeriod, openTimeMs: new Date(row.open_time).getTime(),
    open: BigInt(row.open), high: BigInt(row.high), low: BigInt(row.low), close: BigInt(row.close), volume: BigInt(row.volume),
  }));
}

// Bigints travel as text, so both drivers hand them over without rounding.
const candleColumns = sql.raw('symbol, period, open_time, open::text as open, high::text as high, low::text as low, close::text as close, volume::text as volume');

/** Candles opening before `endTimeMs`, newest `limit` of them, returned oldest first. */
export async function loadCandles(db: Executor, symbol: string, period: CandlePeriod, endTimeMs: number, limit: number): Promise<CandleUnits[]> {
  const rows = await selectCandles(db, sql`select ${candleColumns} from market_candles
    where symbol = ${symbol} and period = ${period} and open_time < ${new Date(endTimeMs).toISOString()}::timestamptz
    order by open_time desc limit ${limit}`);
  return rows.reverse();
}

/** The latest candle opening before `endTimeMs` of every given symbol and period that has one. */
export async function loadLatestCandles(db: Executor, symbols: string[], periods: readonly CandlePeriod[], endTimeMs: number): Promise<CandleUnits[]> {
  return selectCandles(db, sql`select ${candleColumns} from unnest(${tokenArrayLiteral(symbols)}::varchar[]) as s(code)
    cross join unnest(${tokenArrayLiteral([...periods])}::varchar[]) as p(name)
    cross join lateral (select * from market_candles m where m.symbol = s.code and m.period = p.name
      and m.open_time < ${new Date(endTimeMs).toISOString()}::timestamptz order by m.open_time desc limit 1) as latest`);
}

/** The candles of one period of the given symbols opening in (afterMs, endTimeMs), oldest first. */
export async function loadCandlesBetween(db: Executor, symbols: string[], period: CandlePeriod, afterMs: number, endTimeMs: number): Promise<CandleUnits[]> {
  return selectCandles(db, sql`select ${candleColumns} from market_candles
    where symbol = any(${tokenArrayLiteral(symbols)}::varchar[]) and period = ${period}
      and open_time > ${new Date(afterMs).toISOString()}::timestamptz and open_time < ${new Date(endTimeMs).toISOString()}::timestamptz
    order by symbol, open_time`);
}

/** Which of the given symbols and periods have at least one candle, as "SYMBOL|period". */
export async function storedCandleSeries(db: Executor, symbols: string[], periods: readonly CandlePeriod[]): Promise<Set<string>> {
  const result = await db.execute(sql`select s.code as symbol, p.name as period
    from unnest(${tokenArrayLiteral(symbols)}::varchar[]) as s(code) cross join unnest(${tokenArrayLiteral([...periods])}::varchar[]) as p(name)
    where exists (select 1 from market_candles m where m.symbol = s.code and m.period = p.name)`) as unknown as {
    rows: Array<{ symbol: string; period: string }>;
  };
  return new Set(result.rows.map((row) => `${row.symbol}|${row.period}`));
}

/** The time of each given symbol's latest stored tick before `endTimeMs`. */
export async function loadLastTickTimes(db: Executor, symbols: string[], endTimeMs: number): Promise<Map<string, number>> {
  const result = await db.execute(sql`select s.code as symbol, latest.time from unnest(${tokenArrayLiteral(symbols)}::varchar[]) as s(code)
    cross join lateral (select t.time from market_ticks t where t.symbol = s.code
      and t.time < ${new Date(endTimeMs).toISOString()}::timestamptz order by t.time desc limit 1) as latest`) as unknown as {
    rows: Array<{ symbol: string; time: string | Date }>;
  };
  return new Map(result.rows.map((row) => [row.symbol, new Date(row.time).getTime()]));
}

/**
 * Deletes ticks older than the cut-off that no settlement uses, except each symbol's newest: it is
 * the symbol's last price while its market is closed, and what a settlement at an instant of the
 * close (a trading competition ending at the weekend, issue 38) must find.
 */
export async function pruneTicks(db: Executor, olderThanMs: number) {
  await db.execute(sql`delete from market_ticks t where t.time < ${new Date(olderThanMs).toISOString()}::timestamptz and not t.retained
    and exists (select 1 from market_ticks newer where newer.symbol = t.symbol and newer.time > t.time)`);
}
