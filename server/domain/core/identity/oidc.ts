// OpenID Connect login and linking (issue 11): the authorization code flow with PKCE (S256),
// state and nonce, through openid-client. oidcStart keeps the code verifier and the nonce on the
// server under the state's hash (single use, ten minutes) and answers the provider's authorization
// URL; the provider sends the browser back to the callback, which spends the state first (a
// replayed or unknown state: oidc_state_invalid), then lets openid-client exchange the code and
// check the answer's issuer, the ID token's signature, audience, nonce and the PKCE verifier (any
// failure: oidc_callback_invalid). The identity (issuer, subject) then logs in to the account it
// is linked to, is linked to the logged-in user who started a link, or creates an account. A new
// account takes the ID token's e-mail only when the provider says it is verified AND no account
// uses it; it never logs in to or joins an existing e-mail account by its e-mail claim (that
// account's owner links the provider from the security page instead).
//
// Bound to the browser (issue 18, RFC 9700 §4.7): the state alone proves nothing about who opens
// the callback, so an attacker could have a victim complete the attacker's login (login CSRF) or
// link the victim's identity to the attacker's account. oidcStart therefore hands the route a random
// binding value for an HttpOnly cookie and keeps only its SHA-256 with the flow; the callback is
// accepted only with that cookie. A link also needs a fresh proof at the start (stepUp.ts) and the
// session that started it still alive at the callback.
import { createHash } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import type { OidcProvider } from '../../../../src/api/contract/security.ts';
import { apiPrefix } from '../../../../src/api/contract/paths.ts';
import { externalLoginPaths } from '../../../../src/api/contract/security.ts';
import type { OidcProviderConfig } from '../../../lib/config.ts';
import type { FreshProof } from '../../../../src/api/contract/security.ts';
import { oidcLoginStates, sessions, userOidcIdentities, users } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { AppError, badRequest } from '../../../lib/errors.ts';
import type { Services } from '../../kernel/services.ts';
import type { ActiveSession } from '../../kernel/sessions.ts';
import { accountNotices, sendAccountNotice } from './accountNotice.ts';
import { startSession, type LoginOrigin } from './login.ts';
import { withFreshProof } from './stepUp.ts';
import { createExternalAccount, limitAccountCreation, unusablePasswordHash, type ExternalLoginDeps } from './siwe.ts';

export type OidcDeps = ExternalLoginDeps & Pick<Services, 'oidcProviders'>;

/** How long a flow waits for its callback; the browser-binding cookie lives as long. */
export const stateLifetimeMs = 10 * 60_000;
const startsPerIpPerMinute = 30;
const callbacksPerIpPerMinute = 30;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const hashState = sha256;
export const oidcRedirectUri = (publicOrigin: string) => `${publicOrigin}${apiPrefix}${externalLoginPaths.oidcCallback}`;

export const listProviders = (deps: Pick<OidcDeps, 'oidcProviders'>): OidcProvider[] =>
  deps.oidcProviders.map(({ id, name }) => ({ id, name }));

function providerOf(deps: OidcDeps, id: string): OidcProviderConfig {
  const provider = deps.oidcProviders.find((candidate) => candidate.id === id);
  if (!provider) throw badRequest('oidc_provider_unknown', 'This login provider is not available.');
  return provider;
}

/** Plain http is accepted only for a provider on this machine (tests, local development). */
const isLoopbackHttp = (issuer: URL) =>
  issuer.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);

const discovered = new Map<string, Promise<client.Configuration>>();

/** The provider's discovered configuration, fetched once per issuer and client (a failed fetch is retried next time). */
function configurationOf(provider: OidcProviderConfig): Promise<client.Configuration> {
  const key = `${provider.issuer}\n${provider.clientId}\n${provider.clientSecret ?? ''}`;
  let found = discovered.get(key);
  if (!found) {
    const issuer = new URL(provider.issuer);
    found = client.discovery(issuer, provider.clientId, provider.clientSecret,
      provider.clientSecret ? undefined : client.None(),
      isLoopbackHttp(issuer) ? { execute: [client.allowInsecureRequests] } : undefined);
    found.catch(() => discovered.delete(key));
    discovered.set(key, found);
  }
  return found;
}

