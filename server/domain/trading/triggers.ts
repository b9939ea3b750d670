// The trigger engine (issue 10, DESIGN §5, §8): the take-profit, stop-loss and liquidation levels of
// every running position, indexed per symbol by the TICK price that reaches them, so a tick costs
// O(log n + fired) and never a scan of all positions.
//
// A position closes at its exit price, which is the tick minus (long) or plus (short) half its own
// spread (tradingMath.exitPrice). So each level turns into a tick-price threshold
// (tradingMath.tickPriceForExit), and the comparison no longer depends on the position:
//   long:  take-profit when tick ≥ key;             stop-loss and liquidation when tick ≤ key
//   short: take-profit when tick ≤ key;             stop-loss and liquidation when tick ≥ key
// Each symbol keeps two heaps: "up" (a min-heap; fire while its top ≤ the tick) and "down" (a
// max-heap, stored as a min-heap of negated keys; fire while its top ≥ the tick). A position has at
// most one entry in each: of its levels on the same side only the one the price reaches first
// matters (which level it was is decided again from the row by the settlement, reachedLevel).
// Changes and removals are lazy: an entry carries the stamp of the upsert that made it, and an entry
// whose stamp is no longer its position's current one is stale and skipped when popped; a heap is
// compacted when its stale entries outnumber its live ones, so the memory stays within 2× of live.
// A position fires at most once per version and leaves the live set when it fires. Measured by
// test/bench/triggers.ts with a million positions on one symbol: a few µs per tick that fires.
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Direction } from '../../../src/api/contract/trading.ts';
import { tickPriceForExit } from '../../../src/api/contract/tradingMath.ts';
import { tradePositions } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/time.ts';
import type { RecordedTick } from '../market/store.ts';

export interface TriggerLevels {
  positionId: bigint;
  /** The row's version: bumped by every change of the position (levels, status). */
  version: number;
  symbol: string;
  direction: Direction;
  spreadUnits: bigint;
  takeProfit: bigint | null;
  stopLoss: bigint | null;
  liquidation: bigint | null;
}

export interface FiredTrigger {
  positionId: bigint;
  version: number;
}

/**
 * A 4-ary min-heap of (key, slot, stamp) triples interleaved in one Float64Array. A pop on a heap
 * of a million entries then walks 10 levels with the four children of a node in two adjacent cache
 * lines, where a binary heap of objects pointing at bigints took several cache misses per
 * comparison (measured in test/bench/triggers.ts: ~40 µs for a handful of fires, against a few).
 * Keys are prices in units, exact as doubles below 2^53 (toKey checks); slots and stamps are
 * integers below 2^53 too.
 */
class SlotHeap {
  data = new Float64Array(3 * 64);
  length = 0;
  /** Entries whose stamp is still their slot's current one. */
  live = 0;

  topKey(): number { return this.data[0]; }
  topSlot(): number { return this.data[1]; }
  topStamp(): number { return this.data[2]; }

