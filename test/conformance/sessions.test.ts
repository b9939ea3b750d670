// Conformance: sessions and login history as a third-party client sees them (ours, under
// /api/user/appSession/*). Shapes were read (not imported) from src/api/contract/security.ts,
// "Sessions and login history": listMy → [{ id, current, device, browser, os, userAgent, method,
// createdAt, lastUsedAt, ip, createdIp }]; end { id }; endOthers {} → { ended };
// loginHistory ?pageNo&pageSize → { records: [{ id, method, success, ... }], total, size, current, pages }.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCode, startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient, tokenOf, type Answer } from './specClient.ts';
import { describeAnswer, expectSuccess as ok } from './expectAnswer.ts';

let server: RunningServer;
let client: SpecClient;

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
});

afterAll(async () => {
  await server?.stop();
});

interface SessionInfo {
  id: string; current: boolean; device: string; browser: string; os: string; userAgent: string;
  method: string; createdAt: number; lastUsedAt: number; ip: string; createdIp: string;
}
interface HistoryEntry { id: string; method: string; success: boolean; ip: string; newDevice: boolean; createdAt: number }
interface HistoryPage { records: HistoryEntry[]; total: number; size: number; current: number; pages: number }

const unique = () => crypto.randomBytes(5).toString('hex');
const expect401 = (answer: Answer) => {
  expect(answer.status, describeAnswer(answer)).toBe(401);
  expect(answer.envelope?.code).toBe(401);
};

async function registerAccount() {
  const email = `conf-sess-${unique()}@example.test`;
  const password = `Conf${unique()}9`;
  expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
  const code = await readCode(server.dataDir, email, 'email');
  const registered = await client.register({ accountType: 'email', account: email, password, code });
  const token = tokenOf(registered);
  expect(token, describeAnswer(registered)).toEqual(expect.any(String));
  return { email, password, token: token! };
}

async function logIn(account: string, password: string) {
  const answer = await client.login(account, password);
  const token = tokenOf(answer);
  expect(token, describeAnswer(answer)).toEqual(expect.any(String));
  return token!;
}

const listMy = (token: string) => client.get<SessionInfo[]>('/user/appSession/listMy', {}, token);

