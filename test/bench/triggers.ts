// Trigger engine cost per tick (DESIGN §8: ≤ 20 µs per tick with 1 000 000 open positions when
// ≤ 10 fire): the in-memory index (server/domain/core/trading/triggers.ts) holding one million running
// positions on ONE symbol (the deepest heaps), a tenth of them changed once (stale entries in the
// heaps, as after real edits), then a random walk of ticks. Each position fired is replaced by a
// new one around the current price outside the timed part, so the index stays at a million. The
// time of each `fireInto` call (onTick into a reused array: what allocates nothing) is taken alone,
// with performance.now (process.hrtime.bigint allocates its answer, and a collection it set off
// would land inside the measured call); figures over all ticks and over the ticks where 1 to 10
// fired. Printed, never asserted. `npx tsx test/bench/triggers.ts` runs it on its own.
import os from 'node:os';
import { TriggerIndex, type FiredTrigger, type TriggerLevels } from '../../server/domain/core/trading/triggers.ts';
import { figure } from './figures.ts';

const positionCount = Number(process.env.BENCH_TRIGGER_POSITIONS ?? 1_000_000);
const tickCount = Number(process.env.BENCH_TRIGGER_TICKS ?? 200_000);
const warmupTicks = 20_000;
const symbol = 'BTCUSDT';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** A small deterministic generator (xorshift32), so every run walks the same prices. */
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  return (bound: number) => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % bound;
  };
}

export async function triggerBench() {
  const random = generator(20_261_123);
  // BTCUSDT in cents around 60 000.00; levels up to 10 % away, spreads up to 0.05 %.
  let price = 6_000_000n;
  const distanceMax = 600_000;
  const position = (positionId: bigint, version: number): TriggerLevels => {
    const long = random(2) === 0;
    const away = () => BigInt(1 + random(distanceMax));
    const takeProfit = random(5) === 0 ? null : long ? price + away() : price - away();
    const stopLoss = random(3) === 0 ? null : long ? price - away() : price + away();
    const liquidation = long ? price - away() : price + away();
    return { positionId, version, symbol, direction: long ? 'long' : 'short', spreadUnits: BigInt(random(3000)), takeProfit, stopLoss, liquidation };
  };

  const index = new TriggerIndex();
  const heapBefore = process.memoryUsage().heapUsed;
  const loadStarted = performance.now();
  let nextId = 1n;
  for (let i = 0; i < positionCount; i += 1) index.upsert(position(nextId++, 1));
  for (let i = 0; i < positionCount / 10; i += 1) index.upsert(position(BigInt(1 + random(positionCount)), 2));
  const loadMs = performance.now() - loadStarted;
  globalThis.gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;

  const all: number[] = [];
  const few: number[] = [];
  const none: number[] = [];
  let firedTotal = 0;
  let firedMax = 0;
  const perFired: number[] = [];
  const out: FiredTrigger[] = [];
  for (let step = 0; step < warmupTicks + tickCount; step += 1) {
    price += BigInt(random(7)) - 3n;
    const started = performance.now();
    const count = index.fireInto(symbol, price, out);
    const elapsedUs = (performance.now() - started) * 1000;
    // What the engine's next refresh does (the rows closed), and new positions opened meanwhile.
    for (let i = 0; i < count; i += 1) index.remove(out[i].positionId);
    for (let i = 0; i < count; i += 1) index.upsert(position(nextId++, 1));
    if (step < warmupTicks) continue;
    all.push(elapsedUs);
    if (count === 0) none.push(elapsedUs);
    else if (count <= 10) few.push(elapsedUs);
    if (count > 0) perFired.push(elapsedUs / count);
    firedTotal += count;
    if (count > firedMax) firedMax = count;
  }
  for (const samples of [all, few, none, perFired]) samples.sort((a, b) => a - b);
  const line = (samples: number[]) => (samples.length === 0 ? 'no such ticks'
    : `median ${percentile(samples, 50).toFixed(2)} µs, p99 ${percentile(samples, 99).toFixed(2)} µs (${samples.length} ticks)`);
  console.log(`trigger engine, ${index.size} open positions on one symbol (${index.entryCount} queue entries, `
    + `~${heapMb.toFixed(0)} MB heap; loaded in ${(loadMs / 1000).toFixed(1)} s): `
    + `${firedTotal} fired over ${tickCount} ticks, at most ${firedMax} in one`);
  console.log(`  cost per tick, all ticks: ${line(all)}`);
  console.log(`  cost per tick, 1–10 fired: ${line(few)} (budget ≤ 20 µs)`);
  if (few.length > 0) figure('triggers.fire10.p99', percentile(few, 99), 'µs');
  console.log(`  cost per tick, none fired: ${line(none)}`);
  const overBudget = few.filter((us) => us > 20).length;
  console.log(`  ticks with 1–10 fired above 20 µs: ${overBudget} of ${few.length}; `
    + `per position fired: median ${percentile(perFired, 50).toFixed(2)} µs, p99 ${percentile(perFired, 99).toFixed(2)} µs; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs`);
}

if (import.meta.url === `file://${process.argv[1]}`) await triggerBench();
