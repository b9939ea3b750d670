// /api/auth/appAuth/*: identity verification (KYC) of the logged-in user (issue 11): apply for
// basic and advanced verification, read the state, the level reached and one's own applications.
// What each level unlocks is public (the app shows it before the user applies).
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { ApplyAdvancedBody, ApplyBasicBody, KycListQuery, kycPaths } from '../../../src/api/contract/identity.ts';
import { applyAdvanced, applyBasic, kycDone, kycState, listMyApplications } from '../../domain/core/identity/kyc.ts';
import { listKycLevels } from '../../domain/core/identity/kycLevels.ts';
import { requireSession } from '../../plugins/auth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

export function kycRoutes(app: FastifyInstance, services: Services) {
  app.post<{ Body: Static<typeof ApplyBasicBody> }>(kycPaths.applyBasic, { schema: { body: ApplyBasicBody } },
    async (request) => {
      const session = await requireSession(services, request);
      return ok(await applyBasic(services, session.userId, request.body));
    });

  app.post<{ Body: Static<typeof ApplyAdvancedBody> }>(kycPaths.applyAdvanced, { schema: { body: ApplyAdvancedBody } },
    async (request) => {
      const session = await requireSession(services, request);
      return ok(await applyAdvanced(services, session.userId, request.body));
    });

  app.get(kycPaths.isHaveAuth, async (request) => {
    const session = await requireSession(services, request);
    return ok(await kycState(services.db, session.userId));
  });

  app.get(kycPaths.isHaveAuthDone, async (request) => {
    const session = await requireSession(services, request);
    return ok(await kycDone(services.db, session.userId));
  });

  app.get<{ Querystring: Static<typeof KycListQuery> }>(kycPaths.listMy, { schema: { querystring: KycListQuery } },
    async (request) => {
      const session = await requireSession(services, request);
      return ok(await listMyApplications(services.db, session.userId, request.query));
    });

  app.get(kycPaths.levels, async () => ok(await listKycLevels(services.db)));
}
