// OpenID Connect login against a real local provider (oidc-provider, test/support/oidcProvider.ts):
// the code flow with PKCE, state and nonce end to end, the first login creating an account (with
// a verified e-mail nobody uses, never taking over an existing account's), linking to the
// logged-in account, and the bad callbacks — unknown, replayed or expired state, a tampered
// nonce, another issuer — each sending the browser to the login page with its code, no session.
// The flow is bound to the browser that started it (issue 18): a callback opened without the start's
// binding cookie (login CSRF: the attacker's callback URL in a victim's browser; linking CSRF: the
// attacker's link completed by the victim) is refused and changes nothing; a link needs a fresh
// proof at the start and its session alive at the callback; links and unlinks send notices.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { apiPrefix, paths } from '../../../src/api/contract/paths.ts';
import { externalLoginPaths } from '../../../src/api/contract/security.ts';
import { oidcLoginStates, userOidcIdentities } from '../../../server/db/schema.ts';
import { oidcRedirectUri } from '../../../server/domain/core/identity/oidc.ts';
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

const setCookies = (reply: Reply) => [reply.headers['set-cookie'] ?? []].flat().map(String);
/** The browser-binding cookie each started flow's browser holds, by the flow's state. */
const bindingByState = new Map<string, string>();
const bindingPattern = /^oidc_binding=([A-Za-z0-9_-]{40,}); Path=\/api\/app\/oidc\/callback; Max-Age=600; HttpOnly; SameSite=Lax$/;

async function start(server: TestServer, options: { token?: string; link?: boolean; returnTo?: string; password?: string; googleCode?: string } = {}) {
  const { token, ...body } = options;
  const reply = expectOk(await server.post(externalLoginPaths.oidcStart, { provider: 'local', ...body }, { token }));
  const url = reply.body.result.authorizationUrl as string;
  const binding = setCookies(reply).map((cookie) => bindingPattern.exec(cookie)?.[1]).find(Boolean);
  expect(binding).toBeTruthy();
  bindingByState.set(new URL(url).searchParams.get('state')!, binding!);
  return url;
}

/**
 * The browser arriving at the app's callback with what the provider sent it back with. By default
 * it is the browser that started the flow (it sends that flow's binding cookie); `cookie` names
 * another browser's cookie header (null: a browser without any).
 */
async function callback(server: TestServer, url: URL, cookie?: string | null): Promise<Reply> {
  expect(url.href.startsWith(oidcRedirectUri(publicOrigin))).toBe(true);
  const own = bindingByState.get(url.searchParams.get('state') ?? '');
  const header = cookie === undefined ? (own ? `oidc_binding=${own}` : undefined) : cookie ?? undefined;
  const response = await server.app.inject({
    method: 'GET', url: `${apiPrefix}${externalLoginPaths.oidcCallback}${url.search}`, headers: header ? { cookie: header } : {},
  });
  return { status: response.statusCode, headers: response.headers, body: response.body };
}

const location = (reply: Reply) => String(reply.headers.location);
const cookieToken = (reply: Reply) => setCookies(reply).map((cookie) => /^token=([^;]+); Path=\/; Max-Age=120; SameSite=Lax$/.exec(cookie)?.[1])
  .find(Boolean);

/** Every callback clears the binding cookie; a refused one sets no token. */
function expectFailure(reply: Reply, code: string, page = '/login') {
  expect(reply.status).toBe(302);
  expect(location(reply)).toBe(`${publicOrigin}/#${page}?oidcError=${code}`);
  expect(setCookies(reply)).toEqual(['oidc_binding=; Path=/api/app/oidc/callback; Max-Age=0; HttpOnly; SameSite=Lax']);
}

