// /api/app/*: codes, registration, the four logins, password reset and the account check. Every
// route here is limited per caller address (request.ip) in the domain; the account check, which
// the spec needs to say whether an account exists, is limited here.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  CheckAccountQuery, EmailLoginBody, GetEmailCaptchaQuery, GetPhoneCaptchaQuery, GuestLoginBody, LoginBody,
  PhoneLoginBody, RegisterBody, ResetPasswordBody,
} from '../../src/api/contract/accounts.ts';
import { paths } from '../../src/api/contract/paths.ts';
import * as accounts from '../domain/core/identity/accounts.ts';
import { passwordLogin } from '../domain/core/identity/passwordLogin.ts';
import { sendWithdrawPasswordCode } from '../domain/core/wallet/withdrawPassword.ts';
import { requireSession } from '../plugins/auth.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

const agent = (request: FastifyRequest) => request.headers['user-agent'];

export function appRoutes(app: FastifyInstance, services: Services) {
  // A withdrawal-password, Google-unbinding or add-a-login code goes only to the logged-in user's own address
  // (wallet/withdrawPassword.ts).
  app.get<{ Querystring: Static<typeof GetEmailCaptchaQuery> }>(paths.emailCaptcha,
    { schema: { querystring: GetEmailCaptchaQuery } }, async (request) => {
      if (request.query.type === 'withdrawPassword' || request.query.type === 'googleUnbind' || request.query.type === 'addLogin') {
        const session = await requireSession(services, request);
        return ok(await sendWithdrawPasswordCode(services, session.userId, { channel: 'email', email: request.query.email }, request.ip,
          request.query.type));
      }
      return ok(await accounts.requestCode(services, 'email', request.query.email, undefined, request.query.type, request.ip));
    });

  app.get<{ Querystring: Static<typeof GetPhoneCaptchaQuery> }>(paths.phoneCaptcha,
    { schema: { querystring: GetPhoneCaptchaQuery } }, async (request) => {
      const { phone, countryCode, type } = request.query;
      if (type === 'withdrawPassword' || type === 'googleUnbind' || type === 'addLogin') {
        const session = await requireSession(services, request);
        return ok(await sendWithdrawPasswordCode(services, session.userId, { channel: 'sms', phone, countryCode }, request.ip, type));
      }
      return ok(await accounts.requestCode(services, 'phone', phone, countryCode, type, request.ip));
    });

  app.post<{ Body: RegisterBody }>(paths.register, { schema: { body: RegisterBody } },
    async (request) => ok({ token: await accounts.register(services, request.body, request.ip, agent(request)) }));

  app.post<{ Body: Static<typeof LoginBody> }>(paths.login, { schema: { body: LoginBody } }, async (request) => {
    const { account, password, countryCode } = request.body;
    return ok({ token: await passwordLogin(services, account, password, countryCode, request.ip, agent(request)) });
  });

  app.post<{ Body: Static<typeof EmailLoginBody> }>(paths.emailLogin, { schema: { body: EmailLoginBody } },
    async (request) => ok({
      token: await accounts.codeLogin(services, 'email', request.body.email, undefined, request.body.code, request.ip,
        agent(request)),
    }));

  app.post<{ Body: Static<typeof PhoneLoginBody> }>(paths.phoneLogin, { schema: { body: PhoneLoginBody } },
    async (request) => {
      const { phone, countryCode, code } = request.body;
      return ok({ token: await accounts.codeLogin(services, 'phone', phone, countryCode, code, request.ip, agent(request)) });
    });

  app.post<{ Body: Static<typeof GuestLoginBody> }>(paths.guestLogin, { schema: { body: GuestLoginBody } },
    async (request) => ok(await accounts.guestLogin(services, request.body.account, request.ip, agent(request))));

  app.post<{ Body: Static<typeof ResetPasswordBody> }>(paths.resetPassword, { schema: { body: ResetPasswordBody } },
    async (request) => {
      await accounts.resetPassword(services, request.body, request.ip);
      return ok(null);
    });

  app.get<{ Querystring: Static<typeof CheckAccountQuery> }>(paths.checkAccount,
    { schema: { querystring: CheckAccountQuery } }, async (request) => {
      await services.limiter.hit(`check-account:${request.ip}`, services.limits.checkAccountPerIpPerMinute, 60_000);
      return ok({ exists: await accounts.accountExists(services, request.query.account, request.query.countryCode) });
    });
}
