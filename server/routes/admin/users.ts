// /api/admin/users: user search with each user's security state (no secrets), for admin and
// finance operators; every search is audited (domain/core/identity/userSearch.ts). An admin may remove
// the Google Authenticator of a user who lost it (domain/core/identity/twoFactorReset.ts). Beside a
// deposit or withdrawal under review, operators read the user's context (domain/core/wallet/reviewContext.ts):
// part of the review, like the lists it sits beside, so not audited as a search is.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { AdminResetGoogleAuthBody, AdminUserQuery, kycAdminPaths } from '../../../src/api/contract/identity.ts';
import { RecordId } from '../../../src/api/contract/withdrawals.ts';
import { resetGoogleAuth } from '../../domain/core/identity/twoFactorReset.ts';
import { searchUsers } from '../../domain/core/identity/userSearch.ts';
import { reviewContext } from '../../domain/core/wallet/reviewContext.ts';
import { walletAdminPaths } from '../../../src/api/contract/wallet.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

export function userAdminRoutes(app: FastifyInstance, services: Services) {
  app.get<{ Querystring: Static<typeof AdminUserQuery> }>(kycAdminPaths.users,
    { schema: { querystring: AdminUserQuery }, preHandler: operatorOnly(['admin', 'finance']) },
    async (request) => ok(await searchUsers(services, request.operator!.id, request.query)));

  app.get<{ Params: { id: string } }>(walletAdminPaths.reviewContext,
    { schema: { params: Type.Object({ id: RecordId }) }, preHandler: operatorOnly(['admin', 'finance']) },
    async (request) => ok(await reviewContext(services.db, BigInt(request.params.id), services.clock.now())));

  // Removing a user's second factor is for admins only, with a reason and a fresh code of their own.
  app.post<{ Params: { id: string }; Body: AdminResetGoogleAuthBody }>(kycAdminPaths.resetGoogleAuth,
    { schema: { params: Type.Object({ id: RecordId }), body: AdminResetGoogleAuthBody }, preHandler: operatorOnly(['admin']) },
    async (request) => ok(await resetGoogleAuth(services, request.operator!.id, BigInt(request.params.id), request.body)));
}
