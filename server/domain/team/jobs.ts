// The daily job 'team-commission' (issue 23). Registered in server/domain/jobs/jobs.ts.
import type { JobWork } from '../jobs/types.ts';

export const runTeamCommission: JobWork = async () => {
  throw new Error('the team-commission job is not built yet');
};
