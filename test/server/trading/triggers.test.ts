// The trigger index against a brute-force oracle (issue 10): random positions (both directions,
// random take-profit, stop-loss and liquidation levels, spreads and versions), random changes and
// removals, random ticks. After each tick the index fires exactly the positions whose exit price
// (tradingMath.exitPrice) reaches a level (tradingMath.reachedLevel) by scanning every live one,
// and no (position, version) ever fires twice. fast-check shrinks a failure to a short sequence.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SortedRuns, TriggerIndex, triggerKeys, type FiredTrigger, type TriggerLevels } from '../../../server/domain/core/trading/triggers.ts';
import { exitPrice, reachedLevel } from '../../../src/api/contract/tradingMath.ts';

const symbols = ['BTCUSDT', 'ETHUSDT'];
const poolSize = 24;

type Op =
  | { type: 'upsert'; id: number; bump: boolean; symbol: number; long: boolean; spread: number;
    takeProfit: number | null; stopLoss: number | null; liquidation: number | null }
  | { type: 'remove'; id: number }
  | { type: 'rearm'; id: number }
  | { type: 'tick'; symbol: number; price: number };

const level = fc.option(fc.integer({ min: 80, max: 120 }), { nil: null, freq: 4 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({
    type: fc.constant('upsert' as const), id: fc.integer({ min: 1, max: poolSize }), bump: fc.boolean(),
    symbol: fc.integer({ min: 0, max: symbols.length - 1 }), long: fc.boolean(), spread: fc.integer({ min: 0, max: 7 }),
    takeProfit: level, stopLoss: level, liquidation: level,
  }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('remove' as const), id: fc.integer({ min: 1, max: poolSize }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('rearm' as const), id: fc.integer({ min: 1, max: poolSize }) }) },
  { weight: 6, arbitrary: fc.record({ type: fc.constant('tick' as const), symbol: fc.integer({ min: 0, max: symbols.length - 1 }), price: fc.integer({ min: 75, max: 125 }) }) },
);

/** The reference: every live position in a plain map, scanned in full on each tick. */
class Oracle {
  live = new Map<bigint, TriggerLevels>();
  fired = new Map<bigint, TriggerLevels>();
  lastVersion = new Map<bigint, number>();

  upsert(levels: TriggerLevels) {
    const fired = this.fired.get(levels.positionId);
    if (fired && fired.version >= levels.version) return;
    const current = this.live.get(levels.positionId);
    if (current && current.version > levels.version) return;
    this.fired.delete(levels.positionId);
    const hasLevel = levels.takeProfit !== null || levels.stopLoss !== null || levels.liquidation !== null;
    if (hasLevel) this.live.set(levels.positionId, levels);
    else this.live.delete(levels.positionId);
  }

  remove(positionId: bigint) {
    this.live.delete(positionId);
    this.fired.delete(positionId);
  }

  rearm(positionId: bigint) {
    const levels = this.fired.get(positionId);
    if (!levels) return;
    this.fired.delete(positionId);
    this.upsert(levels);
  }

  tick(symbol: string, price: bigint): FiredTrigger[] {
    const fired: FiredTrigger[] = [];
    for (const levels of this.live.values()) {
      if (levels.symbol !== symbol) continue;
      if (reachedLevel(levels.direction, exitPrice(levels.direction, price, levels.spreadUnits), levels) === undefined) continue;
      fired.push({ positionId: levels.positionId, version: levels.version });
    }
    for (const { positionId } of fired) {
      this.fired.set(positionId, this.live.get(positionId)!);
      this.live.delete(positionId);
    }
    return fired;
  }
}

const byId = (fired: FiredTrigger[]) => [...fired].sort((a, b) => (a.positionId < b.positionId ? -1 : a.positionId > b.positionId ? 1 : 0));

function levelsOf(step: Extract<Op, { type: 'upsert' }>, version: number): TriggerLevels {
  const big = (value: number | null) => (value === null ? null : BigInt(value));
  return {
    positionId: BigInt(step.id), version, symbol: symbols[step.symbol], direction: step.long ? 'long' : 'short',
    spreadUnits: BigInt(step.spread), takeProfit: big(step.takeProfit), stopLoss: big(step.stopLoss), liquidation: big(step.liquidation),
  };
}

