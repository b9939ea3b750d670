// Typed configuration read once from the environment. Every knob the operator can turn is here,
// with the default that makes `npm start` work on a fresh machine (embedded PGlite in ./data).
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /**
   * The origin users open the app at (PUBLIC_ORIGIN, e.g. https://app.example.com): the domain of
   * Sign-In with Ethereum messages, the WebAuthn relying party, OpenID redirect URIs. Default
   * http://localhost:<port>.
   */
  publicOrigin: string;
  dataDir: string;
  /** PostgreSQL connection string; absent means the embedded PGlite database in dataDir. */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /**
   * Server processes on this machine (WORKERS, 1 by default): above one, a supervising process
   * forks that many instances sharing the port (node:cluster), which needs DATABASE_URL and
   * REDIS_URL, so that they share one database and one market (server/cluster.ts).
   */
  workers: number;
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** Directory of the built PWA; the server serves it when it exists. */
  webRoot: string;
  /** Whether start-up seeds the demo account. */
  seedDemo: boolean;
  /**
   * Whether this server runs the daily jobs itself after 00:10 UTC (DAILY_JOBS, on unless "0"):
   * product accrual and maturity, loan accrual, VIP levels. Off, they run only when an operator
   * (or an outside scheduler through the admin call) runs them.
   */
  dailyJobs: boolean;
  logLevel: string;
  /**
   * Which proxies may name the client's address in X-Forwarded-For: a hop count (`1` = the one
   * proxy in front of us; its entry is the last one) or a comma-separated list of addresses and
   * CIDR ranges. Unset: none, the socket's address is the client's. A hop count trusts whoever
   * connects, so it is for servers reachable only through their proxy; a list is safer.
   */
  trustProxy: number | string[] | false;
  limits: Limits;
  market: MarketConfig;
  /** OpenID Connect providers users may log in with (OIDC_PROVIDERS and OIDC_<ID>_*); none: the buttons hide. */
  oidcProviders: OidcProviderConfig[];
}

/** One OpenID Connect provider: OIDC_<ID>_ISSUER, _CLIENT_ID, _CLIENT_SECRET (optional), _NAME. */
export interface OidcProviderConfig {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret?: string;
}

export interface MarketConfig {
  /** "simulator", or "ccxt:<exchange id>" for crypto prices from a venue (forex and metals stay simulated). */
  feed: string;
  /** Seed of the back-filled chart history only; live simulated ticks come from a secure generator. */
  seed: string;
  tickIntervalMs: number;
  /** Ticks no settlement uses are deleted after this long. */
  tickRetentionMs: number;
}

/** Every limit of the accounts area in one place, so tests and operators can see them. */
export interface Limits {
  codeLifetimeMs: number;
  codeAttemptsMax: number;
  codeResendIntervalMs: number;
  codeSendsPerTargetPerHour: number;
  codeSendsPerIpPerHour: number;
  /**
   * Password guesses (a login per account and address, a password change per user) allowed back
   * to back; the last starts a lockout of passwordLockoutBaseMs that doubles with each further
   * guess, up to passwordLockoutMaxMs. A success ends it; so does a reset by code.
   */
  passwordAttemptsFree: number;
  passwordLockoutBaseMs: number;
  passwordLockoutMaxMs: number;
  /** Failed logins one address may make per hour, across accounts. */
  loginFailuresPerIpPerHour: number;
  /** Failed logins on one account per hour from all addresses; past it, only addresses that logged in to it before may try. */
  loginFailuresPerAccountPerHour: number;
  loginAttemptsPerIpPerMinute: number;
  /** Codes one address may present per hour (register, reset, e-mail and phone logins). */
  codeChecksPerIpPerHour: number;
  checkAccountPerIpPerMinute: number;
  guestCreationsPerIpPerHour: number;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  /** How far a body's optional `_ts` may be from the server's time. */
  requestFreshnessMs: number;
  /** How long the key of a body without `_ts` is remembered: its replays are refused meanwhile. */
  replayWindowMs: number;
  /** Live rows of the replay store beyond which new bodies are refused (429) rather than forgotten. */
  replayStoreEntriesMax: number;
  replayPruneIntervalMs: number;
  /** Encrypted bodies one address may send per minute, before any decryption. */
  encryptedBodiesPerIpPerMinute: number;
  /** Realtime sockets in all; the server keeps it below the open-file limit with room for HTTP. */
  realtimeConnectionsMax: number;
  /** Realtime sockets from one address (an IPv6 client counts by its /64). */
  realtimeConnectionsPerAddressMax: number;
  /** Time to receive a whole HTTP request, headers and body; then 408 and the connection closes. */
  httpRequestTimeoutMs: number;
  /** Time to receive a request's headers (at most the request timeout). */
  httpHeadersTimeoutMs: number;
  /** A connection with no byte moving either way for this long is closed (not realtime sockets). */
  httpIdleTimeoutMs: number;
  /** How long an idle keep-alive connection stays open: above the 60 s of common proxies. */
  httpKeepAliveTimeoutMs: number;
}

