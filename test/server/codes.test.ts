// Sending one-time codes: where they go (the dev outbox is the real delivery path here), what is
// stored (only an HMAC), and which requests are refused without sending anything.
import { describe, expect, it } from 'vitest';
import { expectOk, expectRefused, forEachDatabase } from './helpers.ts';
import { paths } from '../../src/api/contract/paths.ts';

/** An envelope without its timestamp, to compare two answers whole. */
const withoutTime = ({ timestamp: _timestamp, ...rest }: Record<string, unknown>) => rest;

forEachDatabase((server) => {
  describe('GET /api/app/getEmailCaptcha', () => {
    it('sends a six-digit code to the address and says when it expires and when to ask again', async () => {
      const email = server.uniqueEmail();
      const reply = expectOk(await server.requestEmailCode(email, 'register'));
      expect(reply.body.result).toEqual({ resendAfterSeconds: 60, expiresInSeconds: 600 });
      const [message] = server.outbox(email);
      expect(message).toMatchObject({ to: email, channel: 'email', code: expect.stringMatching(/^[0-9]{6}$/) });
      expect(message.text).toContain(message.code);
      expect(message.text).toContain('10 minutes');
    });

    it('stores only a keyed hash of the code, valid for ten minutes', async () => {
      const email = server.uniqueEmail();
      expectOk(await server.requestEmailCode(email, 'register'));
      const code = server.latestCode(email);
      const [row] = await server.codesOf(email);
      expect(row).toMatchObject({ channel: 'email', purpose: 'register', attempts: 0, usedAt: null });
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.codeHash).not.toContain(code);
      expect(row.expiresAt.getTime() - server.clock.now().getTime()).toBe(10 * 60_000);
    });

    it('sends one code when several requests for the same address arrive at once; the others get 429', async () => {
      const email = server.uniqueEmail();
      const replies = await Promise.all(Array.from({ length: 6 }, () => server.requestEmailCode(email, 'register')));
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1);
      for (const reply of replies.filter((other) => other.status !== 200)) expectRefused(reply, 429, 'code_send_too_soon');
      expect(server.outbox(email)).toHaveLength(1);
      expect(await server.codesOf(email)).toHaveLength(1);
    });

    it('sends to the address in lower case', async () => {
      const email = server.uniqueEmail();
      expectOk(await server.requestEmailCode(email.toUpperCase(), 'register'));
      expect(server.outbox(email)).toHaveLength(1);
    });

    it('sends a login code to an existing account', async () => {
      const account = await server.registerByEmail();
      expectOk(await server.requestEmailCode(account.email!, 'login'));
      expect(server.outbox(account.email!).at(-1)!.text).toContain('to log in');
    });

    it('answers a register request for an address in use as any other, and sends it a notice instead of a code', async () => {
      const account = await server.registerByEmail();
      server.clock.advance(server.limits.codeResendIntervalMs);
      const fresh = server.uniqueEmail();
      const known = expectOk(await server.requestEmailCode(account.email!, 'register'));
      const unknown = expectOk(await server.requestEmailCode(fresh, 'register'));
      expect(withoutTime(known.body)).toEqual(withoutTime(unknown.body));
      const notice = server.outbox(account.email!).at(-1)!;
      expect(notice.code).toBe('');
      expect(notice.text).toMatch(/you already have one\. Log in with your password, or reset it/);
      expect(notice.text).not.toMatch(/[0-9]{6}/);
      // A code row is kept all the same: it carries the resend interval and the attempt count.
      expect((await server.codesOf(account.email!)).filter((row) => row.purpose === 'register')).toHaveLength(2);
      expectRefused(await server.requestEmailCode(account.email!, 'register'), 429, 'code_send_too_soon');
      expectRefused(await server.requestEmailCode(fresh, 'register'), 429, 'code_send_too_soon');
    });

    it('answers a login or reset request for an unknown address as for a known one, and sends a notice instead of a code', async () => {
      const account = await server.registerByEmail();
      const email = server.uniqueEmail();
      for (const type of ['login', 'reset'] as const) {
        const known = expectOk(await server.requestEmailCode(account.email!, type));
        const unknown = expectOk(await server.requestEmailCode(email, type));
        expect(withoutTime(unknown.body)).toEqual(withoutTime(known.body));
        expect(server.outbox(account.email!).at(-1)!.code).toMatch(/^[0-9]{6}$/);
        const notice = server.outbox(email).at(-1)!;
        expect(notice.code).toBe('');
        expect(notice.text).toMatch(/no Bourse account uses it/);
      }
      expect(server.outbox(email)).toHaveLength(2);
      expect(await server.codesOf(email)).toHaveLength(2);
    });

    it('sends the address with a root dot after its domain to the address without it', async () => {
      const email = server.uniqueEmail();
      expectOk(await server.requestEmailCode(`${email}.`, 'register'));
      expect(server.outbox(email)).toHaveLength(1);
      expectRefused(await server.requestEmailCode(email, 'register'), 429, 'code_send_too_soon');
    });

    it.each([
      { name: 'an invalid address', query: { email: 'not-an-address', type: 'register' } },
      { name: 'an unknown purpose', query: { email: 'someone@example.com', type: 'withdraw' } },
      { name: 'a missing purpose', query: { email: 'someone@example.com' } },
      { name: 'an over-long address', query: { email: `${'a'.repeat(250)}@example.com`, type: 'register' } },
      { name: 'an unknown parameter', query: { email: 'someone@example.com', type: 'register', extra: '1' } },
    ])('refuses $name with 400 invalid_request and sends nothing', async ({ query }) => {
      const sent = server.outbox().length;
      const codes = await server.count('verification_codes');
      expectRefused(await server.get(paths.emailCaptcha, query as Record<string, string>), 400, 'invalid_request');
      expect(server.outbox()).toHaveLength(sent);
      expect(await server.count('verification_codes')).toBe(codes);
    });

    it('makes only the newest code valid', async () => {
      const email = server.uniqueEmail();
      expectOk(await server.requestEmailCode(email, 'register'));
      const first = server.latestCode(email);
      server.clock.advance(server.limits.codeResendIntervalMs);
      expectOk(await server.requestEmailCode(email, 'register'));
      const second = server.latestCode(email);
      const rows = await server.codesOf(email);
      expect(rows).toHaveLength(2);
      expect(rows[0].usedAt).not.toBeNull();
      expect(rows[1].usedAt).toBeNull();
      if (first !== second) {
        const old = await server.post(paths.register, { accountType: 'email', account: email, password: 'Secret123pass', code: first });
        expectRefused(old, 400, 'code_invalid');
      }
      expectOk(await server.post(paths.register, { accountType: 'email', account: email, password: 'Secret123pass', code: second }));
    });
  });

  describe('GET /api/app/getPhoneCaptcha', () => {
    it('sends a code by SMS to +<country code><number>, without the trunk zero', async () => {
      const phone = server.uniquePhone();
      expectOk(await server.requestPhoneCode(`0${phone}`, '44', 'register'));
      const [message] = server.outbox(`+44${phone}`);
      expect(message).toMatchObject({ channel: 'sms', code: expect.stringMatching(/^[0-9]{6}$/) });
      expect(await server.codesOf(`+44 ${phone}`)).toHaveLength(1);
    });

    it.each([
      { name: 'a missing country code', query: { phone: '7123456789', type: 'register' } },
      { name: 'letters in the number', query: { phone: '71234abc', countryCode: '44', type: 'register' } },
      { name: 'an over-long number', query: { phone: '1234567890123456', countryCode: '44', type: 'register' } },
      { name: 'an over-long country code', query: { phone: '7123456789', countryCode: '44444', type: 'register' } },
    ])('refuses $name with 400 invalid_request and sends nothing', async ({ query }) => {
      const sent = server.outbox().length;
      expectRefused(await server.get(paths.phoneCaptcha, query as Record<string, string>), 400, 'invalid_request');
      expect(server.outbox()).toHaveLength(sent);
    });

    it('sends to one number whichever zeros its country code is written with', async () => {
      const phone = server.uniquePhone();
      expectOk(await server.requestPhoneCode(phone, '001', 'register'));
      expect(server.outbox(`+1${phone}`)).toHaveLength(1);
      expect(await server.codesOf(`+1 ${phone}`)).toHaveLength(1);
      for (const countryCode of ['1', '01']) {
        expectRefused(await server.requestPhoneCode(phone, countryCode, 'register'), 429, 'code_send_too_soon');
      }
    });

    it.each([
      { name: 'an unknown country code', phone: '7123456789', countryCode: '999' },
      { name: 'a country code of zeros', phone: '7123456789', countryCode: '000' },
      { name: 'a number too long for its country', phone: '71234567890123', countryCode: '44' },
      { name: 'a number too short for its country', phone: '71234', countryCode: '44' },
    ])('refuses $name with 400 invalid_request and sends nothing', async ({ phone, countryCode }) => {
      const sent = server.outbox().length;
      const reply = await server.requestPhoneCode(phone, countryCode, 'register');
      expectRefused(reply, 400, 'invalid_request');
      expect(reply.body.message).toBe('Please enter a valid phone number.');
      expect(server.outbox()).toHaveLength(sent);
    });

    it('refuses a number that is only zeros and too short once the trunk zeros are dropped', async () => {
      const sent = server.outbox().length;
      expectRefused(await server.requestPhoneCode('000012', '44', 'register'), 400, 'invalid_request');
      expect(server.outbox()).toHaveLength(sent);
    });
  });
}, { databases: 'embedded' });