/** Runs the steps on the index and the oracle side by side, comparing after each. */
function runAgainstOracle(steps: Op[], compactEntriesMin: number) {
  const index = new TriggerIndex({ compactEntriesMin });
  const oracle = new Oracle();
  const versions = new Map<number, number>();
  const everFired = new Set<string>();
  for (const step of steps) {
    if (step.type === 'upsert') {
      const version = (versions.get(step.id) ?? 0) + (step.bump || !versions.has(step.id) ? 1 : 0);
      versions.set(step.id, version);
      const levels = levelsOf(step, version);
      index.upsert(levels);
      oracle.upsert(levels);
    } else if (step.type === 'remove') {
      index.remove(BigInt(step.id));
      oracle.remove(BigInt(step.id));
      for (const key of [...everFired]) if (key.startsWith(`${step.id}@`)) everFired.delete(key); // forgotten
    } else if (step.type === 'rearm') {
      index.rearm(BigInt(step.id));
      oracle.rearm(BigInt(step.id));
    } else {
      const symbol = symbols[step.symbol];
      const fired = index.onTick(symbol, BigInt(step.price));
      expect(byId(fired)).toEqual(byId(oracle.tick(symbol, BigInt(step.price))));
      for (const trigger of fired) {
        // Once per version: only a rearm (a failed settlement) may fire the same version again.
        const key = `${trigger.positionId}@${trigger.version}`;
        expect(everFired.has(key) && !steps.some((s) => s.type === 'rearm')).toBe(false);
        everFired.add(key);
      }
    }
    expect(index.size).toBe(oracle.live.size);
    for (const id of oracle.live.keys()) expect(index.has(id)).toBe(true);
  }
  return index;
}

