// One server instance: the app, the market bus its view listens on (Redis when REDIS_URL is set,
// so every instance sees the leader's ticks), and the market engine, which runs only while this
// instance holds the engine lock. main.ts starts one; the scale-out tests start two of them on
// one PostgreSQL and one Redis, so they exercise the same wiring.
import { redisClient } from './lib/redisClient.ts';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp, type BuildOptions, type BuiltApp } from './app.ts';
import { localBus } from './domain/core/market/bus.ts';
import { MarketEngine, type PriceSource } from './domain/core/market/engine.ts';
import {
  advisoryLockLeadership, lockRetryIntervalMs, singleProcessLeadership, type Leadership,
} from './domain/core/market/leader.ts';
import { redisBus } from './domain/core/market/redisBus.ts';
import type { SymbolSpec } from './domain/core/market/symbols.ts';
import { systemClock } from './lib/time.ts';
import { dailyLiabilityPublisher, type DailyPublisher, type Timer } from './domain/core/wallet/liabilities.ts';
import { TradingRuntime } from './domain/core/trading/runtime.ts';
import { CompetitionEnds } from './domain/programs/competitions/ending.ts';
import { redisUserEvents } from './domain/kernel/userEvents.ts';
import { redisChatEvents } from './domain/kernel/chatEvents.ts';
import { resumePayoutJobs } from './domain/kernel/ledger/payouts.ts';
import { startScheduledPushes } from './domain/programs/content/scheduler.ts';
import { startDailyJobs } from './domain/kernel/jobs.ts';

export interface InstanceOptions extends Omit<BuildOptions, 'marketBus' | 'redis'> {
  /** A new price source for each term as leader (the engine starts from the stored state each time). */
  priceSource: () => PriceSource;
  /** The symbols the engine quotes; all of them by default (tests take a few). */
  engineSpecs?: SymbolSpec[];
  /** The Redis pub/sub channel of the market; instances that share it see the same market. */
  marketChannel?: string;
  /** Pace of the engine-lock attempts and checks. */
  lockRetryIntervalMs?: number;
  /**
   * How long start-up waits for the market view's first update when it has none yet (a follower
   * waits for the leader's next tick); a few tick intervals by default, then it logs a warning.
   */
  readyWaitMs?: number;
  /** Pace of the daily proof-of-liabilities check (10 minutes), and its timer (tests drive their own). */
  liabilityCheckIntervalMs?: number;
  liabilityTimer?: Timer;
}

export interface Instance extends BuiltApp {
  leadership: Leadership;
  /** The running engine while this instance leads, else undefined. */
  readonly engine: MarketEngine | undefined;
  /** The trading engines (triggers, second-contract settlement) while this instance leads. */
  readonly trading: TradingRuntime | undefined;
  /** Publishes the proof-of-liabilities root once per UTC day while this instance leads. */
  liabilityPublisher: DailyPublisher;
  /** Stops the engine, gives up the lock, closes the app and the Redis connections (not the database). */
  close(): Promise<void>;
}

