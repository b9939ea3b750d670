// The default price source: a simulator. Each symbol follows geometric Brownian motion at its
// class's annualised volatility, with occasional jumps (compound Poisson), on the time of its
// market's trading calendar. Its random source is injected: the live feed draws from a secure
// generator (secureRandom.ts), because a seeded one can be recovered from public ticks and the
// next tick predicted (issue 18); seeded generators drive back-filled history, tests and
// benchmarks only. Settlements are checked after the fact against the recorded ticks, not by replay.
// Floats are used for the model only; every price that leaves here is an integer on the tick grid.
import { isMarketOpen, tradingSecondsPerYear } from './calendar.ts';
import type { RandomSource } from './secureRandom.ts';
import { parsePrice, type SymbolSpec } from './symbols.ts';

/**
 * A small, fast, well-distributed 32-bit generator (mulberry32). Predictable by design: for
 * back-filled history, tests and benchmarks, never for a live price anything settles against.
 */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a of a string: turns (seed, symbol) into a generator seed. */
export function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * The seeded generator a simulator of `symbol` started at `startTimeMs` had before issue 18. Tests
 * and benchmarks use it for replayable ticks; the attack test uses it to show the live feed no
 * longer follows it.
 */
export function seededSimulatorRandom(seed: string, symbol: string, startTimeMs: number): RandomSource {
  return seededRandom(hashSeed(`${seed}:${symbol}:${startTimeMs}`));
}

export function standardNormal(random: RandomSource): number {
  // Box–Muller; 1 - u keeps the logarithm finite.
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export function poisson(random: RandomSource, mean: number): number {
  const limit = Math.exp(-mean);
  let count = 0;
  for (let product = random(); product > limit; product *= random()) count += 1;
  return count;
}

export interface SimulatedTick { symbol: string; timeMs: number; priceUnits: bigint; volumeUnits: bigint }

/**
 * One symbol's path. `step` advances it to a later time and returns the tick there, if open.
 * `random` is the path's own generator: secure for the live feed, seeded only in tests.
 */
export class SymbolSimulator {
  readonly #random: RandomSource;
  #logPrice: number;
  #lastTimeMs: number;

  constructor(readonly spec: SymbolSpec, random: RandomSource, startTimeMs: number, startPriceUnits?: bigint) {
    this.#random = random;
    const units = startPriceUnits ?? parsePrice(spec.startPrice, spec.pricePrecision);
    this.#logPrice = Math.log(Number(units));
    this.#lastTimeMs = startTimeMs;
  }

  get priceUnits(): bigint {
    return this.#quantize(Math.exp(this.#logPrice));
  }

  /** Log return over `seconds` of trading time, drift-corrected so the expected price is flat. */
  logReturn(seconds: number): number {
    const years = seconds / tradingSecondsPerYear(this.spec.class);
    const sigma = this.spec.annualVolatility;
    let change = -0.5 * sigma * sigma * years + sigma * Math.sqrt(years) * standardNormal(this.#random);
    const jumps = poisson(this.#random, (this.spec.jumpsPerDay * seconds) / 86_400);
    for (let i = 0; i < jumps; i += 1) change += this.spec.jumpSigma * standardNormal(this.#random);
    return change;
  }

  /** Traded quantity over `seconds`, in volume units: the daily mean, scaled, with log-normal noise. */
  volume(seconds: number): bigint {
    const mean = (this.spec.dailyVolume * seconds) / 86_400;
    const noisy = mean * Math.exp(0.6 * standardNormal(this.#random) - 0.18);
    return BigInt(Math.max(0, Math.round(noisy * 10 ** this.spec.volumePrecision)));
  }

  step(timeMs: number): SimulatedTick | undefined {
    if (timeMs <= this.#lastTimeMs) throw new Error('simulator time must move forward');
    const seconds = (timeMs - this.#lastTimeMs) / 1000;
    this.#lastTimeMs = timeMs;
    if (!isMarketOpen(this.spec.class, timeMs)) return undefined;
    this.#logPrice += this.logReturn(seconds);
    return { symbol: this.spec.symbol, timeMs, priceUnits: this.priceUnits, volumeUnits: this.volume(seconds) };
  }

  /** Moves the path by a log return without a tick (used to build history). */
  applyLogReturn(change: number) {
    this.#logPrice += change;
  }

  #quantize(price: number): bigint {
    const tick = Number(this.spec.tickSizeUnits);
    return BigInt(Math.max(tick, Math.round(price / tick) * tick));
  }
}
