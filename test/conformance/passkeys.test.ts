// Conformance: passkeys (WebAuthn) as a third-party client sees them, with the node:crypto software
// authenticator (softAuthenticator.ts). Paths and fields were read (not imported) from
// src/api/contract/security.ts: registerOptions { password | googleCode | recoveryCode | emailCode |
// phoneCode } (the fresh proof that lets a passkey be added; password_required without it) and
// loginOptions {} → { challengeId, options };
// register { challengeId, response, name? } → passkey info; listMy; remove { id }; login
// { challengeId, response } → { token }. The relying party is the server's public origin: the
// conformance server sets no PUBLIC_ORIGIN, so it is http://localhost:<its port>.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCode, startServer, type RunningServer } from './server.ts';
import { SoftAuthenticator } from './softAuthenticator.ts';
import { errorOf, isSuccess, SpecClient, tokenOf } from './specClient.ts';
import { describeAnswer, expectSuccess as ok } from './expectAnswer.ts';

let server: RunningServer;
let client: SpecClient;
let device: SoftAuthenticator;

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
  const origin = process.env.PUBLIC_ORIGIN?.replace(/\/+$/, '') || `http://localhost:${new URL(server.baseUrl).port}`;
  device = new SoftAuthenticator(origin);
});

afterAll(async () => {
  await server?.stop();
});

interface PasskeyInfo {
  id: string; name: string; createdAt: number; lastUsedAt: number | null; backedUp: boolean; deviceType: string; flaggedAt?: number | null;
}
interface Options<T> { challengeId: string; options: T }
type CreationOptions = { challenge: string; rp: { id?: string; name: string }; user: { id: string; name: string } };
type RequestOptions = { challenge: string; rpId?: string };

const unique = () => crypto.randomBytes(5).toString('hex');

describe('passkeys', () => {
  const email = `conf-passkey-${unique()}@example.test`;
  const password = `Conf${unique()}9`;
  let token: string;
  let passkeyId: string;

  it('registers a passkey and lists it', async () => {
    expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
    const code = await readCode(server.dataDir, email, 'email');
    const registered = await client.register({ accountType: 'email', account: email, password, code });
    token = tokenOf(registered)!;
    expect(token, describeAnswer(registered)).toEqual(expect.any(String));
    expect(ok(await client.get<PasskeyInfo[]>('/user/appPasskey/listMy', {}, token))).toEqual([]);

    // Adding a way in needs more than the session: without a proof, or with a wrong password, no challenge.
    const bare = await client.post('/user/appPasskey/registerOptions', {}, token);
    expect({ status: bare.status, error: errorOf(bare) }, describeAnswer(bare)).toEqual({ status: 400, error: 'password_required' });
    const wrong = await client.post('/user/appPasskey/registerOptions', { password: `${password}x` }, token);
    expect({ status: wrong.status, error: errorOf(wrong) }, describeAnswer(wrong)).toEqual({ status: 400, error: 'credentials_invalid' });
    const { challengeId, options } = ok(await client.post<Options<CreationOptions>>('/user/appPasskey/registerOptions', { password }, token));
    expect(challengeId).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(options.challenge).toEqual(expect.any(String));
    const info = ok(await client.post<PasskeyInfo>('/user/appPasskey/register',
      { challengeId, response: device.create(options), name: 'Conformance key' }, token));
    passkeyId = info.id;
    expect(passkeyId).toBe(device.credentials[0].id.toString('base64url'));
    expect(info).toMatchObject({ name: 'Conformance key', lastUsedAt: null, createdAt: expect.any(Number) });

    const list = ok(await client.get<PasskeyInfo[]>('/user/appPasskey/listMy', {}, token));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: passkeyId, name: 'Conformance key' });
  });

  it('logs in with it: the token works; a replayed answer is refused', async () => {
    const { challengeId, options } = ok(await client.post<Options<RequestOptions>>('/app/passkey/loginOptions', {}));
    const body = { challengeId, response: device.get(options) };
    const loggedIn = await client.post('/app/passkey/login', body);
    const passkeyToken = tokenOf(loggedIn);
    expect(passkeyToken, describeAnswer(loggedIn)).toEqual(expect.any(String));
    const me = ok(await client.myUserInfo(passkeyToken));
    expect(me.email).toBe(email);

    // The same answer again: its challenge is spent.
    const replayed = await client.post('/app/passkey/login', body);
    expect(tokenOf(replayed), describeAnswer(replayed)).toBeUndefined();
    expect(errorOf(replayed), describeAnswer(replayed)).toBe('passkey_challenge_invalid');
    // The old answer under a fresh challenge: it signed another challenge.
    const fresh = ok(await client.post<Options<RequestOptions>>('/app/passkey/loginOptions', {}));
    const moved = await client.post('/app/passkey/login', { challengeId: fresh.challengeId, response: body.response });
    expect(tokenOf(moved), describeAnswer(moved)).toBeUndefined();
    expect(errorOf(moved), describeAnswer(moved)).toBe('passkey_verification_failed');

    const list = ok(await client.get<PasskeyInfo[]>('/user/appPasskey/listMy', {}, token));
    expect(list[0].lastUsedAt).toEqual(expect.any(Number));
  });

  it('flags a passkey whose signature counter went backwards (a copy of it) and refuses it from then on', async () => {
    const credential = device.credentials[0];
    const login = async (counter: number) => {
      const { challengeId, options } = ok(await client.post<Options<RequestOptions>>('/app/passkey/loginOptions', {}));
      return client.post('/app/passkey/login', { challengeId, response: device.get(options, credential, { counter }) });
    };
    expect(tokenOf(await login(50))).toEqual(expect.any(String));
    const backwards = await login(5);
    expect({ token: tokenOf(backwards), error: errorOf(backwards) }, describeAnswer(backwards))
      .toEqual({ token: undefined, error: 'passkey_verification_failed' });
    const list = ok(await client.get<PasskeyInfo[]>('/user/appPasskey/listMy', {}, token));
    expect(list[0].flaggedAt).toEqual(expect.any(Number));
    const forward = await login(51);
    expect(tokenOf(forward), describeAnswer(forward)).toBeUndefined();
  });

  it('removes it: then it no longer logs in', async () => {
    ok(await client.post('/user/appPasskey/remove', { id: passkeyId }, token));
    expect(ok(await client.get<PasskeyInfo[]>('/user/appPasskey/listMy', {}, token))).toEqual([]);
    const again = await client.post('/user/appPasskey/remove', { id: passkeyId }, token);
    expect(errorOf(again), describeAnswer(again)).toBe('passkey_not_found');

    const { challengeId, options } = ok(await client.post<Options<RequestOptions>>('/app/passkey/loginOptions', {}));
    const refused = await client.post('/app/passkey/login', { challengeId, response: device.get(options) });
    expect(tokenOf(refused), describeAnswer(refused)).toBeUndefined();
    // A removed passkey is one the server does not know: its own code, so the app can say so.
    expect(errorOf(refused), describeAnswer(refused)).toBe('passkey_unknown');
  });

  it('needs a session to register, list and remove', async () => {
    for (const answer of [
      await client.post('/user/appPasskey/registerOptions', { password: 'Whatever123' }),
      await client.get('/user/appPasskey/listMy'),
      await client.post('/user/appPasskey/remove', { id: passkeyId }),
    ]) {
      expect(answer.status, describeAnswer(answer)).toBe(401);
      expect(answer.envelope?.code).toBe(401);
    }
  });
});
