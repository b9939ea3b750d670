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
    it('lifts the failed-login lockout of the account whose password it resets', async () => {
      const account = await server.registerByEmail();
      for (let failure = 0; failure < server.limits.loginFailuresPerAccountPer15Min; failure += 1) {
        expectRefused(await server.post(paths.login, { account: account.account, password: 'Wrong1password' },
          { ip: server.freshIp() }), 400, 'credentials_invalid');
      }
      expectRefused(await server.post(paths.login, { account: account.account, password: account.password },
        { ip: server.freshIp() }), 429, 'rate_limited');
      expectOk(await server.requestEmailCode(account.email!, 'reset'));
      expectOk(await server.post(paths.resetPassword, {
        accountType: 'email', account: account.email, code: server.latestCode(account.email!), password: 'Renewed2026pass',
      }));
      const login = expectOk(await server.post(paths.login, { account: account.account, password: 'Renewed2026pass' },
        { ip: server.freshIp() }));
      expect(login.body.result.token).toEqual(expect.any(String));
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
});
