// The operator's calls of issue 23 (competitions), under /api/admin. Registered in ./index.ts.
// Create (admin, audited), list and detail with the ranking, the prize pool and the payout (admin
// or finance). Funding the prize pool is the rewards screen's (reward_fundings, pool 'prizes');
// settling now is POST /api/admin/jobs/competition-settle/run.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import {
  AdminCompetitionsQuery, CreateCompetitionBody, competitionAdminPaths, ratePercentOfPpm, type AdminCompetitionDetail,
} from '../../../src/api/contract/competitions.ts';
import { RecordId } from '../../../src/api/contract/withdrawals.ts';
import { and, desc, eq } from 'drizzle-orm';
import { rewardFundings } from '../../db/schema.ts';
import { recordAudit } from '../../domain/kernel/audit.ts';
import {
  adminCompetitions, competitionAdminWire, competitionRowById, createCompetition, standings,
} from '../../domain/programs/competitions/competitions.ts';
import { prizeJobIdOf, prizePoolBalance } from '../../domain/programs/competitions/jobs.ts';
import { formatAmount } from '../../domain/kernel/ledger/amounts.ts';
import { payoutJob } from '../../domain/kernel/ledger/payouts.ts';
import { assetScales, scaleOf } from '../../domain/kernel/ledger/assets.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

const writers = ['admin'] as const;
const readers = ['admin', 'finance'] as const;
const IdParams = Type.Object({ id: RecordId });

export function competitionAdminRoutes(api: FastifyInstance, services: Services) {
  const { db, clock } = services;

  api.get<{ Querystring: Static<typeof AdminCompetitionsQuery> }>(competitionAdminPaths.competitions,
    { schema: { querystring: AdminCompetitionsQuery }, preHandler: operatorOnly(readers) },
    async (request) => ok(await adminCompetitions(db, request.query, clock.now())));

  api.post<{ Body: CreateCompetitionBody }>(competitionAdminPaths.competitions,
    { schema: { body: CreateCompetitionBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) => {
        const row = await createCompetition(tx, request.operator!.id, request.body, now);
        const wire = competitionAdminWire(row, 0, await assetScales(tx), now);
        await recordAudit(tx, { operatorId: request.operator!.id, action: 'competition.create', targetType: 'competition', targetId: row.id, after: wire }, clock);
        return wire;
      }));
    });

  api.get<{ Params: Static<typeof IdParams> }>(competitionAdminPaths.competition,
    { schema: { params: IdParams }, preHandler: operatorOnly(readers) }, async (request) => {
      const now = clock.now();
      const row = await competitionRowById(db, BigInt(request.params.id));
      const scales = await assetScales(db);
      const all = await standings(db, row, now.getTime());
      const prizeScale = scaleOf(scales, row.prizeAsset);
      const job = await payoutJob(db, prizeJobIdOf(row.id));
      const fundings = await db.select().from(rewardFundings)
        .where(and(eq(rewardFundings.pool, 'prizes'), eq(rewardFundings.competitionId, row.id))).orderBy(desc(rewardFundings.id));
      const detail: AdminCompetitionDetail = {
        ...competitionAdminWire(row, all.length, scales, now),
        ranking: all.map((standing) => ({
          rank: standing.rank ?? 0, name: standing.name, userId: String(standing.entry.userId), entryId: String(standing.entry.id),
          state: standing.entry.status as 'joined' | 'exited' | 'ended',
          equity: formatAmount(standing.equity, scaleOf(scales, row.asset)), returnRate: ratePercentOfPpm(standing.returnPpm),
          reward: formatAmount(standing.reward, prizeScale), joinTime: standing.entry.joinedAt.getTime(),
        })),
        prizesDue: formatAmount(all.reduce((total, standing) => total + (standing.rank !== null ? standing.reward : 0n), 0n), prizeScale),
        poolBalance: formatAmount(await prizePoolBalance(db, row.prizeAsset), prizeScale),
        fundings: fundings.map((funding) => ({
          id: String(funding.id), amount: formatAmount(funding.amount, prizeScale), status: funding.status, createdAt: funding.createdAt.getTime(),
        })),
        payout: job ? {
          jobId: job.jobId, state: job.state, targetCount: job.targetCount, targetsPosted: job.targetsPosted,
          amountTotal: formatAmount(job.amountTotal, prizeScale), amountPosted: formatAmount(job.amountPosted, prizeScale),
        } : null,
        settledAt: row.settledAt?.getTime() ?? null,
      };
      return ok(detail);
    });
}
