// Conformance: the identity back office as a third-party operator client sees it. The demo
// operator logs in with a TOTP code (adminClient.ts; its secret is never rotated). A user uploads
// both sides of a document (purpose identity) and applies for basic verification; the operator
// finds it in the queue, reads its detail (the full ID number), fetches both photos (the pictures
// the user uploaded, re-encoded by the server: the bytes the owner reads), rejects it with a
// reason the user reads through the app's calls; the user applies again, the operator approves,
// and the app's calls say approved. The operator reads and changes what a level unlocks (the
// public levels follow), and finds the user by e-mail with their security state: counts and
// names, no secret, hash or password anywhere in the answer; an admin removes the user's lost
// authenticator with a reason and a fresh code of their own. A user's token opens none of these
// calls, and changes nothing. Paths and fields were read (not imported) from
// src/api/contract/identity.ts (kycPaths, kycAdminPaths).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, totp, demoOperator, demoOperatorToken } from './adminClient.ts';
import { plainPng, pngLook } from './pngImage.ts';
import { readCode, startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient, tokenHeader, tokenOf, type Answer } from './specClient.ts';
import { describeAnswer, expectSuccess as ok } from './expectAnswer.ts';

let server: RunningServer;
let client: SpecClient;
let operatorToken: string;

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
  operatorToken = await demoOperatorToken(client);
});

afterAll(async () => {
  await server?.stop();
});

const unique = () => crypto.randomBytes(5).toString('hex');
function expectRefused(answer: Answer, status: number, error?: string) {
  expect(answer.status, describeAnswer(answer)).toBe(status);
  if (error) expect(errorOf(answer), describeAnswer(answer)).toBe(error);
}

/** A GET answered with bytes (the photos). */
async function getBytes(apiPath: string, token?: string) {
  const response = await fetch(new URL(`/api${apiPath}`, server.baseUrl), {
    headers: token ? { [tokenHeader]: token } : {}, signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Every key of a JSON value, at every depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, field]) => [key, ...keysOf(field)]);
  return [];
}

interface AdminApplication {
  id: string; userId: string; account: string; level: number; status: string; details: Record<string, string>;
  hasFront: boolean; hasBack: boolean; reason?: string; decidedBy?: string; decidedAt?: number; createdAt: number;
}
interface Level { level: number; withdrawDailyLimit?: string; loanLimit: string; productsOpen: boolean }
interface UserSecurity {
  userId: string; account: string; createdAt: number; kycLevel: number; kycPending: boolean; googleBound: boolean;
  recoveryCodesLeft: number; passkeys: number; wallets: string[]; oidcProviders: string[]; activeSessions: number;
  lastLoginAt?: number; lastLoginIp?: string; failedLogins24h: number;
}

const frontPng = plainPng(48, 30, [230, 220, 200]);
const backPng = plainPng(40, 25, [30, 70, 140]);
const basic = { surname: 'Lovelace', firstName: 'Ada', idType: 'passport', idNumber: 'P-18151210' };

