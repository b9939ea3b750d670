// Passkeys (WebAuthn) through the real protocol, with a software authenticator (ES256, attestation
// "none", built from node:crypto): registration, list, removal, discoverable login, and what is
// refused — another origin, a replayed or expired challenge, a forged signature, a counter that
// does not move forward, another user's passkey — each changing nothing. Adding a passkey needs a
// fresh proof (the password, a code to the account's e-mail, or the Google code when bound); a
// counter that went backwards under a valid signature flags the passkey and tells the owner.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { passkeyPaths, twoFactorPaths } from '../../../src/api/contract/security.ts';
import { paths } from '../../../src/api/contract/paths.ts';
import { userPasskeys, webauthnChallenges } from '../../../server/db/schema.ts';
import { totpCode } from '../../../server/domain/kernel/totp.ts';
import { SoftAuthenticator } from '../../conformance/softAuthenticator.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';

/** The password registerByEmail gives every account: the fresh proof registerOptions asks for. */
const password = 'Secret123pass';

forEachDatabase((server: TestServer) => {
  const authenticator = () => new SoftAuthenticator(server.services.publicOrigin);

  async function registerPasskey(token: string, device = authenticator(), name?: string) {
    const options = expectOk(await server.post(passkeyPaths.registerOptions, { password }, { token })).body.result;
    const response = device.create(options.options);
    const answer = expectOk(await server.post(passkeyPaths.register, { challengeId: options.challengeId, response, name }, { token }));
    return { device, passkey: answer.body.result, credential: device.credentials[device.credentials.length - 1] };
  }

  async function loginOptions() {
    return expectOk(await server.post(passkeyPaths.loginOptions, {})).body.result as { challengeId: string; options: { challenge: string; rpId: string } };
  }

  const storedPasskey = async (id: string) => (await server.db.select().from(userPasskeys).where(eq(userPasskeys.credentialId, id)))[0];

  describe('registration', () => {
    it('gives options for this relying party, requiring a resident key and user verification', async () => {
      const { token } = await server.registerByEmail();
      const { challengeId, options } = expectOk(await server.post(passkeyPaths.registerOptions, { password }, { token })).body.result;
      expect(challengeId).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      expect(options.rp).toEqual({ name: 'Bourse', id: 'localhost' });
      expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
      expect(options.excludeCredentials).toEqual([]);
      const [row] = await server.db.select().from(webauthnChallenges).where(eq(webauthnChallenges.id, challengeId));
      expect(row.purpose).toBe('register');
      expect(row.expiresAt.getTime() - server.clock.now().getTime()).toBe(5 * 60_000);
    });

    it('keeps a verified passkey and lists it with its name; the next options exclude it', async () => {
      const { token } = await server.registerByEmail();
      const { passkey, credential } = await registerPasskey(token, authenticator(), ' My phone ');
      expect(passkey).toMatchObject({ name: 'My phone', lastUsedAt: null, backedUp: false, deviceType: 'singleDevice' });
      expect(passkey.id).toBe(credential.id.toString('base64url'));
      expect(passkey.createdAt).toBe(server.clock.now().getTime());
      const list = expectOk(await server.get(passkeyPaths.list, {}, { token })).body.result;
      expect(list).toEqual([passkey]);
      const next = expectOk(await server.post(passkeyPaths.registerOptions, { password }, { token })).body.result;
      expect(next.options.excludeCredentials).toEqual([{ id: passkey.id, type: 'public-key', transports: ['internal'] }]);
    });

    it('needs a session', async () => {
      expectRefused(await server.post(passkeyPaths.registerOptions, { password }), 401, 'unauthorized');
      expectRefused(await server.get(passkeyPaths.list), 401, 'unauthorized');
    });

    it('refuses an answer made for another origin, and the challenge is then spent', async () => {
      const { token } = await server.registerByEmail();
      const device = authenticator();
      const { challengeId, options } = expectOk(await server.post(passkeyPaths.registerOptions, { password }, { token })).body.result;
      expectRefused(await server.post(passkeyPaths.register,
        { challengeId, response: device.create(options, { origin: 'https://bourse.evil.example' }) }, { token }),
      400, 'passkey_verification_failed');
      expectRefused(await server.post(passkeyPaths.register, { challengeId, response: device.create(options) }, { token }),
        400, 'passkey_challenge_invalid');
      expect(expectOk(await server.get(passkeyPaths.list, {}, { token })).body.result).toEqual([]);
    });

    it('refuses a wrong challenge, no user verification, an expired challenge and another user\'s challenge', async () => {
      const { token } = await server.registerByEmail();
      const other = await server.registerByEmail();
      const device = authenticator();
      const fresh = async () => expectOk(await server.post(passkeyPaths.registerOptions, { password }, { token })).body.result;
      let { challengeId, options } = await fresh();
      expectRefused(await server.post(passkeyPaths.register,
        { challengeId, response: device.create(options, { challenge: Buffer.alloc(32, 7).toString('base64url') }) }, { token }),
      400, 'passkey_verification_failed');
      ({ challengeId, options } = await fresh());
      expectRefused(await server.post(passkeyPaths.register,
        { challengeId, response: device.create(options, { noUserVerification: true }) }, { token }),
      400, 'passkey_verification_failed');
      ({ challengeId, options } = await fresh());
      expectRefused(await server.post(passkeyPaths.register, { challengeId, response: device.create(options) }, { token: other.token }),
        400, 'passkey_challenge_invalid');
      ({ challengeId, options } = await fresh());
      server.clock.advance(5 * 60_000);
      expectRefused(await server.post(passkeyPaths.register, { challengeId, response: device.create(options) }, { token }),
        400, 'passkey_challenge_invalid');
      expect(expectOk(await server.get(passkeyPaths.list, {}, { token })).body.result).toEqual([]);
      expect(expectOk(await server.get(passkeyPaths.list, {}, { token: other.token })).body.result).toEqual([]);
    });

    it('refuses a malformed answer before looking at it', async () => {
      const { token } = await server.registerByEmail();
      const { challengeId } = expectOk(await server.post(passkeyPaths.registerOptions, { password }, { token })).body.result;
      expectRefused(await server.post(passkeyPaths.register, { challengeId, response: { id: 'x' } }, { token }), 400, 'invalid_request');
      expectRefused(await server.post(passkeyPaths.register, { challengeId: 'a b', response: {} }, { token }), 400, 'invalid_request');
    });
  });

  describe('login', () => {
    it('logs in with a registered passkey (discoverable: no allow list) and records its use', async () => {
      const account = await server.registerByEmail();
      const { device, passkey } = await registerPasskey(account.token);
      const { challengeId, options } = await loginOptions();
      expect(options.rpId).toBe('localhost');
      expect(options).not.toHaveProperty('allowCredentials');
      server.clock.advance(1000);
      const answer = expectOk(await server.post(passkeyPaths.login, { challengeId, response: device.get(options) }));
      const token = answer.body.result.token as string;
      const me = expectOk(await server.get(paths.myUserInfo, {}, { token })).body.result;
      expect(me.email).toBe(account.email);
      const stored = await storedPasskey(passkey.id);
      expect(stored.counter).toBe(1n);
      expect(stored.lastUsedAt?.getTime()).toBe(server.clock.now().getTime());
    });

    it('refuses a replayed challenge and a replayed assertion', async () => {
      const { token } = await server.registerByEmail();
      const { device } = await registerPasskey(token);
      const { challengeId, options } = await loginOptions();
      const response = device.get(options);
      expectOk(await server.post(passkeyPaths.login, { challengeId, response }));
      expectRefused(await server.post(passkeyPaths.login, { challengeId, response }), 400, 'passkey_challenge_invalid');
      const second = await loginOptions();
      expectRefused(await server.post(passkeyPaths.login, { challengeId: second.challengeId, response }), 400, 'passkey_verification_failed');
    });

    it('refuses another origin, a forged signature, an unknown passkey and an expired challenge; nothing moves', async () => {
      const { token } = await server.registerByEmail();
      const { device, passkey, credential } = await registerPasskey(token);
      const sessionsBefore = await server.count('sessions');
      let { challengeId, options } = await loginOptions();
      expectRefused(await server.post(passkeyPaths.login,
        { challengeId, response: device.get(options, credential, { origin: 'http://localhost:1', counter: 5 }) }),
      400, 'passkey_verification_failed');
      ({ challengeId, options } = await loginOptions());
      expectRefused(await server.post(passkeyPaths.login,
        { challengeId, response: device.get(options, device.impostor(credential), { counter: 6 }) }),
      400, 'passkey_verification_failed');
      ({ challengeId, options } = await loginOptions());
      const stranger = authenticator();
      stranger.create({ challenge: options.challenge, rp: { name: 'Bourse' }, user: { id: 'AAAA', name: 'nobody' } });
      expectRefused(await server.post(passkeyPaths.login, { challengeId, response: stranger.get(options) }),
        400, 'passkey_unknown');
      ({ challengeId, options } = await loginOptions());
      server.clock.advance(5 * 60_000);
      expectRefused(await server.post(passkeyPaths.login, { challengeId, response: device.get(options, credential, { counter: 7 }) }),
        400, 'passkey_challenge_invalid');
      expectRefused(await server.post(passkeyPaths.login, { challengeId: 'no-such-challenge', response: device.get(options, credential, { counter: 8 }) }),
        400, 'passkey_challenge_invalid');
      expect(await server.count('sessions')).toBe(sessionsBefore);
      const stored = await storedPasskey(passkey.id);
      expect(stored.counter).toBe(0n);
      expect(stored.lastUsedAt).toBeNull();
    });

    it('refuses a signature counter that went backwards (a cloned authenticator), flags the passkey and tells the owner', async () => {
      const owner = await server.registerByEmail();
      const { device, passkey, credential } = await registerPasskey(owner.token, authenticator(), 'Phone');
      let { challengeId, options } = await loginOptions();
      expectOk(await server.post(passkeyPaths.login, { challengeId, response: device.get(options, credential, { counter: 10 }) }));
      const sessionsBefore = await server.count('sessions');
      ({ challengeId, options } = await loginOptions());
      expectRefused(await server.post(passkeyPaths.login, { challengeId, response: device.get(options, credential, { counter: 3 }) }),
        400, 'passkey_verification_failed');
      const stored = await storedPasskey(passkey.id);
      expect(stored.counter).toBe(10n);
      expect(stored.flaggedAt?.getTime()).toBe(server.clock.now().getTime());
      expect(server.outbox(owner.email!).at(-1)?.text).toContain('A login with your passkey "Phone" was refused');
      const listed = expectOk(await server.get(passkeyPaths.list, {}, { token: owner.token })).body.result;
      expect(listed[0].flaggedAt).toBe(server.clock.now().getTime());
      // Flagged, it is refused from then on even with a counter that moves forward; one notice only.
      const notices = server.outbox(owner.email!).length;
      ({ challengeId, options } = await loginOptions());
      expectRefused(await server.post(passkeyPaths.login, { challengeId, response: device.get(options, credential, { counter: 11 }) }),
        400, 'passkey_verification_failed');
      expect((await storedPasskey(passkey.id)).counter).toBe(10n);
      expect(await server.count('sessions')).toBe(sessionsBefore);
      expect(server.outbox(owner.email!)).toHaveLength(notices);
    });

    it('does not flag a passkey for an old counter under a forged signature (knowing its id is not enough)', async () => {
      const owner = await server.registerByEmail();
      const { device, passkey, credential } = await registerPasskey(owner.token);
      let { challengeId, options } = await loginOptions();
      expectOk(await server.post(passkeyPaths.login, { challengeId, response: device.get(options, credential, { counter: 10 }) }));
      ({ challengeId, options } = await loginOptions());
      expectRefused(await server.post(passkeyPaths.login,
        { challengeId, response: device.get(options, device.impostor(credential), { counter: 2 }) }), 400, 'passkey_verification_failed');
      expect((await storedPasskey(passkey.id)).flaggedAt).toBeNull();
      ({ challengeId, options } = await loginOptions());
      expectOk(await server.post(passkeyPaths.login, { challengeId, response: device.get(options, credential, { counter: 11 }) }));
    });

    it('refuses an assertion whose user handle names another account', async () => {
      const { token } = await server.registerByEmail();
      const { device, credential } = await registerPasskey(token);
      const { challengeId, options } = await loginOptions();
      const response = device.get(options, { ...credential, userHandle: Buffer.alloc(32, 1).toString('base64url') });
      expectRefused(await server.post(passkeyPaths.login, { challengeId, response }), 400, 'passkey_verification_failed');
    });
  });

  describe('removal', () => {
    it('removes only the user\'s own passkey; another user\'s id is not found and stays', async () => {
      const owner = await server.registerByEmail();
      const other = await server.registerByEmail();
      const { device, passkey } = await registerPasskey(owner.token, authenticator(), 'Work laptop');
      // The owner is told of each change to the ways into the account (ASVS V6.3.7).
      expect(server.outbox(owner.email!).at(-1)?.text).toContain('A passkey "Work laptop" was added');
      expectRefused(await server.post(passkeyPaths.remove, { id: passkey.id }, { token: other.token }), 404, 'passkey_not_found');
      expect(await storedPasskey(passkey.id)).toBeDefined();
      expect(server.outbox(other.email!).some((message) => message.text.includes('passkey'))).toBe(false);
      expectOk(await server.post(passkeyPaths.remove, { id: passkey.id }, { token: owner.token }));
      expect(server.outbox(owner.email!).at(-1)?.text).toContain('The passkey "Work laptop" was removed');
      expect(expectOk(await server.get(passkeyPaths.list, {}, { token: owner.token })).body.result).toEqual([]);
      expectRefused(await server.post(passkeyPaths.remove, { id: passkey.id }, { token: owner.token }), 404, 'passkey_not_found');
      const { challengeId, options } = await loginOptions();
      expectRefused(await server.post(passkeyPaths.login, { challengeId, response: device.get(options) }), 400, 'passkey_unknown');
    });
  });

  describe('limits', () => {
    it('limits login options per address', async () => {
      const ip = server.freshIp();
      for (let i = 0; i < server.limits.loginAttemptsPerIpPerMinute; i += 1) {
        expectOk(await server.post(passkeyPaths.loginOptions, {}, { ip }));
      }
      expectRefused(await server.post(passkeyPaths.loginOptions, {}, { ip }), 429, 'rate_limited');
      server.clock.advance(60_000);
      expectOk(await server.post(passkeyPaths.loginOptions, {}, { ip }));
    });
  });

  describe('a fresh proof to add a passkey', () => {
    const challengesOf = async (token: string) => {
      const me = expectOk(await server.get(paths.myUserInfo, {}, { token })).body.result;
      const [row] = await server.query<{ n: number }>(sql`select count(*)::int as n from webauthn_challenges where user_id = ${BigInt(me.id)}`);
      return Number(row.n);
    };

    it('asks for the password, refuses a wrong one, and issues no challenge until it is right', async () => {
      const { token } = await server.registerByEmail();
      expectRefused(await server.post(passkeyPaths.registerOptions, {}, { token }), 400, 'password_required');
      expectRefused(await server.post(passkeyPaths.registerOptions, { password: 'Wrong123pass' }, { token }), 400, 'credentials_invalid');
      expect(await challengesOf(token)).toBe(0);
      expectOk(await server.post(passkeyPaths.registerOptions, { password }, { token }));
      expect(await challengesOf(token)).toBe(1);
    });

    it('takes a code sent to the account\'s own e-mail instead, once', async () => {
      const account = await server.registerByEmail();
      expectOk(await server.requestEmailCode(account.email!, 'addLogin', { token: account.token }));
      const emailCode = server.latestCode(account.email!);
      expectOk(await server.post(passkeyPaths.registerOptions, { emailCode }, { token: account.token }));
      expectRefused(await server.post(passkeyPaths.registerOptions, { emailCode }, { token: account.token }), 400, 'code_invalid');
      expect(await challengesOf(account.token)).toBe(1);
    });

    it('needs the Google code on a bound account (the password is not enough), used once', async () => {
      const account = await server.registerByEmail();
      const key = expectOk(await server.get(twoFactorPaths.generateGoogleKey, {}, { token: account.token })).body.result as { secret: string };
      expectOk(await server.post(twoFactorPaths.bindGoogleAuth,
        { secret: key.secret, code: await totpCode(key.secret, server.clock.now().getTime()) }, { token: account.token }));
      server.clock.advance(30_000);
      const googleCode = await totpCode(key.secret, server.clock.now().getTime());
      const wrongCode = googleCode === '000000' ? '111111' : '000000';
      expectRefused(await server.post(passkeyPaths.registerOptions, { password }, { token: account.token }), 400, 'google_code_required');
      expectRefused(await server.post(passkeyPaths.registerOptions, { googleCode: wrongCode }, { token: account.token }), 400, 'google_code_invalid');
      expect(await challengesOf(account.token)).toBe(0);
      expectOk(await server.post(passkeyPaths.registerOptions, { googleCode }, { token: account.token }));
      expectRefused(await server.post(passkeyPaths.registerOptions, { googleCode }, { token: account.token }), 400, 'google_code_invalid');
      expect(await challengesOf(account.token)).toBe(1);
    });
  });
}, { databases: 'embedded' });
