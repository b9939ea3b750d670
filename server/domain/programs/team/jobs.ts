// The daily job 'team-commission' (issue 23): team income for the previous UTC day. Per member,
// the trading fees they paid that day in the real ledger (contract fees 'trade_fee' and swap fees
// 'swap_fee', from any of their accounts to the fees account; demo trades are another ledger and
// never count) are summed per asset, and each of the up-to-three inviters above them is credited
// rate(level) × fees, rounded down, from the fees account ('team_commission'). Only fees paid at
// or after the member joined that inviter's team count (users.referrer_bound_at, issue 38).
//
// Crash-safe in two steps per asset, as product accrual is (products/jobs.ts):
//  1. One transaction: the statement rows (day, user, from user, asset) are inserted, each naming
//     the transfer that pays it (`${job}:${account}`), and the payout job is made with the sums per
//     inviter's spot account. A rerun finds the job made and makes nothing again.
//  2. runPayoutJob pays them, in batches, resumable; each transfer id pays once.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.ts';
import type { Services } from '../../kernel/services.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import { accountKeysMax, openAccounts } from '../../kernel/ledger/accounts.ts';
import { createPayoutJob, payoutJob, runPayoutJob, unfinishedPayoutJobs, type PayoutTarget } from '../../kernel/ledger/payouts.ts';
import type { JobResult, JobWork } from '../../kernel/jobs.ts';
import { assetScales, scaleOf } from '../../kernel/ledger/assets.ts';
import { ratesPpm } from './team.ts';
import { rowsOf } from '../../../db/arrays.ts';

const jobPrefix = 'tc-';
/** The fee kinds that count: what a member paid to trade. */
export const commissionFeeKinds = ['trade_fee', 'swap_fee'] as const;

export const previousDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
export const commissionJobId = (day: string, asset: string) => `${jobPrefix}${day}-${asset}`;

interface LineRow { user_id: string; from_user_id: string; level: number; fees: string }

/**
 * How much earlier than the day's start the scan begins. A transfer's time is taken when it is
 * posted and its seq when it is stored, so time follows seq closely but not exactly (a long job
 * stamps its batches with its start); a day of margin keeps every fee of the day in the scan.
 */
const seqSearchMarginMs = 86_400_000;

/**
 * The first seq worth scanning for transfers made from `since` on: a binary search over the seq
 * index (about 40 probes), so the daily scan reads two days of fees, not every fee ever paid. It
 * only bounds the scan: the time of each transfer is still checked.
 */
export async function firstSeqFrom(tx: Tx, since: Date): Promise<bigint> {
  const [bounds] = rowsOf<{ low: string | null; high: string | null }>(await tx.execute(sql`
    select min(seq)::text as low, max(seq)::text as high from ledger_transfers`));
  if (bounds.low === null || bounds.high === null) return 0n;
  let low = BigInt(bounds.low);
  let high = BigInt(bounds.high) + 1n;
  while (low < high) {
    const middle = (low + high) / 2n;
    const [row] = rowsOf<{ at_or_after: boolean }>(await tx.execute(sql`
      select created_at >= ${since.toISOString()}::timestamptz as at_or_after from ledger_transfers
      where seq >= ${middle.toString()}::bigint order by seq limit 1`));
    if (!row || row.at_or_after) high = middle;
    else low = middle + 1n;
  }
  return low;
}

