// Typed configuration read once from the environment. Every knob the operator can turn is here,
// with the default that makes `npm start` work on a fresh machine (embedded PGlite in ./data).
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; absent means the embedded PGlite database in dataDir. */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** Directory of the built PWA; the server serves it when it exists. */
  webRoot: string;
  /** Whether start-up seeds the demo account. */
  seedDemo: boolean;
  logLevel: string;
  limits: Limits;
  market: MarketConfig;
}

export interface MarketConfig {
  /** "simulator", or "ccxt:<exchange id>" for crypto prices from a venue (forex and metals stay simulated). */
  feed: string;
  /** Seed of the simulated feed: the same seed replays the same prices. */
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
  loginFailuresPerAccountPer15Min: number;
  loginAttemptsPerIpPerMinute: number;
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
}

export const defaultLimits: Limits = {
  codeLifetimeMs: 10 * 60_000,
  codeAttemptsMax: 5,
  codeResendIntervalMs: 60_000,
  codeSendsPerTargetPerHour: 5,
  codeSendsPerIpPerHour: 30,
  loginFailuresPerAccountPer15Min: 5,
  loginAttemptsPerIpPerMinute: 30,
  checkAccountPerIpPerMinute: 30,
  guestCreationsPerIpPerHour: 10,
  sessionIdleMs: 7 * 24 * 3_600_000,
  sessionAbsoluteMs: 30 * 24 * 3_600_000,
  requestFreshnessMs: 5 * 60_000,
  replayWindowMs: 24 * 3_600_000,
  replayStoreEntriesMax: 5_000_000,
  replayPruneIntervalMs: 60_000,
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    smtpFrom: env.SMTP_FROM ?? 'Bourse <no-reply@bourse.local>',
    webRoot: path.resolve(env.WEB_ROOT ?? './dist'),
    seedDemo: env.SEED_DEMO !== '0',
    logLevel: env.LOG_LEVEL ?? 'info',
    limits: {
      ...defaultLimits,
      replayWindowMs: Math.max(24, Number(env.REPLAY_WINDOW_HOURS ?? 24)) * 3_600_000,
      replayStoreEntriesMax: Number(env.REPLAY_STORE_ENTRIES_MAX ?? defaultLimits.replayStoreEntriesMax),
    },
    market: {
      feed: env.MARKET_FEED ?? 'simulator',
      seed: env.MARKET_SEED ?? 'bourse',
      tickIntervalMs: Number(env.MARKET_TICK_MS ?? 1000),
      tickRetentionMs: Number(env.MARKET_TICK_RETENTION_HOURS ?? 6) * 3_600_000,
    },
  };
}
