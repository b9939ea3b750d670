// The registry of the daily jobs (composition): each job's name and the program's work it runs.
// The runner (once per UTC day, under the job's lock) is the kernel's (domain/kernel/jobs.ts);
// app.ts hands this registry over as services.jobs.
import type { JobRegistry } from './domain/kernel/jobs.ts';
import { runProductAccrual, runProductMaturity } from './domain/programs/products/jobs.ts';
import { runLoanAccrual } from './domain/programs/loans/jobs.ts';
import { runVipLevels } from './domain/programs/rewards/levelBonuses.ts';
import { runCompetitionSettle } from './domain/programs/competitions/jobs.ts';
import { runRedEnvelopes } from './domain/programs/rewards/jobs.ts';
import { runTeamCommission } from './domain/programs/team/jobs.ts';

export const jobWork: JobRegistry = {
  'product-accrual': runProductAccrual,
  'product-maturity': runProductMaturity,
  'loan-accrual': runLoanAccrual,
  'vip-levels': runVipLevels,
  'competition-settle': runCompetitionSettle,
  'red-envelopes': runRedEnvelopes,
  'team-commission': runTeamCommission,
};
