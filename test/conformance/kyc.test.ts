// Conformance: identity verification (KYC) through a spec-only client. A user uploads the front
// and back of a document (multipart, purpose identity), applies for basic verification, reads
// the state and their applications (ID number masked); bad photos are refused with a stable code;
// the demo operator (README, Operators) finds the application in the queue, views both photos
// (the same bytes the owner reads; each view in the audit trail), rejects with a reason the user
// reads, and approves the second application: the level is 1 and advanced verification opens.
// The levels and the withdrawal limit answer as the contract says. Field names were read (not
// imported) from src/api/contract/identity.ts.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCode, startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient, tokenHeader, tokenOf, type Answer } from './specClient.ts';
import { AdminClient, demoOperatorToken } from './adminClient.ts';
import { plainPng } from './pngImage.ts';
import { describeAnswer, expectSuccess } from './expectAnswer.ts';

const frontPng = plainPng(40, 25, [220, 210, 190]);
const backPng = plainPng(40, 25, [40, 60, 120]);

let server: RunningServer;
let client: SpecClient;
let admin: AdminClient;
let operatorToken: string;

function expectError(answer: Answer, status: number, error: string) {
  expect({ status: answer.status, error: errorOf(answer) }, describeAnswer(answer)).toEqual({ status, error });
}

async function register(): Promise<string> {
  const email = `conf-kyc-${crypto.randomBytes(5).toString('hex')}@example.test`;
  expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
  const code = await readCode(server.dataDir, email, 'email');
  const registered = await client.register({ accountType: 'email', account: email, password: 'Kyc2026conf', code });
  const token = tokenOf(registered)!;
  expect(token, describeAnswer(registered)).toEqual(expect.any(String));
  return token;
}

async function getBytes(apiPath: string, token: string) {
  const response = await fetch(new URL(`/api${apiPath}`, server.baseUrl), { headers: { [tokenHeader]: token }, signal: AbortSignal.timeout(60_000) });
  return { status: response.status, cacheControl: response.headers.get('cache-control'), bytes: Buffer.from(await response.arrayBuffer()) };
}

const basic = { surname: 'Hopper', firstName: 'Grace', idType: 'id_card', idNumber: 'ID-20261123' };

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
  admin = new AdminClient(client);
  operatorToken = await demoOperatorToken(client);
});

afterAll(async () => {
  await server?.stop();
});

