// /api/admin/liabilities: the published proof-of-liabilities roots, and publishing one now. Finance
// and admin operators both may; each publication by an operator is audited in its transaction.
import type { FastifyInstance } from 'fastify';
import {
  LiabilityPublishBody, LiabilityRootsQuery, liabilityAdminPaths,
} from '../../../src/api/contract/liabilities.ts';
import { listRoots, publishLiabilities } from '../../domain/core/wallet/liabilities.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

const publishers = ['admin', 'finance'] as const;

export function liabilityAdminRoutes(app: FastifyInstance, services: Services) {
  app.get<{ Querystring: LiabilityRootsQuery }>(liabilityAdminPaths.list,
    { schema: { querystring: LiabilityRootsQuery }, preHandler: operatorOnly(publishers) },
    async (request) => ok(await listRoots(services.db, request.query)));

  app.post<{ Body: LiabilityPublishBody }>(liabilityAdminPaths.publish,
    { schema: { body: LiabilityPublishBody }, preHandler: operatorOnly(publishers) },
    async (request) => ok(await publishLiabilities(services.db, {
      clock: services.clock, trigger: 'operator', operatorId: request.operator!.id,
    })));
}
