// Price alerts: a user asks to hear when a symbol's price crosses a level, upwards ("above") or
// downwards ("below"), once or every time. Every instance keeps an in-memory index of the active
// alerts per symbol, loaded at start, changed at once by this instance's creates and deletes and
// reloaded every half minute (another instance's). Each market update is checked against it: an
// alert fires on a crossing, when the price reaches the level from the other side. Firing is one
// transaction: a conditional update (still active, not fired at this tick's time: of two instances
// seeing the same tick only one gets the row), the internal message, then the push after commit.
// A "once" alert turns itself off; a repeating one fires again only after the price has gone back
// across its level.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { priceAlerts } from '../../../db/schema.ts';
import { AppError, badRequest, notFound } from '../../../lib/errors.ts';
import type { Clock } from '../../../lib/time.ts';
import type { CreateAlertBody, PriceAlert } from '../../../../src/api/contract/push.ts';
import type { MarketUpdate } from '../../core/market/bus.ts';
import { formatUnits, parsePrice, symbolByCode } from '../../core/market/symbols.ts';
import { writeMessage, type MessageDelivery, type WrittenMessage } from '../../kernel/messages.ts';

/** The first key of the advisory lock a user's alert creation takes (the second is the user id). */
const alertLockClass = 21_021;

/** Active alerts one user may hold. */
export const activeAlertsPerUserMax = 50;

type AlertRow = typeof priceAlerts.$inferSelect;

function toWire(row: AlertRow): PriceAlert {
  return {
    id: String(row.id), symbol: row.symbol, direction: row.direction as PriceAlert['direction'], price: row.price,
    repeat: row.repeat, active: row.active, ...(row.lastFiredAt ? { lastFiredAt: row.lastFiredAt.getTime() } : {}),
    createdAt: row.createdAt.getTime(),
  };
}

/** The caller's alerts, newest first (active and fired ones; at most 200). */
export async function listAlerts(db: Db, userId: bigint): Promise<PriceAlert[]> {
  const rows = await db.select().from(priceAlerts).where(eq(priceAlerts.userId, userId)).orderBy(desc(priceAlerts.id)).limit(200);
  return rows.map(toWire);
}

/** "BTC/USDT" or "BTCUSDT" → the symbol's spec, or unknown_symbol. */
export function alertSymbol(text: string) {
  const spec = symbolByCode.get(text.replace('/', '').toUpperCase());
  if (!spec) throw badRequest('unknown_symbol', 'There is no such symbol.');
  return spec;
}

export async function createAlert(db: Db, userId: bigint, body: CreateAlertBody, now: Date, index?: AlertIndex): Promise<PriceAlert> {
  const spec = alertSymbol(body.symbol);
  let units: bigint;
  try {
    units = parsePrice(body.price, spec.pricePrecision);
  } catch {
    throw badRequest('price_alert_price_invalid', `The price may have at most ${spec.pricePrecision} decimals for ${spec.symbol}.`);
  }
  if (units <= 0n) throw badRequest('price_alert_price_invalid', 'The price must be above zero.');
  const row = await db.transaction(async (tx) => {
    // Counted under the user's lock on their alerts, so two creates at once cannot pass 50 together.
    await tx.execute(sql`select pg_advisory_xact_lock(${alertLockClass}::int, ${Number(userId % 2_000_000_000n)}::int)`);
    const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(priceAlerts)
      .where(and(eq(priceAlerts.userId, userId), eq(priceAlerts.active, true)));
    if (Number(count?.n ?? 0) >= activeAlertsPerUserMax) {
      throw new AppError(409, 'price_alert_limit', `You can have at most ${activeAlertsPerUserMax} active price alerts. Delete one first.`);
    }
    const [inserted] = await tx.insert(priceAlerts).values({
      userId, symbol: spec.symbol, direction: body.direction, price: formatUnits(units, spec.pricePrecision),
      repeat: body.repeat ?? false, active: true, createdAt: now,
    }).returning();
    return inserted;
  });
  index?.add(row);
  return toWire(row);
}

/** Deletes one of the caller's alerts; another user's id answers not_found, like a missing one. */
export async function deleteAlert(db: Db, userId: bigint, id: bigint, index?: AlertIndex) {
  const rows = await db.delete(priceAlerts).where(and(eq(priceAlerts.id, id), eq(priceAlerts.userId, userId)))
    .returning({ id: priceAlerts.id });
  if (rows.length === 0) throw notFound('not_found', 'There is no such price alert.');
  index?.remove(id);
  return null;
}

interface IndexedAlert {
  id: bigint;
  userId: bigint;
  symbol: string;
  above: boolean;
  level: bigint;
  repeat: boolean;
  /** Whether the last price seen was on the side it fires from (undefined: no price seen yet). */
  armed: boolean | undefined;
}

/** The active alerts of this instance, per symbol. */
export class AlertIndex {
  readonly bySymbol = new Map<string, Map<bigint, IndexedAlert>>();
  /** The last price seen per symbol: a new alert knows at once which side of its level the price is. */
  readonly lastPrice = new Map<string, bigint>();
  #size = 0;

