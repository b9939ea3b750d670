// KYC through the real protocol on each database: identity photos sealed at rest and served to
// their owner only, applications refused on every bad input with nothing written, one pending
// application per level even when two arrive at once, the operator's queue, decisions once,
// every photo view audited, and what each level unlocks.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { kycAdminPaths, kycPaths } from '../../../src/api/contract/identity.ts';
import { walletAdminPaths, walletPaths } from '../../../src/api/contract/wallet.ts';
import { kycApplicationsPerUserPerDay } from '../../../server/domain/core/identity/kyc.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import { getRaw, pdfDocument, pngImage, upload } from '../wallet/walletHelpers.ts';
import {
  advancedFields, applyBasic, approve, basicFields, documentPhoto, reject, reviewer, uploadIdentity,
} from './kycHelpers.ts';

const fileUrl = (id: string) => walletPaths.uploadedFile.replace(':id', id);
const photoUrl = (id: string, side: string) => kycAdminPaths.photo.replace(':id', id).replace(':side', side);

async function applicationCount(server: TestServer, email?: string): Promise<number> {
  const rows = await server.query<{ n: number }>(email === undefined
    ? sql`select count(*)::int as n from kyc_applications`
    : sql`select count(*)::int as n from kyc_applications k join users u on u.id = k.user_id where u.email = ${email}`);
  return rows[0].n;
}

async function auditOf(server: TestServer, action: string, targetId: string) {
  return server.query<{ operator_id: string; user_id: string; after: unknown; reason: string | null }>(
    sql`select operator_id::text, user_id::text, after, reason from audit_log where action = ${action} and target_id = ${targetId} order by id`);
}

