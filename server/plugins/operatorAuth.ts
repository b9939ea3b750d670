// Authenticates back-office requests (/api/admin/*) by X-Access-Token against operator sessions,
// which user sessions never open (and an operator token opens no user route: they are different
// tables). Every admin route takes `operatorOnly(roles)` as its preHandler, which registration
// moves ahead of the schema check (preValidation); on success
// `request.operator` is the operator. A route under /api/admin that forgets it (other than the
// login, marked `config: { operatorPublic: true }`) stops the server at start, not in production.
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { OperatorRole } from '../../src/api/contract/admin.ts';
import { apiPrefix } from '../../src/api/contract/paths.ts';
import { AppError, unauthorized } from '../lib/errors.ts';
import { resolveOperatorSession, type ActiveOperator } from '../domain/kernel/operators.ts';
import type { Services } from '../domain/kernel/services.ts';

export type { OperatorRole };

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator of an /api/admin request, set by operatorOnly. */
    operator?: ActiveOperator;
  }
  interface FastifyInstance {
    operatorServices?: Services;
  }
  interface FastifyContextConfig {
    /** An /api/admin route open without an operator session (the login). */
    operatorPublic?: boolean;
  }
}

const guards = new WeakSet<object>();

/** Registers the guard on `app` (the /api scope): call before the admin routes. */
export function registerOperatorAuth(app: FastifyInstance, services: Services) {
  // Scopes registered below `app` inherit the decoration; a request reads it from its route's scope.
  app.decorate('operatorServices', services);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${apiPrefix}/admin/`) || route.config?.operatorPublic) return;
    const handlers = [route.preHandler ?? []].flat();
    const guard = handlers.filter((handler) => guards.has(handler));
    if (guard.length === 0) {
      throw new Error(`${route.method} ${route.url} is an operator route without operatorOnly(roles)`);
    }
    // The guard runs before the schema is checked (preValidation, after the body is decrypted): a
    // caller without a live operator session gets 401 whatever it sent, and learns nothing of the
    // route's fields from a 400.
    route.preValidation = [...guard, ...[route.preValidation ?? []].flat()];
    route.preHandler = handlers.filter((handler) => !guards.has(handler));
  });
}

/** The preHandler of an operator route: a live operator session of one of `roles`, or 401 / 403. */
export function operatorOnly(roles: readonly OperatorRole[]): preHandlerAsyncHookHandler {
  const handler: preHandlerAsyncHookHandler = async function operatorGuard(request) {
    const header = request.headers['x-access-token'];
    const token = Array.isArray(header) ? header[0] : header;
    if (!token) throw unauthorized('Please log in to the back office.');
    const services = request.server.operatorServices;
    if (!services) throw new Error('operator routes need registerOperatorAuth on their scope');
    const { db, clock } = services;
    const operator = await resolveOperatorSession(db, clock, token);
    if (!operator) throw unauthorized('Your back-office session has ended. Please log in again.');
    if (!roles.includes(operator.role)) throw new AppError(403, 'forbidden', 'Your role does not allow this.');
    request.operator = operator;
  };
  guards.add(handler);
  return handler;
}
