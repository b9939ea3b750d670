// The Fastify app factory: external plugins, then the protocol (envelope, encrypted bodies,
// errors), then the routes under /api, then the built PWA. Tests build it with their own
// database, clock and keys and drive it through the real protocol.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import helmet from '@fastify/helmet';
import websocket from '@fastify/websocket';
import { validatorCompiler } from './lib/validator.ts';
import type { Redis } from 'ioredis';
import { apiPrefix } from '../src/api/contract/paths.ts';
import type { Config } from './lib/config.ts';
import type { Database } from './db/client.ts';
import { AppError } from './lib/errors.ts';
import { failure } from './lib/envelope.ts';
import { httpServerOptions } from './lib/httpServerOptions.ts';
import { memoryRateLimiter, redisRateLimiter } from './lib/rateLimiter.ts';
import { systemClock, type Clock } from './lib/time.ts';
import { outboxSender, smtpSender, type MessageSender } from './domain/kernel/delivery.ts';
import { registerEncryptedBodies, type ServerKeys } from './plugins/encryption.ts';
import { databaseReplayStore } from './lib/replayStore.ts';
import { logSerializers, pathOnly } from './lib/redact.ts';
import { assertSafeText } from './lib/textGuard.ts';
import { compressAnswers, serveWeb } from './plugins/web.ts';
import { edgeServerOptions, installEdgeAnswers } from './plugins/edges.ts';
import type { HealthSignals, Services } from './domain/kernel/services.ts';
import { appRoutes } from './routes/app.ts';
import { userRoutes } from './routes/user.ts';
import { setRoutes } from './routes/set.ts';
import { publicRoutes } from './routes/public.ts';
import { marketRoutes } from './routes/market.ts';
import { adminRoutes } from './routes/admin/index.ts';
import { financeRoutes } from './routes/finance.ts';
import { sysRoutes } from './routes/sys.ts';
import { withdrawalRoutes } from './routes/withdrawals.ts';
import { liabilityRoutes } from './routes/liabilities.ts';
import { tradeRoutes } from './routes/trade/index.ts';
import { identityRoutes } from './routes/identity/index.ts';
import { chatRoutes } from './routes/chat.ts';
import { contentRoutes } from './routes/content.ts';
import { pushRoutes } from './routes/push.ts';
import { productRoutes } from './routes/products.ts';
import { loanRoutes } from './routes/loans.ts';
import { levelRoutes } from './routes/levels.ts';
import { competitionRoutes } from './routes/competitions.ts';
import { ieoRoutes } from './routes/ieo.ts';
import { rewardRoutes } from './routes/rewards.ts';
import { teamRoutes } from './routes/team.ts';
import { startPush } from './domain/programs/push/index.ts';
import { resolveSession } from './domain/kernel/sessions.ts';
import { resolveOperatorSession } from './domain/kernel/operators.ts';
import { localUserEvents, type UserEventBus } from './domain/kernel/userEvents.ts';
import { localChatEvents, type ChatEventBus } from './domain/kernel/chatEvents.ts';
import { recheckLevelSoon } from './domain/programs/rewards/levelBonuses.ts';
import { competitionRules } from './domain/programs/competitions/trading.ts';
import { jobWork } from './jobs.ts';
import { localDiskStorage } from './domain/kernel/uploads.ts';
import { localBus, type MarketBus } from './domain/core/market/bus.ts';
import { MarketView } from './domain/core/market/view.ts';
import { registerRealtime } from './plugins/realtime/index.ts';
import type { RealtimeHub } from './plugins/realtime/hub.ts';
import {
  defaultRealtimeSettings, framePayloadBytesMax, realtimeSettingsOf, type RealtimeSettings,
} from './plugins/realtime/settings.ts';

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
  /** Where each user's own events travel; an in-process bus by default (Redis across instances). */
  userEvents?: UserEventBus;
  /** Where the support chat's events travel; an in-process bus by default (Redis across instances). */
  chatEvents?: ChatEventBus;
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
    logger: options.logger === false ? false : { level: config.logLevel, serializers: logSerializers },
    bodyLimit: 256 * 1024,
    // Request, header, idle and keep-alive timeouts (server/lib/httpServerOptions.ts).
    ...httpServerOptions(config.limits),
    // Fastify refuses a bare hop count (it cannot check the peer), so hops become a function:
    // the socket's peer and the next hops-1 entries are proxies, the entry after them the client.
    trustProxy: typeof config.trustProxy === 'number'
      ? ((hops: number) => (_address: string, hop: number) => hop < hops)(config.trustProxy)
      : config.trustProxy,
    // Answers in the envelope for what Node or Fastify refuse before routing (plugins/edges.ts).
    ...edgeServerOptions,
  });
  // Validation with the contract's TypeBox schemas: query strings are converted to the schema's
  // types (they arrive as text), JSON bodies are not, so a number or a one-element array where
  // the contract says string is refused instead of being coerced (Ajv's coerceTypes did that).
  app.setValidatorCompiler(validatorCompiler);
  const fallbackSender = outboxSender(config.dataDir, app.log);
  // What the health answer reports beyond readiness: when Redis last failed a call.
  const signals: HealthSignals = { redisFailedAtMs: undefined };
  const noteRedisOutage = (error: unknown) => {
    const nowMs = clock.now().getTime();
    // One line a minute at most: an outage must not flood the log at the request rate.
    if (signals.redisFailedAtMs === undefined || nowMs - signals.redisFailedAtMs > 60_000) {
      app.log.warn({ err: error }, 'Redis call failed: rate limits fall back to this instance\'s counters');
    }
    signals.redisFailedAtMs = nowMs;
  };
  const replayStore = databaseReplayStore({
    db: database.db, now: () => clock.now().getTime(), entriesMax: config.limits.replayStoreEntriesMax,
    pruneIntervalMs: config.limits.replayPruneIntervalMs, onError: (error) => app.log.error({ err: error }, 'replay store prune failed'),
  });
  app.addHook('onClose', async () => replayStore.close());
  const services: Services = {
    db: database.db,
    limits: config.limits,
    clock,
    limiter: options.redis
      ? redisRateLimiter(options.redis, { fallback: memoryRateLimiter(() => clock.now().getTime()), onOutage: (error) => noteRedisOutage(error) })
      : memoryRateLimiter(() => clock.now().getTime()),
    signals,
    sender: options.sender ?? (config.smtpUrl ? smtpSender(config.smtpUrl, config.smtpFrom, fallbackSender) : fallbackSender),
    pepper: pepperFor(config.dataDir),
    publicOrigin: config.publicOrigin,
    oidcProviders: config.oidcProviders,
    replayStore,
    version: readVersion(config.webRoot),
    // Where lower floors make higher ones act (kernel/ports.ts): wired here, once.
    ports: {
      balanceMoved: (userId) => recheckLevelSoon(database.db, clock, userId, (error) => app.log.error({ err: error }, 'vip level recheck failed')),
      competitions: competitionRules,
    },
    jobs: jobWork,
    uploads: localDiskStorage(path.join(config.dataDir, 'uploads')),
    userEvents: options.userEvents ?? localUserEvents(),
    chatEvents: options.chatEvents ?? localChatEvents(),
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
    // Strict-Transport-Security means nothing over plain HTTP (and phones on a local network use
    // it): plugins/edges.ts sends it only on answers to HTTPS requests.
    strictTransportSecurity: false,
  });
  denyFramingOfBackOffice(app);
  await compressAnswers(app);
  // Before every route, so an upgrade request to a plain route is refused rather than half-handled.
  const realtimeSettings = { ...defaultRealtimeSettings, ...realtimeSettingsOf(config.limits), ...options.realtime };
  await app.register(websocket, {
    options: { maxPayload: framePayloadBytesMax(realtimeSettings) },
    // A broken frame is the client's fault: one line at info, no stack, and the socket goes.
    errorHandler: (error, socket, request) => {
      request.log.info({ reason: error.message }, 'realtime socket closed on a broken frame');
      socket.terminate();
    },
  });
  installEdgeAnswers(app);
  installErrorHandling(app);
  // Every envelope is stamped with the injected clock's time, so tests and the server agree.
  app.addHook('preSerialization', async (_request, _reply, payload) => {
    if (isEnvelope(payload)) payload.timestamp = clock.now().getTime();
    return payload;
  });
  // Query strings and route parameters pass the same text check as decrypted bodies.
  app.addHook('preValidation', async (request) => {
    assertSafeText(request.query, 'query');
    assertSafeText(request.params, 'path');
  });
  registerEncryptedBodies(app, {
    keys,
    replayStore,
    limiter: services.limiter,
    bodiesPerIpPerMinute: config.limits.encryptedBodiesPerIpPerMinute,
    freshnessMs: config.limits.requestFreshnessMs,
    replayWindowMs: config.limits.replayWindowMs,
    now: () => clock.now().getTime(),
  });

  const marketBus = options.marketBus ?? localBus();
  // An instance whose Redis connections are down says so at once, before any call has failed on
  // them (a follower cut off from the bus would otherwise answer "ok" while getting no prices).
  signals.redisConnected = () => marketBus.connected && (options.redis === undefined || options.redis.status === 'ready');
  const market = new MarketView(database.db, marketBus);
  app.addHook('onClose', async () => market.close());
  // Web Push: VAPID keys, the sending queue and the price alerts on this instance's market updates.
  const push = await startPush({
    db: database.db, clock, dataDir: config.dataDir, publicOrigin: config.publicOrigin, market,
    onError: (error) => app.log.error({ err: error }, 'push failed'),
  });
  services.push = push.service;
  app.addHook('onClose', async () => push.close());

  let realtime!: RealtimeHub;
  await app.register(async (api) => {
    realtime = registerRealtime(api, {
      view: market, clock, settings: realtimeSettings,
      users: {
        events: services.userEvents,
        chatEvents: services.chatEvents,
        authenticate: async (token) => (await resolveSession(services.db, clock, config.limits, token))?.userId,
        // The back office's chat screen (issue 21): an operator session joins the operators' chat channel.
        authenticateOperator: async (token) => (await resolveOperatorSession(services.db, clock, token))?.id,
      },
    });
    services.userOnline = (userId) => realtime.isUserConnected(userId);
    publicRoutes(api, services, keys.publicKeyPem);
    marketRoutes(api, services, market);
    appRoutes(api, services);
    userRoutes(api, services);
    setRoutes(api, services, market);
    adminRoutes(api, services);
    financeRoutes(api, services, market);
    await sysRoutes(api, services);
    withdrawalRoutes(api, services);
    liabilityRoutes(api, services);
    tradeRoutes(api, services, market);
    identityRoutes(api, services);
    chatRoutes(api, services);
    contentRoutes(api, services);
    pushRoutes(api, services, push.alerts.index);
    productRoutes(api, services);
    loanRoutes(api, services, market);
    levelRoutes(api, services);
    competitionRoutes(api, services);
    ieoRoutes(api, services);
    rewardRoutes(api, services);
    teamRoutes(api, services);
  }, { prefix: apiPrefix });

  const hasWeb = fs.existsSync(path.join(config.webRoot, 'index.html'));
  if (hasWeb) await serveWeb(app, config.webRoot);
  app.setNotFoundHandler((request, reply) => {
    // Any spelling of /api (say /API/…) is an API path: it answers in the envelope, never the page.
    if (!hasWeb || request.url.toLowerCase().startsWith(`${apiPrefix}/`) || request.method !== 'GET') {
      return reply.status(404).send(failure(404, 'Not found.', { error: 'not_found' }));
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
  return { app, services, market, marketBus, realtime };
}

/** The back office's page (its own Vite entry, DESIGN §5). */
export const backOfficePagePath = '/admin.html';

/** A request's path with percent-escapes decoded (the static files are found by the decoded path). */
function decodedPath(url: string): string {
  const pathOnly = url.split('?')[0];
  try {
    return decodeURIComponent(pathOnly);
  } catch {
    return pathOnly;
  }
}

/**
 * The back office may not be framed by anything, not even the app's own pages (`frame-ancestors
 * 'self'` would let a page of this origin lay it under its own and steer an operator's clicks):
 * its page gets `frame-ancestors 'none'` and X-Frame-Options DENY, while the app keeps 'self'.
 */
function denyFramingOfBackOffice(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply) => {
    if (decodedPath(request.url) !== backOfficePagePath) return;
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string') {
      reply.header('content-security-policy', policy.replace(/frame-ancestors [^;]*/, "frame-ancestors 'none'"));
    }
    reply.header('x-frame-options', 'DENY');
  });
}

const truncate = (text: string, lengthMax: number) => (text.length > lengthMax ? `${text.slice(0, lengthMax)}…` : text);

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
      // Bounded: a message naming a 50 kB unknown key must not echo it back.
      const message = `Invalid request: ${truncate(fastifyError.message, 200)}`;
      return reply.status(400).send(failure(400, message, { error: 'invalid_request' }));
    }
    const status = fastifyError.statusCode ?? 500;
    if (status < 500) {
      return reply.status(status).send(failure(status, truncate(fastifyError.message, 200), { error: 'invalid_request' }));
    }
    request.log.error({ err: error, url: pathOnly(request.url) }, 'request failed');
    return reply.status(500).send(failure(500, 'Something went wrong on our side. Please try again.', { error: 'internal_error' }));
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
