// The daily jobs' runner (server/jobs.ts): once per job and UTC day, a second start
// answers the first run, a failed run is run again, one running now is refused (under a database
// lock), an unknown name is refused by name, and the next day is a new run. On PostgreSQL, two app
// instances (this one and jobInstance.ts in a process of its own) start all seven jobs at the same
// moment: each job runs once and the other start is refused; an instance killed mid-run leaves the
// job free for the other. The jobs' own work is tested with each area.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { jobNames, type JobName } from '../../../src/api/contract/products.ts';
import { listJobRuns, runJob } from '../../../server/domain/kernel/jobs.ts';
import { dayOf as utcDay } from '../../../server/domain/kernel/shared/days.ts';
import type { jobWork } from '../../../server/jobs.ts';
import type { JobWork } from '../../../server/domain/kernel/jobs.ts';
import { AppError } from '../../../server/lib/errors.ts';
import { eq, sql } from 'drizzle-orm';
import { operators } from '../../../server/db/schema.ts';
import { createOperator } from '../adminHelpers.ts';
import { forEachDatabase, type TestServer } from '../helpers.ts';
import { eventually } from '../realtimeHelpers.ts';

const dayMs = 86_400_000;

/** A registry whose every job counts its calls and answers what `work` says. */
function countingWorks(work: (day: string, calls: number) => Promise<Record<string, string | number>>) {
  const calls: string[] = [];
  const one: JobWork = async (_services, day) => {
    calls.push(day);
    return work(day, calls.length);
  };
  const works = Object.fromEntries(jobNames.map((name) => [name, one])) as typeof jobWork;
  return { works, calls };
}

/** A registry whose every job waits for `open` and counts its calls per job and day. */
function gatedWorks() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => { open = resolve; });
  const calls: string[] = [];
  const works = Object.fromEntries(jobNames.map((name) => {
    const work: JobWork = async (_services, day) => {
      calls.push(`${name}|${day}`);
      await gate;
      return { ran: name };
    };
    return [name, work];
  })) as typeof jobWork;
  return { works, calls, open };
}

/** What a start answered: its run, or the refusal's code. */
const outcomeOf = (start: Promise<unknown>) => start.then((run) => run as { state: string; replayed: boolean },
  (error: unknown) => ({ refused: error instanceof AppError ? error.errorCode : String(error) }));

/** Advisory locks held in the test's database now (the job lock is one). */
async function advisoryLocks(server: TestServer): Promise<number> {
  const [row] = await server.query<{ n: number }>(sql`select count(*)::int as n from pg_locks
    where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())`);
  return row.n;
}

interface SecondInstance {
  /** Every line it printed, parsed. */
  said: Array<Record<string, unknown>>;
  send(command: Record<string, unknown>): void;
  /** SIGKILL: the process dies as a crash would leave it. */
  kill(): void;
}

/** jobInstance.ts as a process of its own on `databaseUrl`, once it is ready. */
async function startSecondInstance(databaseUrl: string): Promise<SecondInstance> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'jobInstance.ts'), databaseUrl], {
    cwd: path.resolve(import.meta.dirname, '../../..'), stdio: ['pipe', 'pipe', 'pipe'],
  });
  const said: Array<Record<string, unknown>> = [];
  let errors = '';
  readline.createInterface({ input: child.stdout! }).on('line', (line) => said.push(JSON.parse(line) as Record<string, unknown>));
  child.stderr!.on('data', (chunk: Buffer) => { errors += chunk.toString(); });
  const instance: SecondInstance = {
    said,
    send: (command) => child.stdin!.write(`${JSON.stringify(command)}\n`),
    kill: () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); },
  };
  try {
    await eventually(() => {
      if (child.exitCode !== null) throw new Error(`the second instance exited (${child.exitCode}): ${errors}`);
      return said.some((line) => line.ready);
    }, 'the second instance is ready', 120_000);
  } catch (error) {
    instance.kill();
    throw error;
  }
  return instance;
}