  push(key: number, slot: number, stamp: number) {
    if (3 * (this.length + 1) > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const data = this.data;
    let index = this.length;
    this.length += 1;
    while (index > 0) {
      const parent = (index - 1) >> 2;
      if (data[3 * parent] <= key) break;
      data[3 * index] = data[3 * parent];
      data[3 * index + 1] = data[3 * parent + 1];
      data[3 * index + 2] = data[3 * parent + 2];
      index = parent;
    }
    data[3 * index] = key;
    data[3 * index + 1] = slot;
    data[3 * index + 2] = stamp;
  }

  /** Removes the top entry (read it first with topKey, topSlot, topStamp). */
  pop() {
    this.length -= 1;
    const last = 3 * this.length;
    if (this.length > 0) this.#siftDown(0, this.data[last], this.data[last + 1], this.data[last + 2]);
  }

  /** Keeps only the entries `keep` accepts, and restores the heap order in O(n). */
  retain(keep: (slot: number, stamp: number) => boolean) {
    const data = this.data;
    let kept = 0;
    for (let index = 0; index < this.length; index += 1) {
      if (!keep(data[3 * index + 1], data[3 * index + 2])) continue;
      data.copyWithin(3 * kept, 3 * index, 3 * index + 3);
      kept += 1;
    }
    this.length = kept;
    for (let index = ((kept - 2) >> 2); index >= 0; index -= 1) this.#siftDown(index, data[3 * index], data[3 * index + 1], data[3 * index + 2]);
  }

  #siftDown(start: number, key: number, slot: number, stamp: number) {
    const { data, length } = this;
    let index = start;
    for (;;) {
      const first = 4 * index + 1;
      if (first >= length) break;
      const end = first + 4 < length ? first + 4 : length;
      let child = first;
      let childKey = data[3 * first];
      for (let other = first + 1; other < end; other += 1) {
        if (data[3 * other] < childKey) {
          child = other;
          childKey = data[3 * other];
        }
      }
      if (childKey >= key) break;
      data[3 * index] = childKey;
      data[3 * index + 1] = data[3 * child + 1];
      data[3 * index + 2] = data[3 * child + 2];
      index = child;
    }
    data[3 * index] = key;
    data[3 * index + 1] = slot;
    data[3 * index + 2] = stamp;
  }
}

interface SymbolBook {
  up: SlotHeap;
  /** Keys negated: the top is the highest threshold. */
  down: SlotHeap;
}

interface Indexed {
  levels: TriggerLevels;
  stamp: number;
  book: SymbolBook;
  inUp: boolean;
  inDown: boolean;
  /** Fired at this version: out of the heaps' live counts, kept to refuse the same version again. */
  fired: boolean;
}

const keyLimit = BigInt(Number.MAX_SAFE_INTEGER);
/** A price in units as a double: exact, since prices stay far below 2^53 units. */
function toKey(price: bigint): number {
  if (price > keyLimit || price < -keyLimit) throw new Error(`trigger index: price ${price} is beyond 2^53 units`);
  return Number(price);
}

/**
 * The two thresholds of a position: `up` fires when the tick is at or above it, `down` when the
 * tick is at or below it; null when no level lies on that side.
 */
export function triggerKeys(levels: TriggerLevels): { up: bigint | null; down: bigint | null } {
  const { direction, spreadUnits } = levels;
  const takeProfit = levels.takeProfit === null ? null : tickPriceForExit(direction, levels.takeProfit, spreadUnits);
  const stopLoss = levels.stopLoss === null ? null : tickPriceForExit(direction, levels.stopLoss, spreadUnits);
  const liquidation = levels.liquidation === null ? null : tickPriceForExit(direction, levels.liquidation, spreadUnits);
  // A long's stop-loss and liquidation fire as the tick falls, so the higher one is reached first;
  // a short's as it rises, so the lower one. (No closures here: a rebuild calls this a million times.)
  if (direction === 'long') {
    const down = stopLoss === null ? liquidation : liquidation === null || stopLoss > liquidation ? stopLoss : liquidation;
    return { up: takeProfit, down };
  }
  const up = stopLoss === null ? liquidation : liquidation === null || stopLoss < liquidation ? stopLoss : liquidation;
  return { up, down: takeProfit };
}

const sameLevels = (a: TriggerLevels, b: TriggerLevels) => a.version === b.version && a.symbol === b.symbol
  && a.direction === b.direction && a.spreadUnits === b.spreadUnits && a.takeProfit === b.takeProfit
  && a.stopLoss === b.stopLoss && a.liquidation === b.liquidation;

function assertLevels(levels: TriggerLevels) {
  if (!Number.isSafeInteger(levels.version) || levels.version < 0) throw new Error(`trigger levels: bad version ${levels.version}`);
  if (levels.direction !== 'long' && levels.direction !== 'short') throw new Error(`trigger levels: bad direction ${String(levels.direction)}`);
  if (levels.spreadUnits < 0n) throw new Error(`trigger levels: negative spread ${levels.spreadUnits}`);
  if (levels.symbol.length === 0) throw new Error('trigger levels: no symbol');
}