forEachDatabase((server) => {
  describe('identity uploads', () => {
    it('are sealed on disk (never the plain image), read back by their owner only, with no-store', async () => {
      const owner = await server.registerByEmail();
      const other = await server.registerByEmail();
      const id = await uploadIdentity(server, owner.token);
      const [row] = await server.query<{ stored_name: string; size_bytes: number }>(sql`select stored_name, size_bytes from uploads where id = ${id}`);
      expect(row.stored_name).toMatch(/\.png\.sealed$/);
      const onDisk = fs.readFileSync(path.join(server.dataDir, 'uploads', row.stored_name));
      const served = await getRaw(server, fileUrl(id), owner.token);
      expect(served.status).toBe(200);
      expect(served.headers['cache-control']).toBe('private, no-store');
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.bytes.length).toBe(row.size_bytes);
      expect((await sharp(served.bytes).metadata()).width).toBe(80);
      // The stored file is neither the image nor anything that starts like one.
      expect(onDisk.subarray(1, 9).equals(served.bytes.subarray(0, 8))).toBe(false);
      expect(onDisk.includes(served.bytes.subarray(0, 16))).toBe(false);
      expect(onDisk.includes(Buffer.from('IHDR'))).toBe(false);
      await expect(sharp(onDisk).metadata()).rejects.toThrow();
      // Another user, and no session at all: as if the file did not exist.
      const foreign = await getRaw(server, fileUrl(id), other.token);
      expect(foreign.status).toBe(404);
      expect(foreign.bytes.includes(served.bytes.subarray(0, 8))).toBe(false);
      expect((await getRaw(server, fileUrl(id))).status).toBe(401);
    });

    it('take images only (a PDF is refused), and the deposit-proof route of the back office does not serve them', async () => {
      const { token } = await server.registerByEmail();
      expectRefused(await upload(server, token, { bytes: pdfDocument(), filename: 'id.pdf', contentType: 'application/pdf' }, 'identity'),
        400, 'file_type_unsupported');
      const id = await uploadIdentity(server, token);
      const op = await reviewer(server, 'finance');
      const viaDeposits = await getRaw(server, walletAdminPaths.uploadedFile.replace(':id', id), op.token);
      expect(viaDeposits.status).toBe(404);
    });
  });

  describe('POST applyKYC', () => {
    it('records a pending basic application; the owner reads it with the ID number masked', async () => {
      const user = await server.registerByEmail();
      expect(expectOk(await server.get(kycPaths.isHaveAuth, {}, { token: user.token })).body.result)
        .toEqual({ basic: 'none', advanced: 'none', level: 0 });
      const answer = expectOk(await applyBasic(server, user.token, { surname: '  Lovelace ', idNumber: 'x1234-5678' })).body.result;
      expect(answer).toMatchObject({
        level: 1, status: 'pending', surname: 'Lovelace', firstName: 'Ada', idType: 'passport', idNumberMasked: '*****5678',
      });
      expect(JSON.stringify(answer)).not.toContain('1234');
      expect(expectOk(await server.get(kycPaths.isHaveAuth, {}, { token: user.token })).body.result)
        .toEqual({ basic: 'pending', advanced: 'none', level: 0 });
      expect(expectOk(await server.get(kycPaths.isHaveAuthDone, {}, { token: user.token })).body.result).toEqual({ done: false, level: 0 });
      const page = expectOk(await server.get(kycPaths.listMy, {}, { token: user.token })).body.result;
      expect(page).toMatchObject({ total: 1, current: 1, pages: 1 });
      expect(page.records[0]).toEqual(answer);
      // The owner can read the photos the application names.
      expect((await getRaw(server, fileUrl(answer.frontFileId), user.token)).status).toBe(200);
    });

    it('refuses photos that are not two of the caller\'s own identity uploads, and writes nothing', async () => {
      const user = await server.registerByEmail();
      const other = await server.registerByEmail();
      const mine = await uploadIdentity(server, user.token, 1);
      const theirs = await uploadIdentity(server, other.token, 2);
      const deposit = expectOk(await upload(server, user.token, { bytes: await pngImage() }, 'deposit_proof')).body.result.id as string;
      const before = await applicationCount(server);
      for (const fields of [
        { frontFileId: mine, backFileId: theirs }, { frontFileId: theirs, backFileId: mine },
        { frontFileId: mine, backFileId: deposit }, { frontFileId: mine, backFileId: 'ab'.repeat(16) },
        { frontFileId: mine, backFileId: mine },
      ]) {
        expectRefused(await applyBasic(server, user.token, fields), 400, 'kyc_photo_invalid');
      }
      // Wrong shapes are refused by the contract before anything is looked up.
      expectRefused(await applyBasic(server, user.token, { frontFileId: '../etc/passwd' }), 400, 'invalid_request');
      expectRefused(await applyBasic(server, user.token, { idType: 'driving_licence' }), 400, 'invalid_request');
      expectRefused(await applyBasic(server, user.token, { idNumber: '<script>' }), 400, 'invalid_request');
      expectRefused(await applyBasic(server, user.token, { surname: '   ' }), 400, 'invalid_request');
      const missing = await server.post(kycPaths.applyBasic, { ...basicFields, frontFileId: mine }, { token: user.token });
      expectRefused(missing, 400, 'invalid_request');
      expect(await applicationCount(server)).toBe(before);
      expect((await server.post(kycPaths.applyBasic, { ...basicFields, frontFileId: mine, backFileId: mine })).status).toBe(401);
    });

    it('refuses a second application while one is pending, and keeps one when two arrive at once', async () => {
      const user = await server.registerByEmail();
      const [front, back] = [await uploadIdentity(server, user.token, 1), await uploadIdentity(server, user.token, 2)];
      const answers = await Promise.all([1, 2, 3].map(() => applyBasic(server, user.token, { frontFileId: front, backFileId: back })));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      for (const answer of answers.filter((found) => found.status !== 200)) expectRefused(answer, 409, 'kyc_pending');
      expect(await applicationCount(server, user.email)).toBe(1);
      expectRefused(await applyBasic(server, user.token), 409, 'kyc_pending');
      expect(await applicationCount(server, user.email)).toBe(1);
    });

    it('lets a rejected user apply again, shows the reason, and refuses once approved', async () => {
      const user = await server.registerByEmail();
      const op = await reviewer(server);
      const first = expectOk(await applyBasic(server, user.token)).body.result.id as string;
      expectOk(await reject(server, op, first, 'The back photo is blurred; please take it again.'));
      expect(expectOk(await server.get(kycPaths.isHaveAuth, {}, { token: user.token })).body.result).toEqual({
        basic: 'rejected', advanced: 'none', level: 0, basicReason: 'The back photo is blurred; please take it again.',
      });
      const second = expectOk(await applyBasic(server, user.token)).body.result.id as string;
      expectOk(await approve(server, op, second));
      expect(expectOk(await server.get(kycPaths.isHaveAuth, {}, { token: user.token })).body.result)
        .toEqual({ basic: 'approved', advanced: 'none', level: 1 });
      expect(expectOk(await server.get(kycPaths.isHaveAuthDone, {}, { token: user.token })).body.result).toEqual({ done: true, level: 1 });
      const count = await applicationCount(server, user.email);
      expectRefused(await applyBasic(server, user.token), 409, 'kyc_already_approved');
      expect(await applicationCount(server, user.email)).toBe(count);
      const mine = expectOk(await server.get(kycPaths.listMy, {}, { token: user.token })).body.result.records;
      expect(mine.map((record: { status: string }) => record.status)).toEqual(['approved', 'rejected']);
      expect(mine[1].reason).toBe('The back photo is blurred; please take it again.');
    });

    it('limits applications per user per day', async () => {
      const user = await server.registerByEmail();
      const mine = await uploadIdentity(server, user.token, 1);
      for (let index = 0; index < kycApplicationsPerUserPerDay; index += 1) {
        expectRefused(await applyBasic(server, user.token, { frontFileId: mine, backFileId: mine }), 400, 'kyc_photo_invalid');
      }
      expectRefused(await applyBasic(server, user.token), 429, 'rate_limited');
      expect(await applicationCount(server, user.email)).toBe(0);
    });
  });

  describe('POST applyAdvanced', () => {
    it('needs basic approved, then records, and the level reaches 2 on approval', async () => {
      const user = await server.registerByEmail();
      const op = await reviewer(server);
      expectRefused(await server.post(kycPaths.applyAdvanced, advancedFields, { token: user.token }), 400, 'kyc_basic_required');
      const basic = expectOk(await applyBasic(server, user.token)).body.result.id as string;
      expectRefused(await server.post(kycPaths.applyAdvanced, advancedFields, { token: user.token }), 400, 'kyc_basic_required');
      expect(await applicationCount(server, user.email)).toBe(1);
      expectOk(await approve(server, op, basic));
      expectRefused(await server.post(kycPaths.applyAdvanced, { ...advancedFields, emergencyPhone: 'call me' }, { token: user.token }),
        400, 'invalid_request');
      const advanced = expectOk(await server.post(kycPaths.applyAdvanced, advancedFields, { token: user.token })).body.result;
      expect(advanced).toMatchObject({ level: 2, status: 'pending' });
      expect(advanced.idNumberMasked).toBeUndefined();
      expectRefused(await server.post(kycPaths.applyAdvanced, advancedFields, { token: user.token }), 409, 'kyc_pending');
      expectOk(await approve(server, op, advanced.id));
      expect(expectOk(await server.get(kycPaths.isHaveAuth, {}, { token: user.token })).body.result)
        .toEqual({ basic: 'approved', advanced: 'approved', level: 2 });
      expectRefused(await server.post(kycPaths.applyAdvanced, advancedFields, { token: user.token }), 409, 'kyc_already_approved');
    });
  });

  describe('back office', () => {
    it('lists the pending queue oldest first with every field, to admin and finance operators', async () => {
      const first = await server.registerByEmail();
      const second = await server.registerByEmail();
      const a = expectOk(await applyBasic(server, first.token)).body.result.id as string;
      server.clock.advance(1000);
      const b = expectOk(await applyBasic(server, second.token, { idNumber: 'P99887766' })).body.result.id as string;
      for (const role of ['admin', 'finance'] as const) {
        const op = await reviewer(server, role);
        const page = expectOk(await server.get(kycAdminPaths.list, { status: 'pending', pageSize: '100' }, { token: op.token })).body.result;
        const ids = page.records.map((record: { id: string }) => record.id);
        expect(ids.indexOf(a)).toBeLessThan(ids.indexOf(b));
        const record = page.records.find((found: { id: string }) => found.id === b);
        expect(record).toMatchObject({
          account: second.email, level: 1, status: 'pending', hasFront: true, hasBack: true,
          details: { surname: 'Lovelace', firstName: 'Ada', idType: 'passport', idNumber: 'P99887766' },
        });
        expect(expectOk(await server.get(kycAdminPaths.detail.replace(':id', b), {}, { token: op.token })).body.result).toEqual(record);
      }
      const op = await reviewer(server);
      const filtered = expectOk(await server.get(kycAdminPaths.list, { userId: String((await server.userByEmail(first.email!)).id) },
        { token: op.token })).body.result;
      expect(filtered.records.map((record: { id: string }) => record.id)).toEqual([a]);
      expectRefused(await server.get(kycAdminPaths.detail.replace(':id', '999999999'), {}, { token: op.token }), 404, 'kyc_not_found');
      expect((await server.get(kycAdminPaths.list, {}, { token: first.token })).status).toBe(401);
    });

    it('decides once, audited with the reason; the photos are served decrypted and every view is audited', async () => {
      const user = await server.registerByEmail();
      const op = await reviewer(server);
      const application = expectOk(await applyBasic(server, user.token)).body.result;
      const own = await getRaw(server, fileUrl(application.frontFileId), user.token);
      const front = await getRaw(server, photoUrl(application.id, 'front'), op.token);
      expect(front.status).toBe(200);
      expect(front.headers['cache-control']).toBe('private, no-store');
      expect(Buffer.compare(front.bytes, own.bytes)).toBe(0);
      const back = await getRaw(server, photoUrl(application.id, 'back'), op.token);
      expect(back.status).toBe(200);
      expect(Buffer.compare(back.bytes, front.bytes)).not.toBe(0);
      expect((await getRaw(server, photoUrl(application.id, 'side'), op.token)).status).toBe(400);
      expect((await getRaw(server, photoUrl(application.id, 'front'), user.token)).status).toBe(401);
      const views = await auditOf(server, 'kyc_photo_viewed', application.id);
      expect(views.map((view) => (view.after as { side: string }).side)).toEqual(['front', 'back']);
      const userId = String((await server.userByEmail(user.email!)).id);
      expect(views.every((view) => view.operator_id === op.id && view.user_id === userId)).toBe(true);

      expectRefused(await server.post(kycAdminPaths.reject.replace(':id', application.id), { reason: 'x' }, { token: op.token }),
        400, 'invalid_request');
      expectOk(await reject(server, op, application.id, 'The name does not match the document.'));
      expectRefused(await approve(server, op, application.id), 409, 'record_already_decided');
      expectRefused(await reject(server, op, application.id), 409, 'record_already_decided');
      expectRefused(await approve(server, op, '999999999'), 404, 'kyc_not_found');
      const [decided] = await auditOf(server, 'kyc.reject', application.id);
      expect(decided).toMatchObject({ operator_id: op.id, reason: 'The name does not match the document.' });
      expect(await auditOf(server, 'kyc.approve', application.id)).toEqual([]);
      const detail = expectOk(await server.get(kycAdminPaths.detail.replace(':id', application.id), {}, { token: op.token })).body.result;
      expect(detail).toMatchObject({ status: 'rejected', reason: 'The name does not match the document.', decidedBy: op.id });
    });
  });

  describe('levels', () => {
    it('are public with defaults, and only admins change them, audited, in order', async () => {
      const levels = expectOk(await server.get(kycPaths.levels)).body.result;
      expect(levels).toEqual([
        { level: 0, withdrawDailyLimit: '1000.000000', loanLimit: '0.000000', productsOpen: false },
        { level: 1, withdrawDailyLimit: '50000.000000', loanLimit: '10000.000000', productsOpen: true },
        { level: 2, loanLimit: '100000.000000', productsOpen: true },
      ]);
      const finance = await reviewer(server, 'finance');
      expect(expectOk(await server.get(kycAdminPaths.levels, {}, { token: finance.token })).body.result).toEqual(levels);
      const levelUrl = (level: string) => kycAdminPaths.level.replace(':level', level);
      const change = { withdrawDailyLimit: '2000', loanLimit: '0', productsOpen: false };
      expectRefused(await server.post(levelUrl('0'), change, { token: finance.token }), 403, 'forbidden');
      const admin = await reviewer(server);
      for (const [level, body] of [
        ['3', change], ['x', change],
        ['0', { ...change, withdrawDailyLimit: '60000' }], // above level 1's limit
        ['0', { ...change, withdrawDailyLimit: null }], // no limit while level 1 has one
        ['1', { withdrawDailyLimit: '500', loanLimit: '10000', productsOpen: true }], // below level 0's limit
        ['0', { ...change, withdrawDailyLimit: '-5' }], ['0', { ...change, loanLimit: '1e3' }],
        ['2', { withdrawDailyLimit: '100', loanLimit: '100000', productsOpen: true }],
        ['0', { ...change, withdrawDailyLimit: '1.0000001' }],
      ] as const) {
        expectRefused(await server.post(levelUrl(level), body, { token: admin.token }), 400, 'kyc_settings_invalid');
      }
      expectRefused(await server.post(levelUrl('0'), { ...change, extra: true }, { token: admin.token }), 400, 'invalid_request');
      expect(expectOk(await server.get(kycPaths.levels)).body.result).toEqual(levels);
      const changed = expectOk(await server.post(levelUrl('0'), change, { token: admin.token })).body.result;
      expect(changed).toEqual({ level: 0, withdrawDailyLimit: '2000.000000', loanLimit: '0.000000', productsOpen: false });
      expect(expectOk(await server.get(kycPaths.levels)).body.result[0]).toEqual(changed);
      const [audit] = await server.query<{ before: unknown; after: unknown }>(
        sql`select before, after from audit_log where action = 'kyc.level' and target_id = '0' order by id desc limit 1`);
      expect(audit).toEqual({ before: levels[0], after: changed });
      // Back to the defaults for the other tests of this suite.
      expectOk(await server.post(levelUrl('0'), { withdrawDailyLimit: '1000', loanLimit: '0', productsOpen: false }, { token: admin.token }));
    });
  });

  it('documentPhoto makes distinct images per seed (the tests\' front and back differ)', async () => {
    expect(Buffer.compare(await documentPhoto(1), await documentPhoto(2))).not.toBe(0);
  });
});
