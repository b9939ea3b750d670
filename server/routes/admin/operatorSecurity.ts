// /api/admin/me/totp: the logged-in operator rotates their own authenticator secret (any role).
// Start hands out a new secret and a sealed ticket; confirm needs a code of the new secret and one
// of the current secret, then ends the operator's other sessions (domain/kernel/operators.ts).
import type { FastifyInstance } from 'fastify';
import { Empty } from '../../../src/api/contract/common.ts';
import { operatorRoles } from '../../../src/api/contract/admin.ts';
import { OperatorTotpConfirmBody, operatorSecurityPaths } from '../../../src/api/contract/security.ts';
import { confirmTotpRotation, startTotpRotation } from '../../domain/kernel/operators.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

export function operatorSecurityRoutes(app: FastifyInstance, services: Services) {
  app.post(operatorSecurityPaths.totpStart, { schema: { body: Empty }, preHandler: operatorOnly(operatorRoles) },
    async (request) => ok(await startTotpRotation(services, request.operator!)));

  app.post<{ Body: OperatorTotpConfirmBody }>(operatorSecurityPaths.totpConfirm,
    { schema: { body: OperatorTotpConfirmBody }, preHandler: operatorOnly(operatorRoles) },
    async (request) => ok(await confirmTotpRotation(services, request.operator!, request.body)));
}
