// The user's sessions and devices, ending them, and the login history (issue 11).
import type { FastifyInstance } from 'fastify';
import { Empty } from '../../../src/api/contract/common.ts';
import { LoginHistoryQuery, SessionIdBody, sessionPaths } from '../../../src/api/contract/security.ts';
import { endOtherSessions, endSession, listSessions, loginHistoryPage } from '../../domain/core/identity/sessionsList.ts';
import { ok } from '../../lib/envelope.ts';
import { requireSession } from '../../plugins/auth.ts';
import type { Services } from '../../domain/kernel/services.ts';

export function sessionRoutes(app: FastifyInstance, services: Services) {
  app.get(sessionPaths.list, async (request) => {
    const session = await requireSession(services, request);
    return ok(await listSessions(services, session));
  });

  app.post<{ Body: SessionIdBody }>(sessionPaths.end, { schema: { body: SessionIdBody } }, async (request) => {
    const session = await requireSession(services, request);
    await endSession(services, session, request.body.id);
    return ok(null);
  });

  app.post(sessionPaths.endOthers, { schema: { body: Empty } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await endOtherSessions(services, session));
  });

  app.get<{ Querystring: LoginHistoryQuery }>(sessionPaths.history, { schema: { querystring: LoginHistoryQuery } },
    async (request) => {
      const session = await requireSession(services, request);
      return ok(await loginHistoryPage(services, session.userId, request.query));
    });
}
