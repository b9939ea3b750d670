import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { paths } from '../../src/api/contract/paths.ts';
import { failure, ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

export function publicRoutes(app: FastifyInstance, services: Services, publicKeyPem: string) {
  app.get(paths.serverTime, async () => ok({ serverTime: services.clock.now().getTime(), version: services.version }));
  app.get(paths.publicKey, async () => ok(publicKeyPem));
}

const healthDatabaseTimeoutMs = 2_000;

/**
 * For load balancers: 200 with `ready: true` when the market view has data and the database
 * answers (within two seconds), else 503 saying which is missing; `redis` is 'ok' or 'degraded'. It needs the market view, so
 * the market routes register it.
 */
export function healthRoute(app: FastifyInstance, services: Services, market: { readonly ready: boolean }) {
  app.get(paths.health, async (_request, reply) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const database = await Promise.race([
      services.db.execute(sql`select 1`).then(() => true, () => false),
      new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), healthDatabaseTimeoutMs); }),
    ]);
    clearTimeout(timer);
    const nowMs = services.clock.now().getTime();
    const redisFailedAtMs = services.signals.redisFailedAtMs;
    // Informational: while Redis fails, limits use this instance's counters, the leader still feeds
    // its own sockets, and the instance still serves. Degraded when a call failed in the last
    // minute or when a Redis connection (the market bus's or the limiter's) is down right now.
    const failedRecently = redisFailedAtMs !== undefined && nowMs - redisFailedAtMs < 60_000;
    const connected = services.signals.redisConnected?.() ?? true;
    const redis = failedRecently || !connected ? 'degraded' : 'ok';
    const status = { market: market.ready, database, redis, serverTime: nowMs };
    if (status.market && status.database) return ok({ ready: true, ...status });
    return reply.status(503).send(failure(503, 'Not ready.', { error: 'not_ready', ready: false, ...status }));
  });
}
