// The recorded ticks that trading settles on (issue 10). Prices come only from the feed's stored
// ticks (DESIGN §1): a settlement reads the tick it uses from market_ticks, cites it by id in its
// receipt and marks it retained, so pruning never deletes the evidence.
import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { TickRef } from '../../../../src/api/contract/trading.ts';
import { formatAmount } from '../../../../src/api/contract/amounts.ts';
import { marketTicks } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { tokenArrayLiteral } from '../../../db/arrays.ts';
import type { RecordedTick } from './store.ts';
import { symbolByCode } from './symbols.ts';

/** A tick older than this is no price to trade at: the feed has stalled. */
export const tickFreshnessMs = 15_000;

type TickRow = typeof marketTicks.$inferSelect;
const recordedOf = (row: Pick<TickRow, 'id' | 'symbol' | 'price' | 'volume' | 'source' | 'time'>): RecordedTick => ({
  id: row.id, symbol: row.symbol, priceUnits: row.price, volumeUnits: row.volume, source: row.source, timeMs: row.time.getTime(),
});
const columns = {
  id: marketTicks.id, symbol: marketTicks.symbol, price: marketTicks.price, volume: marketTicks.volume,
  source: marketTicks.source, time: marketTicks.time,
};

/** The last recorded tick of a symbol at or before `atMs`. */
export async function lastTickAt(db: Executor, symbol: string, atMs: number): Promise<RecordedTick | undefined> {
  const [row] = await db.select(columns).from(marketTicks)
    .where(and(eq(marketTicks.symbol, symbol), lte(marketTicks.time, new Date(atMs))))
    .orderBy(desc(marketTicks.time), desc(marketTicks.id)).limit(1);
  return row ? recordedOf(row) : undefined;
}

/** The first recorded tick of a symbol at or after `atMs`. */
export async function firstTickFrom(db: Executor, symbol: string, atMs: number): Promise<RecordedTick | undefined> {
  const [row] = await db.select(columns).from(marketTicks)
    .where(and(eq(marketTicks.symbol, symbol), gte(marketTicks.time, new Date(atMs))))
    .orderBy(asc(marketTicks.time), asc(marketTicks.id)).limit(1);
  return row ? recordedOf(row) : undefined;
}

export async function ticksByIds(db: Executor, ids: readonly bigint[]): Promise<Map<bigint, RecordedTick>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select(columns).from(marketTicks).where(inArray(marketTicks.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, recordedOf(row)]));
}

/** The ticks of a symbol in [fromMs, toMs], oldest first, at most `limit`. */
export async function ticksBetween(db: Executor, symbol: string, fromMs: number, toMs: number, limit: number): Promise<RecordedTick[]> {
  const rows = await db.select(columns).from(marketTicks)
    .where(and(eq(marketTicks.symbol, symbol), gte(marketTicks.time, new Date(fromMs)), lte(marketTicks.time, new Date(toMs))))
    .orderBy(asc(marketTicks.time), asc(marketTicks.id)).limit(limit);
  return rows.map(recordedOf);
}

/**
 * Marks ticks as used by a settlement: never pruned. Call after the settlement's ledger batch, in
 * its transaction (accounts, then ticks: the one lock order), or before it for a whole batch of
 * settlements. The ids travel as one array, whatever their number.
 */
export async function retainTicks(db: Executor, ids: readonly bigint[]) {
  if (ids.length === 0) return;
  await db.execute(sql`update market_ticks set retained = true
    where id = any(${tokenArrayLiteral([...new Set(ids)])}::bigint[]) and not retained`);
}

export function tickRef(tick: RecordedTick): TickRef {
  const spec = symbolByCode.get(tick.symbol);
  return {
    id: String(tick.id), symbol: tick.symbol, price: formatAmount(tick.priceUnits, spec?.pricePrecision ?? 0),
    time: tick.timeMs, source: tick.source,
  };
}
