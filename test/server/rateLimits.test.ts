// Rate limits on code sending, password login, the account check and guest creation. Some caps
// are lowered for this suite so a test needs only a few requests; each refusal is a 429 with a
// Retry-After header, and lifts when the (test) clock passes the window.
import { describe, expect, it } from 'vitest';
import { expectOk, expectRefused, forEachDatabase, type Reply } from './helpers.ts';
import { paths } from '../../src/api/contract/paths.ts';

const limits = {
  codeSendsPerTargetPerHour: 3,
  codeSendsPerIpPerHour: 4,
  loginAttemptsPerIpPerMinute: 4,
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

    it('caps the same phone number per hour whichever trunk zeros it is written with', async () => {
      const phone = server.uniquePhone();
      for (let sent = 0; sent < limits.codeSendsPerTargetPerHour; sent += 1) {
        expectOk(await server.requestPhoneCode(`${'0'.repeat(sent)}${phone}`, '44', 'register', { ip: elsewhere() }));
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
    it('locks an account for 15 minutes after 5 wrong passwords, even against the right one', async () => {
      const account = await server.registerByEmail();
      for (let failure = 0; failure < server.limits.loginFailuresPerAccountPer15Min; failure += 1) {
        const reply = await server.post(paths.login, { account: account.account, password: 'Wrong1password' }, { ip: elsewhere() });
        expectRefused(reply, 400, 'credentials_invalid');
      }
      const sessions = await server.count('sessions');
      const locked = await server.post(paths.login, { account: account.account, password: account.password }, { ip: elsewhere() });
      expectRefused(locked, 429, 'rate_limited');
      expect(locked.body.message).toMatch(/Too many failed attempts/);
      expect(retryAfterSeconds(locked)).toBe(900);
      expect(await server.count('sessions')).toBe(sessions);
      server.clock.advance(15 * 60_000);
      expectOk(await server.post(paths.login, { account: account.account, password: account.password }, { ip: elsewhere() }));
    });

    it('counts failures per account, whatever case the address is typed in', async () => {
      const account = await server.registerByEmail();
      for (let failure = 0; failure < server.limits.loginFailuresPerAccountPer15Min; failure += 1) {
        const typed = failure % 2 ? account.account.toUpperCase() : ` ${account.account}`;
        await server.post(paths.login, { account: typed, password: 'Wrong1password' }, { ip: elsewhere() });
      }
      const locked = await server.post(paths.login, { account: account.account, password: account.password }, { ip: elsewhere() });
      expectRefused(locked, 429, 'rate_limited');
    });

    it('counts failures per account, whatever trunk zeros a phone number is typed with', async () => {
      const account = await server.registerByPhone(server.uniquePhone(), '44');
      for (let failure = 0; failure < server.limits.loginFailuresPerAccountPer15Min; failure += 1) {
        const reply = await server.post(paths.login, {
          account: `${'0'.repeat(failure)}${account.phone}`, countryCode: '44', password: 'Wrong1password',
        }, { ip: elsewhere() });
        expectRefused(reply, 400, 'credentials_invalid');
      }
      const locked = await server.post(paths.login, {
        account: `${'0'.repeat(server.limits.loginFailuresPerAccountPer15Min)}${account.phone}`, countryCode: '44',
        password: account.password,
      }, { ip: elsewhere() });
      expectRefused(locked, 429, 'rate_limited');
    });

    it('forgets the failures of an account after a successful login', async () => {
      const account = await server.registerByEmail();
      const failOnce = async () => expectRefused(
        await server.post(paths.login, { account: account.account, password: 'Wrong1password' }, { ip: elsewhere() }),
        400, 'credentials_invalid');
      for (let failure = 1; failure < server.limits.loginFailuresPerAccountPer15Min; failure += 1) await failOnce();
      expectOk(await server.post(paths.login, { account: account.account, password: account.password }, { ip: elsewhere() }));
      for (let failure = 1; failure < server.limits.loginFailuresPerAccountPer15Min; failure += 1) await failOnce();
      expectOk(await server.post(paths.login, { account: account.account, password: account.password }, { ip: elsewhere() }));
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
}, { limits });
