// Daily loan job (issue 22): interest (and the penalty once overdue) of every active loan.
// Filled by the loans work; the signature is the jobs registry's (domain/jobs/jobs.ts).
import type { Services } from '../../services.ts';
import type { JobResult } from '../jobs/types.ts';

export async function runLoanAccrual(_services: Services, _day: string): Promise<JobResult> {
  throw new Error('loan-accrual is not built yet');
}
