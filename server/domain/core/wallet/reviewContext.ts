// The user's context an operator reads beside a deposit or a withdrawal under review: the
// verification level, the account's age, balances, what moved in the last 30 days and earlier
// rejections, so a 900 000 000 USDT deposit from a day-old unverified account stands out. A fixed
// handful of grouped queries, whatever the user's history.
import { and, count, desc, eq, gte, sql } from 'drizzle-orm';
import type { AdminReviewContext } from '../../../../src/api/contract/wallet.ts';
import { recordStatus } from '../../../../src/api/contract/wallet.ts';
import { ledgerAssets, users, walletRecharges, withdrawals } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { notFound } from '../../../lib/errors.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import { userKycLevel } from '../identity/kycLevels.ts';
import { userBalance } from './balances.ts';

export const reviewWindowMs = 30 * 24 * 3_600_000;

const paidOut = 2;
const rejected = -1;

const accountName = (user: typeof users.$inferSelect) =>
  user.email ?? (user.phone ? `+${user.phoneCountryCode} ${user.phone}` : user.username ?? `#${user.id}`);

/** Per currency, the count and sum of deposits credited and withdrawals paid out since `since`. */
async function movedSince(db: Executor, userId: bigint, since: Date) {
  const [deposits, paid] = await Promise.all([
    db.select({ currency: walletRecharges.currency, scale: ledgerAssets.scale, count: count(), total: sql<string>`sum(${walletRecharges.amount})` })
      .from(walletRecharges).innerJoin(ledgerAssets, eq(ledgerAssets.code, walletRecharges.currency))
      .where(and(eq(walletRecharges.userId, userId), eq(walletRecharges.status, recordStatus.delivered), gte(walletRecharges.decidedAt, since)))
      .groupBy(walletRecharges.currency, ledgerAssets.scale),
    db.select({ currency: withdrawals.currency, scale: ledgerAssets.scale, count: count(), total: sql<string>`sum(${withdrawals.amount})` })
      .from(withdrawals).innerJoin(ledgerAssets, eq(ledgerAssets.code, withdrawals.currency))
      .where(and(eq(withdrawals.userId, userId), eq(withdrawals.status, paidOut), gte(withdrawals.decidedAt, since)))
      .groupBy(withdrawals.currency, ledgerAssets.scale),
  ]);
  const byCurrency = new Map<string, AdminReviewContext['last30Days'][number]>();
  const entry = (currency: string, scale: number) => byCurrency.get(currency) ?? {
    currency, deposits: { count: 0, total: formatAmount(0n, scale) }, withdrawals: { count: 0, total: formatAmount(0n, scale) },
  };
  for (const row of deposits) {
    byCurrency.set(row.currency, { ...entry(row.currency, row.scale), deposits: { count: row.count, total: formatAmount(BigInt(row.total), row.scale) } });
  }
  for (const row of paid) {
    byCurrency.set(row.currency, { ...entry(row.currency, row.scale), withdrawals: { count: row.count, total: formatAmount(BigInt(row.total), row.scale) } });
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

/** How many of the user's deposits and withdrawals an operator rejected, and the latest reason. */
async function rejectionsOf(db: Executor, userId: bigint): Promise<AdminReviewContext['rejections']> {
  const latest = sql`(select ${walletRecharges.reason} as reason, ${walletRecharges.decidedAt} as decided_at from ${walletRecharges}
      where ${walletRecharges.userId} = ${userId} and ${walletRecharges.status} = ${rejected}
    union all
    select ${withdrawals.reason}, ${withdrawals.decidedAt} from ${withdrawals}
      where ${withdrawals.userId} = ${userId} and ${withdrawals.status} = ${rejected})`;
  const [depositCount, withdrawalCount, [newest]] = await Promise.all([
    db.select({ n: count() }).from(walletRecharges).where(and(eq(walletRecharges.userId, userId), eq(walletRecharges.status, rejected))),
    db.select({ n: count() }).from(withdrawals).where(and(eq(withdrawals.userId, userId), eq(withdrawals.status, rejected))),
    db.select({ reason: sql<string | null>`reason`, decidedAt: sql<string | Date | null>`decided_at` })
      .from(sql`${latest} as rejections`).orderBy(desc(sql`decided_at`)).limit(1),
  ]);
  return {
    count: depositCount[0].n + withdrawalCount[0].n,
    latestReason: newest?.reason ?? null,
    latestTime: newest?.decidedAt ? new Date(newest.decidedAt).getTime() : null,
  };
}

/** The review context of one user; an unknown user is not found. */
export async function reviewContext(db: Executor, userId: bigint, now: Date): Promise<AdminReviewContext> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw notFound('account_not_found', 'No such user.');
  const [kycLevel, balances, last30Days, rejections] = await Promise.all([
    userKycLevel(db, userId), userBalance(db, userId), movedSince(db, userId, new Date(now.getTime() - reviewWindowMs)), rejectionsOf(db, userId),
  ]);
  return { userId: String(userId), account: accountName(user), kycLevel, createTime: user.createdAt.getTime(), balances, last30Days, rejections };
}
