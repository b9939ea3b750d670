// /api/finance/appWallet/liabilityProof and .../liabilityRoots: the logged-in user's leaf and path
// in the newest proof-of-liabilities publication, and the published roots (issue 9). The proof
// carries the user's own salt and balances and only hashes and sums of everyone else.
import type { FastifyInstance } from 'fastify';
import { LiabilityRootsQuery, liabilityPaths } from '../../src/api/contract/liabilities.ts';
import { liabilityProof, listRoots } from '../domain/core/wallet/liabilities.ts';
import { requireSession } from '../plugins/auth.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

export function liabilityRoutes(app: FastifyInstance, services: Services) {
  app.get(liabilityPaths.proof, async (request) => {
    const session = await requireSession(services, request);
    return ok(await liabilityProof(services.db, session.userId));
  });

  app.get<{ Querystring: LiabilityRootsQuery }>(liabilityPaths.roots,
    { schema: { querystring: LiabilityRootsQuery } }, async (request) => {
      await requireSession(services, request);
      return ok(await listRoots(services.db, request.query));
    });
}
