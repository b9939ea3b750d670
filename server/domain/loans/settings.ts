// Loan offers (issue 22). Filled by the loans work.
import type { Executor } from '../../db/client.ts';

/** Writes the default credit and pledge offers when there are none (run by seed at every start). */
export async function seedLoanSettings(_db: Executor): Promise<void> {}