export interface TriggerIndexOptions {
  /** A heap is compacted only above this many entries (a small heap's stale entries cost little). */
  compactEntriesMin?: number;
}

/** The index itself: pure, no I/O, no clock. */
export class TriggerIndex {
  readonly #books = new Map<string, SymbolBook>();
  /**
   * Each known position's slot: the heaps name slots (small integers), not bigint ids. A position
   * that fired keeps its slot, marked fired, until it is removed (the engine's refresh sees its row
   * closed) or a later version replaces it: so firing touches no map at all.
   */
  readonly #slotOf = new Map<bigint, number>();
  readonly #bySlot: Array<Indexed | undefined> = [];
  readonly #freeSlots: number[] = [];
  readonly #compactEntriesMin: number;
  /** Unique per upsert, never reused: a stale entry never matches a slot's later occupant. */
  #stamp = 0;
  #liveCount = 0;

  constructor(options: TriggerIndexOptions = {}) {
    this.#compactEntriesMin = options.compactEntriesMin ?? 1024;
  }

  /** Positions with at least one level in the index (and not fired). */
  get size(): number { return this.#liveCount; }

  /** Heap entries held, stale ones included (tests and the bench read it; ≤ 2 × live + the minimum). */
  get entryCount(): number {
    let count = 0;
    for (const book of this.#books.values()) count += book.up.length + book.down.length;
    return count;
  }

  has(positionId: bigint): boolean {
    const slot = this.#slotOf.get(positionId);
    return slot !== undefined && !this.#bySlot[slot]!.fired;
  }

  /**
   * Adds a position or changes its levels. An older version than the one held is ignored, and so is
   * the version that already fired (it fires at most once); the same levels again are a no-op (the
   * engine's refresh reads rows more than once).
   */
  upsert(levels: TriggerLevels) {
    assertLevels(levels);
    const slot = this.#slotOf.get(levels.positionId);
    const current = slot === undefined ? undefined : this.#bySlot[slot]!;
    if (current?.fired && current.levels.version >= levels.version) return;
    if (current && !current.fired && (current.levels.version > levels.version || sameLevels(current.levels, levels))) return;
    // The keys first: a level beyond range throws before anything changes.
    const { up, down } = triggerKeys(levels);
    const upKey = up === null ? 0 : toKey(up);
    const downKey = down === null ? 0 : -toKey(down);
    if (slot !== undefined) this.#release(slot);
    if (up === null && down === null) return;
    const book = this.#bookOf(levels.symbol);
    const stamp = ++this.#stamp;
    const newSlot = this.#freeSlots.pop() ?? this.#bySlot.length;
    this.#bySlot[newSlot] = { levels, stamp, book, inUp: up !== null, inDown: down !== null, fired: false };
    this.#slotOf.set(levels.positionId, newSlot);
    this.#liveCount += 1;
    if (up !== null) {
      book.up.push(upKey, newSlot, stamp);
      book.up.live += 1;
    }
    if (down !== null) {
      book.down.push(downKey, newSlot, stamp);
      book.down.live += 1;
    }
  }

  /** Forgets a position (closed, or no longer running). */
  remove(positionId: bigint) {
    const slot = this.#slotOf.get(positionId);
    if (slot !== undefined) this.#release(slot);
  }

  /**
   * Puts a fired position back with the levels it fired at, for a settlement that failed (an error,
   * not a refusal): the next tick that reaches a level fires it again.
   */
  rearm(positionId: bigint) {
    const slot = this.#slotOf.get(positionId);
    if (slot === undefined || !this.#bySlot[slot]!.fired) return;
    const { levels } = this.#bySlot[slot]!;
    this.#release(slot);
    this.upsert(levels);
  }

  /** Forgets everything (before a rebuild). */
  clear() {
    this.#books.clear();
    this.#slotOf.clear();
    this.#bySlot.length = 0;
    this.#freeSlots.length = 0;
    this.#liveCount = 0;
  }

  /** The positions a tick at `priceUnits` reaches; each is marked fired and fires only this once. */
  onTick(symbol: string, priceUnits: bigint): FiredTrigger[] {
    const book = this.#books.get(symbol);
    if (!book) return [];
    const fired: FiredTrigger[] = [];
    const price = toKey(priceUnits);
    const { up, down } = book;
    while (up.length > 0 && up.topKey() <= price) {
      const slot = up.topSlot();
      const stamp = up.topStamp();
      up.pop();
      this.#fire(slot, stamp, fired);
    }
    while (down.length > 0 && down.topKey() <= -price) {
      const slot = down.topSlot();
      const stamp = down.topStamp();
      down.pop();
      this.#fire(slot, stamp, fired);
    }
    return fired;
  }

  #fire(slot: number, stamp: number, fired: FiredTrigger[]) {
    const current = this.#bySlot[slot];
    if (current === undefined || current.fired || current.stamp !== stamp) return; // stale: already out of `live`
    current.fired = true;
    this.#detach(current);
    fired.push({ positionId: current.levels.positionId, version: current.levels.version });
  }

  /** Frees a position's slot; a live one's heap entries become stale. */
  #release(slot: number) {
    const current = this.#bySlot[slot]!;
    // Out of the slot table before the detach, whose compaction must see its entries as stale.
    this.#bySlot[slot] = undefined;
    this.#freeSlots.push(slot);
    this.#slotOf.delete(current.levels.positionId);
    if (!current.fired) this.#detach(current);
  }

  /** Takes a live position out of the count: its heap entries become stale, to be skipped or compacted. */
  #detach(current: Indexed) {
    this.#liveCount -= 1;
    const { book } = current;
    if (current.inUp) book.up.live -= 1;
    if (current.inDown) book.down.live -= 1;
    this.#compact(book.up);
    this.#compact(book.down);
  }

