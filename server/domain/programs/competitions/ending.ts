// The end of trading competitions at their end instant (issue 38), on the engine instance: the
// trading runtime hands this watcher every batch of ticks after its triggers have fired, and on
// the first tick at or after a competition's end it freezes the competition (jobs.ts step 1: every
// open competition position closed at its symbol's end tick, that tick retained, the ranking
// frozen and the funds returned), then pays the prizes (step 2) outside the tick queue, so a
// payout never holds up the triggers. From the end instant on, the trading paths refuse the user's
// close and fire no level of these positions (competitions/trading.ts), so whether this runs a
// second or a day after the end, the outcome is the same; the daily job is the catch-up.
//
// The next end is read from the database at most every `recheckMs` of tick time (and whenever a
// batch reaches the end read last), so an idle watcher costs no query per tick.
import { and, asc, inArray, lte, min } from 'drizzle-orm';
import { competitions } from '../../../db/schema.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../../lib/time.ts';
import type { RecordedTick } from '../../core/market/store.ts';
import type { TickWatcher } from '../../core/trading/runtime.ts';
import { freezeCompetition, payPrizes } from './jobs.ts';

export interface CompetitionEndsOptions {
  db: Db;
  clock: Clock;
  onError?: (error: unknown) => void;
  /** How often (ms of tick time) the next end is read again: a competition made since may end sooner. */
  recheckMs?: number;
}

const unended = ['scheduled', 'running'];
/** Competitions ended per batch at most; the rest go with the next batch. */
const endsPerBatchMax = 20;

export class CompetitionEnds implements TickWatcher {
  readonly #options: CompetitionEndsOptions;
  readonly #recheckMs: number;
  /** The earliest end of a competition not frozen yet, as last read; null: none; undefined: not read. */
  #nextEndMs: number | null | undefined;
  #readAtMs = 0;
  #payments: Promise<void> = Promise.resolve();

  constructor(options: CompetitionEndsOptions) {
    this.#options = options;
    this.#recheckMs = options.recheckMs ?? 5_000;
    if (!(this.#recheckMs > 0)) throw new Error(`competition ends: bad recheck interval ${options.recheckMs}`);
  }

  /** What ended while no instance led (a restart, a takeover): before the term's first tick, so before its first pruning. */
  async catchUp() {
    await this.#endDue(this.#options.clock.now().getTime());
  }

  async onTicks(ticks: readonly RecordedTick[]) {
    let atMs = 0;
    for (const tick of ticks) if (tick.timeMs > atMs) atMs = tick.timeMs;
    const next = this.#nextEndMs;
    const mayBeDue = next === undefined || atMs - this.#readAtMs >= this.#recheckMs || (next !== null && atMs >= next);
    if (mayBeDue) await this.#endDue(atMs);
  }

  /** Resolves when the prize payouts started so far have finished (stop, tests). */
  idle(): Promise<void> {
    return this.#payments;
  }

  async #endDue(atMs: number) {
    const { db, clock, onError } = this.#options;
    const due = await db.select({ id: competitions.id }).from(competitions)
      .where(and(inArray(competitions.status, unended), lte(competitions.endsAt, new Date(atMs))))
      .orderBy(asc(competitions.endsAt), asc(competitions.id)).limit(endsPerBatchMax);
    for (const { id } of due) {
      try {
        await freezeCompetition(db, clock, id);
      } catch (error) {
        // Tried again with the next batch (the next end read is this one's); the daily job catches up too.
        onError?.(error);
        continue;
      }
      this.#payments = this.#payments.then(async () => {
        await payPrizes(db, clock, id);
      }).catch((error: unknown) => onError?.(error));
    }
    const [row] = await db.select({ next: min(competitions.endsAt) }).from(competitions).where(inArray(competitions.status, unended));
    this.#nextEndMs = row?.next ? new Date(row.next).getTime() : null;
    this.#readAtMs = atMs;
  }
}