/** A logged-in user's link: the session that starts it and the fresh proof it carries. */
export interface OidcLink { session: ActiveSession; proof: FreshProof }

/**
 * Starts an authorization request (`link` when the logged-in user links the identity). Answers the
 * provider's URL and the browser-binding value, which the route sets as a cookie and which never
 * reaches the database.
 */
export async function oidcStart(deps: OidcDeps, providerId: string, callerIp: string, link?: OidcLink, returnTo?: string) {
  await deps.limiter.hit(`oidc-start-ip:${callerIp}`, startsPerIpPerMinute, 60_000);
  const provider = providerOf(deps, providerId);
  let configuration: client.Configuration;
  try {
    configuration = await configurationOf(provider);
  } catch {
    throw new AppError(503, 'oidc_provider_unknown', 'This login provider cannot be reached now. Please try again later.');
  }
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const browserBinding = client.randomState();
  const now = deps.clock.now();
  const storeFlow = (db: Executor) => db.insert(oidcLoginStates).values({
    stateHash: hashState(state), provider: provider.id, codeVerifier, nonce, linkUserId: link?.session.userId ?? null,
    linkSessionId: link?.session.sessionId ?? null, browserBindingHash: sha256(browserBinding),
    returnTo: returnTo ?? null, expiresAt: new Date(now.getTime() + stateLifetimeMs), createdAt: now,
  });
  if (link) await withFreshProof(deps, link.session.userId, link.proof, callerIp, storeFlow);
  else await storeFlow(deps.db);
  const authorizationUrl = client.buildAuthorizationUrl(configuration, {
    redirect_uri: oidcRedirectUri(deps.publicOrigin), scope: 'openid email', response_type: 'code',
    state, nonce, code_challenge: await client.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: 'S256',
  });
  return { authorizationUrl: authorizationUrl.href, browserBinding };
}

/**
 * What the callback did: logged in (a token), earned a login ticket for the Google code (an account
 * with Google Authenticator bound: login.ts), or linked; where in the app to go next.
 */
export type OidcOutcome = { kind: 'login'; token: string; returnTo: string } | { kind: 'secondStep'; loginTicket: string }
  | { kind: 'linked'; returnTo: string };

/** A refusal of the callback, with where to show it (the login page, or the page that started a link). */
export class OidcCallbackError extends Error {
  constructor(readonly code: string, readonly returnTo: string) { super(code); }
}

const stateInvalid = () => new OidcCallbackError('oidc_state_invalid', '/login');

/** Whether the session that started a link is still alive (not ended, expired or idle too long). */
async function sessionAlive(deps: OidcDeps, db: Executor, sessionId: bigint, userId: bigint) {
  const [row] = await db.select().from(sessions).where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId))).limit(1);
  const nowMs = deps.clock.now().getTime();
  return row !== undefined && row.revokedAt === null && row.expiresAt.getTime() > nowMs
    && nowMs - row.lastUsedAt.getTime() <= deps.limits.sessionIdleMs;
}

/**
 * Completes an authorization response. `query` is the callback's query string as received (the
 * checks of openid-client read it whole); `browserBinding` the cookie oidcStart set in this browser.
 */