describe('the identity back office', () => {
  const email = `conf-idadmin-${unique()}@example.test`;
  const password = `Conf${unique()}9`;
  let userToken: string;
  let userId: string;
  let googleSecret: string;
  let frontId: string;
  let backId: string;
  let firstId: string;

  it('a user applies for basic verification with both photos', async () => {
    expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
    const registered = await client.register({ accountType: 'email', account: email, password, code: await readCode(server.dataDir, email, 'email') });
    userToken = tokenOf(registered)!;
    expect(userToken, describeAnswer(registered)).toEqual(expect.any(String));
    userId = ok(await client.myUserInfo(userToken)).id;
    frontId = ok(await client.upload(userToken, frontPng, 'identity')).id;
    backId = ok(await client.upload(userToken, backPng, 'identity')).id;
    const applied = ok(await client.post<{ id: string; status: string }>('/auth/appAuth/applyKYC',
      { ...basic, frontFileId: frontId, backFileId: backId }, userToken));
    expect(applied.status).toBe('pending');
    firstId = applied.id;
  });

  it('refuses a user\'s token, and no token, on every back-office call, and nothing changes', async () => {
    const calls = (token?: string) => [
      () => client.get('/admin/kyc', { status: 'pending' }, token),
      () => client.get(`/admin/kyc/${firstId}`, {}, token),
      () => client.post(`/admin/kyc/${firstId}/approve`, {}, token),
      () => client.post(`/admin/kyc/${firstId}/reject`, { reason: 'Refused by a user token.' }, token),
      () => client.get('/admin/kyc-levels', {}, token),
      () => client.post('/admin/kyc-levels/0', { withdrawDailyLimit: '1', loanLimit: '0', productsOpen: false }, token),
      () => client.get('/admin/users', { q: email }, token),
      () => client.post(`/admin/users/${userId}/google-auth/reset`, { reason: 'Refused by a user token.', operatorCode: '123456' }, token),
    ];
    const levelsBefore = ok(await client.get<Level[]>('/auth/appAuth/levels'));
    for (const token of [userToken, undefined]) {
      for (const call of calls(token)) expectRefused(await call(), 401);
      for (const side of ['front', 'back']) expect((await getBytes(`/admin/kyc/${firstId}/photo/${side}`, token)).status).toBe(401);
    }
    // The application is still pending and the levels are as they were.
    expect(ok(await client.get('/auth/appAuth/isHaveAuth', {}, userToken))).toMatchObject({ basic: 'pending', level: 0 });
    expect(ok(await client.get<Level[]>('/auth/appAuth/levels'))).toEqual(levelsBefore);
  });

  it('the operator finds it in the queue, reads the detail and both photos as uploaded', async () => {
    const queue = ok(await client.get<{ records: AdminApplication[]; total: number }>('/admin/kyc',
      { status: 'pending', level: 1, pageSize: 100 }, operatorToken));
    const listed = queue.records.find((record) => record.id === firstId);
    expect(listed).toMatchObject({ userId, account: email, level: 1, status: 'pending', hasFront: true, hasBack: true });
    expect(queue.records.every((record) => record.status === 'pending')).toBe(true);

    const detail = ok(await client.get<AdminApplication>(`/admin/kyc/${firstId}`, {}, operatorToken));
    expect(detail).toMatchObject({ id: firstId, userId, account: email, status: 'pending', createdAt: expect.any(Number) });
    // The operator reads the full ID number the user only sees masked.
    expect(detail.details).toMatchObject({ surname: basic.surname, firstName: basic.firstName, idNumber: basic.idNumber });
    expect(detail.decidedAt).toBeUndefined();
    expectRefused(await client.get('/admin/kyc/999999999', {}, operatorToken), 404);

    const front = await getBytes(`/admin/kyc/${firstId}/photo/front`, operatorToken);
    const back = await getBytes(`/admin/kyc/${firstId}/photo/back`, operatorToken);
    expect(front.status).toBe(200);
    expect(back.status).toBe(200);
    expect(front.contentType).toContain('image/png');
    // What the user uploaded, each side where it belongs: the same picture, and the same bytes the owner reads.
    expect(pngLook(front.bytes)).toEqual({ width: 48, height: 30, firstPixel: [230, 220, 200] });
    expect(pngLook(back.bytes)).toEqual({ width: 40, height: 25, firstPixel: [30, 70, 140] });
    expect(front.bytes.equals((await getBytes(`/sys/common/file/${frontId}`, userToken)).bytes)).toBe(true);
    expect(back.bytes.equals((await getBytes(`/sys/common/file/${backId}`, userToken)).bytes)).toBe(true);
  });

  it('rejects with a reason the user reads; the user applies again and is approved', async () => {
    const reason = 'The back of the passport is not readable.';
    const rejected = ok(await client.post<AdminApplication>(`/admin/kyc/${firstId}/reject`, { reason }, operatorToken));
    expect(rejected).toMatchObject({ id: firstId, status: 'rejected', reason, decidedAt: expect.any(Number), decidedBy: expect.any(String) });
    expect(ok(await client.get('/auth/appAuth/isHaveAuth', {}, userToken))).toMatchObject({ basic: 'rejected', level: 0, basicReason: reason });
    expect(ok(await client.get('/auth/appAuth/isHaveAuthDone', {}, userToken))).toEqual({ done: false, level: 0 });
    const afterReject = ok(await client.get<{ records: Array<{ id: string; status: string; reason?: string }> }>('/auth/appAuth/listMy', {}, userToken));
    expect(afterReject.records.find((record) => record.id === firstId)).toMatchObject({ status: 'rejected', reason });

    const again = ok(await client.post<{ id: string }>('/auth/appAuth/applyKYC', { ...basic, frontFileId: frontId, backFileId: backId }, userToken));
    expect(again.id).not.toBe(firstId);
    const approved = ok(await client.post<AdminApplication>(`/admin/kyc/${again.id}/approve`, {}, operatorToken));
    expect(approved).toMatchObject({ id: again.id, status: 'approved' });
    expect(ok(await client.get(`/admin/kyc/${again.id}`, {}, operatorToken))).toMatchObject({ status: 'approved', decidedAt: expect.any(Number) });

    expect(ok(await client.get('/auth/appAuth/isHaveAuth', {}, userToken))).toMatchObject({ basic: 'approved', advanced: 'none', level: 1 });
    expect(ok(await client.get('/auth/appAuth/isHaveAuthDone', {}, userToken))).toEqual({ done: true, level: 1 });
    const mine = ok(await client.get<{ total: number; records: Array<{ id: string; status: string }> }>('/auth/appAuth/listMy', {}, userToken));
    expect(mine.total).toBe(2);
    expect(mine.records.map((record) => [record.id, record.status])).toEqual([[again.id, 'approved'], [firstId, 'rejected']]);
    // The approved application has left the queue.
    const queue = ok(await client.get<{ records: AdminApplication[] }>('/admin/kyc', { status: 'pending', pageSize: 100 }, operatorToken));
    expect(queue.records.filter((record) => record.userId === userId)).toEqual([]);
  });

  it('reads and changes what a level unlocks; the public levels follow; an inverted setting is refused', async () => {
    const before = ok(await client.get<Level[]>('/admin/kyc-levels', {}, operatorToken));
    expect(before.map((level) => level.level)).toEqual([0, 1, 2]);
    const levelOne = before[1];
    const changed = { withdrawDailyLimit: '61000.5', loanLimit: String(Number(levelOne.loanLimit) + 1), productsOpen: true };
    const answer = ok(await client.post<Level>('/admin/kyc-levels/1', changed, operatorToken));
    expect({ ...answer, withdrawDailyLimit: Number(answer.withdrawDailyLimit), loanLimit: Number(answer.loanLimit) })
      .toEqual({ level: 1, withdrawDailyLimit: 61000.5, loanLimit: Number(changed.loanLimit), productsOpen: true });
    const after = ok(await client.get<Level[]>('/admin/kyc-levels', {}, operatorToken));
    expect(after).toEqual([before[0], answer, before[2]]);
    expect(ok(await client.get<Level[]>('/auth/appAuth/levels'))).toEqual(after);

    // Level 1 may not unlock less than level 0: refused, nothing changed.
    expectRefused(await client.post('/admin/kyc-levels/1', { withdrawDailyLimit: '1', loanLimit: '0', productsOpen: false }, operatorToken),
      400, 'kyc_settings_invalid');
    expect(ok(await client.get<Level[]>('/admin/kyc-levels', {}, operatorToken))).toEqual(after);

    // Back as it was: a level without a daily limit is written without the field.
    const restored = ok(await client.post<Level>('/admin/kyc-levels/1', {
      withdrawDailyLimit: levelOne.withdrawDailyLimit, loanLimit: levelOne.loanLimit, productsOpen: levelOne.productsOpen,
    }, operatorToken));
    expect(restored).toEqual(levelOne);
    expect(ok(await client.get<Level[]>('/admin/kyc-levels', {}, operatorToken))).toEqual(before);
  });

  it('finds the user by e-mail with their security state, and no secret in the answer', async () => {
    // Something to hide: a bound authenticator (its secret and recovery codes) and a failed login.
    const key = ok(await client.get<{ secret: string }>('/app/generateGoogleKey', {}, userToken));
    googleSecret = key.secret;
    const bound = ok(await client.post<{ recoveryCodes: string[] }>('/user/appUser/bindGoogleAuth',
      { secret: googleSecret, code: totp(base32Decode(googleSecret), Date.now()) }, userToken));
    expect(bound.recoveryCodes).toHaveLength(10);
    expect(tokenOf(await client.login(email, `${password}x`))).toBeUndefined();

    const answer = await client.get<{ total: number; records: UserSecurity[] }>('/admin/users', { q: email.toUpperCase() }, operatorToken);
    const found = ok(answer);
    expect(found.total).toBe(1);
    expect(found.records[0]).toMatchObject({
      userId, account: email, kycLevel: 1, kycPending: false, googleBound: true, recoveryCodesLeft: 10, passkeys: 0,
      wallets: [], oidcProviders: [], failedLogins24h: 1, lastLoginAt: expect.any(Number),
    });
    expect(found.records[0].activeSessions).toBeGreaterThanOrEqual(1);
    // Counts and names only: no key names a secret, and no secret's value is in the text.
    const secretLike = /secret|hash|password|salt|token|otp|^recoveryCodes?$/i;
    expect(keysOf(answer.envelope).filter((name) => secretLike.test(name))).toEqual([]);
    for (const secret of [googleSecret, password, ...bound.recoveryCodes, userToken]) expect(answer.text).not.toContain(secret);

    // Searching by the user id finds the same user; a prefix nobody has finds nobody.
    expect(ok(await client.get<{ records: UserSecurity[] }>('/admin/users', { q: userId }, operatorToken)).records.map((record) => record.userId))
      .toContain(userId);
    expect(ok(await client.get<{ total: number }>('/admin/users', { q: `nobody-${unique()}@` }, operatorToken)).total).toBe(0);
  });

  it('an admin removes the lost authenticator with a reason and a fresh own code; the user logs in with the password alone', async () => {
    const path = `/admin/users/${userId}/google-auth/reset`;
    const reason = 'Lost phone and recovery codes; identity checked on a video call.';
    // The demo operator's code of the next step: the login spent this step's (one step of drift is accepted).
    const nextCode = totp(base32Decode(demoOperator.totpSecret), (await client.serverTime()) + 30_000);
    // A user's token, a short reason and a wrong code are refused; the binding stays.
    expectRefused(await client.post(path, { reason, operatorCode: nextCode }, userToken), 401);
    expectRefused(await client.post(path, { reason: 'lost', operatorCode: nextCode }, operatorToken), 400, 'invalid_request');
    const wrong = String((Number(nextCode) + 1) % 1_000_000).padStart(6, '0');
    expectRefused(await client.post(path, { reason, operatorCode: wrong }, operatorToken), 400);
    expect(ok(await client.get<{ bound: boolean }>('/user/appUser/googleAuthState', {}, userToken)).bound).toBe(true);

    const done = ok(await client.post<{ sessionsEnded: number }>(path, { reason, operatorCode: nextCode }, operatorToken));
    expect(done.sessionsEnded).toBeGreaterThanOrEqual(1);
    // Every session of the user ended; the password alone now logs in, and no code is asked.
    expect((await client.get('/user/appUser/getMyUserInfo', {}, userToken)).status).toBe(401);
    expect(ok(await client.get('/app/checkGoogleAuth', { account: email }))).toEqual({ bound: false });
    const login = await client.login(email, password);
    expect(tokenOf(login), describeAnswer(login)).toEqual(expect.any(String));
    // The back office shows it unbound.
    const found = ok(await client.get<{ records: UserSecurity[] }>('/admin/users', { q: email }, operatorToken));
    expect(found.records[0].googleBound).toBe(false);
  });
});
