// /api/admin login, logout and who am I: the operator session itself.
import type { FastifyInstance } from 'fastify';
import { adminPaths, OperatorLoginBody, operatorRoles, type OperatorInfo } from '../../../src/api/contract/admin.ts';
import { Empty } from '../../../src/api/contract/common.ts';
import { operatorLogin, operatorLogout } from '../../domain/kernel/operators.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

export function operatorRoutes(app: FastifyInstance, services: Services) {
  app.post<{ Body: OperatorLoginBody }>(adminPaths.login,
    { schema: { body: OperatorLoginBody }, config: { operatorPublic: true } }, async (request) => {
      const { account, password, totpCode } = request.body;
      return ok({ token: await operatorLogin(services, account, password, totpCode, request.ip) });
    });

  app.post(adminPaths.logout, { schema: { body: Empty }, preHandler: operatorOnly(operatorRoles) }, async (request) => {
    await operatorLogout(services.db, services.clock, request.operator!);
    return ok(null);
  });

  app.get(adminPaths.me, { preHandler: operatorOnly(operatorRoles) }, async (request) => {
    const { id, email, role } = request.operator!;
    const info: OperatorInfo = { id: id.toString(), email, role };
    return ok(info);
  });
}