export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  let log: FastifyBaseLogger | undefined;
  const logError = (message: string) => (error: unknown) => log?.error({ err: error }, message);
  // A Redis outage fails every call and every reconnection attempt: one line a minute per kind.
  const logErrorEveryMinute = (message: string) => {
    let lastMs = 0;
    return (error: unknown) => {
      if (Date.now() - lastMs < 60_000) return;
      lastMs = Date.now();
      logError(message)(error);
    };
  };
  const redis = config.redisUrl ? redisClient(config.redisUrl, logErrorEveryMinute('redis connection failed')) : undefined;
  const marketBus = config.redisUrl
    ? await redisBus(config.redisUrl, { channel: options.marketChannel, onError: logErrorEveryMinute('market bus failed') })
    : localBus();
  const userEvents = config.redisUrl
    ? await redisUserEvents(config.redisUrl, { onError: logErrorEveryMinute('user event bus failed') })
    : undefined;
  // The support chat's own bus, so an operator on one instance answers a user on another.
  const chatEvents = config.redisUrl
    ? await redisChatEvents(config.redisUrl, { onError: logErrorEveryMinute('chat event bus failed') })
    : undefined;
  const built = await buildApp({ ...options, redis, marketBus, userEvents, chatEvents });
  log = built.app.log;

  const leadership = database.kind === 'postgres' && config.databaseUrl
    ? advisoryLockLeadership({
      databaseUrl: config.databaseUrl, retryIntervalMs: options.lockRetryIntervalMs, onError: logError('engine lock session failed'),
    })
    : singleProcessLeadership();
  const runner = new EngineRunner(() => {
    const trading = new TradingRuntime({
      db: database.db, clock, userEvents: built.services.userEvents, messages: built.services.push, onError: logError('trading engine failed'),
      competitions: built.services.ports.competitions,
      // Issue 38: a trading competition ends on the engine's first tick at or after its end instant.
      watchers: [new CompetitionEnds({ db: database.db, clock, onError: logError('competition end failed') })],
    });
    const engine = new MarketEngine({
      db: database.db, clock, bus: marketBus, source: options.priceSource(), seed: config.market.seed,
      specs: options.engineSpecs, tickIntervalMs: config.market.tickIntervalMs, tickRetentionMs: config.market.tickRetentionMs,
      onError: logError('market engine tick failed'), onTicks: async (ticks) => trading.enqueue(ticks),
    });
    return { engine, trading };
  }, built.app.log, options.lockRetryIntervalMs ?? lockRetryIntervalMs, () => !built.market.ready);
  await leadership.start((leading) => runner.follow(leading));
  const liabilityPublisher = dailyLiabilityPublisher({
    db: database.db, clock, isLeading: () => leadership.leading, checkIntervalMs: options.liabilityCheckIntervalMs,
    timer: options.liabilityTimer, onError: logError('proof of liabilities not published'),
    // The leaf count is the padded tree size (a power of two), never the number of users.
    onPublished: (root) => log?.info(`proof of liabilities published: root ${root.root}, ${root.leafCount} leaves (padded)`),
  });
  liabilityPublisher.start();
  // Scheduled notices and announcements are pushed when they publish (issue 21); any instance may
  // run it, each window is claimed by one.
  const scheduledPushes = startScheduledPushes({
    db: database.db, clock, push: built.services.push, onError: logError('scheduled content push failed'),
  });
  // Product accrual and maturity, loan accrual and VIP levels, once a UTC day (issue 22).
  const stopDailyJobs = startDailyJobs(built.services, () => config.dailyJobs && leadership.leading,
    (job, error) => log?.error({ err: error }, `daily job ${job} failed`));
  // Payout jobs a killed process left running are run to their end in the background.
  const resumed = await resumePayoutJobs(database.db, {
    clock,
    onError: (jobId, error) => log?.error({ err: error }, `payout job ${jobId} stopped again on resume`),
    onDone: (job) => log?.info(`payout job ${job.jobId} resumed and done: ${job.targetsPosted} posted, ${job.targetsRefused} refused`),
  });
  if (resumed.length > 0) log?.info(`resuming ${resumed.length} unfinished payout job(s): ${resumed.join(', ')}`);
  // At start-up the leader back-fills, loads and publishes the market before the instance takes
  // requests; a follower waits for the leader's next update. Either way the first request gets data.
  await runner.settled();
  const readyWaitMs = options.readyWaitMs ?? Math.min(15_000, Math.max(2_000, 3 * config.market.tickIntervalMs));
  if (!await built.market.whenReady(readyWaitMs)) {
    built.app.log.warn(`no market update within ${readyWaitMs} ms: market calls answer 503 market_unavailable until one arrives`);
  }

  return {
    ...built,
    leadership,
    liabilityPublisher,
    get engine() { return runner.engine; },
    get trading() { return runner.trading; },
    async close() {
      await liabilityPublisher.stop();
      await scheduledPushes.stop();
      stopDailyJobs();
      await runner.close();
      await leadership.stop();
      await built.app.close();
      await marketBus.close();
      await userEvents?.close();
      await chatEvents?.close();
      await redis?.quit();
    },
  };
}

/**
 * Starts the engine when the instance gains the lock and stops it when it loses it, one change at
 * a time, so a quick loss and gain never runs two engines in one process. Each term gets a fresh
 * engine that starts from what the previous leader stored.
 */
interface EngineTerm { engine: MarketEngine; trading: TradingRuntime }

class EngineRunner {
  #engine: MarketEngine | undefined;
  #trading: TradingRuntime | undefined;
  #leading = false;
  #queue: Promise<void> = Promise.resolve();
  #closed = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly makeEngine: () => EngineTerm,
    private readonly log: FastifyBaseLogger,
    private readonly retryIntervalMs: number,
    /** Whether the views lack a market state (at start-up), so a new engine publishes its own at once. */
    private readonly needsSnapshot: () => boolean,
  ) {}

  get engine() { return this.#engine; }
  get trading() { return this.#trading; }

  follow(leading: boolean) {
    this.#leading = leading;
    this.#queue = this.#queue.then(() => this.#apply()).catch((error: unknown) => {
      this.log.error({ err: error }, 'market engine failed to start or stop');
      // A leader whose engine failed to start tries again, rather than holding the lock idle.
      if (this.#leading && !this.#engine && !this.#closed) {
        clearTimeout(this.#retryTimer);
        this.#retryTimer = setTimeout(() => this.follow(this.#leading), this.retryIntervalMs);
      }
    });
  }

  settled() { return this.#queue; }

  async close() {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    await this.#queue;
    const engine = this.#engine;
    const trading = this.#trading;
    this.#engine = undefined;
    this.#trading = undefined;
    await engine?.stop();
    await trading?.stop();
  }

  async #apply() {
    if (this.#closed) return;
    if (this.#leading && !this.#engine) {
      const startedMs = Date.now();
      const { engine, trading } = this.makeEngine();
      await engine.init();
      // Triggers rebuilt and overdue contracts settled before the first tick of this term.
      await trading.init();
      if (this.#closed || !this.#leading) return;
      if (this.needsSnapshot()) {
        await engine.publishSnapshot().catch((error: unknown) => this.log.error({ err: error }, 'market snapshot not published'));
      }
      this.#engine = engine;
      this.#trading = trading;
      engine.start();
      this.log.info(`this instance leads: market engine ready in ${Date.now() - startedMs} ms`);
    } else if (!this.#leading && this.#engine) {
      const engine = this.#engine;
      const trading = this.#trading;
      this.#engine = undefined;
      this.#trading = undefined;
      this.log.warn('this instance lost the engine lock: market engine stopped');
      await engine.stop();
      await trading?.stop();
    }
  }
}
