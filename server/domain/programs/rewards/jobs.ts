// The daily job 'red-envelopes' (issue 23). Registered in server/jobs.ts.
//
// It runs every day. It first marks the envelopes whose seven days are up as expired, then issues
// the current UTC week's envelopes unless a run of an earlier day of the same week finished
// (job_runs 'done'): on Monday normally, or on the first day of the week the job ran at all
// (a server down on Monday still issues that week's on Tuesday). A run after the week's issue is
// answered {issued: 0, alreadyIssued: 1}; an operator's manual run then is refused with
// envelopes_issued_this_week (a second run the same day is answered as done by runJob itself).
// A run that crashed half-way is run again and issues only to the users without one.
import { and, eq, gte, lt } from 'drizzle-orm';
import { jobRuns } from '../../../db/schema.ts';
import { conflict } from '../../../lib/errors.ts';
import type { JobWork } from '../../kernel/jobs.ts';
import { expireEnvelopes, issueEnvelopes, weekOf } from './envelopes.ts';

export const runRedEnvelopes: JobWork = async (services, day) => {
  const { db, clock } = services;
  const now = clock.now();
  const week = weekOf(day);
  const expired = await expireEnvelopes(db, now);
  const earlier = await db.select({ day: jobRuns.day }).from(jobRuns)
    .where(and(eq(jobRuns.name, 'red-envelopes'), eq(jobRuns.state, 'done'), gte(jobRuns.day, week), lt(jobRuns.day, day))).limit(1);
  if (earlier.length > 0) {
    const [mine] = await db.select({ operatorId: jobRuns.operatorId }).from(jobRuns)
      .where(and(eq(jobRuns.name, 'red-envelopes'), eq(jobRuns.day, day)));
    if (mine?.operatorId != null) {
      throw conflict('envelopes_issued_this_week', `The red envelopes of the week of ${week} were issued on ${earlier[0].day}.`);
    }
    return { week, issued: 0, expired, alreadyIssued: 1 };
  }
  const issued = await issueEnvelopes(db, week, now);
  return { week, issued, expired, alreadyIssued: 0 };
};
