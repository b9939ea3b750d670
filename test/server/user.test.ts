// /api/user/appUser/*: the logged-in user's own data, activity reports, personal data and logout.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectRefused, forEachDatabase, type Account } from './helpers.ts';
import { paths } from '../../src/api/contract/paths.ts';

const userInfoFields = [
  'account', 'accountType', 'address', 'birthday', 'contactPhone', 'country', 'countryCode', 'createTime', 'email',
  'firstName', 'gender', 'hasInitialPassword', 'hasWithdrawPassword', 'id', 'inviteCode', 'kycLevel', 'loginCount', 'phone', 'surname',
];

forEachDatabase((server) => {
  let account: Account;
  // Registered before any test moves the clock: at 04:00 UTC, which is 12:00 server time (UTC+8).
  beforeAll(async () => { account = await server.registerByEmail(); });

  describe('GET /api/user/appUser/getMyUserInfo', () => {
    it('answers the caller\'s own account with every field, created at server time (UTC+8)', async () => {
      const reply = expectOk(await server.get(paths.myUserInfo, {}, { token: account.token }));
      const info = reply.body.result;
      expect(Object.keys(info).sort()).toEqual(userInfoFields);
      const user = await server.userByEmail(account.email!);
      expect(info).toMatchObject({
        id: user.id.toString(), account: account.email, accountType: 'email', email: account.email,
        phone: null, countryCode: null, surname: null, birthday: null, createTime: '2026-06-01 12:00:00',
      });
    });

    it('counts the logins: 1 in the session registration opened, 2 after logging in again', async () => {
      const fresh = await server.registerByEmail();
      expect(expectOk(await server.get(paths.myUserInfo, {}, { token: fresh.token })).body.result.loginCount).toBe(1);
      const again = expectOk(await server.post(paths.login, { account: fresh.account, password: fresh.password }));
      const token = again.body.result.token as string;
      expect(expectOk(await server.get(paths.myUserInfo, {}, { token })).body.result.loginCount).toBe(2);
      expect(expectOk(await server.get(paths.myUserInfo, {}, { token: fresh.token })).body.result.loginCount).toBe(2);
    });

    it('answers each session with its own user only', async () => {
      const other = await server.registerByEmail();
      const mine = expectOk(await server.get(paths.myUserInfo, {}, { token: account.token })).body.result;
      const theirs = expectOk(await server.get(paths.myUserInfo, {}, { token: other.token })).body.result;
      expect(mine.email).toBe(account.email);
      expect(theirs.email).toBe(other.email);
      expect(mine.id).not.toBe(theirs.id);
    });

    it('answers 401 unauthorized without a token', async () => {
      const reply = await server.get(paths.myUserInfo);
      expectRefused(reply, 401, 'unauthorized');
      expect(reply.body.message).toBe('Please log in.');
    });

    it.each([
      { name: 'an unknown token', token: 'A'.repeat(43) },
      { name: 'a too-short token', token: 'abc' },
      { name: 'an over-long token', token: 'A'.repeat(300) },
    ])('answers 401 unauthorized for $name', async ({ token }) => {
      const reply = await server.get(paths.myUserInfo, {}, { token });
      expectRefused(reply, 401, 'unauthorized');
      expect(reply.body.message).toBe('Your session has ended. Please log in again.');
    });
    it('answers 401 unauthorized for the token with one character changed', async () => {
      const altered = `${account.token.slice(0, -1)}${account.token.endsWith('A') ? 'B' : 'A'}`;
      expectRefused(await server.get(paths.myUserInfo, {}, { token: altered }), 401, 'unauthorized');
    });
  });

  describe('GET /api/user/appUser/activeReport', () => {
    it('records when the user was last active', async () => {
      server.clock.advance(90_000);
      expectOk(await server.get(paths.activeReport, { path: '/home' }, { token: account.token }));
      expect((await server.userByEmail(account.email!)).lastActiveAt?.getTime()).toBe(server.clock.now().getTime());
    });

    it('refuses an over-long path with 400 invalid_request', async () => {
      expectRefused(await server.get(paths.activeReport, { path: `/${'x'.repeat(200)}` }, { token: account.token }), 400, 'invalid_request');
    });

    it('answers 401 without a session and records nothing', async () => {
      const before = (await server.userByEmail(account.email!)).lastActiveAt;
      server.clock.advance(1_000);
      expectRefused(await server.get(paths.activeReport, { path: '/home' }), 401, 'unauthorized');
      expect((await server.userByEmail(account.email!)).lastActiveAt).toEqual(before);
    });
  });

  describe('GET /api/user/appUser/importantCustomerOnLine', () => {
    it('records when the user was last seen online', async () => {
      server.clock.advance(90_000);
      expectOk(await server.get(paths.customerOnline, {}, { token: account.token }));
      expect((await server.userByEmail(account.email!)).lastSeenAt?.getTime()).toBe(server.clock.now().getTime());
    });

    it('answers 401 without a session', async () => {
      expectRefused(await server.get(paths.customerOnline), 401, 'unauthorized');
    });
  });

  describe('POST /api/user/appUser/updateKYC', () => {
    const personalData = {
      surname: ' Kim ', firstName: 'Minji', gender: 'female', birthday: '1990-05-17', country: 'KR',
      address: '1 Main Street, Seoul', contactPhone: '+82 10 1234 5678',
    };

    it('saves the personal data (trimmed) and answers the updated user', async () => {
      const owner = await server.registerByEmail();
      const reply = expectOk(await server.post(paths.updatePersonalData, personalData, { token: owner.token }));
      const expected = { ...personalData, surname: 'Kim' };
      expect(reply.body.result).toMatchObject({ ...expected, email: owner.email });
      expect(expectOk(await server.get(paths.myUserInfo, {}, { token: owner.token })).body.result).toMatchObject(expected);
    });

    it('changes only the fields sent', async () => {
      const owner = await server.registerByEmail();
      expectOk(await server.post(paths.updatePersonalData, personalData, { token: owner.token }));
      const reply = expectOk(await server.post(paths.updatePersonalData, { address: '2 Side Road' }, { token: owner.token }));
      expect(reply.body.result).toMatchObject({ surname: 'Kim', firstName: 'Minji', address: '2 Side Road', country: 'KR' });
    });

    /** The server's date (UTC) `years` and `days` before today, as YYYY-MM-DD. */
    const daysAgo = (years: number, days = 0) => {
      const date = server.clock.now();
      date.setUTCFullYear(date.getUTCFullYear() - years);
      date.setUTCDate(date.getUTCDate() - days);
      return date.toISOString().slice(0, 10);
    };

    it.each([
      { name: 'that makes the user 18 today', birthday: () => daysAgo(18) },
      { name: 'that makes the user 120 until tomorrow', birthday: () => daysAgo(121, -2) },
    ])('accepts a birthday $name', async ({ birthday }) => {
      const reply = expectOk(await server.post(paths.updatePersonalData, { birthday: birthday() }, { token: account.token }));
      expect(reply.body.result.birthday).toBe(birthday());
    });

    const ageMessage = 'The birthday must give an age of 18 to 120 years.';
    it.each([
      { name: 'a day that does not exist', birthday: () => '1990-02-30', message: 'Please enter a valid birthday.' },
      { name: 'a month that does not exist', birthday: () => '1990-13-01', message: 'Please enter a valid birthday.' },
      { name: 'today (age 0)', birthday: () => daysAgo(0), message: ageMessage },
      { name: 'a day in the future', birthday: () => daysAgo(0, -1), message: ageMessage },
      // Two days: the check allows for the time zone a day ahead of UTC at most.
      { name: 'two days short of 18', birthday: () => daysAgo(18, -2), message: ageMessage },
      { name: 'a day past 121', birthday: () => daysAgo(121, 1), message: ageMessage },
      { name: 'a year before 1900', birthday: () => '1899-12-31', message: ageMessage },
      { name: 'another date format', birthday: () => '17/05/1990', message: /^Invalid request: body\/birthday/ },
    ])('refuses $name as birthday with 400 invalid_request and changes nothing', async ({ birthday, message }) => {
      const owner = await server.registerByEmail();
      expectOk(await server.post(paths.updatePersonalData, personalData, { token: owner.token }));
      const before = await server.userByEmail(owner.email!);
      const reply = await server.post(paths.updatePersonalData, { surname: 'Lee', birthday: birthday() }, { token: owner.token });
      expectRefused(reply, 400, 'invalid_request');
      expect(reply.body.message).toMatch(message);
      expect(await server.userByEmail(owner.email!)).toEqual(before);
    });

    it.each([
      { name: 'an unknown field', body: { nickname: 'minji' } },
      { name: 'an attempt to change the e-mail', body: { surname: 'Lee', email: 'someone.else@example.com' } },
      { name: 'an empty body', body: {} },
      { name: 'an unknown gender', body: { gender: 'unknown' } },
      { name: 'a country that is not an ISO code', body: { country: 'kr' } },
      { name: 'a contact phone with letters', body: { contactPhone: 'call me' } },
      { name: 'an over-long address', body: { address: 'a'.repeat(201) } },
      { name: 'a number as surname', body: { surname: 42 } },
      { name: 'a blank surname', body: { surname: '   ' } },
      { name: 'a surname of null', body: { surname: null } },
      { name: 'an empty list of fields to clear and nothing else', body: { clear: [] } },
      { name: 'a field both set and cleared', body: { surname: 'Lee', clear: ['surname'] } },
      { name: 'an unknown field to clear', body: { clear: ['email'] } },
      { name: 'a field cleared twice', body: { clear: ['surname', 'surname'] } },
      { name: 'a field to clear given as text', body: { clear: 'surname' } },
    ])('refuses $name with 400 invalid_request and changes nothing', async ({ body }) => {
      const before = await server.userByEmail(account.email!);
      const reply = await server.post(paths.updatePersonalData, body, { token: account.token });
      expectRefused(reply, 400, 'invalid_request');
      expect(await server.userByEmail(account.email!)).toEqual(before);
    });

    it('empties the fields listed in clear, sets the others given, and keeps the rest', async () => {
      const owner = await server.registerByEmail();
      expectOk(await server.post(paths.updatePersonalData, personalData, { token: owner.token }));
      const reply = expectOk(await server.post(paths.updatePersonalData,
        { address: '2 Side Road', clear: ['surname', 'birthday', 'contactPhone', 'gender', 'country'] }, { token: owner.token }));
      const expected = {
        surname: null, firstName: 'Minji', gender: null, birthday: null, country: null, address: '2 Side Road', contactPhone: null,
      };
      expect(reply.body.result).toMatchObject(expected);
      expect(expectOk(await server.get(paths.myUserInfo, {}, { token: owner.token })).body.result).toMatchObject(expected);
    });

    it('clears a field that is already empty without error', async () => {
      const owner = await server.registerByEmail();
      const reply = expectOk(await server.post(paths.updatePersonalData, { clear: ['address'] }, { token: owner.token }));
      expect(reply.body.result.address).toBeNull();
    });

    it('clears nothing when the same request also carries a bad value', async () => {
      const owner = await server.registerByEmail();
      expectOk(await server.post(paths.updatePersonalData, personalData, { token: owner.token }));
      const before = await server.userByEmail(owner.email!);
      expectRefused(await server.post(paths.updatePersonalData, { birthday: daysAgo(0), clear: ['surname', 'address'] },
        { token: owner.token }), 400, 'invalid_request');
      expect(await server.userByEmail(owner.email!)).toEqual(before);
    });

    it('answers 401 without a session', async () => {
      expectRefused(await server.post(paths.updatePersonalData, { surname: 'Lee' }), 401, 'unauthorized');
      expectRefused(await server.post(paths.updatePersonalData, { clear: ['surname'] }), 401, 'unauthorized');
    });
  });

  describe('POST /api/user/appUser/logout', () => {
    it('ends the session: the token is refused afterwards, other sessions go on', async () => {
      const owner = await server.registerByEmail();
      const other = expectOk(await server.post(paths.login, { account: owner.account, password: owner.password })).body.result.token;
      expectOk(await server.post(paths.logout, {}, { token: owner.token }));
      expectRefused(await server.get(paths.myUserInfo, {}, { token: owner.token }), 401, 'unauthorized');
      expectRefused(await server.post(paths.logout, {}, { token: owner.token }), 401, 'unauthorized');
      expectOk(await server.get(paths.myUserInfo, {}, { token: other }));
      const user = await server.userByEmail(owner.email!);
      const revoked = (await server.sessionsOf(user.id)).filter((session) => session.revokedAt !== null);
      expect(revoked).toHaveLength(1);
    });

    it('refuses a body with fields with 400 invalid_request and keeps the session', async () => {
      expectRefused(await server.post(paths.logout, { everywhere: true }, { token: account.token }), 400, 'invalid_request');
      expectOk(await server.get(paths.myUserInfo, {}, { token: account.token }));
    });

    it('answers 401 without a session', async () => {
      expectRefused(await server.post(paths.logout, {}), 401, 'unauthorized');
    });
  });
}, { databases: 'embedded' });
