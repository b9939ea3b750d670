// Conformance: logins by another party's word, as a third-party client sees them. OpenID Connect
// against a real local provider (test/support/oidcProvider.ts): the provider list, an
// authorization request with state, nonce and PKCE S256, the provider sending the browser back to
// our callback, which answers a short-lived `token` cookie and a redirect into the app; the token
// opens the account; a replayed or made-up state is refused with no cookie. The start's answer sets
// an HttpOnly cookie that binds the flow to the browser (RFC 9700 §4.7): the callback is completed
// only with it, so a callback URL carried to another browser logs nobody in. Sign-In with Ethereum
// (EIP-4361) with the node:crypto wallet of ethSigner.ts: a nonce, a signed message, an account
// made by the first login and found by the next; a replayed nonce, another site's message and
// another key's signature are refused, and make no account (the operator's user search says so).
// Paths and fields were read (not imported) from src/api/contract/security.ts (externalLoginPaths).
//
// The server's public origin (PUBLIC_ORIGIN) is the SIWE domain and the OpenID redirect URI's
// origin; the provider must know that URI before the server starts and the server must know the
// provider's issuer, so this file names an origin of its own and starts the server with it and
// the provider (OIDC_*) in the environment startServer passes on. The test plays the browser: it
// carries the provider's answer to the server itself.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type LocalOidcProvider } from '../support/oidcProvider.ts';
import { demoOperatorToken } from './adminClient.ts';
import { checksumAddress, EthWallet, keccak256, siweMessage, type SiweFields } from './ethSigner.ts';
import { startServer, type RunningServer } from './server.ts';
import { errorOf, SpecClient, tokenOf, type Answer } from './specClient.ts';
import { describeAnswer, expectSuccess as ok } from './expectAnswer.ts';

const publicOrigin = 'https://app.bourse.test';
const callbackPath = '/api/app/oidc/callback';

let provider: LocalOidcProvider;
let server: RunningServer;
let client: SpecClient;
let operatorToken: string;

beforeAll(async () => {
  provider = await startOidcProvider(`${publicOrigin}${callbackPath}`);
  const extra = {
    PUBLIC_ORIGIN: publicOrigin, OIDC_PROVIDERS: 'local', OIDC_LOCAL_NAME: 'Local ID', OIDC_LOCAL_ISSUER: provider.issuer,
    OIDC_LOCAL_CLIENT_ID: provider.clientId, OIDC_LOCAL_CLIENT_SECRET: provider.clientSecret,
  };
  const saved = Object.fromEntries(Object.keys(extra).map((name) => [name, process.env[name]]));
  Object.assign(process.env, extra);
  try {
    server = await startServer();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]; else process.env[name] = value;
    }
  }
  client = new SpecClient(server.baseUrl);
  operatorToken = await demoOperatorToken(client);
});

afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

const unique = () => crypto.randomBytes(5).toString('hex');
function expectRefused(answer: Answer, status: number, error: string) {
  expect({ status: answer.status, error: errorOf(answer), token: tokenOf(answer) }, describeAnswer(answer))
    .toEqual({ status, error, token: undefined });
}

interface UserInfo { id: string; email: string | null; phone: string | null }
interface SessionInfo { current: boolean; method: string }
interface UserSecurity { userId: string; wallets: string[]; oidcProviders: string[] }

async function me(token: string): Promise<UserInfo> {
  return ok(await client.myUserInfo(token)) as UserInfo;
}
/** The method of the session `token` opened, from the user's own session list. */
async function sessionMethod(token: string): Promise<string | undefined> {
  return ok(await client.get<SessionInfo[]>('/user/appSession/listMy', {}, token)).find((session) => session.current)?.method;
}
/** The operator's user search (/admin/users), which names a user's wallets and providers. */
async function searchUsers(q: string) {
  return ok(await client.get<{ total: number; records: UserSecurity[] }>('/admin/users', { q }, operatorToken));
}

