// Registration by e-mail or phone code. Every refusal is checked for three things: the status and
// error code, that no account appeared, and that the code still works afterwards (a refused
// request must not burn it), except where burning it is the point.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { expectOk, expectRefused, forEachDatabase } from './helpers.ts';
import { paths } from '../../src/api/contract/paths.ts';
import { users } from '../../server/db/schema.ts';

/** An envelope without its timestamp, to compare two answers whole. */
const withoutTime = ({ timestamp: _timestamp, ...rest }: Record<string, unknown>) => rest;

const password = 'Secret123pass';

forEachDatabase((server) => {
  /** A fresh address with a register code waiting in the outbox. */
  async function freshCode() {
    const email = server.uniqueEmail();
    expectOk(await server.requestEmailCode(email, 'register'));
    return { email, code: server.latestCode(email) };
  }

  const validBody = (email: string, code: string) => ({ accountType: 'email', account: email, password, code });

  /** Inserts an account for `email` directly, as if registered meanwhile through another request. */
  async function freshAccountFor(email: string) {
    return server.db.insert(users).values({
      email, passwordHash: 'x', inviteCode: server.unique('I').slice(0, 12).toUpperCase(), createdAt: server.clock.now(),
    }).returning({ id: users.id });
  }

  async function expectNoAccountAndCodeStillWorks(email: string, code: string) {
    expect(await server.userByEmail(email)).toBeUndefined();
    expectOk(await server.post(paths.register, validBody(email, code)));
    expect(await server.userByEmail(email)).toBeDefined();
  }

  describe('POST /api/app/register', () => {
    it('registers an e-mail account with the code from the outbox and logs it in', async () => {
      const { email, code } = await freshCode();
      const users = await server.count('users');
      const reply = expectOk(await server.post(paths.register, validBody(email, code)));
      const { token } = reply.body.result;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await server.count('users')).toBe(users + 1);
      const info = expectOk(await server.get(paths.myUserInfo, {}, { token }));
      expect(info.body.result).toMatchObject({
        account: email, accountType: 'email', email, phone: null, hasInitialPassword: false,
        inviteCode: expect.stringMatching(/^[A-Z2-8]{8}$/),
      });
      const [row] = await server.codesOf(email);
      expect(row.usedAt).not.toBeNull();
    });

    it('stores the password only as an argon2id hash', async () => {
      const { email, code } = await freshCode();
      expectOk(await server.post(paths.register, validBody(email, code)));
      const user = await server.userByEmail(email);
      expect(user.passwordHash).toMatch(/^\$argon2id\$/);
      expect(user.passwordHash).not.toContain(password);
    });

    it('registers a phone account with the code sent by SMS', async () => {
      const phone = server.uniquePhone();
      expectOk(await server.requestPhoneCode(phone, '82', 'register'));
      const reply = expectOk(await server.post(paths.register, {
        accountType: 'phone', account: phone, countryCode: '82', password, code: server.latestCode(`+82${phone}`),
      }));
      const info = expectOk(await server.get(paths.myUserInfo, {}, { token: reply.body.result.token }));
      expect(info.body.result).toMatchObject({
        account: `+82 ${phone}`, accountType: 'phone', phone, countryCode: '82', email: null,
      });
    });

    it('records the referrer of a valid invitation code, in any letter case', async () => {
      const referrer = await server.registerByEmail();
      const referrerInfo = expectOk(await server.get(paths.myUserInfo, {}, { token: referrer.token })).body.result;
      const { email, code } = await freshCode();
      expectOk(await server.post(paths.register, { ...validBody(email, code), inviteCode: referrerInfo.inviteCode.toLowerCase() }));
      const user = await server.userByEmail(email);
      expect(user.referrerId?.toString()).toBe(referrerInfo.id);
    });

    it.each([
      { name: 'a missing code', change: { code: undefined } },
      { name: 'a missing password', change: { password: undefined } },
      { name: 'a missing account type', change: { accountType: undefined } },
      { name: 'a number for the code', change: { code: 123456 } },
      { name: 'an array for the account', change: { account: ['someone@example.com'] } },
      { name: 'a boolean for the password', change: { password: true } },
      { name: 'an object for the account type', change: { accountType: { type: 'email' } } },
      { name: 'an over-long account', change: { account: `${'a'.repeat(250)}@example.com` } },
      { name: 'an over-long password', change: { password: `Aa1${'x'.repeat(62)}` } },
      { name: 'a too-short password', change: { password: 'Ab1cdef' } },
      { name: 'an over-long invitation code', change: { inviteCode: 'ABCDEFGHJKMNP' } },
      { name: 'a code of five digits', change: { code: '12345' } },
      { name: 'an unknown account type', change: { accountType: 'username' } },
      { name: 'an unknown extra field', change: { referrer: 'someone' } },
    ])('refuses $name with 400 invalid_request, creates no account and keeps the code', async ({ change }) => {
      const { email, code } = await freshCode();
      const users = await server.count('users');
      const body: Record<string, unknown> = { ...validBody(email, code), ...change };
      for (const [field, value] of Object.entries(change)) if (value === undefined) delete body[field];
      const reply = await server.post(paths.register, body);
      expectRefused(reply, 400, 'invalid_request');
      expect(reply.body.message).toMatch(/^Invalid request: body/);
      expect(await server.count('users')).toBe(users);
      expect((await server.codesOf(email))[0]).toMatchObject({ attempts: 0, usedAt: null });
      await expectNoAccountAndCodeStillWorks(email, code);
    });

    it('refuses an address that is not an e-mail address for an e-mail account', async () => {
      const { email, code } = await freshCode();
      const reply = await server.post(paths.register, { ...validBody(email, code), account: 'not-an-address' });
      expectRefused(reply, 400, 'invalid_request');
      expect(reply.body.message).toBe('Please enter a valid e-mail address.');
      await expectNoAccountAndCodeStillWorks(email, code);
    });

    it('refuses a phone account without a country code', async () => {
      const phone = server.uniquePhone();
      expectOk(await server.requestPhoneCode(phone, '44', 'register'));
      const code = server.latestCode(`+44${phone}`);
      const reply = await server.post(paths.register, { accountType: 'phone', account: phone, password, code });
      expectRefused(reply, 400, 'invalid_request');
      expect(reply.body.message).toBe('Please choose the country code of the phone number.');
      expectOk(await server.post(paths.register, { accountType: 'phone', account: phone, countryCode: '44', password, code }));
    });

    it.each([
      { name: 'letters only', weak: 'onlyletters' },
      { name: 'digits only', weak: '1234567890' },
    ])('refuses a password of $name with password_weak, creates no account and keeps the code', async ({ weak }) => {
      const { email, code } = await freshCode();
      const reply = await server.post(paths.register, { ...validBody(email, code), password: weak });
      expectRefused(reply, 400, 'password_weak');
      expect(reply.body.message).toBe('The password must contain at least one letter and one digit.');
      await expectNoAccountAndCodeStillWorks(email, code);
    });

    it.each(['password1', 'Qwerty123', 'P@ssw0rd', '1q2w3e4r5t'])(
      'refuses %s, one of the most used passwords, with password_common, creates no account and keeps the code', async (common) => {
        const { email, code } = await freshCode();
        const reply = await server.post(paths.register, { ...validBody(email, code), password: common });
        expectRefused(reply, 400, 'password_common');
        await expectNoAccountAndCodeStillWorks(email, code);
      });

    it('refuses the account itself as password with password_weak', async () => {
      const { email, code } = await freshCode();
      const reply = await server.post(paths.register, { ...validBody(email, code), password: email.toUpperCase() });
      expectRefused(reply, 400, 'password_weak');
      await expectNoAccountAndCodeStillWorks(email, code);
    });

    it('refuses a wrong code with code_invalid, creates no account and counts the attempt', async () => {
      const { email, code } = await freshCode();
      const wrong = code === '000000' ? '000001' : '000000';
      const reply = await server.post(paths.register, validBody(email, wrong));
      expectRefused(reply, 400, 'code_invalid');
      expect(reply.body.message).toMatch(/verification code is wrong/);
      expect((await server.codesOf(email))[0]).toMatchObject({ attempts: 1, usedAt: null });
      await expectNoAccountAndCodeStillWorks(email, code);
    });

    it('refuses even the right code after five wrong attempts, and creates no account', async () => {
      const { email, code } = await freshCode();
      const wrong = code === '000000' ? '000001' : '000000';
      for (let attempt = 0; attempt < server.limits.codeAttemptsMax; attempt += 1) {
        expectRefused(await server.post(paths.register, validBody(email, wrong)), 400, 'code_invalid');
      }
      expectRefused(await server.post(paths.register, validBody(email, code)), 400, 'code_invalid');
      expect(await server.userByEmail(email)).toBeUndefined();
      expect((await server.codesOf(email))[0].attempts).toBe(server.limits.codeAttemptsMax);
      // A new code (after the resend interval) starts afresh.
      server.clock.advance(server.limits.codeResendIntervalMs);
      expectOk(await server.requestEmailCode(email, 'register'));
      await expectNoAccountAndCodeStillWorks(email, server.latestCode(email));
    });

    it('refuses an expired code with code_expired and creates no account', async () => {
      const { email, code } = await freshCode();
      server.clock.advance(server.limits.codeLifetimeMs);
      const reply = await server.post(paths.register, validBody(email, code));
      expectRefused(reply, 400, 'code_expired');
      expect(reply.body.message).toBe('The verification code has expired. Please request a new one.');
      expect(await server.userByEmail(email)).toBeUndefined();
      expectOk(await server.requestEmailCode(email, 'register'));
      await expectNoAccountAndCodeStillWorks(email, server.latestCode(email));
    });

    it('accepts a code just before it expires', async () => {
      const { email, code } = await freshCode();
      server.clock.advance(server.limits.codeLifetimeMs - 1);
      expectOk(await server.post(paths.register, validBody(email, code)));
    });

    it('answers an existing account without its mailbox exactly as a new address with a wrong code', async () => {
      const existing = await server.registerByEmail();
      server.clock.advance(server.limits.codeResendIntervalMs);
      const fresh = await freshCode();
      expectOk(await server.requestEmailCode(existing.email!, 'register'));
      const wrong = fresh.code === '123456' ? '123457' : '123456';
      const before = await server.userByEmail(existing.email!);
      const users = await server.count('users');
      const known = await server.post(paths.register, { ...validBody(existing.email!, wrong), password: 'Other1password' });
      const unknown = await server.post(paths.register, { ...validBody(fresh.email, wrong), password: 'Other1password' });
      expectRefused(known, 400, 'code_invalid');
      expectRefused(unknown, 400, 'code_invalid');
      expect(withoutTime(known.body)).toEqual(withoutTime(unknown.body));
      expect(await server.count('users')).toBe(users);
      expect(await server.userByEmail(existing.email!)).toEqual(before);
      expectOk(await server.post(paths.login, { account: existing.email, password: existing.password }));
    });

    it('tells account_exists only to whoever holds a valid code, and leaves the account as it was', async () => {
      const { email, code } = await freshCode();
      // Registered meanwhile by another path, after the code was sent.
      const [other] = await freshAccountFor(email);
      const users = await server.count('users');
      expectRefused(await server.post(paths.register, validBody(email, code)), 409, 'account_exists');
      expect(await server.count('users')).toBe(users);
      expect((await server.userByEmail(email)).id).toBe(other.id);
    });

    it('registers a phone number once whichever zeros its country code is written with', async () => {
      const phone = server.uniquePhone();
      expectOk(await server.requestPhoneCode(phone, '1', 'register'));
      expectOk(await server.post(paths.register, {
        accountType: 'phone', account: phone, countryCode: '001', password, code: server.latestCode(`+1${phone}`),
      }));
      const rows = await server.query<{ phone: string; phone_country_code: string }>(
        sql`select phone, phone_country_code from users where phone = ${phone}`);
      expect(rows).toEqual([{ phone, phone_country_code: '1' }]);
      server.clock.advance(server.limits.codeResendIntervalMs);
      expectOk(await server.requestPhoneCode(phone, '01', 'register'));
      expect(server.outbox(`+1${phone}`).at(-1)!.text).toMatch(/you already have one/);
    });

    it('registers an e-mail address without the root dot after its domain', async () => {
      const email = server.uniqueEmail();
      expectOk(await server.requestEmailCode(`${email}.`, 'register'));
      expectOk(await server.post(paths.register, validBody(`${email.toUpperCase()}.`, server.latestCode(email))));
      expect((await server.userByEmail(email)).email).toBe(email);
      server.clock.advance(server.limits.codeResendIntervalMs);
      expectOk(await server.requestEmailCode(email, 'register'));
      expect(server.outbox(email).at(-1)!.text).toMatch(/you already have one/);
    });

    it('refuses an unknown invitation code with invite_code_invalid, creates no account and keeps the code', async () => {
      const { email, code } = await freshCode();
      const reply = await server.post(paths.register, { ...validBody(email, code), inviteCode: 'NOSUCH99' });
      expectRefused(reply, 400, 'invite_code_invalid');
      expect(reply.body.message).toBe('The invitation code does not exist.');
      await expectNoAccountAndCodeStillWorks(email, code);
    });

    it('registers once when the same registration arrives twice at the same moment', async () => {
      const { email, code } = await freshCode();
      const replies = await Promise.all([
        server.post(paths.register, validBody(email, code)),
        server.post(paths.register, validBody(email, code)),
      ]);
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1);
      const refused = replies.find((reply) => reply.status !== 200)!;
      expect(refused.status).toBeLessThan(500);
      expect(['account_exists', 'code_invalid']).toContain(refused.body.result.error);
      const rows = await server.query<{ n: number }>(sql`select count(*)::int as n from users where email = ${email}`);
      expect(Number(rows[0].n)).toBe(1);
    });
  });
});
