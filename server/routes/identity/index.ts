// Identity and account security (issue 11): each area's routes in a file of its own.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/kernel/services.ts';
import { externalLoginRoutes } from './externalLogin.ts';
import { kycRoutes } from './kyc.ts';
import { passkeyRoutes } from './passkeys.ts';
import { sessionRoutes } from './sessions.ts';
import { twoFactorRoutes } from './twoFactor.ts';

export function identityRoutes(app: FastifyInstance, services: Services) {
  kycRoutes(app, services);
  twoFactorRoutes(app, services);
  externalLoginRoutes(app, services);
  passkeyRoutes(app, services);
  sessionRoutes(app, services);
}
