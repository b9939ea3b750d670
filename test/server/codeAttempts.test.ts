// Limits that must hold under concurrency and across flows: wrong-code attempts are counted
// atomically, and proving control of an address with a reset code lifts a login lockout.
import { describe, expect, it } from 'vitest';
import { expectOk, expectRefused, forEachDatabase } from './helpers.ts';
import { paths } from '../../src/api/contract/paths.ts';

forEachDatabase((server) => {
  describe('POST /api/app/emailLogin', () => {
    it('counts simultaneous wrong codes against the attempt limit, so the right code is refused afterwards', async () => {
      const account = await server.registerByEmail();
      expectOk(await server.requestEmailCode(account.email!, 'login'));
      const code = server.latestCode(account.email!);
      const wrong = code === '000000' ? '111111' : '000000';
      const sessionsBefore = await server.count('sessions');
      const guesses = await Promise.all(Array.from({ length: 12 }, () =>
        server.post(paths.emailLogin, { email: account.email, code: wrong }, { ip: server.freshIp() })));
      for (const reply of guesses) expectRefused(reply, 400, 'code_invalid');
      const loginCode = (await server.codesOf(account.email!)).find((row) => row.purpose === 'login')!;
      expect(loginCode.attempts).toBe(server.limits.codeAttemptsMax);
      expectRefused(await server.post(paths.emailLogin, { email: account.email, code }), 400, 'code_invalid');
      expect(await server.count('sessions')).toBe(sessionsBefore);
    });
  });

  describe('POST /api/app/resetPassword', () => {
    it('lifts the failed-login lockout of the address that resets the password, not of other addresses', async () => {
      const account = await server.registerByEmail();
      const owner = server.freshIp();
      const attacker = server.freshIp();
      for (const ip of [owner, attacker]) {
        for (let failure = 0; failure < server.limits.passwordAttemptsFree; failure += 1) {
          expectRefused(await server.post(paths.login, { account: account.account, password: 'Wrong1password' }, { ip }),
            400, 'credentials_invalid');
        }
        expectRefused(await server.post(paths.login, { account: account.account, password: account.password }, { ip }),
          429, 'too_many_attempts');
      }
      expectOk(await server.requestEmailCode(account.email!, 'reset', { ip: owner }));
      expectOk(await server.post(paths.resetPassword, {
        accountType: 'email', account: account.email, code: server.latestCode(account.email!), password: 'Renewed2026pass',
      }, { ip: owner }));
      const login = expectOk(await server.post(paths.login, { account: account.account, password: 'Renewed2026pass' },
        { ip: owner }));
      expect(login.body.result.token).toEqual(expect.any(String));
      expectRefused(await server.post(paths.login, { account: account.account, password: 'Renewed2026pass' },
        { ip: attacker }), 429, 'too_many_attempts');
    });
  });

  describe('POST with an empty body', () => {
    it('is refused as not encrypted, and the session it names stays open', async () => {
      const account = await server.registerByEmail();
      const reply = await server.app.inject({
        method: 'POST', url: `/api${paths.logout}`, headers: { 'content-type': 'application/json', 'x-access-token': account.token },
        payload: '',
      });
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ success: false, code: 400, result: { error: 'body_not_encrypted' } });
      expectOk(await server.get(paths.myUserInfo, {}, { token: account.token }));
    });
  });
}, { databases: 'embedded' });
