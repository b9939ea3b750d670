// /api/user/appUser/*: the logged-in user's own data, activity reports, password and logout.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { ActiveReportQuery, ChangePasswordBody, PersonalDataBody } from '../../src/api/contract/accounts.ts';
import { Empty } from '../../src/api/contract/common.ts';
import { paths } from '../../src/api/contract/paths.ts';
import * as accounts from '../domain/core/identity/accounts.ts';
import { requireSession } from '../plugins/auth.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

export function userRoutes(app: FastifyInstance, services: Services) {
  app.get(paths.myUserInfo, async (request) => {
    const session = await requireSession(services, request);
    return ok(await accounts.userInfo(services, session.userId));
  });

  app.get<{ Querystring: Static<typeof ActiveReportQuery> }>(paths.activeReport,
    { schema: { querystring: ActiveReportQuery } }, async (request) => {
      const session = await requireSession(services, request);
      await accounts.recordActivity(services, session.userId, 'lastActiveAt');
      return ok(null);
    });

  app.get(paths.customerOnline, async (request) => {
    const session = await requireSession(services, request);
    await accounts.recordActivity(services, session.userId, 'lastSeenAt');
    return ok(null);
  });

  app.post<{ Body: Static<typeof ChangePasswordBody> }>(paths.changePassword,
    { schema: { body: ChangePasswordBody } }, async (request) => {
      const session = await requireSession(services, request);
      await accounts.changePassword(services, session, request.body.oldPassword, request.body.newPassword,
        request.body.googleCode);
      return ok(null);
    });

  app.post<{ Body: PersonalDataBody }>(paths.updatePersonalData,
    { schema: { body: PersonalDataBody } }, async (request) => {
      const session = await requireSession(services, request);
      return ok(await accounts.updatePersonalData(services, session.userId, request.body));
    });

  app.post(paths.logout, { schema: { body: Empty } }, async (request) => {
    const session = await requireSession(services, request);
    await accounts.logout(services, session);
    return ok(null);
  });
}
