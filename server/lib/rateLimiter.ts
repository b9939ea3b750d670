// Fixed-window counters for limits keyed by something other than the caller's address (an
// account, a phone number). In memory for one instance; in Redis when several instances share it.
import type { Redis } from 'ioredis';
import { rateLimited } from './errors.ts';

export interface RateLimiter {
  /** Counts one hit; throws a 429 AppError when the key exceeded `max` within `windowMs`. */
  hit(key: string, max: number, windowMs: number): Promise<void>;
  /** Reads the count without adding to it. */
  count(key: string, windowMs: number): Promise<number>;
  reset(key: string): Promise<void>;
}

const entriesMax = 100_000;

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { startMs: number; count: number }>();
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
    },
  };
}

export function redisRateLimiter(redis: Redis): RateLimiter {
  return {
    async hit(key, max, windowMs) {
      const redisKey = `bourse:rl:${key}`;
      const [[, count], [, ttl]] = (await redis.multi().incr(redisKey).pttl(redisKey).exec()) as [
        [unknown, number], [unknown, number]];
      if (ttl < 0) await redis.pexpire(redisKey, windowMs);
      if (count > max) throw rateLimited(Math.ceil((ttl < 0 ? windowMs : ttl) / 1000));
    },
    async count(key) {
      return Number(await redis.get(`bourse:rl:${key}`)) || 0;
    },
    async reset(key) {
      await redis.del(`bourse:rl:${key}`);
    },
  };
}
