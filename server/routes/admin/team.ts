// The operator's calls of issue 23 (team), under /api/admin: the commission rate of each team
// level (edited by an admin, audited in the same transaction) and the daily statements the
// team-commission job wrote. Running the job now is routes/admin/jobs.ts.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { AdminTeamCommissionsQuery, UpdateTeamRatesBody, teamAdminPaths } from '../../../src/api/contract/team.ts';
import { recordAudit } from '../../domain/audit.ts';
import { listAdminCommissions } from '../../domain/team/admin.ts';
import { listRates, updateRates } from '../../domain/team/team.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../services.ts';

const writers = ['admin'] as const;
const readers = ['admin', 'finance'] as const;

export function teamAdminRoutes(api: FastifyInstance, services: Services) {
  const { db, clock } = services;

  api.get(teamAdminPaths.rates, { preHandler: operatorOnly(readers) }, async () => ok(await listRates(db)));

  api.post<{ Body: Static<typeof UpdateTeamRatesBody> }>(teamAdminPaths.rates,
    { schema: { body: UpdateTeamRatesBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) => {
        const { before, after } = await updateRates(tx, request.body, now);
        await recordAudit(tx, { operatorId: request.operator!.id, action: 'team.rates', targetType: 'team_commission_rates', targetId: null, before, after }, clock);
        return after;
      }));
    });

  api.get<{ Querystring: Static<typeof AdminTeamCommissionsQuery> }>(teamAdminPaths.commissions,
    { schema: { querystring: AdminTeamCommissionsQuery }, preHandler: operatorOnly(readers) },
    async (request) => ok(await listAdminCommissions(db, request.query)));
}