export const defaultLimits: Limits = {
  codeLifetimeMs: 10 * 60_000,
  codeAttemptsMax: 5,
  codeResendIntervalMs: 60_000,
  codeSendsPerTargetPerHour: 5,
  codeSendsPerIpPerHour: 30,
  passwordAttemptsFree: 5,
  passwordLockoutBaseMs: 60_000,
  passwordLockoutMaxMs: 3_600_000,
  loginFailuresPerIpPerHour: 50,
  loginFailuresPerAccountPerHour: 30,
  loginAttemptsPerIpPerMinute: 30,
  codeChecksPerIpPerHour: 60,
  checkAccountPerIpPerMinute: 30,
  guestCreationsPerIpPerHour: 10,
  sessionIdleMs: 7 * 24 * 3_600_000,
  sessionAbsoluteMs: 30 * 24 * 3_600_000,
  requestFreshnessMs: 5 * 60_000,
  replayWindowMs: 24 * 3_600_000,
  replayStoreEntriesMax: 5_000_000,
  replayPruneIntervalMs: 60_000,
  encryptedBodiesPerIpPerMinute: 600,
  realtimeConnectionsMax: 20_000,
  realtimeConnectionsPerAddressMax: 20,
  httpRequestTimeoutMs: 30_000,
  httpHeadersTimeoutMs: 10_000,
  httpIdleTimeoutMs: 60_000,
  httpKeepAliveTimeoutMs: 72_000,
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    publicOrigin: (env.PUBLIC_ORIGIN || `http://localhost:${Number(env.PORT ?? 8080)}`).replace(/\/+$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    workers: Number(env.WORKERS || 1),
    smtpUrl: env.SMTP_URL || undefined,
    smtpFrom: env.SMTP_FROM ?? 'Bourse <no-reply@bourse.local>',
    webRoot: path.resolve(env.WEB_ROOT ?? './dist'),
    // The demo account and the demo operator (whose password is in the README) are for trying the
    // product on the embedded database; a PostgreSQL install, where real funds live, gets them only
    // when it asks with SEED_DEMO=1.
    seedDemo: env.SEED_DEMO === undefined || env.SEED_DEMO === '' ? !env.DATABASE_URL : env.SEED_DEMO !== '0',
    dailyJobs: env.DAILY_JOBS !== '0',
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    limits: {
      ...defaultLimits,
      replayWindowMs: Math.max(24, Number(env.REPLAY_WINDOW_HOURS ?? 24)) * 3_600_000,
      replayStoreEntriesMax: Number(env.REPLAY_STORE_ENTRIES_MAX ?? defaultLimits.replayStoreEntriesMax),
      realtimeConnectionsMax: Number(env.REALTIME_CONNECTIONS_MAX ?? defaultLimits.realtimeConnectionsMax),
      realtimeConnectionsPerAddressMax: Number(env.REALTIME_CONNECTIONS_PER_ADDRESS_MAX ?? defaultLimits.realtimeConnectionsPerAddressMax),
      httpRequestTimeoutMs: Number(env.HTTP_REQUEST_TIMEOUT_MS ?? defaultLimits.httpRequestTimeoutMs),
      // Per-address limits count everyone behind one address together: behind a carrier's NAT, or
      // for the end-to-end journeys (all from 127.0.0.1), the operator raises them here.
      codeSendsPerIpPerHour: positiveLimit(env, 'CODE_SENDS_PER_IP_PER_HOUR', defaultLimits.codeSendsPerIpPerHour),
      codeChecksPerIpPerHour: positiveLimit(env, 'CODE_CHECKS_PER_IP_PER_HOUR', defaultLimits.codeChecksPerIpPerHour),
      loginAttemptsPerIpPerMinute: positiveLimit(env, 'LOGIN_ATTEMPTS_PER_IP_PER_MINUTE', defaultLimits.loginAttemptsPerIpPerMinute),
    },
    market: {
      feed: env.MARKET_FEED ?? 'simulator',
      // Seeds the back-filled chart history only. Live ticks, which trades settle against, come
      // from a secure generator whatever this says (issue 18): a seed there would make them predictable.
      seed: env.MARKET_SEED ?? 'bourse',
      tickIntervalMs: Number(env.MARKET_TICK_MS ?? 1000),
      tickRetentionMs: Number(env.MARKET_TICK_RETENTION_HOURS ?? 6) * 3_600_000,
    },
    oidcProviders: parseOidcProviders(env),
  };
}

