// Forgotten and changed passwords: a reset by code ends every session; a change keeps the session
// it was made from and ends the others. A refused request leaves the password as it was.
import { describe, expect, it } from 'vitest';
import { expectOk, expectRefused, forEachDatabase, type Account } from './helpers.ts';
import { paths } from '../../src/api/contract/paths.ts';
import { commonPasswords, passwordWork } from '../../server/domain/kernel/passwords.ts';

/** An envelope without its timestamp, to compare two answers whole. */
const withoutTime = ({ timestamp: _timestamp, ...rest }: Record<string, unknown>) => rest;

forEachDatabase((server) => {
  async function canLogIn(account: string, password: string) {
    const reply = await server.post(paths.login, { account, password }, { ip: server.freshIp() });
    if (reply.status === 200) return true;
    expectRefused(reply, 400, 'credentials_invalid');
    return false;
  }

  async function isLoggedIn(token: string) {
    const reply = await server.get(paths.myUserInfo, {}, { token });
    if (reply.status === 200) return true;
    expectRefused(reply, 401, 'unauthorized');
    return false;
  }

  async function resetCode(account: Account) {
    server.clock.advance(server.limits.codeResendIntervalMs);
    expectOk(await server.requestEmailCode(account.email!, 'reset'));
    return server.latestCode(account.email!);
  }

  const resetBody = (account: Account, code: string, password: string) =>
    ({ accountType: 'email', account: account.email, code, password });

  describe('POST /api/app/resetPassword', () => {
    it('sets a new password with a reset code and ends every session of the account', async () => {
      const account = await server.registerByEmail();
      const second = expectOk(await server.post(paths.login, { account: account.account, password: account.password }));
      const code = await resetCode(account);
      expect(server.outbox(account.email!).at(-1)!.text).toContain('to reset your password');
      expectOk(await server.post(paths.resetPassword, resetBody(account, code, 'Renewed2password')));
      expect(await isLoggedIn(account.token)).toBe(false);
      expect(await isLoggedIn(second.body.result.token)).toBe(false);
      expect(await canLogIn(account.account, account.password)).toBe(false);
      expect(await canLogIn(account.account, 'Renewed2password')).toBe(true);
    });

    it('resets a phone account by SMS code', async () => {
      const account = await server.registerByPhone(server.uniquePhone(), '82');
      expectOk(await server.requestPhoneCode(account.phone!, '82', 'reset'));
      expectOk(await server.post(paths.resetPassword, {
        accountType: 'phone', account: account.phone, countryCode: '82', password: 'Renewed2password',
        code: server.latestCode(`+82${account.phone}`),
      }));
      const login = await server.post(paths.login, { account: account.phone, countryCode: '82', password: 'Renewed2password' });
      expectOk(login);
    });

    it('rejects a reused code and leaves the password as the first reset set it', async () => {
      const account = await server.registerByEmail();
      const code = await resetCode(account);
      expectOk(await server.post(paths.resetPassword, resetBody(account, code, 'Renewed2password')));
      const again = await server.post(paths.resetPassword, resetBody(account, code, 'Another3password'));
      expectRefused(again, 400, 'code_invalid');
      expect(await canLogIn(account.account, 'Another3password')).toBe(false);
      expect(await canLogIn(account.account, 'Renewed2password')).toBe(true);
    });

    it('refuses a wrong code with code_invalid, keeps the password and the sessions', async () => {
      const account = await server.registerByEmail();
      const code = await resetCode(account);
      const reply = await server.post(paths.resetPassword, resetBody(account, code === '111111' ? '111112' : '111111', 'Renewed2password'));
      expectRefused(reply, 400, 'code_invalid');
      expect(await isLoggedIn(account.token)).toBe(true);
      expect(await canLogIn(account.account, account.password)).toBe(true);
    });

    it('refuses a weak new password with password_weak and keeps the code usable', async () => {
      const account = await server.registerByEmail();
      const code = await resetCode(account);
      expectRefused(await server.post(paths.resetPassword, resetBody(account, code, 'onlyletters')), 400, 'password_weak');
      expectRefused(await server.post(paths.resetPassword, resetBody(account, code, 'short1')), 400, 'invalid_request');
      expect(await isLoggedIn(account.token)).toBe(true);
      expect(await canLogIn(account.account, account.password)).toBe(true);
      expectOk(await server.post(paths.resetPassword, resetBody(account, code, 'Renewed2password')));
    });

    it('refuses an expired reset code with code_expired and changes nothing', async () => {
      const account = await server.registerByEmail();
      const code = await resetCode(account);
      server.clock.advance(server.limits.codeLifetimeMs);
      expectRefused(await server.post(paths.resetPassword, resetBody(account, code, 'Renewed2password')), 400, 'code_expired');
      expect(await canLogIn(account.account, account.password)).toBe(true);
    });

    it('answers an unknown account exactly as a wrong code, and hashes nothing', async () => {
      const account = await server.registerByEmail();
      const code = await resetCode(account);
      const unknown = server.uniqueEmail();
      expectOk(await server.requestEmailCode(unknown, 'reset'));
      const wrong = code === '123456' ? '123457' : '123456';
      const hashes = passwordWork.hashes;
      const known = await server.post(paths.resetPassword, resetBody(account, wrong, 'Renewed2password'));
      const stranger = await server.post(paths.resetPassword, {
        accountType: 'email', account: unknown, code: wrong, password: 'Renewed2password',
      });
      expectRefused(known, 400, 'code_invalid');
      expectRefused(stranger, 400, 'code_invalid');
      expect(withoutTime(stranger.body)).toEqual(withoutTime(known.body));
      expect(passwordWork.hashes).toBe(hashes);
      expect(await server.userByEmail(unknown)).toBeUndefined();
    });
  });

  describe('POST /api/user/appUser/changePassword', () => {
    it('changes the password, keeps this session and ends the others', async () => {
      const account = await server.registerByEmail();
      const other = expectOk(await server.post(paths.login, { account: account.account, password: account.password }));
      expectOk(await server.post(paths.changePassword, { oldPassword: account.password, newPassword: 'Changed4password' },
        { token: account.token }));
      expect(await isLoggedIn(account.token)).toBe(true);
      expect(await isLoggedIn(other.body.result.token)).toBe(false);
      expect(await canLogIn(account.account, account.password)).toBe(false);
      expect(await canLogIn(account.account, 'Changed4password')).toBe(true);
    });

    it('clears the initial-password mark of a guest', async () => {
      const guest = expectOk(await server.post(paths.guestLogin, { account: server.unique('guest_') })).body.result;
      expectOk(await server.post(paths.changePassword, { oldPassword: guest.initialPassword, newPassword: 'Changed4password' },
        { token: guest.token }));
      const info = expectOk(await server.get(paths.myUserInfo, {}, { token: guest.token })).body.result;
      expect(info.hasInitialPassword).toBe(false);
    });

    it('refuses a wrong current password with credentials_invalid and changes nothing', async () => {
      const account = await server.registerByEmail();
      const before = (await server.userByEmail(account.email!)).passwordHash;
      const reply = await server.post(paths.changePassword, { oldPassword: 'Wrong1password', newPassword: 'Changed4password' },
        { token: account.token });
      expectRefused(reply, 400, 'credentials_invalid');
      expect(reply.body.message).toBe('The current password is wrong.');
      expect((await server.userByEmail(account.email!)).passwordHash).toBe(before);
    });

    it('refuses the same password again with password_unchanged', async () => {
      const account = await server.registerByEmail();
      const reply = await server.post(paths.changePassword, { oldPassword: account.password, newPassword: account.password },
        { token: account.token });
      expectRefused(reply, 400, 'password_unchanged');
      expect(await canLogIn(account.account, account.password)).toBe(true);
    });

    it.each([
      { name: 'letters only', newPassword: 'onlyletters', error: 'password_weak' },
      { name: 'digits only', newPassword: '12345678901', error: 'password_weak' },
      { name: 'a commonly used one', newPassword: 'Trustno1', error: 'password_common' },
      { name: 'too short', newPassword: 'Ab1', error: 'invalid_request' },
      { name: 'too long', newPassword: `Ab1${'c'.repeat(62)}`, error: 'invalid_request' },
    ])('refuses a new password that is $name with $error and changes nothing', async ({ newPassword, error }) => {
      const account = await server.registerByEmail();
      const before = (await server.userByEmail(account.email!)).passwordHash;
      const other = expectOk(await server.post(paths.login, { account: account.account, password: account.password }));
      const reply = await server.post(paths.changePassword, { oldPassword: account.password, newPassword }, { token: account.token });
      expectRefused(reply, 400, error);
      expect((await server.userByEmail(account.email!)).passwordHash).toBe(before);
      expect(await isLoggedIn(other.body.result.token)).toBe(true);
    });

    it('refuses the account name as the new password with password_weak', async () => {
      const guest = server.unique('guest1_');
      const created = expectOk(await server.post(paths.guestLogin, { account: guest })).body.result;
      const reply = await server.post(paths.changePassword, { oldPassword: created.initialPassword, newPassword: guest },
        { token: created.token });
      expectRefused(reply, 400, 'password_weak');
    });

    it('lets one of two changes made at the same moment through; the other finds the current password changed', async () => {
      const account = await server.registerByEmail();
      const replies = await Promise.all(['First5password', 'Second6password'].map((newPassword) =>
        server.post(paths.changePassword, { oldPassword: account.password, newPassword }, { token: account.token })));
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1);
      const refused = replies.find((reply) => reply.status !== 200)!;
      expectRefused(refused, 400, 'credentials_invalid');
      const winner = replies[0].status === 200 ? 'First5password' : 'Second6password';
      const loser = winner === 'First5password' ? 'Second6password' : 'First5password';
      expect(await canLogIn(account.account, winner)).toBe(true);
      expect(await canLogIn(account.account, loser)).toBe(false);
      expect(await isLoggedIn(account.token)).toBe(true);
    });

    it('answers 401 without a session and changes nothing', async () => {
      const reply = await server.post(paths.changePassword, { oldPassword: 'Secret123pass', newPassword: 'Changed4password' });
      expectRefused(reply, 401, 'unauthorized');
    });
  });
}, { databases: 'embedded' });

describe('the list of commonly used passwords (ASVS V6.2.4)', () => {
  it('holds more than the 3000 most used that our rule lets through, in lower case, each one the rule accepts', () => {
    const list = [...commonPasswords()];
    expect(list.length).toBeGreaterThan(3000);
    for (const word of list) {
      expect(word === word.toLowerCase() && word.length >= 8 && word.length <= 64 && /[a-z]/.test(word) && /[0-9]/.test(word), word).toBe(true);
    }
    for (const word of ['password1', 'abcd1234', 'iloveyou1']) expect(list).toContain(word);
  });
});
