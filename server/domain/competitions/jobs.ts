// The daily job 'competition-settle' (issue 23). Registered in server/domain/jobs/jobs.ts.
import type { JobWork } from '../jobs/types.ts';

export const runCompetitionSettle: JobWork = async () => {
  throw new Error('the competition-settle job is not built yet');
};
