// VIP levels (issue 22). Filled by the levels work; runVipLevels has the jobs registry's signature.
import type { Services } from '../../services.ts';
import type { Executor } from '../../db/client.ts';
import type { JobResult } from '../jobs/types.ts';

/** Writes the default levels when there are none (run by seed at every start). */
export async function seedVipLevels(_db: Executor): Promise<void> {}

export async function runVipLevels(_services: Services, _day: string): Promise<JobResult> {
  throw new Error('vip-levels is not built yet');
}

/**
 * The user's VIP level now: their user_levels row, computed on the spot (and stored) when there is
 * none yet. Products (minLevel) and credit loans (the level's credit limit) ask this.
 */
export async function userVipLevel(_db: Executor, _userId: bigint): Promise<number> {
  throw new Error('VIP levels are not built yet');
}
