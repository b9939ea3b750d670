// The four ways to log in (password, e-mail code, phone code, guest) and the account check.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectRefused, forEachDatabase, type Account } from './helpers.ts';
import { paths } from '../../src/api/contract/paths.ts';

/** An envelope without its timestamp, to compare two answers whole. */
const hourMs = 3_600_000;
const withoutTime = ({ timestamp: _timestamp, ...rest }: Record<string, unknown>) => rest;

forEachDatabase((server) => {
  let emailAccount: Account;
  let phoneAccount: Account;
  beforeAll(async () => {
    emailAccount = await server.registerByEmail();
    phoneAccount = await server.registerByPhone(server.uniquePhone(), '44');
  });

  async function accountOf(token: string) {
    return expectOk(await server.get(paths.myUserInfo, {}, { token })).body.result;
  }

  describe('POST /api/app/login', () => {
    it('logs an e-mail account in with its password, whatever the case and spaces of the address', async () => {
      const reply = expectOk(await server.post(paths.login, {
        account: ` ${emailAccount.email!.toUpperCase()} `, password: emailAccount.password,
      }));
      expect((await accountOf(reply.body.result.token)).account).toBe(emailAccount.email);
    });

    it('logs a phone account in with number and country code, with or without the trunk zero', async () => {
      for (const account of [phoneAccount.phone!, `0${phoneAccount.phone}`]) {
        const reply = expectOk(await server.post(paths.login, {
          account, countryCode: phoneAccount.countryCode, password: phoneAccount.password,
        }));
        expect((await accountOf(reply.body.result.token)).phone).toBe(phoneAccount.phone);
      }
    });

    it('logs a phone account in with its country code written +44, +044 or +0044', async () => {
      for (const countryCode of ['44', '044', '0044']) {
        const reply = expectOk(await server.post(paths.login, {
          account: phoneAccount.phone, countryCode, password: phoneAccount.password,
        }));
        expect((await accountOf(reply.body.result.token)).account).toBe(`+44 ${phoneAccount.phone}`);
      }
    });

    it('logs an e-mail account in with the root dot after its domain', async () => {
      const reply = expectOk(await server.post(paths.login, { account: `${emailAccount.email}.`, password: emailAccount.password }));
      expect((await accountOf(reply.body.result.token)).account).toBe(emailAccount.email);
    });

    it('opens a new session for every login, each with its own token', async () => {
      const user = await server.userByEmail(emailAccount.email!);
      const before = (await server.sessionsOf(user.id)).length;
      const first = expectOk(await server.post(paths.login, { account: emailAccount.account, password: emailAccount.password }));
      const second = expectOk(await server.post(paths.login, { account: emailAccount.account, password: emailAccount.password }));
      expect(first.body.result.token).not.toBe(second.body.result.token);
      expect((await server.sessionsOf(user.id)).length).toBe(before + 2);
    });

    it('refuses a wrong password with credentials_invalid and opens no session', async () => {
      const sessions = await server.count('sessions');
      const reply = await server.post(paths.login, { account: emailAccount.account, password: 'Wrong1password' });
      expectRefused(reply, 400, 'credentials_invalid');
      expect(reply.body.message).toBe('The account or password is wrong.');
      expect(await server.count('sessions')).toBe(sessions);
    });

    it('answers an unknown account exactly as a wrong password', async () => {
      const reply = await server.post(paths.login, { account: server.uniqueEmail(), password: 'Wrong1password' });
      expectRefused(reply, 400, 'credentials_invalid');
      expect(reply.body.message).toBe('The account or password is wrong.');
    });

    it('does not find a phone account without its country code', async () => {
      const reply = await server.post(paths.login, { account: phoneAccount.phone, password: phoneAccount.password });
      expectRefused(reply, 400, 'credentials_invalid');
    });

    it.each([
      { name: 'a missing password', body: { account: 'someone@example.com' } },
      { name: 'an empty password', body: { account: 'someone@example.com', password: '' } },
      { name: 'an over-long password', body: { account: 'someone@example.com', password: 'x'.repeat(65) } },
      { name: 'a number for the account', body: { account: 12345678, password: 'Secret123pass' } },
      { name: 'an extra field', body: { account: 'someone@example.com', password: 'Secret123pass', remember: true } },
    ])('refuses $name with 400 invalid_request and opens no session', async ({ body }) => {
      const sessions = await server.count('sessions');
      expectRefused(await server.post(paths.login, body), 400, 'invalid_request');
      expect(await server.count('sessions')).toBe(sessions);
    });
  });

  describe('POST /api/app/emailLogin', () => {
    it('logs in with a login code sent by e-mail', async () => {
      server.clock.advance(server.limits.codeResendIntervalMs);
      expectOk(await server.requestEmailCode(emailAccount.email!, 'login'));
      const reply = expectOk(await server.post(paths.emailLogin, {
        email: emailAccount.email, code: server.latestCode(emailAccount.email!),
      }));
      expect((await accountOf(reply.body.result.token)).email).toBe(emailAccount.email);
    });

    it('rejects a reused code and opens no session', async () => {
      server.clock.advance(server.limits.codeResendIntervalMs);
      expectOk(await server.requestEmailCode(emailAccount.email!, 'login'));
      const code = server.latestCode(emailAccount.email!);
      expectOk(await server.post(paths.emailLogin, { email: emailAccount.email, code }));
      const sessions = await server.count('sessions');
      expectRefused(await server.post(paths.emailLogin, { email: emailAccount.email, code }), 400, 'code_invalid');
      expect(await server.count('sessions')).toBe(sessions);
    });

    it('refuses a code sent for another purpose', async () => {
      server.clock.advance(server.limits.codeResendIntervalMs);
      expectOk(await server.requestEmailCode(emailAccount.email!, 'reset'));
      const sessions = await server.count('sessions');
      const reply = await server.post(paths.emailLogin, { email: emailAccount.email, code: server.latestCode(emailAccount.email!) });
      expectRefused(reply, 400, 'code_invalid');
      expect(await server.count('sessions')).toBe(sessions);
    });

    it('refuses an expired login code with code_expired', async () => {
      server.clock.advance(server.limits.codeResendIntervalMs);
      expectOk(await server.requestEmailCode(emailAccount.email!, 'login'));
      server.clock.advance(server.limits.codeLifetimeMs + 1);
      const sessions = await server.count('sessions');
      const reply = await server.post(paths.emailLogin, { email: emailAccount.email, code: server.latestCode(emailAccount.email!) });
      expectRefused(reply, 400, 'code_expired');
      expect(await server.count('sessions')).toBe(sessions);
    });

    it('answers an unknown address exactly as a wrong code, and opens no session', async () => {
      server.clock.advance(hourMs); // past the hourly cap of codes to one address
      expectOk(await server.requestEmailCode(emailAccount.email!, 'login'));
      const code = server.latestCode(emailAccount.email!);
      const wrong = code === '123456' ? '123457' : '123456';
      const sessions = await server.count('sessions');
      const known = await server.post(paths.emailLogin, { email: emailAccount.email, code: wrong });
      const unknown = await server.post(paths.emailLogin, { email: server.uniqueEmail(), code: wrong });
      expectRefused(known, 400, 'code_invalid');
      expectRefused(unknown, 400, 'code_invalid');
      expect(withoutTime(unknown.body)).toEqual(withoutTime(known.body));
      expect(await server.count('sessions')).toBe(sessions);
    });
  });

  describe('POST /api/app/phoneLogin', () => {
    it('logs in with a login code sent by SMS', async () => {
      server.clock.advance(server.limits.codeResendIntervalMs);
      expectOk(await server.requestPhoneCode(phoneAccount.phone!, '44', 'login'));
      const reply = expectOk(await server.post(paths.phoneLogin, {
        phone: phoneAccount.phone, countryCode: '44', code: server.latestCode(`+44${phoneAccount.phone}`),
      }));
      expect((await accountOf(reply.body.result.token)).account).toBe(`+44 ${phoneAccount.phone}`);
    });

    it('refuses a wrong code with code_invalid and opens no session', async () => {
      server.clock.advance(server.limits.codeResendIntervalMs);
      expectOk(await server.requestPhoneCode(phoneAccount.phone!, '44', 'login'));
      const code = server.latestCode(`+44${phoneAccount.phone}`);
      const sessions = await server.count('sessions');
      const reply = await server.post(paths.phoneLogin, {
        phone: phoneAccount.phone, countryCode: '44', code: code === '999999' ? '999998' : '999999',
      });
      expectRefused(reply, 400, 'code_invalid');
      expect(await server.count('sessions')).toBe(sessions);
      expectOk(await server.post(paths.phoneLogin, { phone: phoneAccount.phone, countryCode: '44', code }));
    });

    it('answers the same number under another country code as a wrong code', async () => {
      const reply = await server.post(paths.phoneLogin, { phone: phoneAccount.phone, countryCode: '1', code: '123456' });
      expectRefused(reply, 400, 'code_invalid');
    });

    it('reaches one account whichever zeros the country code is written with', async () => {
      server.clock.advance(hourMs);
      expectOk(await server.requestPhoneCode(phoneAccount.phone!, '0044', 'login'));
      expectRefused(await server.requestPhoneCode(phoneAccount.phone!, '44', 'login'), 429, 'code_send_too_soon');
      const reply = expectOk(await server.post(paths.phoneLogin, {
        phone: phoneAccount.phone, countryCode: '044', code: server.latestCode(`+44${phoneAccount.phone}`),
      }));
      expect((await accountOf(reply.body.result.token)).account).toBe(`+44 ${phoneAccount.phone}`);
    });

    it('refuses a number with letters with 400 invalid_request', async () => {
      expectRefused(await server.post(paths.phoneLogin, { phone: '71234x', countryCode: '44', code: '123456' }), 400, 'invalid_request');
    });
  });

  describe('POST /api/app/guestLogin', () => {
    it('creates a guest with an initial password it can then log in with', async () => {
      const name = server.unique('guest_');
      const reply = expectOk(await server.post(paths.guestLogin, { account: name }));
      const { token, initialPassword } = reply.body.result;
      expect(initialPassword).toMatch(/^[A-Za-z2-8]{12}$/);
      expect(await accountOf(token)).toMatchObject({ account: name, accountType: 'guest', hasInitialPassword: true, email: null });
      expectOk(await server.post(paths.login, { account: name, password: initialPassword }));
      expect((await server.userByUsername(name)).isGuest).toBe(true);
    });

    it('treats a name in other letter case as the same account', async () => {
      const name = server.unique('Guest_Mixed');
      const created = expectOk(await server.post(paths.guestLogin, { account: name })).body.result;
      expect((await accountOf(created.token)).account).toBe(name.toLowerCase());
      const users = await server.count('users');
      expectRefused(await server.post(paths.guestLogin, { account: name.toUpperCase() }), 409, 'account_exists');
      expect(await server.count('users')).toBe(users);
      expectOk(await server.post(paths.login, { account: name.toUpperCase(), password: created.initialPassword }));
      expect(expectOk(await server.get(paths.checkAccount, { account: name.toLowerCase() })).body.result).toEqual({ exists: true });
    });

    it('refuses an existing account name with 409 account_exists and creates nothing', async () => {
      const name = server.unique('guest_');
      expectOk(await server.post(paths.guestLogin, { account: name }));
      const users = await server.count('users');
      const sessions = await server.count('sessions');
      const reply = await server.post(paths.guestLogin, { account: name });
      expectRefused(reply, 409, 'account_exists');
      expect(await server.count('users')).toBe(users);
      expect(await server.count('sessions')).toBe(sessions);
    });

    it('creates one guest and answers the others 409 when a name is asked for several times at once', async () => {
      // Several rounds, because the requests must really overlap to show a race.
      for (let round = 0; round < 4; round += 1) {
        const name = server.unique('guest_');
        const replies = await Promise.all([0, 1, 2, 3].map((caller) =>
          server.post(paths.guestLogin, { account: name }, { ip: `192.0.2.${round * 4 + caller + 1}` })));
        expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1);
        for (const reply of replies.filter((reply) => reply.status !== 200)) expectRefused(reply, 409, 'account_exists');
      }
    });

    it.each([
      { name: 'a name with spaces', account: 'two words' },
      { name: 'a name with an @', account: 'guest@example.com' },
      { name: 'a too-short name', account: 'ab' },
      { name: 'an over-long name', account: 'g'.repeat(33) },
    ])('refuses $name with 400 invalid_request and creates nothing', async ({ account }) => {
      const users = await server.count('users');
      expectRefused(await server.post(paths.guestLogin, { account }), 400, 'invalid_request');
      expect(await server.count('users')).toBe(users);
    });
  });

  describe('GET /api/app/checkAccount', () => {
    it('says whether an e-mail, a phone number or a guest name is registered', async () => {
      const guest = server.unique('guest_');
      expectOk(await server.post(paths.guestLogin, { account: guest }));
      const exists = async (query: Record<string, string>) => expectOk(await server.get(paths.checkAccount, query)).body.result;
      expect(await exists({ account: emailAccount.email!.toUpperCase() })).toEqual({ exists: true });
      expect(await exists({ account: phoneAccount.phone!, countryCode: '44' })).toEqual({ exists: true });
      expect(await exists({ account: guest })).toEqual({ exists: true });
      expect(await exists({ account: server.uniqueEmail() })).toEqual({ exists: false });
      expect(await exists({ account: phoneAccount.phone!, countryCode: '1' })).toEqual({ exists: false });
    });

    it.each([
      { name: 'a missing account', query: {} },
      { name: 'a too-short account', query: { account: 'ab' } },
      { name: 'an over-long account', query: { account: 'a'.repeat(255) } },
      { name: 'a malformed address', query: { account: 'a@b' } },
    ])('refuses $name with 400 invalid_request', async ({ query }) => {
      expectRefused(await server.get(paths.checkAccount, query as Record<string, string>), 400, 'invalid_request');
    });
  });
}, { databases: 'embedded' });
