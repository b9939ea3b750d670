// Fixed-window counters for limits keyed by something other than the caller's address (an
// account, a phone number), and escalating throttles for password guesses. In memory for one
// instance; in Redis when several instances share it. Every operation is one atomic step, so
// requests in parallel cannot all read "below the limit" and all go ahead.
import type { Redis } from 'ioredis';
import { rateLimited } from './errors.ts';

/** How an escalating throttle spends its attempts (see RateLimiter.takeAttempt). */
export interface ThrottlePolicy {
  /** Attempts allowed back to back; the last of them starts the first lockout. */
  attemptsFree: number;
  /** The first lockout; each further attempt doubles it, up to lockoutMaxMs. */
  lockoutBaseMs: number;
  lockoutMaxMs: number;
  /** The throttle forgets a key this long after its last attempt. */
  forgetAfterMs: number;
}

export type AttemptTaken = { allowed: true; attempt: number } | { allowed: false; retryAfterMs: number };

/** The lockout that follows attempt number `attempt` (1-based): none before the last free one. */
export function lockoutAfterMs(attempt: number, policy: ThrottlePolicy): number {
  if (attempt < policy.attemptsFree) return 0;
  return Math.min(policy.lockoutMaxMs, policy.lockoutBaseMs * 2 ** (attempt - policy.attemptsFree));
}

export interface RateLimiter {
  /** Counts one hit; throws a 429 AppError when the key exceeded `max` within `windowMs`. */
  hit(key: string, max: number, windowMs: number): Promise<void>;
  /** Reads the count without adding to it. */
  count(key: string, windowMs: number): Promise<number>;
  reset(key: string): Promise<void>;
  /** Gives back one hit counted by `hit`, say for an attempt that turned out to succeed. */
  release(key: string): Promise<void>;
  /**
   * Takes one attempt of an escalating throttle: refused, and not counted, while a lockout runs;
   * otherwise counted, and followed by the lockout `lockoutAfterMs` names. The lockout starts when
   * the attempt is taken, before it is checked, so attempts made in parallel cannot slip past it;
   * the caller resets the key when an attempt succeeds.
   */
  takeAttempt(key: string, policy: ThrottlePolicy): Promise<AttemptTaken>;
}

const entriesMax = 100_000;

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { startMs: number; count: number }>();
  const throttles = new Map<string, { attempts: number; lockedUntilMs: number; forgetAtMs: number }>();
  const current = (key: string, windowMs: number) => {
    const entry = windows.get(key);
    if (!entry || now() - entry.startMs >= windowMs) return undefined;
    return entry;
  };
  const sweep = () => {
    // Entries live at most a day; drop the stale ones when the map gets large.
    for (const [key, entry] of windows) if (now() - entry.startMs > 86_400_000) windows.delete(key);
    // Still full: forget the oldest tenth (a Map iterates in insertion order), never everything.
    let excess = windows.size - Math.floor(entriesMax * 0.9);
    for (const key of windows.keys()) {
      if (excess <= 0) break;
      windows.delete(key);
      excess -= 1;
    }
  };
  return {
    async hit(key, max, windowMs) {
      let entry = current(key, windowMs);
      if (!entry) {
        if (windows.size >= entriesMax) sweep();
        entry = { startMs: now(), count: 0 };
        windows.set(key, entry);
      }
      entry.count += 1;
      if (entry.count > max) {
        throw rateLimited(Math.ceil((entry.startMs + windowMs - now()) / 1000));
      }
    },
    async count(key, windowMs) {
      return current(key, windowMs)?.count ?? 0;
    },
    async reset(key) {
      windows.delete(key);
      throttles.delete(key);
    },
    async release(key) {
      const entry = windows.get(key);
      if (entry && entry.count > 0) entry.count -= 1;
    },
    async takeAttempt(key, policy) {
      const nowMs = now();
      let state = throttles.get(key);
      if (state && state.forgetAtMs <= nowMs) state = undefined;
      if (state && nowMs < state.lockedUntilMs) return { allowed: false, retryAfterMs: state.lockedUntilMs - nowMs };
      const attempts = (state?.attempts ?? 0) + 1;
      // Deleted and set again, so the Map's order is the order of last use when it must shrink.
      throttles.delete(key);
      if (throttles.size >= entriesMax) forgetOldest(throttles, nowMs);
      throttles.set(key, {
        attempts, lockedUntilMs: nowMs + lockoutAfterMs(attempts, policy), forgetAtMs: nowMs + policy.forgetAfterMs,
      });
      return { allowed: true, attempt: attempts };
    },
  };
}

