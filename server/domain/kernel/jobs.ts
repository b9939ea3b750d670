// What a daily job answers (server/jobs.ts): counts and totals for its run's record.
import type { Services } from './services.ts';

export type JobResult = Record<string, string | number>;
/** A job's work for one UTC day (YYYY-MM-DD); it must be safe to call again for the same day. */
export type JobWork = (services: Services, day: string) => Promise<JobResult>;
