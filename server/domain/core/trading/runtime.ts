// The trading engines of the instance that holds the engine lock (issue 10): the trigger engine
// (take-profit, stop-loss, liquidation) and the second-contract settler, fed with every batch of
// ticks the market engine stores. Ticks are queued and handled one batch after another, in order,
// so a slow settlement never holds up the feed and no tick is skipped; at the start of each term
// as leader the triggers are rebuilt from the database and the settler catches up on what fell
// due while no instance led (a restart or a takeover). Watchers wired in by composition see each
// batch right after the triggers (issue 38: the trading competitions' ends), so a level a tick
// before an end reaches fires before the end closes what is left.
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../../lib/time.ts';
import type { RecordedTick } from '../market/store.ts';
import { settleFired, settleOnTick } from './positions.ts';
import { SecondSettler } from './secondSettlement.ts';
import { TriggerEngine } from './triggers.ts';
import type { UserEventBus } from '../../kernel/userEvents.ts';
import type { MessageDelivery } from '../../kernel/messages.ts';
import type { CompetitionRules } from '../../kernel/ports.ts';

export interface TradingRuntimeOptions {
  db: Db;
  clock: Clock;
  userEvents: UserEventBus;
  /** Where settlements' internal messages go after commit (the push service); optional. */
  messages?: MessageDelivery;
  onError?: (error: unknown) => void;
  /** What competition positions ask of the competitions program (a port, services.ports.competitions). */
  competitions: CompetitionRules;
  /** What else watches the ticks on the engine instance, after the triggers (a port: see TickWatcher). */
  watchers?: TickWatcher[];
}

/**
 * A watcher of the engine's ticks that trading does not know (a port, wired in composition: the
 * competitions' ends). Its batches come in order, after the triggers have fired on them.
 */
export interface TickWatcher {
  /** At the start of a term, before its first tick: what fell due while no instance led. */
  catchUp(): Promise<void>;
  onTicks(ticks: readonly RecordedTick[]): Promise<void>;
  /** Resolves when work it started outside the tick queue has finished (stop, tests). */
  idle(): Promise<void>;
}

/** Batches waiting beyond this are reported (once per crossing): settlement is falling behind the feed. */
const backlogWarning = 30;

/**
 * Chunks of second contracts settled at once. Each lane owns whole house shards, and the shard
 * follows the user, so lanes share no row; on PostgreSQL one lane's database work overlaps
 * another's JavaScript (10 000 contracts: 1.50 s with one lane, 1.16 s with two, 1.05 s with
 * four, quiet 2-core machine). PGlite runs one transaction at a time, so there they queue.
 */
export const secondSettlementLanes = 4;

export class TradingRuntime {
  readonly triggers: TriggerEngine;
  readonly seconds: SecondSettler;
  readonly watchers: readonly TickWatcher[];
  #queue: Promise<void> = Promise.resolve();
  #waiting = 0;
  #stopped = false;

  constructor(private readonly options: TradingRuntimeOptions) {
    const { db, clock, userEvents, messages, onError, competitions } = options;
    this.triggers = new TriggerEngine({
      db, clock, onError, settle: (positionId, tick) => settleOnTick({ db, clock, userEvents, messages, competitions }, positionId, tick),
      // A tick that fires many positions (a TP/SL or liquidation burst) settles them in batches.
      settleMany: (fired) => settleFired({ db, clock, userEvents, messages, competitions }, fired),
    });
    this.seconds = new SecondSettler({ db, clock, userEvents, messages, onError, concurrency: secondSettlementLanes });
    this.watchers = options.watchers ?? [];
  }

  /** Rebuilds the trigger index and settles what is already due; before the first tick of a term. */
  async init() {
    await this.triggers.rebuild();
    await this.seconds.catchUp();
    for (const watcher of this.watchers) await watcher.catchUp();
  }

  /** Queues a batch of stored ticks; returns at once. */
  enqueue(ticks: RecordedTick[]) {
    if (this.#stopped || ticks.length === 0) return;
    this.#waiting += 1;
    if (this.#waiting === backlogWarning) this.options.onError?.(new Error(`trading engines are ${backlogWarning} tick batches behind the feed`));
    this.#queue = this.#queue.then(async () => {
      this.#waiting -= 1;
      if (this.#stopped) return;
      try {
        await this.triggers.onTicks(ticks);
      } catch (error) {
        this.options.onError?.(error);
      }
      for (const watcher of this.watchers) {
        try {
          await watcher.onTicks(ticks);
        } catch (error) {
          this.options.onError?.(error);
        }
      }
      try {
        await this.seconds.onTicks(ticks);
      } catch (error) {
        this.options.onError?.(error);
      }
    });
  }

  /** Lets the batch in hand finish and drops the rest (the next leader rebuilds from the database). */
  async stop() {
    this.#stopped = true;
    await this.#queue;
    await Promise.all(this.watchers.map((watcher) => watcher.idle()));
  }

  /** Resolves when every queued batch has been handled, and the watchers' work it started (tests). */
  async drained() {
    await this.#queue;
    await Promise.all(this.watchers.map((watcher) => watcher.idle()));
  }
}