  #compact(heap: SlotHeap) {
    const stale = heap.length - heap.live;
    if (stale <= heap.live || heap.length < this.#compactEntriesMin) return;
    heap.retain((slot, stamp) => {
      const indexed = this.#bySlot[slot];
      return indexed !== undefined && !indexed.fired && indexed.stamp === stamp;
    });
    if (heap.length !== heap.live) throw new Error(`trigger index: ${heap.length} entries kept, ${heap.live} live`);
  }

  #bookOf(symbol: string): SymbolBook {
    let book = this.#books.get(symbol);
    if (!book) {
      book = { up: new SlotHeap(), down: new SlotHeap() };
      this.#books.set(symbol, book);
    }
    return book;
  }
}

/** How far back a refresh looks before its last look: a row committed late, a clock a little off. */
export const refreshOverlapMs = 10_000;
/** Rows read per query by rebuild and refresh, so a million positions never make one result. */
export const loadPageSizeMax = 5_000;

export interface TriggerEngineOptions {
  db: Db;
  clock: Clock;
  /** Settles a fired position at a tick; decides again from the row (undefined: nothing to do). */
  settle: (positionId: bigint, tick: RecordedTick) => Promise<unknown>;
  onError?: (error: unknown) => void;
  /** Rows per page (tests make it small); at most loadPageSizeMax. */
  pageSize?: number;
}

const levelColumns = {
  id: tradePositions.id, version: tradePositions.version, symbol: tradePositions.symbol, direction: tradePositions.direction,
  spreadUnits: tradePositions.spreadUnits, takeProfit: tradePositions.takeProfit, stopLoss: tradePositions.stopLoss,
  liquidation: tradePositions.liquidationPrice, status: tradePositions.status,
};
type LevelRow = { id: bigint; version: number; symbol: string; direction: string; spreadUnits: bigint;
  takeProfit: bigint | null; stopLoss: bigint | null; liquidation: bigint | null; status: string };