/** Step 1 for one asset and day; answers the job to run, if anything is owed. Exported for the crash tests. */
export async function prepareCommissions(db: Db, day: string, asset: string, rates: Map<number, number>, now: Date): Promise<string | undefined> {
  const jobId = commissionJobId(day, asset);
  if (await payoutJob(db, jobId)) return jobId;
  return db.transaction(async (tx) => {
    const start = `${day}T00:00:00Z`;
    const end = `${new Date(Date.parse(start) + 86_400_000).toISOString()}`;
    const fromSeq = await firstSeqFrom(tx, new Date(Date.parse(start) - seqSearchMarginMs));
    // Fees paid that day per member (the fees accounts' credits, through their index), then the
    // three inviters above each member. A fee counts for an inviter only when it was paid at or
    // after the moment the member entered that inviter's team: for level 1 when the member bound
    // the inviter, for levels 2 and 3 when the last link of the chain between them was bound (a
    // binding made at registration dates from the account's creation). Fees of trades made before
    // a binding are never commission (issue 38).
    const lines = rowsOf<LineRow>(await tx.execute(sql`
      with fee_accounts as (
        select id from ledger_accounts where ledger = 1 and asset = ${asset} and kind = 'fees' and owner_user_id is null
      ), paid as (
        select d.owner_user_id as member, t.amount, t.created_at
        from ledger_transfers t
        join ledger_accounts d on d.id = t.debit_account_id
        where t.credit_account_id in (select id from fee_accounts) and t.seq >= ${fromSeq.toString()}::bigint
          and t.kind in ('trade_fee', 'swap_fee') and t.phase in ('single', 'post') and t.ledger = 1
          and t.created_at >= ${start}::timestamptz and t.created_at < ${end}::timestamptz
          and d.owner_user_id is not null
      ), chains as (
        select u1.id as member,
          u1.referrer_id as l1, coalesce(u1.referrer_bound_at, u1.created_at) as since1,
          u2.referrer_id as l2, greatest(coalesce(u1.referrer_bound_at, u1.created_at), coalesce(u2.referrer_bound_at, u2.created_at)) as since2,
          u3.referrer_id as l3, greatest(coalesce(u1.referrer_bound_at, u1.created_at), coalesce(u2.referrer_bound_at, u2.created_at),
            coalesce(u3.referrer_bound_at, u3.created_at)) as since3
        from users u1
        left join users u2 on u2.id = u1.referrer_id
        left join users u3 on u3.id = u2.referrer_id
        where u1.id in (select distinct member from paid) and u1.referrer_id is not null
      ), lines as (
        select c.l1 as user_id, c.member, 1 as level, sum(p.amount) filter (where p.created_at >= c.since1) as fees
        from chains c join paid p on p.member = c.member group by c.l1, c.member
        union all
        select c.l2, c.member, 2, sum(p.amount) filter (where p.created_at >= c.since2)
        from chains c join paid p on p.member = c.member where c.l2 is not null group by c.l2, c.member
        union all
        select c.l3, c.member, 3, sum(p.amount) filter (where p.created_at >= c.since3)
        from chains c join paid p on p.member = c.member where c.l3 is not null group by c.l3, c.member
      )
      select user_id::text as user_id, member::text as from_user_id, level, fees::text as fees from lines where fees > 0`));
    const owed = lines.map((line) => {
      const ratePpm = rates.get(Number(line.level)) ?? 0;
      return { ...line, ratePpm, amount: (BigInt(line.fees) * BigInt(ratePpm)) / 1_000_000n };
    }).filter((line) => line.amount > 0n);
    if (owed.length === 0) return undefined;
    const spotOf = await spotAccounts(tx, [...new Set(owed.map((line) => line.user_id))].map(BigInt), asset);
    const perAccount = new Map<bigint, bigint>();
    for (const line of owed) {
      const account = spotOf.get(BigInt(line.user_id))!;
      perAccount.set(account, (perAccount.get(account) ?? 0n) + line.amount);
    }
    for (let from = 0; from < owed.length; from += 1000) {
      const chunk = owed.slice(from, from + 1000).map((line) => ({
        day, user_id: line.user_id, from_user_id: line.from_user_id, level: Number(line.level), asset, fees: line.fees,
        rate_ppm: line.ratePpm, amount: line.amount.toString(), transfer_id: `${jobId}:${spotOf.get(BigInt(line.user_id))}`,
        created_at: now.toISOString(),
      }));
      await tx.execute(sql`insert into team_commissions (day, user_id, from_user_id, level, asset, fees, rate_ppm, amount, transfer_id, created_at)
        select * from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as r(day varchar, user_id bigint, from_user_id bigint,
          level smallint, asset varchar, fees numeric, rate_ppm integer, amount numeric, transfer_id varchar, created_at timestamptz)
        on conflict do nothing`);
    }
    const targets: PayoutTarget[] = [...perAccount].map(([accountId, amountAtomic]) => ({ accountId, amountAtomic }));
    // Made inside this transaction (a savepoint): the statements and the job that pays them commit together.
    await createPayoutJob(tx as unknown as Db, {
      id: jobId, ledger: 'real', asset, sourceKind: 'fees', direction: 'credit', kind: 'team_commission',
      reference: `team-commission:${day}`, remark: `Team income of ${day}`,
    }, targets, { now: () => now });
    return jobId;
  });
}

