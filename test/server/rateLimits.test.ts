// Rate limits on code sending, password guesses, code checks, the account check and guest creation. Some caps
// are lowered for this suite so a test needs only a few requests; each refusal is a 429 with a
// Retry-After header, and lifts when the (test) clock passes the window.
import { describe, expect, it } from 'vitest';
import { expectOk, expectRefused, forEachDatabase, type Reply } from './helpers.ts';
import { paths } from '../../src/api/contract/paths.ts';

const limits = {
  codeSendsPerTargetPerHour: 3,
  codeSendsPerIpPerHour: 4,
  loginAttemptsPerIpPerMinute: 10,
  loginFailuresPerIpPerHour: 12,
  loginFailuresPerAccountPerHour: 10,
  codeChecksPerIpPerHour: 6,
  checkAccountPerIpPerMinute: 3,
  guestCreationsPerIpPerHour: 2,
};

function retryAfterSeconds(reply: Reply): number {
  const header = reply.headers['retry-after'];
  expect(header).toMatch(/^[0-9]+$/);
  expect(reply.body.result.retryAfterSeconds).toBe(Number(header));
  return Number(header);
}

forEachDatabase((server) => {
  let addressCounter = 0;
  /** A distinct caller address, for requests that must not meet a per-address cap. */
  const elsewhere = () => { addressCounter += 1; return `203.0.113.${addressCounter}`; };

  describe('GET /api/app/getEmailCaptcha', () => {
    it('refuses a new code within the resend interval with 429 code_send_too_soon and Retry-After', async () => {
      const email = server.uniqueEmail();
      expectOk(await server.requestEmailCode(email, 'register'));
      const tooSoon = await server.requestEmailCode(email, 'register', { ip: elsewhere() });
      expectRefused(tooSoon, 429, 'code_send_too_soon');
      expect(tooSoon.body.message).toBe('Please wait 60 seconds before requesting another code.');
      expect(retryAfterSeconds(tooSoon)).toBe(60);
      server.clock.advance(45_000);
      expect(retryAfterSeconds(await server.requestEmailCode(email, 'register'))).toBe(15);
      expect(server.outbox(email)).toHaveLength(1);
      server.clock.advance(15_000);
      expectOk(await server.requestEmailCode(email, 'register'));
      expect(server.outbox(email)).toHaveLength(2);
    });

    it('keeps the interval per purpose: a login code may follow a reset code at once', async () => {
      const account = await server.registerByEmail();
      expectOk(await server.requestEmailCode(account.email!, 'reset'));
      expectOk(await server.requestEmailCode(account.email!, 'login'));
    });

    it('caps the codes sent to one address per hour with 429 rate_limited', async () => {
      const email = server.uniqueEmail();
      for (let sent = 0; sent < limits.codeSendsPerTargetPerHour; sent += 1) {
        expectOk(await server.requestEmailCode(email, 'register', { ip: elsewhere() }));
        server.clock.advance(server.limits.codeResendIntervalMs);
      }
      const capped = await server.requestEmailCode(email, 'register', { ip: elsewhere() });
      expectRefused(capped, 429, 'rate_limited');
      const elapsedSeconds = (limits.codeSendsPerTargetPerHour * server.limits.codeResendIntervalMs) / 1000;
      expect(retryAfterSeconds(capped)).toBe(3600 - elapsedSeconds);
      expect(server.outbox(email)).toHaveLength(limits.codeSendsPerTargetPerHour);
      server.clock.advance((3600 - elapsedSeconds) * 1000);
      expectOk(await server.requestEmailCode(email, 'register', { ip: elsewhere() }));
    });

    it('caps the same phone number per hour whichever trunk prefix or country code zeros it is written with', async () => {
      const phone = server.uniquePhone();
      const spellings = [[phone, '44'], [`0${phone}`, '044'], [phone, '0044']];
      for (const [typed, countryCode] of spellings.slice(0, limits.codeSendsPerTargetPerHour)) {
        expectOk(await server.requestPhoneCode(typed, countryCode, 'register', { ip: elsewhere() }));
        server.clock.advance(server.limits.codeResendIntervalMs);
      }
      expectRefused(await server.requestPhoneCode(`0${phone}`, '44', 'register', { ip: elsewhere() }), 429, 'rate_limited');
    });

    it('caps the codes one caller address asks for per hour, across addresses', async () => {
      const ip = elsewhere();
      for (let sent = 0; sent < limits.codeSendsPerIpPerHour; sent += 1) {
        expectOk(await server.requestEmailCode(server.uniqueEmail(), 'register', { ip }));
      }
      const email = server.uniqueEmail();
      const capped = await server.requestEmailCode(email, 'register', { ip });
      expectRefused(capped, 429, 'rate_limited');
      expect(retryAfterSeconds(capped)).toBe(3600);
      expect(server.outbox(email)).toHaveLength(0);
      expectOk(await server.requestEmailCode(email, 'register', { ip: elsewhere() }));
    });
  });

  describe('POST /api/app/login', () => {
    const wrong = 'Wrong1password';
    const login = (account: string, password: string, ip: string, countryCode?: string) =>
      server.post(paths.login, { account, password, countryCode }, { ip });

    it('makes an address wait after 5 wrong passwords, doubling the wait with each further one', async () => {
      const account = await server.registerByEmail();
      const ip = elsewhere();
      for (let failure = 0; failure < server.limits.passwordAttemptsFree; failure += 1) {
        expectRefused(await login(account.account, wrong, ip), 400, 'credentials_invalid');
      }
      const sessions = await server.count('sessions');
      for (const waitSeconds of [60, 120, 240]) {
        const locked = await login(account.account, account.password, ip);
        expectRefused(locked, 429, 'too_many_attempts');
        expect(retryAfterSeconds(locked)).toBe(waitSeconds);
        expect(locked.body.message).toBe(waitSeconds < 120
          ? `Too many wrong passwords. Please try again in ${waitSeconds} seconds, or reset your password.`
          : `Too many wrong passwords. Please try again in ${waitSeconds / 60} minutes, or reset your password.`);
        server.clock.advance(waitSeconds * 1000 - 1);
        expectRefused(await login(account.account, account.password, ip), 429, 'too_many_attempts');
        server.clock.advance(1);
        expectRefused(await login(account.account, wrong, ip), 400, 'credentials_invalid');
      }
      expect(await server.count('sessions')).toBe(sessions);
      const locked = await login(account.account, account.password, ip);
      expect(retryAfterSeconds(locked)).toBe(480);
      server.clock.advance(480_000);
      expectOk(await login(account.account, account.password, ip));
    });

    it('caps the wait at an hour', async () => {
      const account = await server.registerByEmail();
      const ip = elsewhere();
      for (let failure = 0; failure < server.limits.passwordAttemptsFree + 8; failure += 1) {
        expectRefused(await login(account.account, wrong, ip), 400, 'credentials_invalid');
        server.clock.advance(server.limits.passwordLockoutMaxMs);
      }
      expectRefused(await login(account.account, wrong, ip), 400, 'credentials_invalid');
      expect(retryAfterSeconds(await login(account.account, account.password, ip))).toBe(3600);
    });

    it('does not lock the owner out from another address', async () => {
      const account = await server.registerByEmail();
      const attacker = elsewhere();
      for (let failure = 0; failure < server.limits.passwordAttemptsFree; failure += 1) {
        expectRefused(await login(account.account, wrong, attacker), 400, 'credentials_invalid');
      }
      expectRefused(await login(account.account, account.password, attacker), 429, 'too_many_attempts');
      expectOk(await login(account.account, account.password, elsewhere()));
      expectRefused(await login(account.account, account.password, attacker), 429, 'too_many_attempts');
    });

    it('counts guesses per account, whatever case the address is typed in', async () => {
      const account = await server.registerByEmail();
      const ip = elsewhere();
      for (let failure = 0; failure < server.limits.passwordAttemptsFree; failure += 1) {
        const typed = failure % 2 ? account.account.toUpperCase() : ` ${account.account}.`;
        expectRefused(await login(typed, wrong, ip), 400, 'credentials_invalid');
      }
      expectRefused(await login(account.account, account.password, ip), 429, 'too_many_attempts');
    });

    it('counts guesses per account, whatever trunk prefix or country code zeros a phone number is typed with', async () => {
      const account = await server.registerByPhone(server.uniquePhone(), '44');
      const ip = elsewhere();
      const spellings = [[account.phone!, '44'], [`0${account.phone}`, '44'], [account.phone!, '044'], [`0${account.phone}`, '0044']];
      for (let failure = 0; failure < server.limits.passwordAttemptsFree; failure += 1) {
        const [typed, countryCode] = spellings[failure % spellings.length];
        expectRefused(await login(typed, wrong, ip, countryCode), 400, 'credentials_invalid');
      }
      expectRefused(await login(account.phone!, account.password, ip, '44'), 429, 'too_many_attempts');
    });

    it('forgets the guesses of an address after it logs in', async () => {
      const account = await server.registerByEmail();
      const ip = elsewhere();
      for (let round = 0; round < 2; round += 1) {
        for (let failure = 1; failure < server.limits.passwordAttemptsFree; failure += 1) {
          expectRefused(await login(account.account, wrong, ip), 400, 'credentials_invalid');
        }
        expectOk(await login(account.account, account.password, ip));
      }
    });

    it('answers an unknown account with the same lockout as a known one', async () => {
      const ip = elsewhere();
      const unknown = server.uniqueEmail();
      for (let failure = 0; failure < server.limits.passwordAttemptsFree; failure += 1) {
        expectRefused(await login(unknown, wrong, ip), 400, 'credentials_invalid');
      }
      const locked = await login(unknown, wrong, ip);
      expectRefused(locked, 429, 'too_many_attempts');
      expect(retryAfterSeconds(locked)).toBe(60);
    });

    it('caps the failed logins of one address per hour across accounts', async () => {
      const ip = elsewhere();
      for (let failure = 0; failure < limits.loginFailuresPerIpPerHour; failure += 1) {
        expectRefused(await login(server.uniqueEmail(), wrong, ip), 400, 'credentials_invalid');
        server.clock.advance(60_000);
      }
      const account = await server.registerByEmail();
      const capped = await login(account.account, account.password, ip);
      expectRefused(capped, 429, 'rate_limited');
      expectOk(await login(account.account, account.password, elsewhere()));
      server.clock.advance(3_600_000);
      expectOk(await login(account.account, account.password, ip));
    });

    it('does not count logins with the right password against the address ceiling', async () => {
      const account = await server.registerByEmail();
      const ip = elsewhere();
      for (let success = 0; success < limits.loginFailuresPerIpPerHour + 2; success += 1) {
        expectOk(await login(account.account, account.password, ip));
        server.clock.advance(20_000);
      }
    });

    it('past the hourly failures of an account from all addresses, lets in only addresses that logged in to it before', async () => {
      const account = await server.registerByEmail();
      const home = elsewhere();
      expectOk(await login(account.account, account.password, home));
      for (let failure = 0; failure < limits.loginFailuresPerAccountPerHour; failure += 1) {
        expectRefused(await login(account.account, wrong, elsewhere()), 400, 'credentials_invalid');
      }
      const stranger = await login(account.account, account.password, elsewhere());
      expectRefused(stranger, 429, 'too_many_attempts');
      expectOk(await login(account.account, account.password, home));
      server.clock.advance(3_600_000);
      expectOk(await login(account.account, account.password, elsewhere()));
    });

    it('caps password attempts per caller address per minute', async () => {
      const account = await server.registerByEmail();
      const ip = elsewhere();
      for (let attempt = 0; attempt < limits.loginAttemptsPerIpPerMinute; attempt += 1) {
        await server.post(paths.login, { account: server.uniqueEmail(), password: 'Wrong1password' }, { ip });
      }
      const capped = await server.post(paths.login, { account: account.account, password: account.password }, { ip });
      expectRefused(capped, 429, 'rate_limited');
      expect(retryAfterSeconds(capped)).toBe(60);
      expectOk(await server.post(paths.login, { account: account.account, password: account.password }, { ip: elsewhere() }));
      server.clock.advance(60_000);
      expectOk(await server.post(paths.login, { account: account.account, password: account.password }, { ip }));
    });
  });

  describe('POST /api/user/appUser/changePassword', () => {
    it('makes the user wait after 5 wrong current passwords, and then refuses even the right one', async () => {
      const account = await server.registerByEmail();
      const change = (oldPassword: string) =>
        server.post(paths.changePassword, { oldPassword, newPassword: 'Changed4password' }, { token: account.token });
      for (let failure = 0; failure < server.limits.passwordAttemptsFree; failure += 1) {
        expectRefused(await change('Wrong1password'), 400, 'credentials_invalid');
      }
      const before = (await server.userByEmail(account.email!)).passwordHash;
      const locked = await change(account.password);
      expectRefused(locked, 429, 'too_many_attempts');
      expect(retryAfterSeconds(locked)).toBe(60);
      expect((await server.userByEmail(account.email!)).passwordHash).toBe(before);
      server.clock.advance(60_000);
      expectOk(await change(account.password));
    });
  });

  describe('code checks (register, resetPassword, emailLogin, phoneLogin)', () => {
    it('caps the codes one address may present per hour, across routes and addresses', async () => {
      const ip = elsewhere();
      const bodies = [
        [paths.register, { accountType: 'email', account: server.uniqueEmail(), password: 'Secret123pass', code: '123456' }],
        [paths.resetPassword, { accountType: 'email', account: server.uniqueEmail(), password: 'Secret123pass', code: '123456' }],
        [paths.emailLogin, { email: server.uniqueEmail(), code: '123456' }],
        [paths.phoneLogin, { phone: server.uniquePhone(), countryCode: '44', code: '123456' }],
      ] as const;
      for (let check = 0; check < limits.codeChecksPerIpPerHour; check += 1) {
        const [path, body] = bodies[check % bodies.length];
        expectRefused(await server.post(path, body, { ip }), 400, 'code_invalid');
      }
      for (const [path, body] of bodies) {
        const capped = await server.post(path, body, { ip });
        expectRefused(capped, 429, 'rate_limited');
        expect(retryAfterSeconds(capped)).toBe(3600);
        expectRefused(await server.post(path, body, { ip: elsewhere() }), 400, 'code_invalid');
      }
    });
  });

  describe('GET /api/app/checkAccount', () => {
    it('caps account checks per caller address per minute', async () => {
      const ip = elsewhere();
      for (let check = 0; check < limits.checkAccountPerIpPerMinute; check += 1) {
        expectOk(await server.get(paths.checkAccount, { account: server.uniqueEmail() }, { ip }));
      }
      server.clock.advance(20_000);
      const capped = await server.get(paths.checkAccount, { account: server.uniqueEmail() }, { ip });
      expectRefused(capped, 429, 'rate_limited');
      expect(retryAfterSeconds(capped)).toBe(40);
      expectOk(await server.get(paths.checkAccount, { account: server.uniqueEmail() }, { ip: elsewhere() }));
      server.clock.advance(40_000);
      expectOk(await server.get(paths.checkAccount, { account: server.uniqueEmail() }, { ip }));
    });
  });

  describe('POST /api/app/guestLogin', () => {
    it('caps guest creation per caller address per hour and creates nothing beyond it', async () => {
      const ip = elsewhere();
      for (let guest = 0; guest < limits.guestCreationsPerIpPerHour; guest += 1) {
        expectOk(await server.post(paths.guestLogin, { account: server.unique('guest_') }, { ip }));
      }
      const users = await server.count('users');
      const name = server.unique('guest_');
      const capped = await server.post(paths.guestLogin, { account: name }, { ip });
      expectRefused(capped, 429, 'rate_limited');
      expect(retryAfterSeconds(capped)).toBe(3600);
      expect(await server.count('users')).toBe(users);
      expect(await server.userByUsername(name)).toBeUndefined();
    });
  });
}, { databases: 'embedded', limits });