describe('identity verification (/auth/appAuth/*, /admin/kyc)', () => {
  it('applies, is rejected with a reason, applies again, is approved; the operator sees the photos, each view audited', async () => {
    const token = await register();
    const stranger = await register();
    expect(expectSuccess(await client.get('/auth/appAuth/isHaveAuth', {}, token))).toEqual({ basic: 'none', advanced: 'none', level: 0 });
    const front = expectSuccess(await client.upload(token, frontPng, 'identity')).id;
    const back = expectSuccess(await client.upload(token, backPng, 'identity')).id;
    const theirs = expectSuccess(await client.upload(stranger, frontPng, 'identity')).id;
    const proof = expectSuccess(await client.upload(token, frontPng, 'deposit_proof')).id;
    for (const [frontFileId, backFileId] of [[front, theirs], [front, proof], [front, front]]) {
      expectError(await client.post('/auth/appAuth/applyKYC', { ...basic, frontFileId, backFileId }, token), 400, 'kyc_photo_invalid');
    }
    expectError(await client.post('/auth/appAuth/applyAdvanced', {
      currentAddress: '1 Main St', emergencySurname: 'Hopper', emergencyName: 'Mary', emergencyRelationship: 'sister',
      emergencyPhone: '+1 555 0100', emergencyAddress: '2 Main St',
    }, token), 400, 'kyc_basic_required');
    // Another user cannot read the photos.
    expect((await getBytes(`/sys/common/file/${front}`, stranger)).status).toBe(404);

    const first = expectSuccess(await client.post<{ id: string; status: string; idNumberMasked: string }>('/auth/appAuth/applyKYC',
      { ...basic, frontFileId: front, backFileId: back }, token));
    expect(first).toMatchObject({ level: 1, status: 'pending', idNumberMasked: expect.stringMatching(/1123$/) });
    expect(JSON.stringify(first)).not.toContain('2026');
    expectError(await client.post('/auth/appAuth/applyKYC', { ...basic, frontFileId: front, backFileId: back }, token), 409, 'kyc_pending');

    const queue = expectSuccess(await client.get<{ records: Array<{ id: string; details: Record<string, string> }> }>('/admin/kyc',
      { status: 'pending', pageSize: 100 }, operatorToken));
    expect(queue.records.find((record) => record.id === first.id)?.details).toMatchObject({ idNumber: 'ID-20261123' });
    const own = await getBytes(`/sys/common/file/${front}`, token);
    expect(own.cacheControl).toContain('no-store');
    const viewed = await getBytes(`/admin/kyc/${first.id}/photo/front`, operatorToken);
    expect(viewed.status).toBe(200);
    expect(viewed.cacheControl).toContain('no-store');
    expect(viewed.bytes.equals(own.bytes)).toBe(true);
    expect((await getBytes(`/admin/kyc/${first.id}/photo/back`, operatorToken)).status).toBe(200);
    expect((await getBytes(`/admin/kyc/${first.id}/photo/front`, token)).status).toBe(401);
    const audit = expectSuccess(await admin.audit(operatorToken, { action: 'kyc_photo_viewed' }));
    expect(audit.records.filter((record) => (record as { targetId?: string }).targetId === first.id)).toHaveLength(2);

    expectSuccess(await client.post(`/admin/kyc/${first.id}/reject`, { reason: 'The photo is too small to read.' }, operatorToken));
    expectError(await client.post(`/admin/kyc/${first.id}/approve`, {}, operatorToken), 409, 'record_already_decided');
    expect(expectSuccess(await client.get('/auth/appAuth/isHaveAuth', {}, token)))
      .toEqual({ basic: 'rejected', advanced: 'none', level: 0, basicReason: 'The photo is too small to read.' });

    const second = expectSuccess(await client.post<{ id: string }>('/auth/appAuth/applyKYC', { ...basic, frontFileId: front, backFileId: back }, token));
    expectSuccess(await client.post(`/admin/kyc/${second.id}/approve`, {}, operatorToken));
    expect(expectSuccess(await client.get('/auth/appAuth/isHaveAuthDone', {}, token))).toEqual({ done: true, level: 1 });
    const mine = expectSuccess(await client.get<{ total: number; records: Array<{ status: string }> }>('/auth/appAuth/listMy', {}, token));
    expect(mine.total).toBe(2);
    expect(mine.records.map((record) => record.status)).toEqual(['approved', 'rejected']);
    expectError(await client.post('/auth/appAuth/applyKYC', { ...basic, frontFileId: front, backFileId: back }, token), 409, 'kyc_already_approved');
  });

  it('answers what each level unlocks, to anyone; operators read the same levels', async () => {
    const levels = expectSuccess(await client.get<Array<{ level: number; withdrawDailyLimit?: string; loanLimit: string; productsOpen: boolean }>>(
      '/auth/appAuth/levels'));
    expect(levels.map((level) => level.level)).toEqual([0, 1, 2]);
    expect(levels[0]).toMatchObject({ withdrawDailyLimit: expect.stringMatching(/^\d+(\.\d+)?$/), productsOpen: expect.any(Boolean) });
    expect(levels[2].withdrawDailyLimit).toBeUndefined();
    expect(expectSuccess(await client.get('/admin/kyc-levels', {}, operatorToken))).toEqual(levels);
    expectError(await client.post('/admin/kyc-levels/7', { loanLimit: '0', productsOpen: false }, operatorToken), 400, 'kyc_settings_invalid');
  });
});