describe('sessions', () => {
  let email: string;
  let password: string;
  let first: string;
  let second: string;

  it('lists two logins of one account, exactly one of them current', async () => {
    const account = await registerAccount();
    ({ email, password } = account);
    // The registration's own session ends so that the two logins are the account's only sessions.
    ok(await client.logout(account.token));
    first = await logIn(email, password);
    second = await logIn(email, password);

    const seenByFirst = ok(await listMy(first));
    expect(seenByFirst).toHaveLength(2);
    expect(seenByFirst.filter((session) => session.current)).toHaveLength(1);
    expect(seenByFirst[0].current).toBe(true);
    for (const session of seenByFirst) {
      expect(session).toMatchObject({
        id: expect.stringMatching(/^[1-9][0-9]*$/), method: 'password',
        createdAt: expect.any(Number), lastUsedAt: expect.any(Number), ip: expect.any(String),
        device: expect.any(String), browser: expect.any(String), os: expect.any(String), userAgent: expect.any(String),
      });
    }
    const seenBySecond = ok(await listMy(second));
    expect(seenBySecond.filter((session) => session.current)).toHaveLength(1);
    // Each token sees itself as current: the two lists mark different ids.
    const currentOf = (list: SessionInfo[]) => list.find((session) => session.current)!.id;
    expect(currentOf(seenBySecond)).not.toBe(currentOf(seenByFirst));
    expect(new Set(seenBySecond.map((session) => session.id))).toEqual(new Set(seenByFirst.map((session) => session.id)));
  });

  it('ends the other session by id: its token then gets 401, the caller\'s still works', async () => {
    const list = ok(await listMy(first));
    const other = list.find((session) => !session.current)!;
    expect(ok(await client.post('/user/appSession/end', { id: other.id }, first))).toBeNull();
    expect401(await client.myUserInfo(second));
    expect401(await listMy(second));
    expect(ok(await client.myUserInfo(first)).account).toBeDefined();
    const after = ok(await listMy(first));
    expect(after).toHaveLength(1);
    expect(after[0].current).toBe(true);
    // Ending it again: it is no longer live.
    const again = await client.post('/user/appSession/end', { id: other.id }, first);
    expect(errorOf(again), describeAnswer(again)).toBe('session_not_found');
  });

  it('ends every other session with endOthers, keeping the caller\'s', async () => {
    const third = await logIn(email, password);
    const fourth = await logIn(email, password);
    expect(ok(await listMy(first))).toHaveLength(3);
    expect(ok(await client.post<{ ended: number }>('/user/appSession/endOthers', {}, first))).toEqual({ ended: 2 });
    expect401(await client.myUserInfo(third));
    expect401(await client.myUserInfo(fourth));
    expect(isSuccess(await client.myUserInfo(first))).toBe(true);
    const after = ok(await listMy(first));
    expect(after).toHaveLength(1);
    expect(after[0].current).toBe(true);
    expect(ok(await client.post<{ ended: number }>('/user/appSession/endOthers', {}, first))).toEqual({ ended: 0 });
  });

  it('refuses another account\'s session id with session_not_found, and that session keeps working', async () => {
    const stranger = await registerAccount();
    const strangerSessions = ok(await listMy(stranger.token));
    expect(strangerSessions).toHaveLength(1);
    const foreignId = strangerSessions[0].id;
    const refused = await client.post('/user/appSession/end', { id: foreignId }, first);
    expect(errorOf(refused), describeAnswer(refused)).toBe('session_not_found');
    expect(isSuccess(refused)).toBe(false);
    expect(isSuccess(await client.myUserInfo(stranger.token))).toBe(true);
    expect(ok(await listMy(stranger.token)).map((session) => session.id)).toEqual([foreignId]);
    // An id no session has is refused the same way.
    const unknown = await client.post('/user/appSession/end', { id: '999999999999' }, first);
    expect(errorOf(unknown), describeAnswer(unknown)).toBe('session_not_found');
  });

  it('needs a session for every call', async () => {
    expect401(await client.get('/user/appSession/listMy'));
    expect401(await client.get('/user/appSession/loginHistory'));
    expect401(await client.post('/user/appSession/endOthers', {}));
  });

  it('keeps a login history with a success line and, after a wrong password, a failed line', async () => {
    const wrong = await client.login(email, `${password}x`);
    expect(tokenOf(wrong), describeAnswer(wrong)).toBeUndefined();
    expect(isSuccess(wrong)).toBe(false);

    const page = ok(await client.get<HistoryPage>('/user/appSession/loginHistory', { pageNo: 1, pageSize: 50 }, first));
    expect(page).toMatchObject({ current: 1, size: 50, pages: 1 });
    expect(page.total).toBe(page.records.length);
    const successes = page.records.filter((entry) => entry.success);
    const failures = page.records.filter((entry) => !entry.success);
    expect(successes.some((entry) => entry.method === 'password')).toBe(true);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ method: 'password', success: false, id: expect.any(String), createdAt: expect.any(Number) });
    // Newest first: the failed attempt was the last one.
    expect(page.records[0].success).toBe(false);
    for (let index = 1; index < page.records.length; index += 1) {
      expect(page.records[index - 1].createdAt).toBeGreaterThanOrEqual(page.records[index].createdAt);
    }

    const small = ok(await client.get<HistoryPage>('/user/appSession/loginHistory', { pageNo: 2, pageSize: 1 }, first));
    expect(small).toMatchObject({ current: 2, size: 1, total: page.total, pages: page.total });
    expect(small.records).toHaveLength(1);
    expect(small.records[0].id).toBe(page.records[1].id);
  });
});