/** A limit from the environment: a whole number above zero, or the default when unset; anything else stops the start. */
export function positiveLimit(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  if (!/^[1-9]\d{0,8}$/.test(text)) throw new Error(`${name} must be a whole number above zero, not "${text}"`);
  return Number(text);
}

/**
 * OIDC_PROVIDERS=google,apple,local names the providers; each needs OIDC_<ID>_ISSUER and
 * OIDC_<ID>_CLIENT_ID (OIDC_<ID>_CLIENT_SECRET for a confidential client, OIDC_<ID>_NAME for the
 * button, the id by default). A provider named without its issuer or client id stops the start.
 */
export function parseOidcProviders(env: NodeJS.ProcessEnv): OidcProviderConfig[] {
  const ids = (env.OIDC_PROVIDERS ?? '').split(',').map((id) => id.trim().toLowerCase()).filter(Boolean);
  return ids.map((id) => {
    if (!/^[a-z0-9_]{1,32}$/.test(id)) throw new Error(`OIDC_PROVIDERS: "${id}" is not a provider id (a-z, 0-9, _)`);
    const key = (name: string) => env[`OIDC_${id.toUpperCase()}_${name}`]?.trim() || undefined;
    const issuer = key('ISSUER');
    const clientId = key('CLIENT_ID');
    if (!issuer || !clientId) throw new Error(`OIDC provider ${id} needs OIDC_${id.toUpperCase()}_ISSUER and OIDC_${id.toUpperCase()}_CLIENT_ID`);
    return { id, name: key('NAME') ?? id, issuer, clientId, clientSecret: key('CLIENT_SECRET') };
  });
}

/**
 * TRUST_PROXY: a hop count or a list of proxy addresses. "true" (trust every hop) is refused: any
 * client could then pick its own address by sending X-Forwarded-For.
 */
export function parseTrustProxy(value: string | undefined): number | string[] | false {
  const text = value?.trim();
  if (!text || text === '0') return false;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  const addressOrRange = /^(?:[0-9.]+|[0-9a-fA-F:]+)(?:\/\d{1,3})?$/;
  if (entries.length === 0 || !entries.every((entry) => addressOrRange.test(entry))) {
    throw new Error(`TRUST_PROXY must be a hop count or a comma-separated list of proxy addresses or CIDR ranges, not "${text}"`);
  }
  return entries;
}