describe('OpenID Connect', () => {
  /** What the browser gets from our callback when it brings the provider's answer back. */
  /** `cookie`: the `token` cookie the landing set, if any; `cookies`: every Set-Cookie line. */
  interface Landing { status: number; location: string | null; cookie: string | null; cookies: string[]; cacheControl: string | null }

  /** The binding cookie's value each start's answer set, by the flow's state: this client's cookie jar. */
  const jar = new Map<string, string>();
  const bindingPattern = /^oidc_binding=([A-Za-z0-9_-]{22,}); Path=\/api\/app\/oidc\/callback; Max-Age=(\d+); HttpOnly; SameSite=Lax; Secure$/;

  /** POST /app/oidc/start as the browser sends it (sealed), keeping the binding cookie of its answer. */
  async function start(body: { provider?: string; returnTo?: string } = {}): Promise<URL> {
    const response = await fetch(new URL('/api/app/oidc/start', server.baseUrl), {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: await client.seal({ provider: 'local', ...body }),
      signal: AbortSignal.timeout(60_000),
    });
    const url = new URL((JSON.parse(await response.text()) as { result: { authorizationUrl: string } }).result.authorizationUrl);
    const binding = response.headers.getSetCookie().map((line) => bindingPattern.exec(line)).find(Boolean);
    expect(binding, `set-cookie: ${response.headers.getSetCookie().join(' | ')}`).toBeTruthy();
    // It lives as long as the flow may wait for the provider (ten minutes), no longer.
    expect(Number(binding![2])).toBeGreaterThan(0);
    expect(Number(binding![2])).toBeLessThanOrEqual(600);
    jar.set(url.searchParams.get('state')!, binding![1]);
    return url;
  }

  /**
   * The browser arriving at our callback with the provider's query (code, state, iss). By default
   * the browser that started the flow, sending its binding cookie; `browser: 'other'` one without it.
   */
  async function land(back: URL, browser: 'same' | 'other' = 'same'): Promise<Landing> {
    expect(`${back.origin}${back.pathname}`).toBe(`${publicOrigin}${callbackPath}`);
    const binding = jar.get(back.searchParams.get('state') ?? '');
    const headers: Record<string, string> = browser === 'same' && binding ? { cookie: `oidc_binding=${binding}` } : {};
    const response = await fetch(new URL(`${callbackPath}${back.search}`, server.baseUrl),
      { redirect: 'manual', headers, signal: AbortSignal.timeout(60_000) });
    await response.arrayBuffer();
    const cookies = response.headers.getSetCookie();
    return {
      status: response.status, location: response.headers.get('location'),
      cookie: cookies.find((line) => line.startsWith('token=')) ?? null, cookies, cacheControl: response.headers.get('cache-control'),
    };
  }

  /** The session token of the `token` cookie a landing set (short-lived, whole site, Secure on https). */
  function cookieToken(landing: Landing): string {
    const match = /^token=([^;]+); Path=\/; Max-Age=(\d+); SameSite=Lax; Secure$/.exec(landing.cookie ?? '');
    expect(match, `set-cookie: ${landing.cookie}`).not.toBeNull();
    expect(Number(match![2])).toBeGreaterThan(0);
    expect(Number(match![2])).toBeLessThanOrEqual(600);
    return match![1];
  }

  function expectRefusedLanding(landing: Landing, code: string) {
    expect(landing).toMatchObject({ status: 302, location: `${publicOrigin}/#/login?oidcError=${code}`, cookie: null });
    // The binding cookie is cleared whatever the outcome.
    expect(landing.cookies.some((line) => /^oidc_binding=;.*Max-Age=0/.test(line)), landing.cookies.join(' | ')).toBe(true);
  }

  function providerAccount(emailVerified = true) {
    const id = `conf-person-${unique()}`;
    const email = `conf-oidc-${unique()}@example.test`;
    provider.accounts.set(id, { email, emailVerified });
    return { id, email };
  }

  it('lists the configured provider; refuses a provider it does not have', async () => {
    expect(ok(await client.get('/app/oidc/providers'))).toEqual([{ id: 'local', name: 'Local ID' }]);
    expectRefused(await client.post('/app/oidc/start', { provider: 'elsewhere' }), 400, 'oidc_provider_unknown');
  });

  it('asks the provider for a code with state, nonce and PKCE S256, back to our callback', async () => {
    const url = await start();
    const first = await start();
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer}/auth`);
    const query = Object.fromEntries(url.searchParams);
    expect(query).toMatchObject({
      client_id: provider.clientId, response_type: 'code', redirect_uri: `${publicOrigin}${callbackPath}`, code_challenge_method: 'S256',
    });
    expect(query.scope.split(' ')).toEqual(expect.arrayContaining(['openid', 'email']));
    // RFC 7636: the challenge is base64url(SHA-256(verifier)), 43 characters; the verifier stays on the server.
    expect(query.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const name of ['state', 'nonce']) expect(query[name]).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    // Each request has its own state, nonce and challenge.
    for (const name of ['state', 'nonce', 'code_challenge']) expect(first.searchParams.get(name)).not.toBe(query[name]);
  });

  it('logs in: the callback sets the token cookie and opens the app; the next login finds the same account', async () => {
    const person = providerAccount();
    const landing = await land(await provider.authorize((await start()).href, person.id));
    expect(landing.status).toBe(302);
    expect(landing.location).toBe(`${publicOrigin}/#/home`);
    expect(landing.cacheControl).toContain('no-store');
    const token = cookieToken(landing);
    const user = await me(token);
    // A verified e-mail nobody uses becomes the new account's.
    expect(user.email).toBe(person.email);
    expect(await sessionMethod(token)).toBe('oidc');

    const again = await land(await provider.authorize((await start({ returnTo: '/wallet' })).href, person.id));
    expect(again.location).toBe(`${publicOrigin}/#/wallet`);
    const second = cookieToken(again);
    expect(second).not.toBe(token);
    expect((await me(second)).id).toBe(user.id);
    const found = await searchUsers(person.email);
    expect(found.total).toBe(1);
    expect(found.records[0]).toMatchObject({ userId: user.id, oidcProviders: ['local'] });
  });

  it('refuses a replayed callback, a made-up state and a missing one, with no cookie', async () => {
    const back = await provider.authorize((await start()).href, providerAccount().id);
    expect((await me(cookieToken(await land(back)))).id).toEqual(expect.any(String));
    expectRefusedLanding(await land(back), 'oidc_state_invalid');

    const madeUp = new URL(back);
    madeUp.searchParams.set('state', crypto.randomBytes(32).toString('base64url'));
    expectRefusedLanding(await land(madeUp), 'oidc_state_invalid');
    const stateless = new URL(back);
    stateless.searchParams.delete('state');
    expectRefusedLanding(await land(stateless), 'oidc_state_invalid');
  });

  it('refuses the callback in a browser that did not start the flow (login CSRF), which can still be completed by the one that did', async () => {
    const person = providerAccount();
    const back = await provider.authorize((await start()).href, person.id);
    expectRefusedLanding(await land(back, 'other'), 'oidc_state_invalid');
    expect((await searchUsers(person.email)).total).toBe(0);
    const landing = await land(back);
    expect((await me(cookieToken(landing))).email).toBe(person.email);
  });

  it('refuses a real state with a code the provider did not give, and spends the state', async () => {
    const person = providerAccount();
    const back = await provider.authorize((await start()).href, person.id);
    const forged = new URL(back);
    forged.searchParams.set('code', crypto.randomBytes(32).toString('base64url'));
    expectRefusedLanding(await land(forged), 'oidc_callback_invalid');
    // The state was spent by the refused attempt: the real code cannot follow it.
    expectRefusedLanding(await land(back), 'oidc_state_invalid');
    expect((await searchUsers(person.email)).total).toBe(0);
  });
});

