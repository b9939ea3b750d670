// The daily job 'red-envelopes' (issue 23). Registered in server/domain/jobs/jobs.ts.
import type { JobWork } from '../jobs/types.ts';

export const runRedEnvelopes: JobWork = async () => {
  throw new Error('the red-envelopes job is not built yet');
};
