// Daily product jobs (issue 22): accrual (each running order's return for the day, from the
// product's reserve, through a payout job) and maturity (principal back, bonds refunded or raised).
// Filled by the products work; the signature is the jobs registry's (domain/jobs/jobs.ts).
import type { Services } from '../../services.ts';
import type { JobResult } from '../jobs/types.ts';

export async function runProductAccrual(_services: Services, _day: string): Promise<JobResult> {
  throw new Error('product-accrual is not built yet');
}

export async function runProductMaturity(_services: Services, _day: string): Promise<JobResult> {
  throw new Error('product-maturity is not built yet');
}