export async function oidcCallback(deps: OidcDeps, query: URLSearchParams, origin: LoginOrigin,
  browserBinding: string | undefined): Promise<OidcOutcome> {
  await deps.limiter.hit(`oidc-callback-ip:${origin.callerIp}`, callbacksPerIpPerMinute, 60_000);
  const state = query.get('state');
  if (!state || !browserBinding) throw stateInvalid();
  const now = deps.clock.now();
  // Spent before anything else: whatever follows, this state cannot be presented again. Only the
  // browser holding the binding cookie spends it, so a foreign attempt leaves the owner's flow alive.
  const [flow] = await deps.db.update(oidcLoginStates).set({ usedAt: now })
    .where(and(eq(oidcLoginStates.stateHash, hashState(state)), eq(oidcLoginStates.browserBindingHash, sha256(browserBinding)),
      isNull(oidcLoginStates.usedAt), gt(oidcLoginStates.expiresAt, now)))
    .returning();
  if (!flow) throw stateInvalid();
  const linking = flow.linkUserId !== null;
  const failTo = linking ? (flow.returnTo ?? '/anquanZhongxin') : '/login';
  if (query.get('error')) throw new OidcCallbackError('oidc_provider_refused', failTo);
  const provider = deps.oidcProviders.find((candidate) => candidate.id === flow.provider);
  if (!provider) throw new OidcCallbackError('oidc_provider_unknown', failTo);
  let claims: client.IDToken;
  try {
    const configuration = await configurationOf(provider);
    const currentUrl = new URL(oidcRedirectUri(deps.publicOrigin));
    currentUrl.search = query.toString();
    const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: flow.codeVerifier, expectedState: state, expectedNonce: flow.nonce, idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('no ID token');
    claims = idClaims;
  } catch {
    throw new OidcCallbackError('oidc_callback_invalid', failTo);
  }
  const issuer = claims.iss;
  const subject = claims.sub;
  const email = typeof claims.email === 'string' && claims.email_verified === true ? claims.email.trim().toLowerCase() : undefined;

  if (linking) {
    const userId = flow.linkUserId!;
    const added = await deps.db.transaction(async (tx) => {
      // The session that asked must still be there: a link started before a logout, a password
      // change or "end other sessions" is not completed by whoever holds the callback.
      if (flow.linkSessionId === null || !(await sessionAlive(deps, tx, flow.linkSessionId, userId))) {
        throw new OidcCallbackError('oidc_session_ended', failTo);
      }
      const [identity] = await tx.select().from(userOidcIdentities)
        .where(and(eq(userOidcIdentities.issuer, issuer), eq(userOidcIdentities.subject, subject))).limit(1);
      if (identity && identity.userId !== userId) throw new OidcCallbackError('identity_linked_elsewhere', failTo);
      if (!identity) {
        await tx.insert(userOidcIdentities).values({
          provider: provider.id, issuer, subject, userId, email: email ?? null, createdAt: now,
        });
      }
      return !identity;
    });
    if (added) await sendAccountNotice(deps, deps.db, userId, accountNotices.identityLinked(provider.name, now));
    return { kind: 'linked', returnTo: flow.returnTo ?? '/anquanZhongxin' };
  }

  const [known] = await deps.db.select({ id: userOidcIdentities.id }).from(userOidcIdentities)
    .where(and(eq(userOidcIdentities.issuer, issuer), eq(userOidcIdentities.subject, subject))).limit(1);
  let passwordHash: string | undefined;
  if (!known) {
    try {
      await limitAccountCreation(deps, origin.callerIp);
    } catch {
      throw new OidcCallbackError('rate_limited', '/login');
    }
    passwordHash = await unusablePasswordHash();
  }
  const result = await deps.db.transaction(async (tx) => {
    const [identity] = await tx.select().from(userOidcIdentities)
      .where(and(eq(userOidcIdentities.issuer, issuer), eq(userOidcIdentities.subject, subject))).limit(1);
    let userId: bigint;
    if (identity) {
      userId = identity.userId;
      await tx.update(userOidcIdentities).set({ lastUsedAt: now, ...(email ? { email } : {}) }).where(eq(userOidcIdentities.id, identity.id));
    } else {
      const emailFree = email !== undefined
        && (await tx.select({ id: users.id }).from(users).where(sql`${users.email} = ${email}`).limit(1)).length === 0;
      userId = await createExternalAccount(deps, tx, passwordHash ?? await unusablePasswordHash(), emailFree ? email : undefined);
      await tx.insert(userOidcIdentities).values({
        provider: provider.id, issuer, subject, userId, email: email ?? null, lastUsedAt: now, createdAt: now,
      });
    }
    return startSession(deps, tx, userId, 'oidc', origin);
  });
  if ('loginTicket' in result) return { kind: 'secondStep', loginTicket: result.loginTicket };
  return { kind: 'login', token: result.token, returnTo: flow.returnTo ?? '/home' };
}
