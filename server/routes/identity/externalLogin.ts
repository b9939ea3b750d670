// Sign-In with Ethereum and OpenID Connect logins and links (issue 11). The OpenID callback is the
// one GET here the browser reaches directly (the provider redirects it): it answers a redirect to
// the app, with the session token in a short-lived `token` cookie the app reads at start (spec §4).
// oidcStart's answer sets the flow's browser-binding cookie (HttpOnly, SameSite=Lax, only sent to
// the callback's path, as long as the flow lives); the callback requires it and clears it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { apiPrefix } from '../../../src/api/contract/paths.ts';
import {
  externalLoginPaths, FreshProof, OidcCallbackQuery, OidcStartBody, SiweBody, SiweLinkBody, SiweNonceQuery, UnlinkLoginBody,
} from '../../../src/api/contract/security.ts';
import { linkedLogins, removeOtherWaysIn, unlinkLogin, waysIn } from '../../domain/core/identity/linkedLogins.ts';
import { listProviders, oidcCallback, OidcCallbackError, oidcStart, stateLifetimeMs } from '../../domain/core/identity/oidc.ts';
import { siweLink, siweLogin, siweNonce } from '../../domain/core/identity/siwe.ts';
import { AppError } from '../../lib/errors.ts';
import { ok } from '../../lib/envelope.ts';
import { requireSession } from '../../plugins/auth.ts';
import type { Services } from '../../domain/kernel/services.ts';

const origin = (request: FastifyRequest) => ({ callerIp: request.ip, userAgent: request.headers['user-agent'] });
const hasToken = (request: FastifyRequest) => Boolean(request.headers['x-access-token']);
/** How long the login cookie lives: long enough for the app to load and take the token. */
const cookieMaxAgeSeconds = 120;
/** The browser-binding cookie of an OpenID flow, sent only to the callback. */
const bindingCookie = 'oidc_binding';
const bindingCookiePath = `${apiPrefix}${externalLoginPaths.oidcCallback}`;

/** One cookie's value from the request's Cookie header (no cookie plugin: this is the one cookie read). */
function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=') || undefined;
  }
  return undefined;
}
const proofOf = ({ password, googleCode, recoveryCode, emailCode, phoneCode }: FreshProof): FreshProof =>
  ({ password, googleCode, recoveryCode, emailCode, phoneCode });

export function externalLoginRoutes(app: FastifyInstance, services: Services) {
  // With a session, the nonce is for linking a wallet to it; without, for logging in.
  app.get<{ Querystring: Static<typeof SiweNonceQuery> }>(externalLoginPaths.siweNonce,
    { schema: { querystring: SiweNonceQuery } }, async (request) => {
      const linkUserId = hasToken(request) ? (await requireSession(services, request)).userId : undefined;
      return ok(await siweNonce(services, request.ip, request.query.chainId ?? 1, linkUserId));
    });

  app.post<{ Body: SiweBody }>(externalLoginPaths.siweLogin, { schema: { body: SiweBody } },
    async (request) => ok({ token: await siweLogin(services, request.body.message, request.body.signature, origin(request)) }));

  app.post<{ Body: SiweLinkBody }>(externalLoginPaths.siweLink, { schema: { body: SiweLinkBody } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await siweLink(services, session.userId, request.body.message, request.body.signature, request.ip, proofOf(request.body)));
  });

  app.get(externalLoginPaths.oidcProviders, async () => ok(listProviders(services)));

  app.post<{ Body: OidcStartBody }>(externalLoginPaths.oidcStart, { schema: { body: OidcStartBody } }, async (request, reply) => {
    const link = request.body.link ? { session: await requireSession(services, request), proof: proofOf(request.body) } : undefined;
    const started = await oidcStart(services, request.body.provider, request.ip, link, request.body.returnTo);
    const secure = services.publicOrigin.startsWith('https:');
    reply.header('set-cookie', `${bindingCookie}=${started.browserBinding}; Path=${bindingCookiePath}; `
      + `Max-Age=${stateLifetimeMs / 1000}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`);
    return ok({ authorizationUrl: started.authorizationUrl });
  });

  app.get(externalLoginPaths.oidcCallback, { schema: { querystring: OidcCallbackQuery } }, async (request, reply) => {
    const rawQuery = request.raw.url?.split('?')[1] ?? '';
    const secure = services.publicOrigin.startsWith('https:');
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    // The binding is single use whatever the outcome: cleared here, so a later callback needs a new start.
    const cookies = [`${bindingCookie}=; Path=${bindingCookiePath}; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`];
    reply.header('set-cookie', cookies);
    try {
      const outcome = await oidcCallback(services, new URLSearchParams(rawQuery), origin(request), cookieOf(request, bindingCookie));
      if (outcome.kind === 'login') {
        cookies.push(`token=${outcome.token}; Path=/; Max-Age=${cookieMaxAgeSeconds}; SameSite=Lax${secure ? '; Secure' : ''}`);
        reply.header('set-cookie', cookies);
        return reply.redirect(`${services.publicOrigin}/#${outcome.returnTo}`, 302);
      }
      if (outcome.kind === 'secondStep') {
        // The login page asks for the Google code and completes the login with this ticket.
        return reply.redirect(`${services.publicOrigin}/#/login?loginTicket=${encodeURIComponent(outcome.loginTicket)}`, 302);
      }
      return reply.redirect(`${services.publicOrigin}/#${outcome.returnTo}?oidcLinked=1`, 302);
    } catch (error) {
      if (error instanceof OidcCallbackError) {
        return reply.redirect(`${services.publicOrigin}/#${error.returnTo}?oidcError=${error.code}`, 302);
      }
      if (error instanceof AppError) {
        return reply.redirect(`${services.publicOrigin}/#/login?oidcError=${error.errorCode}`, 302);
      }
      throw error;
    }
  });

  app.get(externalLoginPaths.linkedLogins, async (request) => {
    const session = await requireSession(services, request);
    return ok(await linkedLogins(services, session.userId));
  });

  app.post<{ Body: UnlinkLoginBody }>(externalLoginPaths.unlinkLogin, { schema: { body: UnlinkLoginBody } }, async (request) => {
    const session = await requireSession(services, request);
    await unlinkLogin(services, session.userId, request.body);
    return ok(null);
  });

  app.get(externalLoginPaths.waysIn, async (request) => ok(await waysIn(services, await requireSession(services, request))));

  app.post<{ Body: FreshProof }>(externalLoginPaths.removeOtherWaysIn, { schema: { body: FreshProof } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await removeOtherWaysIn(services, session, proofOf(request.body), request.ip));
  });
}
