// /api/admin/users: user search with each user's security state (no secrets), for admin and
// finance operators; every search is audited (domain/identity/userSearch.ts).
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { AdminUserQuery, kycAdminPaths } from '../../../src/api/contract/identity.ts';
import { searchUsers } from '../../domain/identity/userSearch.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../services.ts';

export function userAdminRoutes(app: FastifyInstance, services: Services) {
  app.get<{ Querystring: Static<typeof AdminUserQuery> }>(kycAdminPaths.users,
    { schema: { querystring: AdminUserQuery }, preHandler: operatorOnly(['admin', 'finance']) },
    async (request) => ok(await searchUsers(services, request.operator!.id, request.query)));
}
