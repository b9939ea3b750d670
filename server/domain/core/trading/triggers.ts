// The trigger engine (issue 10, DESIGN §5, §8): the take-profit, stop-loss and liquidation levels of
// every running position, indexed per symbol by the TICK price that reaches them, so a tick costs
// O(log n + fired) and never a scan of all positions.
//
// A position closes at its exit price, which is the tick minus (long) or plus (short) half its own
// spread (tradingMath.exitPrice). So each level turns into a tick-price threshold
// (tradingMath.tickPriceForExit), and the comparison no longer depends on the position:
//   long:  take-profit when tick ≥ key;             stop-loss and liquidation when tick ≤ key
//   short: take-profit when tick ≤ key;             stop-loss and liquidation when tick ≥ key
// Each symbol keeps two min-queues (SortedRuns): "up" (fire while its smallest key ≤ the tick) and
// "down" (keys negated, so fire while its highest threshold ≥ the tick). A position has at most one
// entry in each: of its levels on the same side only the one the price reaches first matters (which
// level it was is decided again from the row by the settlement, reachedLevel).
// Changes and removals are lazy: an entry carries the stamp of the upsert that made it, and an entry
// whose stamp is no longer its position's current one is stale and skipped when popped; a queue is
// compacted when its stale entries outnumber its live ones, so the memory stays within 2× of live.
// Compaction is O(n) and runs only on the way in (upsert, remove, rearm: the engine's refresh), never
// inside a tick. A position fires at most once per version and leaves the live set when it fires.
// The tick path allocates nothing (fireInto reuses the caller's trigger objects), so a tick never
// starts a garbage collection. Measured by test/bench/triggers.ts with a million positions on one
// symbol: about a microsecond per tick that fires.
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Direction } from '../../../../src/api/contract/trading.ts';
import { tickPriceForExit } from '../../../../src/api/contract/tradingMath.ts';
import { tradePositions } from '../../../db/schema.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../../lib/time.ts';
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
 * A min-queue of (key, slot, stamp) triples held in sorted runs: short Float64Arrays of at most
 * `runCapacity` triples, each sorted by descending key, the runs themselves ordered so the LAST run
 * holds the smallest keys. The minimum is then the last triple of the last run, and removing it is
 * a length decrement that touches one cache line. A 4-ary heap of a million triples (what this
 * replaced) sifted a random leaf down ten levels on every pop, a cache and TLB miss a level:
 * ~2.5 µs a pop, so a tick that fired ten spent 25 µs (test/bench/triggers.ts). Pushing costs two
 * binary searches (over a flat array of the runs' bounds, then inside one run) and a move of at most
 * one run: O(log n + run), paid by upsert, outside the tick path. Keys are prices in units, exact as doubles below 2^53
 * (toKey checks); slots and stamps are integers below 2^53 too.
 */
export class SortedRuns {
  /** Triples a run holds at most: 256 × 24 bytes, a move of at most 6 kB per push. */
  readonly runCapacity: number;
  /** Each run: its triples (capacity 3 × runCapacity) and how many it holds, never 0. */
  #runs: Array<{ data: Float64Array; length: number }> = [];
  /**
   * Per run, a bound between the next run's largest key and its own smallest: push routes by it
   * without touching the runs. Pops only raise a run's smallest key, so they leave it valid.
   */
  #bounds: number[] = [];
  length = 0;
  /** Entries whose stamp is still their slot's current one. */
  live = 0;

  constructor(runCapacity = 256) {
    if (!Number.isInteger(runCapacity) || runCapacity < 2) throw new Error(`sorted runs: bad run capacity ${runCapacity}`);
    this.runCapacity = runCapacity;
  }

  /** Read only while length > 0. */
  topKey(): number { const run = this.#runs[this.#runs.length - 1]; return run.data[3 * run.length - 3]; }
  topSlot(): number { const run = this.#runs[this.#runs.length - 1]; return run.data[3 * run.length - 2]; }
  topStamp(): number { const run = this.#runs[this.#runs.length - 1]; return run.data[3 * run.length - 1]; }

  /** Runs held (tests check that compaction packs them). */
  get runCount(): number { return this.#runs.length; }

  /** Removes the smallest entry (read it first with topKey, topSlot, topStamp): no allocation. */
  pop() {
    const runs = this.#runs;
    const run = runs[runs.length - 1];
    run.length -= 1;
    this.length -= 1;
    if (run.length === 0) {
      runs.pop();
      this.#bounds.pop();
    }
  }

  push(key: number, slot: number, stamp: number) {
    const runs = this.#runs;
    const bounds = this.#bounds;
    if (runs.length === 0) {
      runs.push(this.#newRun());
      bounds.push(key);
    }
    // The first run whose bound is ≤ key takes it (every run before holds only larger keys); a key
    // below every bound goes at the end of the last run, and lowers its bound.
    let low = 0;
    let high = bounds.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (bounds[middle] <= key) high = middle;
      else low = middle + 1;
    }
    if (bounds[low] > key) bounds[low] = key;
    let run = runs[low];
    if (run.length === this.runCapacity) {
      // Split in two halves; the key goes to the half whose range holds it. The upper half's bound
      // is its own smallest key, the lower half keeps the old bound.
      const half = run.length >> 1;
      const lower = this.#newRun();
      lower.data.set(run.data.subarray(3 * half, 3 * run.length));
      lower.length = run.length - half;
      run.length = half;
      runs.splice(low + 1, 0, lower);
      bounds.splice(low, 0, run.data[3 * half - 3]);
      if (run.data[3 * half - 3] > key) run = lower;
    }
    // Inside the run (descending): before the first key smaller than this one.
    const data = run.data;
    let from = 0;
    let to = run.length;
    while (from < to) {
      const middle = (from + to) >> 1;
      if (data[3 * middle] < key) to = middle;
      else from = middle + 1;
    }
    data.copyWithin(3 * from + 3, 3 * from, 3 * run.length);
    data[3 * from] = key;
    data[3 * from + 1] = slot;
    data[3 * from + 2] = stamp;
    run.length += 1;
    this.length += 1;
  }

  /** Keeps only the entries `keep` accepts, in order, packed into runs three-quarters full: O(n). */
  retain(keep: (slot: number, stamp: number) => boolean) {
    const packed: Array<{ data: Float64Array; length: number }> = [];
    const bounds: number[] = [];
    const fill = (this.runCapacity * 3) >> 2;
    let into = this.#newRun();
    let kept = 0;
    for (const run of this.#runs) {
      const data = run.data;
      for (let index = 0; index < run.length; index += 1) {
        if (!keep(data[3 * index + 1], data[3 * index + 2])) continue;
        if (into.length === fill) {
          packed.push(into);
          bounds.push(into.data[3 * fill - 3]);
          into = this.#newRun();
        }
        const at = 3 * into.length;
        into.data[at] = data[3 * index];
        into.data[at + 1] = data[3 * index + 1];
        into.data[at + 2] = data[3 * index + 2];
        into.length += 1;
        kept += 1;
      }
    }
    if (into.length > 0) {
      packed.push(into);
      bounds.push(into.data[3 * into.length - 3]);
    }
    this.#runs = packed;
    this.#bounds = bounds;
    this.length = kept;
  }

  #newRun() { return { data: new Float64Array(3 * this.runCapacity), length: 0 }; }
}

interface SymbolBook {
  up: SortedRuns;
  /** Keys negated: the top is the highest threshold. */
  down: SortedRuns;
}

interface Indexed {
  levels: TriggerLevels;
  stamp: number;
  book: SymbolBook;
  inUp: boolean;
  inDown: boolean;
  /** Fired at this version: out of the queues' live counts, kept to refuse the same version again. */
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
  /** A queue is compacted only above this many entries (a small queue's stale entries cost little). */
  compactEntriesMin?: number;
}

/** The index itself: pure, no I/O, no clock. */
export class TriggerIndex {
  readonly #books = new Map<string, SymbolBook>();
  /**
   * Each known position's slot: the queues name slots (small integers), not bigint ids. A position
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

  /** Queue entries held, stale ones included (tests and the bench read it; ≤ 2 × live + the minimum after a change). */
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
    // Before the push: the entries of positions fired since the last change are stale by now.
    this.#compactBook(book);
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

  /**
   * Compacts every queue whose stale entries outnumber its live ones. upsert and remove do it for the
   * book they touch; this is for a caller that fired many and will not change anything for a while.
   */
  compact() {
    for (const book of this.#books.values()) this.#compactBook(book);
  }

  /** Forgets everything (before a rebuild). */
  clear() {
    this.#books.clear();
    this.#slotOf.clear();
    this.#bySlot.length = 0;
    this.#freeSlots.length = 0;
    this.#liveCount = 0;
  }

  /** The positions a tick at `priceUnits` reaches, in new objects; each is marked fired and fires only this once. */
  onTick(symbol: string, priceUnits: bigint): FiredTrigger[] {
    const fired: FiredTrigger[] = [];
    fired.length = this.fireInto(symbol, priceUnits, fired);
    return fired;
  }

  /**
   * onTick without allocation: writes the positions fired into out[0 .. count) and answers count.
   * The objects already in `out` are overwritten and reused (one is created only when `out` is
   * shorter than count), so a caller that keeps one array allocates nothing tick after tick; it must
   * read them before the next call. Entries of `out` past count are left as they are.
   */
  fireInto(symbol: string, priceUnits: bigint, out: FiredTrigger[]): number {
    const book = this.#books.get(symbol);
    if (!book) return 0;
    const price = toKey(priceUnits);
    const { up, down } = book;
    let count = 0;
    while (up.length > 0 && up.topKey() <= price) {
      const slot = up.topSlot();
      const stamp = up.topStamp();
      up.pop();
      if (this.#fire(slot, stamp, out, count)) count += 1;
    }
    while (down.length > 0 && down.topKey() <= -price) {
      const slot = down.topSlot();
      const stamp = down.topStamp();
      down.pop();
      if (this.#fire(slot, stamp, out, count)) count += 1;
    }
    return count;
  }

  /** Marks the slot's position fired into out[at], unless the entry is stale; no compaction here. */
  #fire(slot: number, stamp: number, out: FiredTrigger[], at: number): boolean {
    const current = this.#bySlot[slot];
    if (current === undefined || current.fired || current.stamp !== stamp) return false; // stale: already out of `live`
    current.fired = true;
    this.#detach(current);
    const { positionId, version } = current.levels;
    if (at < out.length) {
      out[at].positionId = positionId;
      out[at].version = version;
    } else {
      out.push({ positionId, version });
    }
    return true;
  }

  /** Frees a position's slot; a live one's queue entries become stale. */
  #release(slot: number) {
    const current = this.#bySlot[slot]!;
    // Out of the slot table before the detach, whose compaction must see its entries as stale.
    this.#bySlot[slot] = undefined;
    this.#freeSlots.push(slot);
    this.#slotOf.delete(current.levels.positionId);
    if (!current.fired) this.#detach(current);
    this.#compactBook(current.book);
  }

  /** Takes a live position out of the count: its queue entries become stale, to be skipped or compacted. */
  #detach(current: Indexed) {
    this.#liveCount -= 1;
    const { book } = current;
    if (current.inUp) book.up.live -= 1;
    if (current.inDown) book.down.live -= 1;
  }

  #compactBook(book: SymbolBook) {
    this.#compact(book.up);
    this.#compact(book.down);
  }

  #compact(queue: SortedRuns) {
    const stale = queue.length - queue.live;
    if (stale <= queue.live || queue.length < this.#compactEntriesMin) return;
    queue.retain((slot, stamp) => {
      const indexed = this.#bySlot[slot];
      return indexed !== undefined && !indexed.fired && indexed.stamp === stamp;
    });
    if (queue.length !== queue.live) throw new Error(`trigger index: ${queue.length} entries kept, ${queue.live} live`);
  }

  #bookOf(symbol: string): SymbolBook {
    let book = this.#books.get(symbol);
    if (!book) {
      book = { up: new SortedRuns(), down: new SortedRuns() };
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
  /**
   * Settles every position a batch of ticks fired, together (positions.ts settleFired: batches
   * through the payout primitive); answers the ones that failed. When given, `settle` is not used.
   */
  settleMany?: (fired: Array<{ positionId: bigint; tick: RecordedTick }>) => Promise<{ failed: Array<{ positionId: bigint; error: unknown }> }>;
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
      if (this.#options.settleMany) {
        // A position fires once per version, so gathering the whole batch's fires (each with the
        // tick that fired it) and settling them together settles each at the same tick as before.
        const fired: Array<{ positionId: bigint; tick: RecordedTick }> = [];
        for (const tick of ticks) {
          for (const trigger of this.index.onTick(tick.symbol, tick.priceUnits)) fired.push({ positionId: trigger.positionId, tick });
        }
        if (fired.length > 0) {
          try {
            for (const failure of (await this.#options.settleMany(fired)).failed) {
              failed.push(failure.positionId);
              this.#options.onError?.(failure.error);
            }
          } catch (error) {
            failed.push(...fired.map((each) => each.positionId));
            this.#options.onError?.(error);
          }
        }
      }
      for (const tick of this.#options.settleMany ? [] : ticks) {
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