  get size() { return this.#size; }

  add(row: AlertRow, last = this.lastPrice.get(row.symbol)) {
    const spec = symbolByCode.get(row.symbol);
    if (!spec || !row.active) return;
    let bucket = this.bySymbol.get(row.symbol);
    if (!bucket) this.bySymbol.set(row.symbol, bucket = new Map());
    if (bucket.has(row.id)) return;
    const level = parsePrice(row.price, spec.pricePrecision);
    const above = row.direction === 'above';
    bucket.set(row.id, {
      id: row.id, userId: row.userId, symbol: row.symbol, above, level, repeat: row.repeat,
      armed: last === undefined ? undefined : above ? last < level : last > level,
    });
    this.#size += 1;
  }

  remove(id: bigint) {
    for (const bucket of this.bySymbol.values()) {
      if (bucket.delete(id)) {
        this.#size -= 1;
        return;
      }
    }
  }

  /** Replaces the contents with `rows`, keeping what is known of the alerts still present. */
  replace(rows: AlertRow[]) {
    const keep = new Map<bigint, IndexedAlert>();
    for (const bucket of this.bySymbol.values()) for (const alert of bucket.values()) keep.set(alert.id, alert);
    this.bySymbol.clear();
    this.#size = 0;
    for (const row of rows) {
      this.add(row);
      const before = keep.get(row.id);
      const now = this.bySymbol.get(row.symbol)?.get(row.id);
      if (before && now) now.armed = before.armed;
    }
  }

  /** The alerts a price crosses: updates each alert's side and answers those that fire. */
  crossings(symbol: string, last: bigint): IndexedAlert[] {
    this.lastPrice.set(symbol, last);
    const bucket = this.bySymbol.get(symbol);
    if (!bucket) return [];
    const fired: IndexedAlert[] = [];
    for (const alert of bucket.values()) {
      const onFiringSide = alert.above ? last >= alert.level : last <= alert.level;
      if (onFiringSide && alert.armed === true) fired.push(alert);
      alert.armed = !onFiringSide;
    }
    return fired;
  }
}

export interface AlertEngineOptions {
  db: Db;
  clock: Clock;
  delivery: MessageDelivery;
  onError?: (error: unknown) => void;
  /** How often the index is reloaded from the database (other instances' changes). */
  reloadIntervalMs?: number;
}

export class PriceAlertEngine {
  readonly index = new AlertIndex();
  #queue: Promise<void> = Promise.resolve();
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(private readonly options: AlertEngineOptions) {}

  async start() {
    await this.reload();
    const every = this.options.reloadIntervalMs ?? 30_000;
    this.#timer = setInterval(() => {
      this.#queue = this.#queue.then(() => this.reload()).catch((error: unknown) => this.options.onError?.(error));
    }, every);
    this.#timer.unref?.();
  }

  async reload() {
    const rows = await this.options.db.select().from(priceAlerts).where(eq(priceAlerts.active, true));
    this.index.replace(rows);
  }

  /** Checks one market update; firing runs after the updates before it, one at a time. */
  onUpdate(update: MarketUpdate) {
    if (this.#closed) return;
    const fired: { alert: IndexedAlert; last: bigint; timeMs: number }[] = [];
    for (const ticker of update.tickers) {
      for (const alert of this.index.crossings(ticker.symbol, ticker.last)) fired.push({ alert, last: ticker.last, timeMs: ticker.timeMs });
    }
    if (fired.length === 0) return;
    this.#queue = this.#queue.then(async () => {
      const written: WrittenMessage[] = [];
      for (const { alert, last, timeMs } of fired) {
        try {
          const message = await this.#fire(alert, last, timeMs);
          if (message) written.push(message);
        } catch (error) {
          this.options.onError?.(error);
        }
      }
      if (written.length > 0) this.options.delivery.deliver(written);
    });
  }

  async #fire(alert: IndexedAlert, last: bigint, timeMs: number): Promise<WrittenMessage | undefined> {
    const spec = symbolByCode.get(alert.symbol)!;
    const firedAt = new Date(timeMs);
    const now = this.options.clock.now();
    const result = await this.options.db.transaction(async (tx) => {
      const rows = await tx.update(priceAlerts).set({ lastFiredAt: firedAt, active: alert.repeat })
        .where(and(eq(priceAlerts.id, alert.id), eq(priceAlerts.active, true),
          sql`(${priceAlerts.lastFiredAt} is null or ${priceAlerts.lastFiredAt} < ${firedAt.toISOString()}::timestamptz)`))
        .returning();
      const row = rows[0];
      if (!row) return { row: undefined, message: undefined };
      const message = await writeMessage(tx, {
        userId: row.userId, kind: 'price_alert', category: 'price_alerts',
        params: { symbol: row.symbol, direction: row.direction, price: row.price, last: formatUnits(last, spec.pricePrecision) },
        route: `/kline?symbol=${encodeURIComponent(row.symbol)}`,
        dedupeKey: `price_alert:${row.id}:${timeMs}`,
      }, now);
      return { row, message };
    });
    if (!result.row) {
      // Deleted, turned off, or fired at this tick by another instance: a "once" alert leaves the index.
      if (!alert.repeat) this.index.remove(alert.id);
      return undefined;
    }
    if (!result.row.active) this.index.remove(alert.id);
    return result.message;
  }

  /** Resolves when the updates handed over so far have been handled (tests). */
  drained() { return this.#queue; }

  close() {
    this.#closed = true;
    clearInterval(this.#timer);
  }
}
