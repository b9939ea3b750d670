// Google Authenticator: key, binding, unbinding, state, the Google-code login (issue 11) and the
// second step that completes every other login into a bound account (issue 18).
// The logic is in domain/core/identity/twoFactor.ts; the unbinding code is sent by getEmailCaptcha /
// getPhoneCaptcha with type=googleUnbind (routes/app.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  BindGoogleAuthBody, CheckGoogleAuthQuery, GoogleSecretLoginBody, LoginSecondStepBody, twoFactorPaths, UnbindGoogleAuthBody,
} from '../../../src/api/contract/security.ts';
import * as twoFactor from '../../domain/core/identity/twoFactor.ts';
import { requireSession } from '../../plugins/auth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

const origin = (request: FastifyRequest) => ({ callerIp: request.ip, userAgent: request.headers['user-agent'] });

export function twoFactorRoutes(app: FastifyInstance, services: Services) {
  // Says as much about an account as /app/checkAccount does, so it shares that call's limit.
  app.get<{ Querystring: Static<typeof CheckGoogleAuthQuery> }>(twoFactorPaths.checkGoogleAuth,
    { schema: { querystring: CheckGoogleAuthQuery } }, async (request) => {
      await services.limiter.hit(`check-account:${request.ip}`, services.limits.checkAccountPerIpPerMinute, 60_000);
      return ok(await twoFactor.checkGoogleAuth(services, request.query.account, request.query.countryCode));
    });

  app.get(twoFactorPaths.generateGoogleKey, async (request) => {
    const session = await requireSession(services, request);
    return ok(await twoFactor.generateGoogleKey(services, session.userId));
  });

  app.post<{ Body: Static<typeof GoogleSecretLoginBody> }>(twoFactorPaths.googleSecretLogin,
    { schema: { body: GoogleSecretLoginBody } },
    async (request) => ok({ token: await twoFactor.googleSecretLogin(services, request.body, origin(request)) }));

  app.post<{ Body: Static<typeof LoginSecondStepBody> }>(twoFactorPaths.loginSecondStep,
    { schema: { body: LoginSecondStepBody } },
    async (request) => ok({ token: await twoFactor.loginSecondStep(services, request.body, origin(request)) }));

  app.post<{ Body: Static<typeof BindGoogleAuthBody> }>(twoFactorPaths.bindGoogleAuth,
    { schema: { body: BindGoogleAuthBody } }, async (request) => {
      const session = await requireSession(services, request);
      return ok(await twoFactor.bindGoogleAuth(services, session, request.body.secret, request.body.code));
    });

  app.post<{ Body: Static<typeof UnbindGoogleAuthBody> }>(twoFactorPaths.unbindGoogleAuth,
    { schema: { body: UnbindGoogleAuthBody } }, async (request) => {
      const session = await requireSession(services, request);
      await twoFactor.unbindGoogleAuth(services, session, request.body, request.ip);
      return ok(null);
    });

  app.get(twoFactorPaths.googleAuthState, async (request) => {
    const session = await requireSession(services, request);
    return ok(await twoFactor.googleAuthState(services, session.userId));
  });
}
