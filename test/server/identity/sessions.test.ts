// Sessions and devices (issue 11): how a session began and from where, the list with the
// current one marked, ending one or all others (another user's id is refused and changes
// nothing), the login history of successes and failures, and the new-device notice.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { expectOk, expectRefused, forEachDatabase, type Account } from '../helpers.ts';
import { paths } from '../../../src/api/contract/paths.ts';
import { sessionPaths } from '../../../src/api/contract/security.ts';
import { loginHistory, sessions } from '../../../server/db/schema.ts';
import { deviceOf } from '../../../server/domain/core/identity/sessionDevices.ts';
import { failedLoginsRecordedPerHour } from '../../../server/domain/core/identity/login.ts';

const chromeAndroid = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const chromeAndroidNewer = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.0.0 Mobile Safari/537.36';
const safariIphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const firefoxWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const minuteMs = 60_000;

describe('device names from user agents', () => {
  it('names browser family and system, without versions', () => {
    expect(deviceOf(chromeAndroid).device).toBe('Chrome on Android');
    expect(deviceOf(chromeAndroidNewer).device).toBe('Chrome on Android');
    expect(deviceOf(safariIphone).device).toBe('Safari on iOS');
    expect(deviceOf(firefoxWindows).device).toBe('Firefox on Windows');
    expect(deviceOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0').device)
      .toBe('Edge on Windows');
    expect(deviceOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15').device)
      .toBe('Safari on macOS');
    expect(deviceOf(undefined)).toEqual({ device: 'Unknown device', browser: '', os: '' });
    expect(deviceOf('curl/8.5.0').device).toBe('Unknown device');
  });
});

forEachDatabase((server) => {
  const login = async (account: Account, userAgent: string, ip?: string) =>
    expectOk(await server.post(paths.login, { account: account.account, password: account.password,
      ...(account.countryCode ? { countryCode: account.countryCode } : {}) },
      { headers: { 'user-agent': userAgent }, ip })).body.result.token as string;
  const list = async (token: string) => expectOk(await server.get(sessionPaths.list, {}, { token })).body.result as
    { id: string; current: boolean; device: string; method: string; ip: string; createdIp: string; lastUsedAt: number }[];
  const isLoggedIn = async (token: string) => {
    const reply = await server.get(paths.myUserInfo, {}, { token });
    if (reply.status === 200) return true;
    expectRefused(reply, 401, 'unauthorized');
    return false;
  };
  const historyOf = async (token: string, query: Record<string, string> = {}) =>
    expectOk(await server.get(sessionPaths.history, query, { token })).body.result;
  const noticesTo = (email: string) => server.outbox(email).filter((message) => message.text.startsWith('New login'));

  describe('sessions and devices', () => {
    it('records how and from where a session began, and the address of its last use', async () => {
      const account = await server.registerByEmail();
      const user = await server.userByEmail(account.email!);
      const token = await login(account, chromeAndroid, '10.9.0.1');
      const [row] = (await server.sessionsOf(user.id)).filter((session) => session.method === 'password');
      expect(row).toMatchObject({ method: 'password', createdIp: '10.9.0.1', lastIp: '10.9.0.1', userAgent: chromeAndroid });
      const registered = (await server.sessionsOf(user.id)).find((session) => session.method === 'register');
      expect(registered).toBeDefined();
      server.clock.advance(2 * minuteMs);
      expectOk(await server.get(paths.myUserInfo, {}, { token, ip: '10.9.0.2' }));
      const sessionsNow = await list(token);
      const current = sessionsNow.find((session) => session.current)!;
      expect(current).toMatchObject({ device: 'Chrome on Android', method: 'password', ip: '10.9.0.2', createdIp: '10.9.0.1' });
      expect(current.lastUsedAt).toBe(server.clock.now().getTime());
    });

    it('lists the live sessions, the current one first and marked', async () => {
      const account = await server.registerByEmail();
      const first = await login(account, chromeAndroid);
      const second = await login(account, safariIphone);
      const seenBySecond = await list(second);
      expect(seenBySecond).toHaveLength(3);
      expect(seenBySecond[0]).toMatchObject({ current: true, device: 'Safari on iOS' });
      expect(seenBySecond.filter((session) => session.current)).toHaveLength(1);
      expectOk(await server.post(paths.logout, {}, { token: first }));
      expect((await list(second)).map((session) => session.device)).not.toContain('Chrome on Android');
    });

    it('ends one session: its token gets 401 at once, the others stay', async () => {
      const account = await server.registerByEmail();
      const first = await login(account, chromeAndroid);
      const second = await login(account, safariIphone);
      const target = (await list(first)).find((session) => session.device === 'Safari on iOS')!;
      expectOk(await server.post(sessionPaths.end, { id: target.id }, { token: first }));
      expect(await isLoggedIn(second)).toBe(false);
      expect(await isLoggedIn(first)).toBe(true);
      expect(await isLoggedIn(account.token)).toBe(true);
      // Ended already: not found, nothing changes.
      expectRefused(await server.post(sessionPaths.end, { id: target.id }, { token: first }), 404, 'session_not_found');
    });

    it('refuses another user\'s session id and changes nothing', async () => {
      const owner = await server.registerByEmail();
      const other = await server.registerByEmail();
      const victim = (await list(owner.token))[0];
      const before = await server.db.select().from(sessions).where(eq(sessions.id, BigInt(victim.id)));
      expectRefused(await server.post(sessionPaths.end, { id: victim.id }, { token: other.token }), 404, 'session_not_found');
      expectRefused(await server.post(sessionPaths.end, { id: '999999999' }, { token: other.token }), 404, 'session_not_found');
      const after = await server.db.select().from(sessions).where(eq(sessions.id, BigInt(victim.id)));
      expect(after).toEqual(before);
      expect(await isLoggedIn(owner.token)).toBe(true);
      // Not an id at all: a request error before anything runs.
      expectRefused(await server.post(sessionPaths.end, { id: 'abc' }, { token: other.token }), 400, 'invalid_request');
      expectRefused(await server.post(sessionPaths.end, { id: victim.id }), 401, 'unauthorized');
    });

    it('ending the current session is a logout', async () => {
      const account = await server.registerByEmail();
      const mine = (await list(account.token))[0];
      expectOk(await server.post(sessionPaths.end, { id: mine.id }, { token: account.token }));
      expect(await isLoggedIn(account.token)).toBe(false);
    });

    it('ends every other session and keeps the current one', async () => {
      const account = await server.registerByEmail();
      const others = [await login(account, chromeAndroid), await login(account, firefoxWindows)];
      const keep = await login(account, safariIphone);
      const answer = expectOk(await server.post(sessionPaths.endOthers, {}, { token: keep })).body.result;
      expect(answer).toEqual({ ended: 3 });
      for (const token of [...others, account.token]) expect(await isLoggedIn(token)).toBe(false);
      expect(await isLoggedIn(keep)).toBe(true);
      expect(await list(keep)).toHaveLength(1);
      expect(expectOk(await server.post(sessionPaths.endOthers, {}, { token: keep })).body.result).toEqual({ ended: 0 });
    });

    it('a password change ends the other sessions', async () => {
      const account = await server.registerByEmail();
      const other = await login(account, chromeAndroid);
      expectOk(await server.post(paths.changePassword, { oldPassword: account.password, newPassword: 'Changed4password' },
        { token: account.token }));
      expect(await isLoggedIn(other)).toBe(false);
      expect((await list(account.token)).map((session) => session.current)).toEqual([true]);
    });
  });

  describe('login history', () => {
    it('has a line for every success and every wrong password, newest first, paged', async () => {
      const account = await server.registerByEmail();
      server.clock.advance(minuteMs);
      expectRefused(await server.post(paths.login, { account: account.account, password: 'Wrong123pass' },
        { headers: { 'user-agent': firefoxWindows }, ip: '10.8.0.1' }), 400, 'credentials_invalid');
      server.clock.advance(minuteMs);
      const token = await login(account, chromeAndroid, '10.8.0.2');
      const page = await historyOf(token);
      expect(page.total).toBe(3);
      expect(page.records.map((entry: { method: string; success: boolean }) => [entry.method, entry.success])).toEqual([
        ['password', true], ['password', false], ['register', true],
      ]);
      expect(page.records[0]).toMatchObject({ ip: '10.8.0.2', device: 'Chrome on Android', browser: 'Chrome', os: 'Android', newDevice: true });
      expect(page.records[1]).toMatchObject({ ip: '10.8.0.1', device: 'Firefox on Windows', newDevice: false });
      const second = await historyOf(token, { pageNo: '2', pageSize: '2' });
      expect(second).toMatchObject({ total: 3, size: 2, current: 2, pages: 2 });
      expect(second.records.map((entry: { method: string }) => entry.method)).toEqual(['register']);
      // Another user's history is not visible: each sees only their own lines.
      const other = await server.registerByEmail();
      expect((await historyOf(other.token)).total).toBe(1);
    });

    it('records a wrong login code for an existing account', async () => {
      const account = await server.registerByEmail();
      expectOk(await server.requestEmailCode(account.email!, 'login'));
      const right = server.latestCode(account.email!);
      const wrong = right === '000000' ? '111111' : '000000';
      expectRefused(await server.post(paths.emailLogin, { email: account.email, code: wrong }), 400, 'code_invalid');
      const user = await server.userByEmail(account.email!);
      const lines = await server.db.select().from(loginHistory).where(eq(loginHistory.userId, user.id));
      expect(lines.filter((line) => !line.success).map((line) => line.method)).toEqual(['code']);
    });

    it('caps failed lines per account per hour, so guessing cannot bloat the table', async () => {
      const account = await server.registerByEmail();
      const user = await server.userByEmail(account.email!);
      const { recordFailedLogin } = await import('../../../server/domain/core/identity/login.ts');
      for (let attempt = 0; attempt < failedLoginsRecordedPerHour + 5; attempt += 1) {
        await recordFailedLogin(server.services, user.id, 'password', { callerIp: '10.7.0.1' });
      }
      const failed = async () => (await server.db.select().from(loginHistory).where(eq(loginHistory.userId, user.id)))
        .filter((line) => !line.success).length;
      expect(await failed()).toBe(failedLoginsRecordedPerHour);
      server.clock.advance(60 * minuteMs);
      await recordFailedLogin(server.services, user.id, 'password', { callerIp: '10.7.0.1' });
      expect(await failed()).toBe(failedLoginsRecordedPerHour + 1);
    });
  });

  describe('new-device notice', () => {
    it('is not sent on registration (the first login)', async () => {
      const account = await server.registerByEmail();
      expect(noticesTo(account.email!)).toEqual([]);
    });

    it('is sent once per new device, to the account\'s e-mail, naming device, address and time', async () => {
      const account = await server.registerByEmail();
      await login(account, chromeAndroid, '10.6.0.1');
      const notices = noticesTo(account.email!);
      expect(notices).toHaveLength(1);
      expect(notices[0].text).toBe('New login to your Bourse account from Chrome on Android at 10.6.0.1, '
        + `${server.clock.now().toISOString().slice(0, 16).replace('T', ' ')} UTC. `
        + 'If this was not you, end the session in Account security and change your password.');
      expect(notices[0].code).toBe('');
      // The same device again (even a newer version, another address): no second notice.
      await login(account, chromeAndroid, '10.6.0.2');
      await login(account, chromeAndroidNewer, '10.6.0.3');
      expect(noticesTo(account.email!)).toHaveLength(1);
      // Another device: one more.
      await login(account, safariIphone, '10.6.0.4');
      expect(noticesTo(account.email!)).toHaveLength(2);
      expect(noticesTo(account.email!)[1].text).toContain('from Safari on iOS at 10.6.0.4');
    });

    it('goes to the phone of a phone account', async () => {
      const countryCode = '44';
      const account = await server.registerByPhone(server.uniquePhone(), countryCode);
      await login(account, firefoxWindows);
      const address = `+${countryCode}${account.phone}`;
      const notices = server.outbox(address).filter((message) => message.text.startsWith('New login'));
      expect(notices).toHaveLength(1);
      expect(notices[0].channel).toBe('sms');
    });

    it('is not sent after a wrong password from a new device', async () => {
      const account = await server.registerByEmail();
      expectRefused(await server.post(paths.login, { account: account.account, password: 'Wrong123pass' },
        { headers: { 'user-agent': firefoxWindows } }), 400, 'credentials_invalid');
      expect(noticesTo(account.email!)).toEqual([]);
    });
  });
}, { databases: 'embedded' });
