// OpenID Connect login against a real local provider (oidc-provider, test/support/oidcProvider.ts):
// the code flow with PKCE, state and nonce end to end, the first login creating an account (with
// a verified e-mail nobody uses, never taking over an existing account's), linking to the
// logged-in account, and the bad callbacks — unknown, replayed or expired state, a tampered
// nonce, another issuer — each sending the browser to the login page with its code, no session.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { apiPrefix, paths } from '../../../src/api/contract/paths.ts';
import { externalLoginPaths } from '../../../src/api/contract/security.ts';
import { oidcLoginStates, userOidcIdentities } from '../../../server/db/schema.ts';
import { oidcRedirectUri } from '../../../server/domain/identity/oidc.ts';
import { startOidcProvider, type LocalOidcProvider } from '../../support/oidcProvider.ts';
import { expectOk, expectRefused, forEachDatabase, type Reply, type TestServer } from '../helpers.ts';

let provider: LocalOidcProvider;
/** The stored key of an authorization request: the SHA-256 of its state. */
const stateHashOf = (url: URL) => createHash('sha256').update(url.searchParams.get('state')!).digest('hex');
// The test server's origin is the default PUBLIC_ORIGIN (loadConfig without env).
const publicOrigin = 'http://localhost:8080';
beforeAll(async () => { provider = await startOidcProvider(oidcRedirectUri(publicOrigin)); });
afterAll(async () => { await provider?.close(); });

function useProvider(server: TestServer) {
  server.services.oidcProviders = [{
    id: 'local', name: 'Local ID', issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret,
  }];
}

async function start(server: TestServer, options: { token?: string; link?: boolean; returnTo?: string } = {}) {
  const { token, ...body } = options;
  return expectOk(await server.post(externalLoginPaths.oidcStart, { provider: 'local', ...body }, { token })).body.result.authorizationUrl as string;
}

/** The browser arriving at the app's callback with what the provider sent it back with. */
async function callback(server: TestServer, url: URL): Promise<Reply> {
  expect(url.href.startsWith(oidcRedirectUri(publicOrigin))).toBe(true);
  const response = await server.app.inject({ method: 'GET', url: `${apiPrefix}${externalLoginPaths.oidcCallback}${url.search}` });
  return { status: response.statusCode, headers: response.headers, body: response.body };
}

const location = (reply: Reply) => String(reply.headers.location);
const cookieToken = (reply: Reply) => /^token=([^;]+); Path=\/; Max-Age=120; SameSite=Lax$/.exec(String(reply.headers['set-cookie']))?.[1];

function expectFailure(reply: Reply, code: string, page = '/login') {
  expect(reply.status).toBe(302);
  expect(location(reply)).toBe(`${publicOrigin}/#${page}?oidcError=${code}`);
  expect(reply.headers['set-cookie']).toBeUndefined();
}

let accountCounter = 0;
function providerAccount(email?: string, emailVerified = true) {
  accountCounter += 1;
  const id = `person-${accountCounter}-${Date.now()}`;
  provider.accounts.set(id, { email, emailVerified });
  return id;
}

