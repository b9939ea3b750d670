// The back office's view of team income: the statement lines the team-commission job wrote,
// newest day first, filtered by day or by the credited user.
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { AdminTeamCommission, AdminTeamCommissionsQuery } from '../../../../src/api/contract/team.ts';
import { ratePercentFromPpm } from '../../../../src/api/contract/products.ts';
import type { PageOf } from '../../../../src/api/contract/wallet.ts';
import { teamCommissions } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import { assetScales, scaleOf } from '../../kernel/ledger/assets.ts';

export async function listAdminCommissions(db: Executor, query: AdminTeamCommissionsQuery): Promise<PageOf<AdminTeamCommission>> {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 20;
  const conditions: SQL[] = [];
  if (query.day) conditions.push(eq(teamCommissions.day, query.day));
  if (query.userId) conditions.push(eq(teamCommissions.userId, BigInt(query.userId)));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(teamCommissions).where(where);
  const rows = await db.select().from(teamCommissions).where(where)
    .orderBy(desc(teamCommissions.day), teamCommissions.userId, teamCommissions.level, teamCommissions.fromUserId)
    .limit(pageSize).offset((pageNo - 1) * pageSize);
  const scales = await assetScales(db);
  const records = rows.map((row): AdminTeamCommission => {
    const scale = scaleOf(scales, row.asset);
    return {
      day: row.day, userId: row.userId.toString(), fromUserId: row.fromUserId.toString(), level: row.level, asset: row.asset,
      fees: formatAmount(row.fees, scale), ratePercent: ratePercentFromPpm(row.ratePpm), amount: formatAmount(row.amount, scale),
      ...(row.transferId ? { transferId: row.transferId } : {}),
    };
  });
  return { records, total: Number(total), size: pageSize, current: pageNo, pages: Math.ceil(Number(total) / pageSize) };
}