function levelsOf(row: LevelRow): TriggerLevels {
  if (row.direction !== 'long' && row.direction !== 'short') throw new Error(`position ${row.id}: unknown direction ${row.direction}`);
  return {
    positionId: row.id, version: row.version, symbol: row.symbol, direction: row.direction, spreadUnits: row.spreadUnits,
    takeProfit: row.takeProfit, stopLoss: row.stopLoss, liquidation: row.liquidation,
  };
}

/**
 * The index fed from trade_positions and driven by the recorded ticks, on the engine instance. Its
 * operations run one at a time (a rebuild never interleaves with a tick batch).
 */
export class TriggerEngine {
  readonly index = new TriggerIndex();
  readonly #options: TriggerEngineOptions;
  readonly #pageSize: number;
  /** The clock reading taken before the last rebuild or refresh read the table; undefined: never built. */
  #lastLookMs: number | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: TriggerEngineOptions) {
    this.#options = options;
    this.#pageSize = Math.min(options.pageSize ?? loadPageSizeMax, loadPageSizeMax);
    if (!(this.#pageSize >= 1)) throw new Error(`trigger engine: bad page size ${options.pageSize}`);
  }

  /** Loads every running position afresh (this instance became the engine leader). */
  rebuild(): Promise<void> { return this.#exclusive(() => this.#rebuild()); }

  /** Picks up the positions opened, changed or closed since the last look (minus the overlap). */
  refresh(): Promise<void> { return this.#exclusive(() => this.#refresh()); }

  /**
   * Refreshes, then for each tick in order settles every position it reaches, one after another.
   * A settlement that throws is reported and its position re-armed for the next batch; the others
   * go on.
   */
  onTicks(ticks: readonly RecordedTick[]): Promise<void> {
    return this.#exclusive(async () => {
      if (this.#lastLookMs === undefined) await this.#rebuild();
      else await this.#refresh();
      const failed: bigint[] = [];
      for (const tick of ticks) {
        for (const trigger of this.index.onTick(tick.symbol, tick.priceUnits)) {
          try {
            await this.#options.settle(trigger.positionId, tick);
          } catch (error) {
            failed.push(trigger.positionId);
            this.#options.onError?.(error);
          }
        }
      }
      // Re-armed after the batch, so a settlement that keeps failing is tried once per batch.
      for (const positionId of failed) this.index.rearm(positionId);
    });
  }

  #exclusive(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #rebuild() {
    const lookMs = this.#options.clock.now().getTime();
    this.index.clear();
    await this.#pages(eq(tradePositions.status, 'running'), (row) => this.index.upsert(levelsOf(row)));
    this.#lastLookMs = lookMs;
  }

  async #refresh() {
    if (this.#lastLookMs === undefined) return this.#rebuild();
    const lookMs = this.#options.clock.now().getTime();
    const since = new Date(this.#lastLookMs - refreshOverlapMs);
    // Every status is listed so the (status, updated_at) index serves the query as three ranges.
    const changed = and(inArray(tradePositions.status, ['running', 'settling', 'closed']), gt(tradePositions.updatedAt, since));
    await this.#pages(changed, (row) => {
      if (row.status === 'running') this.index.upsert(levelsOf(row));
      else this.index.remove(row.id);
    });
    this.#lastLookMs = lookMs;
  }

  /** Reads the matching rows in pages by id, handing each to `each`. */
  async #pages(where: ReturnType<typeof and>, each: (row: LevelRow) => void) {
    let afterId = 0n;
    for (;;) {
      const rows = await this.#options.db.select(levelColumns).from(tradePositions)
        .where(and(where, gt(tradePositions.id, afterId))).orderBy(asc(tradePositions.id)).limit(this.#pageSize);
      for (const row of rows) each(row);
      if (rows.length < this.#pageSize) return;
      afterId = rows[rows.length - 1].id;
    }
  }
}
