// The daily jobs' runner (server/domain/jobs/jobs.ts): once per job and UTC day, a second start
// answers the first run, a failed run is run again, one running now is refused, an unknown name is
// refused by name, and the next day is a new run. The jobs' own work is tested with each area.
import { expect, it } from 'vitest';
import { jobNames, type JobName } from '../../../src/api/contract/products.ts';
import { listJobRuns, runJob, type jobWork } from '../../../server/domain/jobs/jobs.ts';
import type { JobWork } from '../../../server/domain/jobs/types.ts';
import { AppError } from '../../../server/lib/errors.ts';
import { eq } from 'drizzle-orm';
import { operators } from '../../../server/db/schema.ts';
import { createOperator } from '../adminHelpers.ts';
import { forEachDatabase } from '../helpers.ts';

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

  it('refuses a run of a job that is running now in this process, and an unknown job by name', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const { works } = countingWorks(async () => {
      await gate;
      return {};
    });
    const running = runJob(server.services, 'vip-levels', undefined, works);
    const refusal = await runJob(server.services, 'vip-levels', undefined, works).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).errorCode).toBe('job_running');
    release();
    await expect(running).resolves.toMatchObject({ state: 'done' });

    const unknown = await runJob(server.services, 'pay-everyone' as JobName, undefined, works).catch((error: unknown) => error);
    expect((unknown as AppError).errorCode).toBe('job_unknown');
    expect((unknown as AppError).message).toContain('product-accrual');
  });
});