/** Drops forgotten throttles, then the least recently used tenth if the map is still full. */
function forgetOldest(throttles: Map<string, { forgetAtMs: number }>, nowMs: number) {
  for (const [key, state] of throttles) if (state.forgetAtMs <= nowMs) throttles.delete(key);
  let excess = throttles.size - Math.floor(entriesMax * 0.9);
  for (const key of throttles.keys()) {
    if (excess <= 0) break;
    throttles.delete(key);
    excess -= 1;
  }
}

// One round trip each, run by Redis as one step. The throttle's state is a hash of the attempt
// count and the end of the current lockout; it expires forgetAfterMs after the last attempt.
const takeAttemptScript = `
local now = tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'attempts', 'lockedUntil')
local attempts = tonumber(state[1]) or 0
local lockedUntil = tonumber(state[2]) or 0
if now < lockedUntil then return {0, lockedUntil - now} end
attempts = attempts + 1
local free, base, max = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
lockedUntil = now
if attempts >= free then lockedUntil = now + math.min(max, base * 2 ^ (attempts - free)) end
redis.call('HSET', KEYS[1], 'attempts', attempts, 'lockedUntil', lockedUntil)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {1, attempts}`;
const releaseScript = `if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end return 0`;

// INCR and the window's expiry in one step: a crash between two commands cannot leave a counter
// without expiry (which would limit its key forever).
const hitScript = `local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/**
 * Counters shared by every instance through Redis. When Redis fails (down, or slower than the
 * client's command timeout) each call falls back to this instance's memory counters, so the
 * limits still hold per instance and no request fails for want of a counter; `onOutage` hears of
 * each failure (the caller logs it and reports it in the health answer).
 */
export function redisRateLimiter(redis: Redis, options: {
  fallback?: RateLimiter; onOutage?: (error: unknown) => void;
} = {}): RateLimiter {
  const fallback = options.fallback ?? memoryRateLimiter();
  const guarded = async <T>(work: () => Promise<T>, instead: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      options.onOutage?.(error);
      return instead();
    }
  };
  return {
    async hit(key, max, windowMs) {
      const redisKey = `bourse:rl:${key}`;
      const [count, ttl] = await guarded(
        async () => (await redis.eval(hitScript, 1, redisKey, windowMs)) as [number, number],
        async () => {
          await fallback.hit(key, max, windowMs);
          return [0, 0] as [number, number];
        });
      if (count > max) throw rateLimited(Math.ceil(ttl / 1000));
    },
    async count(key, windowMs) {
      return guarded(async () => Number(await redis.get(`bourse:rl:${key}`)) || 0, () => fallback.count(key, windowMs));
    },
    async reset(key) {
      // The fallback's count goes too: it may hold hits taken while Redis was out.
      await guarded(async () => { await redis.del(`bourse:rl:${key}`); }, async () => {});
      await fallback.reset(key);
    },
    async release(key) {
      await guarded(async () => { await redis.eval(releaseScript, 1, `bourse:rl:${key}`); }, () => fallback.release(key));
    },
    async takeAttempt(key, policy) {
      return guarded(async () => {
        const [allowed, value] = (await redis.eval(takeAttemptScript, 1, `bourse:rl:${key}`, Date.now(),
          policy.attemptsFree, policy.lockoutBaseMs, policy.lockoutMaxMs, policy.forgetAfterMs)) as [number, number];
        return allowed === 1 ? { allowed: true, attempt: value } as const : { allowed: false, retryAfterMs: value } as const;
      }, () => fallback.takeAttempt(key, policy));
    },
  };
}
