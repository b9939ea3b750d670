// Ports: where a lower floor must make a higher one act. The lower code calls the function it is
// given; composition (app.ts) wires each to the program that answers it, so the import graph still
// runs one way (kernel < core < programs). A port that is not wired fails closed: nobody builds
// Services without them (app.ts is the one builder).
import type { Executor } from '../../db/client.ts';

/**
 * What trading asks of the competitions program (programs/competitions/trading.ts): an open that
 * names a competition, the end instants of competition positions, a close or level change after
 * the end. Each may throw the wire's refusal (competition_not_joined, position_competition_ended...).
 */
export interface CompetitionRules {
  /** Refuses an open on `competitionId` unless the user is in it, it runs at `now` and trades `symbol`; locks the entry (shared). */
  checkTrade(tx: Executor, userId: bigint, competitionId: bigint, symbol: string, now: Date): Promise<void>;
  /** The end instant (ms) of each given competition. */
  endsMs(db: Executor, competitionIds: readonly bigint[]): Promise<Map<bigint, number>>;
  /** Refuses the user's close or level change of a competition position once its competition has ended. */
  checkPositionLive(db: Executor, competitionId: bigint | null, nowMs: number): Promise<void>;
}

export interface DomainPorts {
  /**
   * A user's balance moved a lot (wallet: a deposit credited, a withdrawal paid), after commit: the
   * VIP level is re-checked and a level reached pays its bonus (core/levels and programs/rewards),
   * off the caller's path. Never throws; a failure is logged and the daily job corrects it.
   */
  balanceMoved(userId: bigint): void;
  /** Trading's competition orders (core/trading → programs/competitions). */
  competitions: CompetitionRules;
}
