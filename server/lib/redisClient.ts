// Every Redis connection of the server is made here, with bounded waits: a Redis that stops
// answering must cost a caller at most the command timeout (the limiter then uses this instance's
// counters, the market bus drops one update), never a request hanging for as long as Redis does.
// ioredis reconnects by itself; queued commands time out like sent ones.
import { Redis, type RedisOptions } from 'ioredis';

export const redisCommandTimeoutMs = 1_000;

export const redisOptions: RedisOptions = {
  commandTimeout: redisCommandTimeoutMs,
  connectTimeout: 2_000,
  maxRetriesPerRequest: 1,
  // Reconnect quickly at first, then every 2 s, for as long as it takes.
  retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
};

export function redisClient(url: string, onError: (error: unknown) => void, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, { ...redisOptions, ...options });
  redis.on('error', onError);
  return redis;
}
