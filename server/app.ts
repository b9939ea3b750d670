// The Fastify app factory: external plugins, then the protocol (envelope, encrypted bodies,
// errors), then the routes under /api, then the built PWA. Tests build it with their own
// database, clock and keys and drive it through the real protocol.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import type { Redis } from 'ioredis';
import { apiPrefix } from '../src/api/contract/paths.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { AppError } from './lib/errors.ts';
import { failure } from './lib/envelope.ts';
import { memoryRateLimiter, redisRateLimiter } from './lib/rateLimiter.ts';
import { systemClock, type Clock } from './lib/time.ts';
import { outboxSender, smtpSender, type MessageSender } from './domain/delivery.ts';
import { registerEncryptedBodies, type ServerKeys } from './plugins/encryption.ts';
import { databaseReplayStore } from './lib/replayStore.ts';
import type { Services } from './services.ts';
import { appRoutes } from './routes/app.ts';
import { userRoutes } from './routes/user.ts';
import { setRoutes } from './routes/set.ts';
import { publicRoutes } from './routes/public.ts';
import { marketRoutes } from './routes/market.ts';
import { localBus, type MarketBus } from './domain/market/bus.ts';
import { MarketView } from './domain/market/view.ts';
import {
  defaultRealtimeSettings, framePayloadBytesMax, registerRealtime, type RealtimeHub, type RealtimeSettings,
} from './plugins/realtime.ts';

export interface BuildOptions {
  config: Config;
  database: Database;
  keys: ServerKeys;
  clock?: Clock;
  redis?: Redis;
  sender?: MessageSender;
  /** Logger: true for pino at config.logLevel, false for none (tests). */
  logger?: boolean;
  /** Where market updates arrive; an in-process bus by default. */
  marketBus?: MarketBus;
  /** Realtime socket settings that differ from the defaults (tests use a short heartbeat). */
  realtime?: Partial<RealtimeSettings>;
}

export interface BuiltApp {
  app: FastifyInstance;
  services: Services;
  market: MarketView;
  marketBus: MarketBus;
  realtime: RealtimeHub;
}

export async function buildApp(options: BuildOptions): Promise<BuiltApp> {
  const { config, database, keys } = options;
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    bodyLimit: 256 * 1024,
    trustProxy: process.env.TRUST_PROXY === '1',
  });
  // Validation with the contract's TypeBox schemas: query strings are converted to the schema's
  // types (they arrive as text), JSON bodies are not, so a number or a one-element array where
  // the contract says string is refused instead of being coerced (Ajv's coerceTypes did that).
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  const fallbackSender = outboxSender(config.dataDir, app.log);
  const replayStore = databaseReplayStore({
    db: database.db, now: () => clock.now().getTime(), entriesMax: config.limits.replayStoreEntriesMax,
    pruneIntervalMs: config.limits.replayPruneIntervalMs, onError: (error) => app.log.error({ err: error }, 'replay store prune failed'),
  });
  app.addHook('onClose', async () => replayStore.close());
  const services: Services = {
    db: database.db,
    limits: config.limits,
    clock,
    limiter: options.redis ? redisRateLimiter(options.redis) : memoryRateLimiter(() => clock.now().getTime()),
    sender: options.sender ?? (config.smtpUrl ? smtpSender(config.smtpUrl, config.smtpFrom, fallbackSender) : fallbackSender),
    pepper: pepperFor(config.dataDir),
    replayStore,
    version: readVersion(config.webRoot),
  };

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        frameSrc: ["'self'"],
        frameAncestors: ["'self'"],
        // Phones on a local network reach the server over plain http: do not force https.
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  // Before every route, so an upgrade request to a plain route is refused rather than half-handled.
  const realtimeSettings = { ...defaultRealtimeSettings, ...options.realtime };
  await app.register(websocket, { options: { maxPayload: framePayloadBytesMax(realtimeSettings) } });
  installErrorHandling(app);
  // Every envelope is stamped with the injected clock's time, so tests and the server agree.
  app.addHook('preSerialization', async (_request, _reply, payload) => {
    if (isEnvelope(payload)) payload.timestamp = clock.now().getTime();
    return payload;
  });
  registerEncryptedBodies(app, {
    keys,
    replayStore,
    freshnessMs: config.limits.requestFreshnessMs,
    replayWindowMs: config.limits.replayWindowMs,
    now: () => clock.now().getTime(),
  });

  const marketBus = options.marketBus ?? localBus();
  const market = new MarketView(database.db, marketBus);
  app.addHook('onClose', async () => market.close());

  let realtime!: RealtimeHub;
  await app.register(async (api) => {
    realtime = registerRealtime(api, { view: market, clock, settings: realtimeSettings });
    publicRoutes(api, services, keys.publicKeyPem);
    marketRoutes(api, services, market);
    appRoutes(api, services);
    userRoutes(api, services);
    setRoutes(api, services);
  }, { prefix: apiPrefix });

  const hasWeb = fs.existsSync(path.join(config.webRoot, 'index.html'));
  if (hasWeb) await serveWeb(app, config.webRoot);
  app.setNotFoundHandler((request, reply) => {
    if (!hasWeb || request.url.startsWith(`${apiPrefix}/`) || request.method !== 'GET') {
      return reply.status(404).send(failure(404, 'Not found.', { error: 'not_found' }));
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
  return { app, services, market, marketBus, realtime };
}

const isEnvelope = (payload: unknown): payload is { timestamp: number } =>
  typeof payload === 'object' && payload !== null && 'success' in payload && 'timestamp' in payload;

function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.statusCode === 429 && error.extra.retryAfterSeconds) {
        void reply.header('retry-after', String(error.extra.retryAfterSeconds));
      }
      return reply.status(error.statusCode).send(failure(error.statusCode, error.message, { error: error.errorCode, ...error.extra }));
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      const message = `Invalid request: ${fastifyError.message}`;
      return reply.status(400).send(failure(400, message, { error: 'invalid_request' }));
    }
    const status = fastifyError.statusCode ?? 500;
    if (status < 500) {
      return reply.status(status).send(failure(status, fastifyError.message, { error: 'invalid_request' }));
    }
    request.log.error({ err: error, url: request.url }, 'request failed');
    return reply.status(500).send(failure(500, 'Something went wrong on our side. Please try again.', { error: 'internal_error' }));
  });
}

async function serveWeb(app: FastifyInstance, webRoot: string) {
  await app.register(fastifyStatic, {
    root: webRoot,
    wildcard: true,
    cacheControl: false,
    setHeaders(res, filePath) {
      // Hashed build output never changes; the entry pages and the worker must always revalidate.
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      } else {
        res.setHeader('cache-control', 'no-cache');
      }
    },
  });
}

function pepperFor(dataDir: string): Buffer {
  const file = path.join(dataDir, 'keys', 'pepper');
  try {
    return fs.readFileSync(file);
  } catch {
    const pepper = randomBytes(32);
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      fs.writeFileSync(file, pepper, { mode: 0o600, flag: 'wx' });
    } catch {
      return fs.readFileSync(file);
    }
    return pepper;
  }
}

function readVersion(webRoot: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(webRoot, 'version.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'dev';
  }
}
