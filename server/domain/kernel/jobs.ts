// Scheduled daily jobs (issue 22): product accrual and maturity, loan accrual, VIP levels. Each
// runs once per UTC day: its run is a job_runs row (name, day) made before it starts, so a second
// start the same day (the scheduler after a restart, an operator's "run now", another instance)
// answers the first run instead of paying twice. A run holds its job's database lock while it works
// (db/sessionLock.ts: an advisory lock on a session of its own, freed when its process dies), so a
// start on any instance while it runs is refused (job_running) instead of running it twice at once
// (issue 38 #11). Every job is itself idempotent per day (payout jobs with ids derived from the job
// and the target), so a run that crashed half-way is run again from its row's 'running' state and
// pays only who was not paid.
//
// The runner lives in the kernel; the registry of the jobs' work (server/jobs.ts) is composition's:
// it names the programs' jobs, and app.ts hands it over as services.jobs.
import { and, desc, eq } from 'drizzle-orm';
import { jobRuns } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import type { JobRegistry, Services } from './services.ts';
import type { JobName, JobRun } from '../../../src/api/contract/products.ts';
import { jobNames } from '../../../src/api/contract/products.ts';
import { AppError, assert, conflict, notFound } from '../../lib/errors.ts';
import { withSessionLock } from '../../db/sessionLock.ts';
import { dayOf } from './shared/days.ts';


export type { JobResult, JobWork, JobRegistry } from './services.ts';

type RunRow = typeof jobRuns.$inferSelect;
const runOf = (row: RunRow, replayed: boolean): JobRun => ({
  name: row.name as JobName, day: row.day, state: row.state as JobRun['state'], replayed, result: row.result ?? {},
  ...(row.operatorId === null ? {} : { operatorId: row.operatorId.toString() }),
  startedAt: row.startedAt.getTime(), ...(row.finishedAt ? { finishedAt: row.finishedAt.getTime() } : {}),
});

/** The name of a job's lock: one per job, whatever the day, so two days' runs never overlap either. */
const lockNameOf = (job: JobName) => `daily-job|${job}`;

/**
 * Runs `name` for the current UTC day, once. A finished run of the day is answered as it is
 * (replayed); a failed one, or one a killed process left 'running', is run again; one running now
 * on any instance of the database is refused (job_running). `works` is the registry (tests pass
 * their own).
 */
export async function runJob(services: Services, name: string, operatorId?: bigint,
  works: JobRegistry | undefined = services.jobs): Promise<JobRun> {
  if (!(jobNames as readonly string[]).includes(name)) {
    throw notFound('job_unknown', `There is no job named ${name}. Jobs: ${jobNames.join(', ')}.`);
  }
  const job = name as JobName;
  assert(works, 'the job registry is wired (services.jobs)');
  const day = dayOf(services.clock.now());
  const run = await withSessionLock(services.db, lockNameOf(job), () => runLocked(services, job, day, operatorId, works));
  if (!run.locked) throw conflict('job_running', `${job} is running for ${day}; wait for it to finish.`);
  return run.value;
}

/** The day's run of a job, under its lock: the row read after the lock is taken, so a run another instance finished meanwhile is answered. */
async function runLocked(services: Services, job: JobName, day: string, operatorId: bigint | undefined,
  works: JobRegistry): Promise<JobRun> {
  const { db, clock } = services;
  const [existing] = await db.select().from(jobRuns).where(and(eq(jobRuns.name, job), eq(jobRuns.day, day)));
  if (existing?.state === 'done') return runOf(existing, true);
  const startedAt = clock.now();
  await db.insert(jobRuns).values({ name: job, day, operatorId: operatorId ?? null, state: 'running', startedAt })
    .onConflictDoUpdate({ target: [jobRuns.name, jobRuns.day], set: { state: 'running', startedAt, operatorId: operatorId ?? null } });
  try {
    const result = await works[job](services, day);
    const [row] = await db.update(jobRuns).set({ state: 'done', result, finishedAt: clock.now() })
      .where(and(eq(jobRuns.name, job), eq(jobRuns.day, day))).returning();
    return runOf(row, false);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await db.update(jobRuns).set({ state: 'failed', result: { error: message.slice(0, 500) }, finishedAt: clock.now() })
      .where(and(eq(jobRuns.name, job), eq(jobRuns.day, day)));
    throw error;
  }
}

/** Whether a start was refused because the job is running elsewhere: the scheduler skips it. */
export const isJobRunning = (error: unknown) => error instanceof AppError && error.errorCode === 'job_running';

export async function listJobRuns(db: Db, limit = 100): Promise<JobRun[]> {
  const rows = await db.select().from(jobRuns).orderBy(desc(jobRuns.startedAt)).limit(limit);
  return rows.map((row) => runOf(row, false));
}

/** Minutes after UTC midnight at which the day's jobs start, in this order. */
export const dailyJobsAtMinute = 10;
const dailyOrder: JobName[] = ['vip-levels', 'product-maturity', 'product-accrual', 'loan-accrual', 'competition-settle',
  'red-envelopes', 'team-commission'];

/**
 * Runs each job once a day after 00:10 UTC (checked every minute; a day missed while the server
 * was down is run at the next check for the current day only: accrual jobs pay each order every
 * day it has not been paid, so nothing is lost). Returns a stop function.
 */
export function startDailyJobs(services: Services, isLeading: () => boolean, onError: (job: string, error: unknown) => void): () => void {
  let busy = false;
  const check = async () => {
    // One instance runs them: the market's leader (a second would be refused by the job's lock, or
    // find the day's run and answer it).
    if (busy || !isLeading()) return;
    const now = services.clock.now();
    if (now.getUTCHours() * 60 + now.getUTCMinutes() < dailyJobsAtMinute) return;
    busy = true;
    try {
      for (const job of dailyOrder) {
        // Running on another instance (an operator's "run now", or a leader that just stepped
        // down): that run is the day's, so this one is skipped rather than reported as failed.
        await runJob(services, job).catch((error: unknown) => { if (!isJobRunning(error)) onError(job, error); });
      }
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void check(), 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
