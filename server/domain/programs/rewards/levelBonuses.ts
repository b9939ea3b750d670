// VIP levels and their one-time bonuses together (issue 23): the daily job 'vip-levels' recomputes
// every user's level (core/levels) and then pays the bonuses of levels held for the holding period
// (vip.ts); after a large movement (a deposit credited, a withdrawal paid) the wallet's
// balanceMoved port (kernel/ports.ts, wired by app.ts) re-checks one user the same way.
import type { Executor } from '../../../db/client.ts';
import type { Clock } from '../../../lib/time.ts';
import type { JobResult } from '../../kernel/jobs.ts';
import type { Services } from '../../kernel/services.ts';
import { recheckUserLevel, recomputeAllLevels } from '../../core/levels/levels.ts';
import { grantVipBonuses } from './vip.ts';

/**
 * Re-checks a user's level after a large movement, after its commit and without holding up the
 * caller: a level reached for the first time pays its one-time bonus. A failure is logged, the
 * daily job corrects it.
 */
export function recheckLevelSoon(db: Executor, clock: Clock, userId: bigint, log: (error: unknown) => void): void {
  void recheckUserLevel(db, clock, userId).then(() => grantVipBonuses(db, clock.now(), [userId])).catch(log);
}

export async function runVipLevels(services: Services, _day: string): Promise<JobResult> {
  const levels = await recomputeAllLevels(services.db, services.clock);
  const bonuses = await grantVipBonuses(services.db, services.clock.now());
  return { ...levels, bonusesGranted: bonuses.granted, bonusesUncovered: bonuses.uncovered, bonusesSamePerson: bonuses.samePerson };
}
