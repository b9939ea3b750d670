// Daily loan job (issue 22): every active loan is charged the days that started before the UTC
// day began (interest, and the penalty once past the term). It moves money from many user loan
// accounts into the loan_interest system account, the way a payout job does, but through the
// payout module's lower layer (postGroups) rather than createPayoutJob: the loan row is this job's
// durable record of what was charged (interest, last_accrued_day), and it must move in the same
// transaction as the transfers. A payout job's stored target list would be a second record that a
// repayment between a crash and the resume could contradict (charging days the repayment had
// charged already). So each batch of loans is one transaction: rows locked, charges computed
// from the rows, one ledger batch (ids `loan-int:<loan>:<last day>`), rows updated. A rerun or
// a resume after a crash finds the rows charged and charges nothing twice.
import { and, asc, eq, gt } from 'drizzle-orm';
import { loans } from '../../../db/schema.ts';
import type { Services } from '../../kernel/services.ts';
import type { JobResult } from '../../kernel/jobs.ts';
import { deliverMessages, type WrittenMessage } from '../../kernel/messages.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import { postGroups, type TransferGroup } from '../../kernel/ledger/payouts.ts';
import { chargeTransfers, loanMessage, termsOf, type LoanRow } from './loans.ts';
import { chargesBetween, daysBeforeDay, daysCharged, loanDayDate } from './math.ts';
import { assetScales } from './settings.ts';
import { refreshLoanMonitors } from './ltvMonitor.ts';

/** Loans per transaction: two transfers each at most, far under a ledger batch. */
export const loanAccrualBatchSize = 200;

export async function runLoanAccrual(services: Services, day: string): Promise<JobResult> {
  const { db, clock } = services;
  const scales = await assetScales(db);
  let cursor = 0n;
  let loansSeen = 0;
  let loansCharged = 0;
  let refused = 0;
  const totals = new Map<string, { interest: bigint; penalty: bigint }>();
  const touched: bigint[] = [];
  for (;;) {
    const outcome = await db.transaction(async (tx) => {
      const rows = await tx.select().from(loans).where(and(eq(loans.status, 'active'), gt(loans.id, cursor)))
        .orderBy(asc(loans.id)).limit(loanAccrualBatchSize).for('update');
      const groups: TransferGroup<{ row: LoanRow; target: number; interest: bigint; penalty: bigint }>[] = [];
      for (const row of rows) {
        const target = daysBeforeDay(row.startsAt!, day);
        const charged = daysCharged(row.startsAt!, row.lastAccruedDay);
        if (target <= charged) continue;
        const { interest, penalty } = chargesBetween(termsOf(row), charged, target);
        groups.push({ target: { row, target, interest, penalty }, transfers: await chargeTransfers(tx, row, target, interest, penalty) });
      }
      const posted = groups.length > 0 ? await postGroups(tx, groups, clock) : { posted: [], refused: [] };
      const now = clock.now();
      const messages: WrittenMessage[] = [];
      for (const { row, target, interest, penalty } of posted.posted) {
        const [after] = await tx.update(loans).set({ interest: row.interest + interest + penalty, lastAccruedDay: loanDayDate(row.startsAt!, target) })
          .where(eq(loans.id, row.id)).returning();
        const sums = totals.get(row.asset) ?? { interest: 0n, penalty: 0n };
        sums.interest += interest;
        sums.penalty += penalty;
        totals.set(row.asset, sums);
        if (target > row.days) {
          const message = await loanMessage(tx, after, 'loan_overdue', {
            dueAt: row.dueAt!.toISOString(), penaltyRate: String(row.penaltyRatePpm / 10_000),
          }, now);
          if (message) messages.push(message);
        }
      }
      return { rows, charged: posted.posted.map((target) => target.row.id), refused: posted.refused.length, messages };
    });
    deliverMessages(services, outcome.messages);
    loansSeen += outcome.rows.length;
    loansCharged += outcome.charged.length;
    refused += outcome.refused;
    touched.push(...outcome.charged);
    if (outcome.rows.length < loanAccrualBatchSize) break;
    cursor = outcome.rows[outcome.rows.length - 1].id;
  }
  // What is owed rose: the LTV thresholds of the pledge loans charged move up.
  if (touched.length > 0) await refreshLoanMonitors(touched);
  const result: JobResult = { loans: loansSeen, charged: loansCharged, refused };
  for (const [asset, sums] of totals) {
    result[`interest${asset}`] = formatAmount(sums.interest, scales.get(asset) ?? 6);
    result[`penalty${asset}`] = formatAmount(sums.penalty, scales.get(asset) ?? 6);
  }
  return result;
}