async function spotAccounts(tx: Tx, userIds: bigint[], asset: string): Promise<Map<bigint, bigint>> {
  const spotOf = new Map<bigint, bigint>();
  for (let start = 0; start < userIds.length; start += accountKeysMax) {
    const chunk = userIds.slice(start, start + accountKeysMax);
    const ids = await openAccounts(tx, chunk.map((ownerUserId) => ({ ledger: 'real' as const, asset, kind: 'spot' as const, ownerUserId })));
    chunk.forEach((userId, index) => spotOf.set(userId, ids[index]));
  }
  return spotOf;
}

/** Pays the commission of `day` (a UTC day) in every asset with fees; safe to call again. */
export async function payCommissions(db: Db, day: string, now: Date): Promise<JobResult> {
  // A run stopped half-way (this day's or an earlier one's) is finished first.
  const resumed = (await unfinishedPayoutJobs(db, ['running', 'failed'])).filter((id) => id.startsWith(jobPrefix));
  // The transfers are stamped with the run's time, not the wall clock's: the scan of a later day
  // bounds its seqs by time (firstSeqFrom), so the ledger's times must follow the injected clock.
  const clock = { now: () => now };
  for (const id of resumed) await runPayoutJob(db, id, { clock });
  const assets = rowsOf<{ asset: string }>(await db.execute(sql`select distinct asset from ledger_accounts
    where ledger = 1 and kind = 'fees' and owner_user_id is null order by asset`));
  const rates = await ratesPpm(db);
  const scales = await assetScales(db);
  const paid: string[] = [];
  let targets = 0;
  for (const { asset } of assets) {
    // A day paid before (by an earlier run) is not paid, nor reported, again.
    if ((await payoutJob(db, commissionJobId(day, asset)))?.state === 'done') continue;
    const jobId = await prepareCommissions(db, day, asset, rates, now);
    if (!jobId) continue;
    const job = await runPayoutJob(db, jobId, { clock });
    targets += job.targetsPosted;
    paid.push(`${asset} ${formatAmount(job.amountPosted, scaleOf(scales, asset))}`);
  }
  return { day, inviters: targets, paid: paid.join('; ') || 'none', resumedPayouts: resumed.length };
}

/** Days before the run's day that a run looks at: a day the job missed (the server was down) is paid late, within a week. */
export const catchUpDays = 7;

/**
 * The job pays the days before the day it runs for (their fees are all in): yesterday, and any of
 * the week before that no run paid. A day already paid has its payout job and is skipped.
 */
export const runTeamCommission: JobWork = async (services: Services, day: string) => {
  const results: JobResult[] = [];
  let paidDay = day;
  for (let back = 1; back <= catchUpDays; back += 1) {
    paidDay = previousDay(paidDay);
    const result = await payCommissions(services.db, paidDay, services.clock.now());
    if (back === 1 || result.paid !== 'none') results.push(result);
  }
  const [yesterday, ...late] = results;
  return { ...yesterday, lateDays: late.map((result) => `${result.day}: ${result.paid}`).join('; ') || 'none' };
};