forEachDatabase((server) => {
  it('runs a job once a day: a second start the same day answers the first run, the next day runs again', async () => {
    const { works, calls } = countingWorks(async (day, count) => ({ day, count }));
    const first = await runJob(server.services, 'product-accrual', undefined, works);
    expect(first).toMatchObject({ name: 'product-accrual', state: 'done', replayed: false, result: { count: 1 } });
    const again = await runJob(server.services, 'product-accrual', undefined, works);
    expect(again).toMatchObject({ state: 'done', replayed: true, result: { count: 1 }, day: first.day });
    expect(calls).toHaveLength(1);

    server.clock.advance(dayMs);
    const next = await runJob(server.services, 'product-accrual', undefined, works);
    expect(next).toMatchObject({ replayed: false, result: { count: 2 } });
    expect(next.day).not.toBe(first.day);
    const runs = await listJobRuns(server.db);
    expect(runs.filter((run) => run.name === 'product-accrual').map((run) => run.day)).toEqual([next.day, first.day]);
  });

  it('runs a failed job again, and records why it failed', async () => {
    let fail = true;
    const { works, calls } = countingWorks(async () => {
      if (fail) throw new Error('the reserve account could not be read');
      return { paid: '1.000000' };
    });
    await expect(runJob(server.services, 'loan-accrual', undefined, works)).rejects.toThrow('could not be read');
    const failed = (await listJobRuns(server.db)).find((run) => run.name === 'loan-accrual');
    expect(failed).toMatchObject({ state: 'failed', result: { error: 'the reserve account could not be read' } });
    fail = false;
    const operator = await createOperator(server);
    const [{ id }] = await server.db.select({ id: operators.id }).from(operators).where(eq(operators.email, operator.email));
    const done = await runJob(server.services, 'loan-accrual', id, works);
    expect(done).toMatchObject({ state: 'done', replayed: false, result: { paid: '1.000000' }, operatorId: id.toString() });
    expect(calls).toHaveLength(2);
  });

  it('refuses a run of a job that is running now, holding a database lock, and an unknown job by name', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const { works, calls } = countingWorks(async () => {
      await gate;
      return {};
    });
    const locksBefore = await advisoryLocks(server);
    const running = runJob(server.services, 'vip-levels', undefined, works);
    try {
      await eventually(() => calls.length === 1, 'the run has started');
      const refusal = await runJob(server.services, 'vip-levels', undefined, works).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(AppError);
      expect((refusal as AppError).errorCode).toBe('job_running');
      // The run holds a lock in the database itself, and lets it go when it ends.
      expect(await advisoryLocks(server)).toBe(locksBefore + 1);
    } finally {
      release();
    }
    await expect(running).resolves.toMatchObject({ state: 'done' });
    expect(await advisoryLocks(server)).toBe(locksBefore);

    const unknown = await runJob(server.services, 'pay-everyone' as JobName, undefined, works).catch((error: unknown) => error);
    expect((unknown as AppError).errorCode).toBe('job_unknown');
    expect((unknown as AppError).message).toContain('product-accrual');
  });
  describe.runIf(server.kind === 'postgres')('two app instances on one PostgreSQL database', () => {
    let databaseUrl: string;

    beforeAll(async () => {
      const [{ name }] = await server.query<{ name: string }>(sql`select current_database() as name`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
    });

    it('runs each of the seven jobs once when both start them at the same moment; the other start is refused', async () => {
      server.clock.advance(10 * dayMs);
      const other = await startSecondInstance(databaseUrl);
      onTestFinished(() => other.kill());
      const { works, calls, open } = gatedWorks();
      // Both instances start every job at once: this one in-process, the other in its own process.
      other.send({ run: jobNames, nowMs: server.clock.now().getTime() });
      const here = jobNames.map((job) => outcomeOf(runJob(server.services, job, undefined, works)));
      let refusedHere = 0;
      for (const start of here) void start.then((outcome) => { if ('refused' in outcome) refusedHere += 1; });
      const refusedThere = () => other.said.filter((line) => (line.outcome as { refused?: string } | undefined)?.refused).length;
      const startedThere = () => other.said.filter((line) => line.started).length;
      // Every job is inside its one run and every other start has been refused: only then may the runs end.
      try {
        await eventually(() => calls.length + startedThere() === jobNames.length && refusedHere + refusedThere() === jobNames.length,
          'one run and one refusal per job');
      } finally {
        open();
        other.send({ open: true });
      }
      const outcomesHere = await Promise.all(here);
      await eventually(() => other.said.filter((line) => line.outcome).length === jobNames.length, 'the other instance answered');
      const day = utcDay(server.clock.now());
      for (const [index, job] of jobNames.entries()) {
        const there = other.said.find((line) => line.job === job)!.outcome as Record<string, unknown>;
        const pair = [outcomesHere[index], there];
        expect(pair.filter((outcome) => 'refused' in outcome), job).toEqual([{ refused: 'job_running' }]);
        expect(pair.filter((outcome) => 'state' in outcome), job).toEqual([expect.objectContaining({ state: 'done', replayed: false, day })]);
      }
      expect(calls.length + startedThere()).toBe(jobNames.length);
      // Started again, each answers the day's run without running it.
      for (const job of jobNames) await expect(runJob(server.services, job, undefined, works)).resolves.toMatchObject({ replayed: true });
      expect(calls.length + startedThere()).toBe(jobNames.length);
    });

    it('an instance killed mid-run leaves the job free: the other runs it again, once', async () => {
      server.clock.advance(dayMs);
      const dying = await startSecondInstance(databaseUrl);
      onTestFinished(() => dying.kill());
      dying.send({ run: ['product-accrual'], nowMs: server.clock.now().getTime() });
      await eventually(() => dying.said.some((line) => line.started === 'product-accrual'), 'the other instance is running the job');
      const { works, calls, open } = gatedWorks();
      open();
      await expect(outcomeOf(runJob(server.services, 'product-accrual', undefined, works))).resolves.toEqual({ refused: 'job_running' });
      dying.kill();
      // Its session ends with the process, and with it the lock: the job's run is left 'running'.
      await eventually(async () => {
        const outcome = await outcomeOf(runJob(server.services, 'product-accrual', undefined, works));
        return 'state' in outcome && outcome.state === 'done';
      }, 'this instance runs the job');
      expect(calls).toHaveLength(1);
      const day = utcDay(server.clock.now());
      const runs = (await listJobRuns(server.db)).filter((run) => run.name === 'product-accrual' && run.day === day);
      expect(runs).toEqual([expect.objectContaining({ state: 'done', replayed: false, result: { ran: 'product-accrual' } })]);
    });
  });
});
