// Database I/O of the market: ticks in, candles in and out. Batches are bounded.
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { CandlePeriod } from '../../../src/api/contract/market.ts';
import { marketCandles, marketTicks } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import type { CandleUnits, TickLike } from './candles.ts';

const insertBatchMax = 1000;

export async function insertTicks(db: Db, ticks: TickLike[], source: string) {
  for (let i = 0; i < ticks.length; i += insertBatchMax) {
    await db.insert(marketTicks).values(ticks.slice(i, i + insertBatchMax).map((tick) => ({
      symbol: tick.symbol, price: tick.priceUnits, volume: tick.volumeUnits, source: tick.source ?? source, time: new Date(tick.timeMs),
    })));
  }
}

export async function upsertCandles(db: Db, candles: CandleUnits[]) {
  for (let i = 0; i < candles.length; i += insertBatchMax) {
    await db.insert(marketCandles).values(candles.slice(i, i + insertBatchMax).map((candle) => ({
      symbol: candle.symbol, period: candle.period, openTime: new Date(candle.openTimeMs),
      open: candle.open, high: candle.high, low: candle.low, close: candle.close, volume: candle.volume,
    }))).onConflictDoUpdate({
      target: [marketCandles.symbol, marketCandles.period, marketCandles.openTime],
      set: {
        high: sql`excluded.high`, low: sql`excluded.low`, close: sql`excluded.close`, volume: sql`excluded.volume`,
      },
    });
  }
}

/** Candles opening before `endTimeMs`, newest `limit` of them, returned oldest first. */
export async function loadCandles(db: Db, symbol: string, period: CandlePeriod, endTimeMs: number, limit: number): Promise<CandleUnits[]> {
  const rows = await db.select().from(marketCandles)
    .where(and(eq(marketCandles.symbol, symbol), eq(marketCandles.period, period), lt(marketCandles.openTime, new Date(endTimeMs))))
    .orderBy(desc(marketCandles.openTime)).limit(limit);
  return rows.reverse().map((row) => ({
    symbol: row.symbol, period: row.period as CandlePeriod, openTimeMs: row.openTime.getTime(),
    open: row.open, high: row.high, low: row.low, close: row.close, volume: row.volume,
  }));
}

export async function countCandles(db: Db, symbol: string, period: CandlePeriod): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(marketCandles)
    .where(and(eq(marketCandles.symbol, symbol), eq(marketCandles.period, period)));
  return row.count;
}

/** Deletes ticks older than the cut-off that no settlement uses. */
export async function pruneTicks(db: Db, olderThanMs: number) {
  await db.delete(marketTicks).where(and(lt(marketTicks.time, new Date(olderThanMs)), eq(marketTicks.retained, false)));
}