describe('TriggerIndex', () => {
  it('fires exactly what a scan of every live position fires, after each tick (random sequences)', () => {
    fc.assert(fc.property(fc.array(op, { minLength: 1, maxLength: 200 }), (steps) => {
      runAgainstOracle(steps, 1024);
    }), { numRuns: 400 });
  });

  it('stays equal to the oracle when its heaps are compacted at every chance', () => {
    fc.assert(fc.property(fc.array(op, { minLength: 1, maxLength: 200 }), (steps) => {
      const index = runAgainstOracle(steps, 0);
      // Compaction keeps at most as many stale entries as live ones in each queue (two per position).
      // It never runs inside a tick, so the entries of positions the last ticks fired wait for it.
      index.compact();
      expect(index.entryCount).toBeLessThanOrEqual(4 * index.size + 4);
    }), { numRuns: 400 });
  });

  it('fires each (position, version) once when no settlement fails and the position is not removed', () => {
    const upserts = fc.array(op.filter((step) => step.type !== 'rearm'), { minLength: 1, maxLength: 300 });
    fc.assert(fc.property(upserts, (steps) => {
      const index = new TriggerIndex({ compactEntriesMin: 8 });
      const versions = new Map<number, number>();
      const seen = new Set<string>();
      for (const step of steps) {
        if (step.type === 'upsert') {
          const version = (versions.get(step.id) ?? 0) + (step.bump || !versions.has(step.id) ? 1 : 0);
          versions.set(step.id, version);
          index.upsert(levelsOf(step, version));
        } else if (step.type === 'remove') {
          // A removed position is forgotten (the engine removes only rows that no longer run, and a
          // closed row never runs again), so the same version may come back after a remove.
          index.remove(BigInt(step.id));
          for (const key of [...seen]) if (key.startsWith(`${step.id}@`)) seen.delete(key);
        } else if (step.type === 'tick') {
          for (const trigger of index.onTick(symbols[step.symbol], BigInt(step.price))) {
            const key = `${trigger.positionId}@${trigger.version}`;
            expect(seen.has(key)).toBe(false);
            seen.add(key);
          }
        }
      }
    }), { numRuns: 300 });
  });

  it('matches the oracle over 2 000 positions and a 1 500-tick random walk with real prices', () => {
    // A denser case than the short sequences: keys in the millions, many fired per step at times,
    // positions re-opened as they fire, levels changed along the way (stale entries to compact).
    fc.assert(fc.property(fc.integer(), (seed) => {
      let state = seed >>> 0 || 1;
      const random = (n: number) => { state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0; return state % n; };
      const index = new TriggerIndex({ compactEntriesMin: 64 });
      const oracle = new Oracle();
      let price = 6_000_000n;
      let nextId = 1n;
      const open = (version = 1, positionId = nextId++): TriggerLevels => {
        const long = random(2) === 0;
        const spread = BigInt(random(40));
        const away = (max: number) => BigInt(1 + random(max));
        const take = random(4) === 0 ? null : (long ? price + away(30_000) : price - away(30_000));
        const stop = random(3) === 0 ? null : (long ? price - away(30_000) : price + away(30_000));
        const liquidation = random(5) === 0 ? null : (long ? price - away(60_000) : price + away(60_000));
        return { positionId, version, symbol: 'BTCUSDT', direction: long ? 'long' : 'short', spreadUnits: spread, takeProfit: take, stopLoss: stop, liquidation };
      };
      for (let i = 0; i < 2000; i += 1) {
        const levels = open();
        index.upsert(levels);
        oracle.upsert(levels);
      }
      let firedCount = 0;
      for (let step = 0; step < 1500; step += 1) {
        price += BigInt(random(2001)) - 1000n;
        const fired = index.onTick('BTCUSDT', price);
        firedCount += fired.length;
        expect(byId(fired)).toEqual(byId(oracle.tick('BTCUSDT', price)));
        for (let i = 0; i < fired.length; i += 1) {
          const levels = open();
          index.upsert(levels);
          oracle.upsert(levels);
        }
        const changedId = BigInt(1 + random(Number(nextId) - 1));
        const current = oracle.live.get(changedId);
        if (current) {
          const changed = open(current.version + 1, changedId);
          index.upsert(changed);
          oracle.upsert(changed);
        }
        expect(index.size).toBe(oracle.live.size);
      }
      expect(firedCount).toBeGreaterThan(100); // the walk does cross levels: the comparison means something
      expect(index.entryCount).toBeLessThanOrEqual(4 * index.size + 2 * 64);
    }), { numRuns: 4 });
  });

  it('keeps one entry per side when the same row is read again and again (the refresh overlap)', () => {
    const index = new TriggerIndex();
    const levels: TriggerLevels = {
      positionId: 7n, version: 3, symbol: 'BTCUSDT', direction: 'long', spreadUnits: 10n, takeProfit: 110n, stopLoss: 90n, liquidation: 80n,
    };
    for (let i = 0; i < 1000; i += 1) index.upsert({ ...levels });
    expect(index.entryCount).toBe(2);
    // An older version read late never replaces a newer one.
    index.upsert({ ...levels, version: 2, takeProfit: 100n });
    expect(index.onTick('BTCUSDT', 104n)).toEqual([]);
    expect(index.onTick('BTCUSDT', 115n)).toEqual([{ positionId: 7n, version: 3 }]);
    // The version that fired does not come back; the next one does.
    index.upsert({ ...levels });
    expect(index.size).toBe(0);
    index.upsert({ ...levels, version: 4 });
    expect(index.onTick('BTCUSDT', 95n)).toEqual([{ positionId: 7n, version: 4 }]);
  });

  it('turns each level into the tick price at which the exit price reaches it', () => {
    // Long: exit = tick − 5, so a take-profit of 110 needs a tick of 115, a stop-loss of 90 a tick of 95.
    expect(triggerKeys({ positionId: 1n, version: 1, symbol: 'X', direction: 'long', spreadUnits: 11n, takeProfit: 110n, stopLoss: 90n, liquidation: 80n }))
      .toEqual({ up: 115n, down: 95n });
    // Short: exit = tick + 5; of stop-loss and liquidation the lower one (here the liquidation) is reached first.
    expect(triggerKeys({ positionId: 1n, version: 1, symbol: 'X', direction: 'short', spreadUnits: 10n, takeProfit: 90n, stopLoss: 120n, liquidation: 110n }))
      .toEqual({ up: 105n, down: 85n });
    expect(triggerKeys({ positionId: 1n, version: 1, symbol: 'X', direction: 'short', spreadUnits: 0n, takeProfit: null, stopLoss: null, liquidation: null }))
      .toEqual({ up: null, down: null });
  });

  it('refuses levels no position can have', () => {
    const index = new TriggerIndex();
    const good: TriggerLevels = { positionId: 1n, version: 1, symbol: 'X', direction: 'long', spreadUnits: 0n, takeProfit: 2n, stopLoss: null, liquidation: null };
    expect(() => index.upsert({ ...good, spreadUnits: -2n })).toThrow(/negative spread/);
    expect(() => index.upsert({ ...good, version: 1.5 })).toThrow(/bad version/);
    expect(() => index.upsert({ ...good, direction: 'up' as 'long' })).toThrow(/bad direction/);
    expect(index.size).toBe(0);
  });
});