forEachDatabase((server) => {
  beforeAll(() => useProvider(server));

  it('lists the configured providers, and none when none is configured', async () => {
    expect(expectOk(await server.get(externalLoginPaths.oidcProviders)).body.result).toEqual([{ id: 'local', name: 'Local ID' }]);
    const saved = server.services.oidcProviders;
    server.services.oidcProviders = [];
    expect(expectOk(await server.get(externalLoginPaths.oidcProviders)).body.result).toEqual([]);
    expectRefused(await server.post(externalLoginPaths.oidcStart, { provider: 'local' }), 400, 'oidc_provider_unknown');
    server.services.oidcProviders = saved;
  });

  it('asks with PKCE S256, state and nonce, and keeps the verifier on the server', async () => {
    const url = new URL(await start(server));
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(oidcRedirectUri(publicOrigin));
    for (const name of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(name)?.length).toBeGreaterThan(20);
    const [row] = await server.db.select().from(oidcLoginStates).where(eq(oidcLoginStates.stateHash, stateHashOf(url)));
    expect(row.codeVerifier.length).toBeGreaterThanOrEqual(43);
    expect(url.href).not.toContain(row.codeVerifier);
    expect(url.href).not.toContain(row.stateHash);
  });

  it('logs in: a first login creates an account with the verified e-mail, the next one finds it', async () => {
    const email = server.uniqueEmail();
    const person = providerAccount(email, true);
    const reply = await callback(server, await provider.authorize(await start(server), person));
    expect(reply.status).toBe(302);
    expect(location(reply)).toBe(`${publicOrigin}/#/home`);
    const token = cookieToken(reply)!;
    expect(token).toBeTruthy();
    const info = expectOk(await server.get(paths.myUserInfo, {}, { token })).body.result;
    expect(info.email).toBe(email);
    const [session] = await server.query<{ method: string }>(sql`select method from sessions where user_id = ${BigInt(info.id)}`);
    expect(session.method).toBe('oidc');

    const users = await server.count('users');
    const again = await callback(server, await provider.authorize(await start(server, { returnTo: '/wallet' }), person));
    expect(location(again)).toBe(`${publicOrigin}/#/wallet`);
    expect(expectOk(await server.get(paths.myUserInfo, {}, { token: cookieToken(again) })).body.result.id).toBe(info.id);
    expect(await server.count('users')).toBe(users);
  });

  it('never takes over an e-mail account by the provider\'s claim, verified or not', async () => {
    const existing = await server.registerByEmail();
    for (const verified of [true, false]) {
      const person = providerAccount(existing.email, verified);
      const reply = await callback(server, await provider.authorize(await start(server), person));
      const info = expectOk(await server.get(paths.myUserInfo, {}, { token: cookieToken(reply) })).body.result;
      const ownerInfo = expectOk(await server.get(paths.myUserInfo, {}, { token: existing.token })).body.result;
      expect(info.id).not.toBe(ownerInfo.id);
      expect(info.email).toBeNull();
    }
    // An unverified address nobody uses is not taken either.
    const unverified = providerAccount(server.uniqueEmail(), false);
    const reply = await callback(server, await provider.authorize(await start(server), unverified));
    expect(expectOk(await server.get(paths.myUserInfo, {}, { token: cookieToken(reply) })).body.result.email).toBeNull();
  });

  it('refuses an unknown state, and a replayed one', async () => {
    const before = await server.count('sessions');
    expectFailure(await callback(server, new URL(`${oidcRedirectUri(publicOrigin)}?code=abc&state=made-up&iss=${encodeURIComponent(provider.issuer)}`)),
      'oidc_state_invalid');
    expectFailure(await callback(server, new URL(`${oidcRedirectUri(publicOrigin)}?code=abc`)), 'oidc_state_invalid');
    const back = await provider.authorize(await start(server), providerAccount());
    const first = await callback(server, back);
    expect(cookieToken(first)).toBeTruthy();
    const after = await server.count('sessions');
    expect(after).toBe(before + 1);
    expectFailure(await callback(server, back), 'oidc_state_invalid');
    expect(await server.count('sessions')).toBe(after);
  });

  it('refuses an expired state', async () => {
    const url = await start(server);
    const back = await provider.authorize(url, providerAccount());
    server.clock.advance(10 * 60_000 + 1);
    const before = await server.count('sessions');
    expectFailure(await callback(server, back), 'oidc_state_invalid');
    expect(await server.count('sessions')).toBe(before);
  });

  it('refuses an ID token whose nonce is not the one asked for', async () => {
    const url = new URL(await start(server));
    // The provider puts the request's nonce in the ID token: the one stored for this state differs.
    const changed = await server.db.update(oidcLoginStates).set({ nonce: 'a-different-nonce-than-the-provider-saw' })
      .where(eq(oidcLoginStates.stateHash, stateHashOf(url))).returning();
    expect(changed).toHaveLength(1);
    const before = await server.count('users');
    expectFailure(await callback(server, await provider.authorize(url.href, providerAccount())), 'oidc_callback_invalid');
    expect(await server.count('users')).toBe(before);
  });

  it('refuses an answer naming another issuer, and a code with the wrong PKCE verifier', async () => {
    const back = await provider.authorize(await start(server), providerAccount());
    back.searchParams.set('iss', 'http://127.0.0.1:1/evil');
    const before = await server.count('sessions');
    expectFailure(await callback(server, back), 'oidc_callback_invalid');

    const url = new URL(await start(server));
    const changed = await server.db.update(oidcLoginStates).set({ codeVerifier: 'x'.repeat(64) })
      .where(eq(oidcLoginStates.stateHash, stateHashOf(url))).returning();
    expect(changed).toHaveLength(1);
    expectFailure(await callback(server, await provider.authorize(url.href, providerAccount())), 'oidc_callback_invalid');
    expect(await server.count('sessions')).toBe(before);
  });

  it('links the identity to the logged-in account, refuses it to another, and unlinks', async () => {
    const owner = await server.registerByEmail();
    const person = providerAccount();
    expectRefused(await server.post(externalLoginPaths.oidcStart, { provider: 'local', link: true }), 401, 'unauthorized');
    const linked = await callback(server, await provider.authorize(await start(server, { token: owner.token, link: true, returnTo: '/anquanZhongxin' }), person));
    expect(location(linked)).toBe(`${publicOrigin}/#/anquanZhongxin?oidcLinked=1`);
    expect(linked.headers['set-cookie']).toBeUndefined();
    const listed = expectOk(await server.get(externalLoginPaths.linkedLogins, {}, { token: owner.token })).body.result;
    expect(listed.identities).toHaveLength(1);
    expect(listed.identities[0]).toMatchObject({ provider: 'local', providerName: 'Local ID' });

    // Logging in with it now opens the owner's account.
    const login = await callback(server, await provider.authorize(await start(server), person));
    const ownerInfo = expectOk(await server.get(paths.myUserInfo, {}, { token: owner.token })).body.result;
    expect(expectOk(await server.get(paths.myUserInfo, {}, { token: cookieToken(login) })).body.result.id).toBe(ownerInfo.id);

    const stranger = await server.registerByEmail();
    expectFailure(await callback(server, await provider.authorize(await start(server, { token: stranger.token, link: true, returnTo: '/anquanZhongxin' }), person)),
      'identity_linked_elsewhere', '/anquanZhongxin');
    expectRefused(await server.post(externalLoginPaths.unlinkLogin, { identityId: listed.identities[0].id }, { token: stranger.token }),
      404, 'linked_login_not_found');
    expectOk(await server.post(externalLoginPaths.unlinkLogin, { identityId: listed.identities[0].id }, { token: owner.token }));
    expect(await server.db.select().from(userOidcIdentities).where(eq(userOidcIdentities.id, BigInt(listed.identities[0].id)))).toHaveLength(0);
  });

  it('keeps the last way into an account made by a provider', async () => {
    const reply = await callback(server, await provider.authorize(await start(server), providerAccount()));
    const token = cookieToken(reply)!;
    const listed = expectOk(await server.get(externalLoginPaths.linkedLogins, {}, { token })).body.result;
    expect(listed.hasPasswordLogin).toBe(false);
    expectRefused(await server.post(externalLoginPaths.unlinkLogin, { identityId: listed.identities[0].id }, { token }), 409, 'last_login_method');
  });
});
