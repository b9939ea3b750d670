// Passkeys (WebAuthn): registration, list and removal for the logged-in user (/user/appPasskey/*),
// options and login for anyone (/app/passkey/*). The checks live in domain/core/identity/passkeys.ts.
import type { FastifyInstance } from 'fastify';
import { Empty } from '../../../src/api/contract/common.ts';
import {
  passkeyPaths, PasskeyLoginBody, PasskeyRegisterBody, PasskeyRegisterOptionsBody, PasskeyRemoveBody,
} from '../../../src/api/contract/security.ts';
import * as passkeys from '../../domain/core/identity/passkeys.ts';
import { ok } from '../../lib/envelope.ts';
import { requireSession } from '../../plugins/auth.ts';
import type { Services } from '../../domain/kernel/services.ts';

export function passkeyRoutes(app: FastifyInstance, services: Services) {
  // Adding a passkey needs a fresh proof (domain/core/identity/stepUp.ts), checked before the challenge is issued.
  app.post<{ Body: PasskeyRegisterOptionsBody }>(passkeyPaths.registerOptions, { schema: { body: PasskeyRegisterOptionsBody } },
    async (request) => {
      const session = await requireSession(services, request);
      const { password, googleCode, recoveryCode, emailCode, phoneCode } = request.body;
      return ok(await passkeys.registerOptions(services, session.userId, { password, googleCode, recoveryCode, emailCode, phoneCode }, request.ip));
    });

  app.post<{ Body: PasskeyRegisterBody }>(passkeyPaths.register, { schema: { body: PasskeyRegisterBody } },
    async (request) => {
      const session = await requireSession(services, request);
      return ok(await passkeys.registerPasskey(services, session.userId, request.body));
    });

  app.get(passkeyPaths.list, async (request) => {
    const session = await requireSession(services, request);
    return ok(await passkeys.listPasskeys(services, session.userId));
  });

  app.post<{ Body: PasskeyRemoveBody }>(passkeyPaths.remove, { schema: { body: PasskeyRemoveBody } }, async (request) => {
    const session = await requireSession(services, request);
    await passkeys.removePasskey(services, session.userId, request.body.id);
    return ok(null);
  });

  app.post(passkeyPaths.loginOptions, { schema: { body: Empty } },
    async (request) => ok(await passkeys.loginOptions(services, request.ip)));

  app.post<{ Body: PasskeyLoginBody }>(passkeyPaths.login, { schema: { body: PasskeyLoginBody } }, async (request) => ok({
    token: await passkeys.passkeyLogin(services, request.body, { callerIp: request.ip, userAgent: request.headers['user-agent'] }),
  }));
}