describe('SortedRuns', () => {
  type QueueOp = { type: 'push'; key: number } | { type: 'pop' } | { type: 'retain'; modulus: number };
  const queueOp: fc.Arbitrary<QueueOp> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ type: fc.constant('push' as const), key: fc.integer({ min: -50, max: 50 }) }) },
    { weight: 3, arbitrary: fc.record({ type: fc.constant('pop' as const) }) },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('retain' as const), modulus: fc.integer({ min: 2, max: 4 }) }) },
  );

  it('pops the entries in key order, through run splits and compactions (against a sorted list)', () => {
    // Runs of 2 to 5 entries split after a handful of pushes, so a few hundred steps exercise every
    // path: a split with the key going either way, a key below every bound, the last run emptied.
    fc.assert(fc.property(fc.integer({ min: 2, max: 5 }), fc.array(queueOp, { minLength: 1, maxLength: 400 }), (capacity, steps) => {
      const queue = new SortedRuns(capacity);
      let reference: Array<{ key: number; slot: number }> = [];
      let nextSlot = 0;
      for (const step of steps) {
        if (step.type === 'push') {
          queue.push(step.key, nextSlot, nextSlot * 10);
          reference.push({ key: step.key, slot: nextSlot });
          nextSlot += 1;
        } else if (step.type === 'pop') {
          if (reference.length === 0) continue;
          const smallest = Math.min(...reference.map((entry) => entry.key));
          expect(queue.topKey()).toBe(smallest);
          const slot = queue.topSlot();
          expect(queue.topStamp()).toBe(slot * 10);
          const at = reference.findIndex((entry) => entry.slot === slot);
          expect(reference[at].key).toBe(smallest); // ties may come out in any order, but with their own slot
          reference.splice(at, 1);
          queue.pop();
        } else {
          queue.retain((slot) => slot % step.modulus !== 0);
          reference = reference.filter((entry) => entry.slot % step.modulus !== 0);
          expect(queue.runCount).toBeLessThanOrEqual(Math.ceil(reference.length / Math.max(1, (capacity * 3) >> 2)));
        }
        expect(queue.length).toBe(reference.length);
      }
      // Drained, it gives every remaining key in order.
      const drained: number[] = [];
      while (queue.length > 0) {
        drained.push(queue.topKey());
        queue.pop();
      }
      expect(drained).toEqual(reference.map((entry) => entry.key).sort((a, b) => a - b));
      expect(queue.runCount).toBe(0);
    }), { numRuns: 300 });
  });

  it('takes a thousand equal keys and a million-unit spread of prices in its default runs', () => {
    const queue = new SortedRuns();
    for (let slot = 0; slot < 1000; slot += 1) queue.push(6_000_000, slot, slot);
    for (let slot = 1000; slot < 3000; slot += 1) queue.push(5_000_000 + ((slot * 7919) % 2_000_000), slot, slot);
    expect(queue.runCount).toBeGreaterThan(3000 / 256);
    let previous = -Infinity;
    let count = 0;
    while (queue.length > 0) {
      expect(queue.topKey()).toBeGreaterThanOrEqual(previous);
      previous = queue.topKey();
      queue.pop();
      count += 1;
    }
    expect(count).toBe(3000);
  });

  it('refuses a run too small to split', () => {
    expect(() => new SortedRuns(1)).toThrow(/bad run capacity/);
  });
});

describe('TriggerIndex.fireInto', () => {
  const long = (positionId: bigint, takeProfit: bigint, stopLoss: bigint): TriggerLevels => ({
    positionId, version: 1, symbol: 'BTCUSDT', direction: 'long', spreadUnits: 0n, takeProfit, stopLoss, liquidation: null,
  });

  it('reuses the objects of the array it is given and fires the same positions as onTick', () => {
    const index = new TriggerIndex();
    const twin = new TriggerIndex();
    for (let id = 1n; id <= 6n; id += 1n) {
      index.upsert(long(id, 100n + id, 50n));
      twin.upsert(long(id, 100n + id, 50n));
    }
    const out: FiredTrigger[] = [];
    expect(index.fireInto('BTCUSDT', 103n, out)).toBe(3);
    expect(byId(out)).toEqual(byId(twin.onTick('BTCUSDT', 103n)));
    const pooled = [...out];
    // Two more fire: written into the first two objects, the third left as it was.
    expect(index.fireInto('BTCUSDT', 105n, out)).toBe(2);
    expect(out.slice(0, 2).every((trigger, at) => trigger === pooled[at])).toBe(true);
    expect(out).toHaveLength(3);
    expect(byId(out.slice(0, 2))).toEqual(byId(twin.onTick('BTCUSDT', 105n)));
    expect(index.fireInto('ETHUSDT', 1000n, out)).toBe(0);
    expect(index.fireInto('BTCUSDT', 104n, out)).toBe(0);
  });

  it('leaves the stale entries of fired positions to the next change, not to the tick', () => {
    const index = new TriggerIndex({ compactEntriesMin: 0 });
    for (let id = 1n; id <= 10n; id += 1n) index.upsert(long(id, 200n, 50n + id));
    expect(index.entryCount).toBe(20);
    // All ten take-profits fire: their entries leave the up queue, their stop-losses stay, stale.
    expect(index.onTick('BTCUSDT', 200n)).toHaveLength(10);
    expect(index.entryCount).toBe(10);
    expect(index.size).toBe(0);
    // The engine's refresh removes the closed rows: the queue is compacted then.
    index.remove(1n);
    expect(index.entryCount).toBe(0);
    // And a stale entry met by a later tick fires nothing.
    index.upsert(long(11n, 300n, 40n));
    expect(index.onTick('BTCUSDT', 45n)).toEqual([]);
    expect(index.onTick('BTCUSDT', 40n)).toEqual([{ positionId: 11n, version: 1 }]);
  });
});
