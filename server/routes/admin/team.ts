// The operator's calls of issue 23 (team), under /api/admin: the commission rate of each team
// level (edited by an admin, audited in the same transaction) and the daily statements the
// team-commission job wrote. Running the job now is routes/admin/jobs.ts.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { AdminTeamCommissionsQuery, UpdateTeamRatesBody, teamAdminPaths } from '../../../src/api/contract/team.ts';
import { changeSetting } from '../../domain/kernel/settingChanges.ts';
import { teamRatesSpec } from './houseSettings.ts';
import { listAdminCommissions } from '../../domain/programs/team/admin.ts';
import { listRates } from '../../domain/programs/team/team.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

const writers = ['admin'] as const;
const readers = ['admin', 'finance'] as const;

export function teamAdminRoutes(api: FastifyInstance, services: Services) {
  const { db, clock } = services;

  api.get(teamAdminPaths.rates, { preHandler: operatorOnly(readers) }, async () => ok(await listRates(db)));

  api.post<{ Body: Static<typeof UpdateTeamRatesBody> }>(teamAdminPaths.rates,
    { schema: { body: UpdateTeamRatesBody }, preHandler: operatorOnly(writers) }, async (request) => {
      return ok(await db.transaction(async (tx) => {
        // Lowered at once; raised only once a second admin approves (domain/kernel/settingChanges.ts).
        const outcome = await changeSetting(tx, teamRatesSpec(request.body), request.operator!.id, clock);
        // The rates as they are (an array, as before): a raise waits in GET /admin/settingChanges.
        return outcome.applied ? outcome.after : listRates(tx);
      }));
    });

  api.get<{ Querystring: Static<typeof AdminTeamCommissionsQuery> }>(teamAdminPaths.commissions,
    { schema: { querystring: AdminTeamCommissionsQuery }, preHandler: operatorOnly(readers) },
    async (request) => ok(await listAdminCommissions(db, request.query)));
}