describe('Sign-In with Ethereum', () => {
  interface Nonce {
    nonce: string; domain: string; uri: string; chainId: number; version: string; statement: string;
    issuedAt: string; expirationTime: string;
  }

  it('signs like a wallet: keccak-256 and the address of private key 1 match the known vectors', () => {
    expect(keccak256('').toString('hex')).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(keccak256('abc').toString('hex')).toBe('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
    expect(new EthWallet(1n).address).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
    // EIP-55's own example.
    expect(checksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
  });

  async function nonce(): Promise<Nonce> {
    return ok(await client.get<Nonce>('/app/siwe/nonce'));
  }
  /** The message a wallet writes from the nonce's fields, with `override` for a misbehaving client. */
  async function message(wallet: EthWallet, override: Partial<SiweFields> = {}) {
    const fields = await nonce();
    return siweMessage({ ...fields, address: wallet.address, ...override });
  }
  const login = (text: string, signature: string) => client.post<{ token: string }>('/app/siwe/login', { message: text, signature });

  it('hands out a single-use nonce with the fields of our site', async () => {
    const fields = await nonce();
    expect(fields).toMatchObject({ domain: new URL(publicOrigin).host, uri: publicOrigin, chainId: 1, version: '1', statement: expect.any(String) });
    // EIP-4361: the nonce is at least 8 alphanumeric characters; the times are ISO 8601.
    expect(fields.nonce).toMatch(/^[A-Za-z0-9]{8,}$/);
    expect(Date.parse(fields.expirationTime)).toBeGreaterThan(Date.parse(fields.issuedAt));
    expect((await nonce()).nonce).not.toBe(fields.nonce);
  });

  it('logs in: the first login makes an account, the next finds it; a replayed message is refused', async () => {
    const wallet = new EthWallet();
    const text = await message(wallet);
    const signature = wallet.personalSign(text);
    const token = tokenOf(await login(text, signature));
    expect(token).toEqual(expect.any(String));
    const user = await me(token!);
    expect(user).toMatchObject({ email: null, phone: null });
    expect(await sessionMethod(token!)).toBe('wallet');
    const linked = ok(await client.get<{ wallets: Array<{ address: string }>; hasPasswordLogin: boolean }>('/user/appUser/linkedLogins', {}, token));
    expect(linked.wallets.map((linkedWallet) => linkedWallet.address)).toEqual([wallet.address.toLowerCase()]);
    expect(linked.hasPasswordLogin).toBe(false);

    expectRefused(await login(text, signature), 400, 'siwe_nonce_invalid');

    const next = await message(wallet);
    const again = tokenOf(await login(next, wallet.personalSign(next)));
    expect(again).toEqual(expect.any(String));
    expect((await me(again!)).id).toBe(user.id);
    const found = await searchUsers(wallet.address);
    expect(found.total).toBe(1);
    expect(found.records[0]).toMatchObject({ userId: user.id, wallets: [wallet.address.toLowerCase()] });
  });

  it('refuses a message for another site and a signature by another key, and makes no account', async () => {
    const wallet = new EthWallet();
    const elsewhere = await message(wallet, { domain: 'evil.example', uri: 'https://evil.example' });
    expectRefused(await login(elsewhere, wallet.personalSign(elsewhere)), 400, 'siwe_domain_mismatch');
    const otherUri = await message(wallet, { uri: 'https://evil.example/login' });
    expectRefused(await login(otherUri, wallet.personalSign(otherUri)), 400, 'siwe_domain_mismatch');

    const text = await message(wallet);
    const impostor = new EthWallet();
    expectRefused(await login(text, impostor.personalSign(text)), 400, 'siwe_signature_invalid');
    // A signature of another message by the right key does not fit this one either.
    expectRefused(await login(text, wallet.personalSign(`${text}\n`)), 400, 'siwe_signature_invalid');
    // A nonce the server never issued.
    const unissued = siweMessage({ ...(await nonce()), address: wallet.address, nonce: crypto.randomBytes(8).toString('hex') });
    expectRefused(await login(unissued, wallet.personalSign(unissued)), 400, 'siwe_nonce_invalid');

    expect((await searchUsers(wallet.address)).total).toBe(0);
    expect((await searchUsers(impostor.address)).total).toBe(0);
  });
});