async function countRows(server: TestServer, table: 'user_oidc_identities' | 'oidc_login_states') {
  const [row] = await server.query<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`));
  return Number(row.n);
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
    const linked = await callback(server, await provider.authorize(await start(server,
      { token: owner.token, link: true, returnTo: '/anquanZhongxin', password: owner.password }), person));
    expect(location(linked)).toBe(`${publicOrigin}/#/anquanZhongxin?oidcLinked=1`);
    expect(cookieToken(linked)).toBeUndefined();
    expect(server.outbox(owner.email!).at(-1)?.text).toContain('A Local ID login was linked to your Bourse account');
    const listed = expectOk(await server.get(externalLoginPaths.linkedLogins, {}, { token: owner.token })).body.result;
    expect(listed.identities).toHaveLength(1);
    expect(listed.identities[0]).toMatchObject({ provider: 'local', providerName: 'Local ID' });

    // Logging in with it now opens the owner's account.
    const login = await callback(server, await provider.authorize(await start(server), person));
    const ownerInfo = expectOk(await server.get(paths.myUserInfo, {}, { token: owner.token })).body.result;
    expect(expectOk(await server.get(paths.myUserInfo, {}, { token: cookieToken(login) })).body.result.id).toBe(ownerInfo.id);

    const stranger = await server.registerByEmail();
    expectFailure(await callback(server, await provider.authorize(await start(server,
      { token: stranger.token, link: true, returnTo: '/anquanZhongxin', password: stranger.password }), person)),
    'identity_linked_elsewhere', '/anquanZhongxin');
    expectRefused(await server.post(externalLoginPaths.unlinkLogin, { identityId: listed.identities[0].id }, { token: stranger.token }),
      404, 'linked_login_not_found');
    expectOk(await server.post(externalLoginPaths.unlinkLogin, { identityId: listed.identities[0].id }, { token: owner.token }));
    expect(await server.db.select().from(userOidcIdentities).where(eq(userOidcIdentities.id, BigInt(listed.identities[0].id)))).toHaveLength(0);
    expect(server.outbox(owner.email!).at(-1)?.text).toContain('A Local ID login was removed from your Bourse account');
  });

  it('keeps the last way into an account made by a provider', async () => {
    const reply = await callback(server, await provider.authorize(await start(server), providerAccount()));
    const token = cookieToken(reply)!;
    const listed = expectOk(await server.get(externalLoginPaths.linkedLogins, {}, { token })).body.result;
    expect(listed.hasPasswordLogin).toBe(false);
    expectRefused(await server.post(externalLoginPaths.unlinkLogin, { identityId: listed.identities[0].id }, { token }), 409, 'last_login_method');
  });

  /** What a refused callback must leave as it was. */
  async function snapshot() {
    return {
      users: await server.count('users'), sessions: await server.count('sessions'),
      identities: await countRows(server, 'user_oidc_identities'),
    };
  }

  it('sets an HttpOnly binding cookie for the callback alone and keeps only its hash', async () => {
    const url = new URL(await start(server));
    const binding = bindingByState.get(url.searchParams.get('state')!)!;
    const [row] = await server.db.select().from(oidcLoginStates).where(eq(oidcLoginStates.stateHash, stateHashOf(url)));
    expect(row.browserBindingHash).toBe(createHash('sha256').update(binding).digest('hex'));
    expect(url.href).not.toContain(binding);
  });

  it('refuses the attacker\'s callback URL opened by another browser (login CSRF), and changes nothing', async () => {
    // The attacker starts a login, signs in at the provider with their own account and keeps the URL.
    const attacker = providerAccount(server.uniqueEmail());
    const back = await provider.authorize(await start(server), attacker);
    const before = await snapshot();
    // The victim's browser has no binding cookie, or one of its own flow.
    expectFailure(await callback(server, back, null), 'oidc_state_invalid');
    const victimBinding = bindingByState.get(new URL(await start(server)).searchParams.get('state')!)!;
    expectFailure(await callback(server, back, `oidc_binding=${victimBinding}`), 'oidc_state_invalid');
    expectFailure(await callback(server, back, 'oidc_binding=forged-value-of-some-length-0123456789abcdef'), 'oidc_state_invalid');
    expect(await snapshot()).toEqual(before);
    // The attacker's own browser could still complete it (the foreign attempts did not spend it).
    expect(cookieToken(await callback(server, back))).toBeTruthy();
  });

  it('refuses a link completed in another browser (linking CSRF): the victim\'s identity stays unlinked', async () => {
    const attacker = await server.registerByEmail();
    const victim = providerAccount(server.uniqueEmail());
    // The attacker starts a link from their own session and has the victim sign in at the provider.
    const back = await provider.authorize(await start(server, { token: attacker.token, link: true, password: attacker.password }), victim);
    const before = await snapshot();
    expectFailure(await callback(server, back, null), 'oidc_state_invalid');
    expect(await snapshot()).toEqual(before);
    expect(expectOk(await server.get(externalLoginPaths.linkedLogins, {}, { token: attacker.token })).body.result.identities).toEqual([]);
    // The victim's next "Continue with provider" opens an account of the victim's, not the attacker's.
    const login = await callback(server, await provider.authorize(await start(server), victim));
    const attackerInfo = expectOk(await server.get(paths.myUserInfo, {}, { token: attacker.token })).body.result;
    expect(expectOk(await server.get(paths.myUserInfo, {}, { token: cookieToken(login) })).body.result.id).not.toBe(attackerInfo.id);
  });

  it('refuses a link whose session ended before the callback, linking nothing', async () => {
    const owner = await server.registerByEmail();
    const back = await provider.authorize(await start(server, { token: owner.token, link: true, password: owner.password }), providerAccount());
    expectOk(await server.post(paths.logout, {}, { token: owner.token }));
    const before = await snapshot();
    expectFailure(await callback(server, back), 'oidc_session_ended', '/anquanZhongxin');
    expect(await snapshot()).toEqual(before);
  });

  it('starts a link only with a fresh proof (the password here); a login needs none', async () => {
    const owner = await server.registerByEmail();
    const flows = () => countRows(server, 'oidc_login_states');
    const before = await flows();
    expectRefused(await server.post(externalLoginPaths.oidcStart, { provider: 'local', link: true }, { token: owner.token }),
      400, 'password_required');
    const wrong = await server.post(externalLoginPaths.oidcStart, { provider: 'local', link: true, password: 'not-the-password1' },
      { token: owner.token });
    expectRefused(wrong, 400, 'credentials_invalid');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(await flows()).toBe(before);
    // A login needs no proof (there is no session to abuse), and a link with the password starts.
    await start(server);
    await start(server, { token: owner.token, link: true, password: owner.password });
    expect(await flows()).toBe(before + 2);
  });
}, { databases: 'embedded' });
