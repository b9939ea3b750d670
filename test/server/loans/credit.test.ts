// Credit loans through the real protocol: apply with a signed agreement, review, pay out, repay
// early (interest for the started days), reject and apply again, clientOrderId retries, every
// refusal with nothing moved, the attempts limit, the signature's bounds and ink, another user's
// loan, the daily accrual run twice, and the signed PDF.
import { describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { eq, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { inflateSync } from 'node:zlib';
import { loanAdminPaths, loanPaths, type Loan } from '../../../src/api/contract/loans.ts';
import { productAdminPaths } from '../../../src/api/contract/products.ts';
import { auditLog, loans, userMessages } from '../../../server/db/schema.ts';
import { runLoanAccrual } from '../../../server/domain/programs/loans/jobs.ts';
import { sha256Hex } from '../../../server/domain/programs/loans/agreement.ts';
import { loanApplyAttemptsPerUserPerHour } from '../../../server/domain/programs/loans/loans.ts';
import { saveUpload } from '../../../server/domain/kernel/uploads.ts';
import { upload } from '../wallet/walletHelpers.ts';
import { expectOk, expectRefused, forEachDatabase } from '../helpers.ts';
import {
  applyCredit, approve, balanceOf, borrower, drawnPng, expectLedgerSound, moneySnapshot, operatorToken, reject, settingOf, storeEarlierSignature,
  termsHash, uploadSignature,
} from './loanHelpers.ts';

const usdt = (text: string) => BigInt(Math.round(Number(text) * 1e6));
const hourMs = 3_600_000;

forEachDatabase((server) => {
  // A fresh operator each time: tests move the clock past a back-office session's idle expiry.
  const admin = () => operatorToken(server);
  const detail = async (token: string, id: string) => expectOk(await server.get(loanPaths.detail, { id }, { token })).body.result as Loan;

  describe('POST /api/prod/appLoanOrder/creditApply', () => {
    it('applies, is approved and paid out, repays early with the interest of the started days, and closes', async () => {
      const user = await borrower(server, { USDT: '100' });
      const setting = await settingOf(server, 'credit');
      expect(setting).toMatchObject({ dailyRate: '0.05', penaltyRate: '0.1', minDays: 7, maxDays: 180, minAmount: '100.000000', maxAmount: '50000.000000' });
      const applied = expectOk(await applyCredit(server, user, '1000', 30)).body.result as Loan;
      expect(applied).toMatchObject({ status: 'pending', amount: '1000.000000', days: 30, dailyRate: '0.05', totalInterest: '15.000000', owed: '0.000000' });
      expect(await balanceOf(server, user.userId, 'USDT', 'spot')).toBe(usdt('100'));

      const approved = expectOk(await approve(server, await admin(), applied.id)).body.result;
      expect(approved.status).toBe('active');
      expect(approved.dueAt - approved.startsAt).toBe(30 * 24 * hourMs);
      expect(await balanceOf(server, user.userId, 'USDT', 'spot')).toBe(usdt('1100'));
      expect(await balanceOf(server, user.userId, 'USDT', 'loan')).toBe(-usdt('1000'));
      const [message] = await server.db.select().from(userMessages).where(eq(userMessages.userId, user.userId));
      expect(message).toMatchObject({ kind: 'loan_approved', category: 'money' });
      const [audit] = await server.db.select().from(auditLog).where(sql`${auditLog.action} = 'loan.approve' and ${auditLog.targetId} = ${applied.id}`);
      expect(audit.userId).toBe(user.userId);

      // Two and a half days later: three days have started.
      server.clock.advance(60 * hourMs);
      const part = expectOk(await server.post(loanPaths.repay, { id: applied.id, amount: '400' }, { token: user.token })).body.result as Loan;
      expect(part).toMatchObject({ status: 'active', interest: '1.500000', repaid: '400.000000', owed: '601.500000' });
      const more = await server.post(loanPaths.repay, { id: applied.id, amount: '601.500001' }, { token: user.token });
      expectRefused(more, 400, 'repay_exceeds_owed');
      const done = expectOk(await server.post(loanPaths.repay, { id: applied.id }, { token: user.token })).body.result as Loan;
      expect(done).toMatchObject({ status: 'repaid', interest: '1.500000', repaid: '1001.500000', owed: '0.000000' });
      expect(await balanceOf(server, user.userId, 'USDT', 'spot')).toBe(usdt('98.5'));
      expect(await balanceOf(server, user.userId, 'USDT', 'loan')).toBe(0n);
      const info = expectOk(await server.get(loanPaths.myInfo, {}, { token: user.token })).body.result;
      expect(info).toMatchObject({ kycLevel: 1, activeLoans: 0, pendingLoans: 0, creditUsed: '0.000000' });
      await expectLedgerSound(server);
    });

    it('a rejection carries its reason, releases nothing it did not take, and the user may apply again', async () => {
      const user = await borrower(server);
      const first = expectOk(await applyCredit(server, user, '500', 10)).body.result as Loan;
      const before = await moneySnapshot(server);
      const rejected = expectOk(await reject(server, await admin(), first.id, 'Income proof missing')).body.result;
      expect(rejected).toMatchObject({ status: 'rejected', rejectReason: 'Income proof missing' });
      expect((await moneySnapshot(server)).transfers).toBe(before.transfers);
      expect(await detail(user.token, first.id)).toMatchObject({ status: 'rejected', rejectReason: 'Income proof missing' });
      expectRefused(await approve(server, await admin(), first.id), 409, 'loan_decided');
      expectRefused(await reject(server, await admin(), first.id, 'again'), 409, 'loan_decided');
      const second = expectOk(await applyCredit(server, user, '500', 10)).body.result as Loan;
      expect(second.status).toBe('pending');
      expect(second.id).not.toBe(first.id);
    });

    it('files at most ten applications of a user in 24 hours; refusals and retries do not count toward the ten', async () => {
      const user = await borrower(server);
      for (let filed = 1; filed <= 10; filed += 1) {
        const loan = expectOk(await applyCredit(server, user, '500', 10, { clientOrderId: `limit-apply-${filed}` })).body.result as Loan;
        // A retry answers the same application; a second one while it is open is refused: neither counts.
        expectOk(await applyCredit(server, user, '500', 10, { clientOrderId: `limit-apply-${filed}` }));
        if (filed < 10) expectRefused(await applyCredit(server, user, '500', 10), 409, 'loan_already_open');
        expectOk(await reject(server, await admin(), loan.id, 'Not now'));
        server.clock.advance(60_000);
      }
      const before = await moneySnapshot(server);
      const refused = await applyCredit(server, user, '500', 10);
      expectRefused(refused, 429, 'rate_limited');
      // The first of the ten, filed 10 minutes ago, leaves the window 24 hours after it was filed.
      expect(refused.body.result.retryAfterSeconds).toBe(24 * 3600 - 600);
      expect(await moneySnapshot(server)).toEqual(before);
      server.clock.advance((24 * 3600 - 601) * 1000);
      expectRefused(await applyCredit(server, user, '500', 10), 429, 'rate_limited');
      server.clock.advance(1000);
      expect((expectOk(await applyCredit(server, user, '500', 10)).body.result as Loan).status).toBe('pending');
    });

    it('a retry with the same clientOrderId answers the first loan and files nothing new', async () => {
      const user = await borrower(server);
      const clientOrderId = server.unique('retry-order-');
      const first = expectOk(await applyCredit(server, user, '300', 14, { clientOrderId })).body.result as Loan;
      const snapshot = await moneySnapshot(server);
      const again = expectOk(await applyCredit(server, user, '300', 14, { clientOrderId })).body.result as Loan;
      expect(again.id).toBe(first.id);
      // Even with other figures: the retry answers what was filed.
      const other = expectOk(await applyCredit(server, user, '900', 20, { clientOrderId })).body.result as Loan;
      expect(other).toMatchObject({ id: first.id, amount: '300.000000', days: 14 });
      expect(await moneySnapshot(server)).toEqual(snapshot);
    });

    it('refuses every bad application with a clear code and moves nothing', async () => {
      const user = await borrower(server, { USDT: '50' });
      const stranger = await borrower(server);
      const unverified = await borrower(server, {}, 0);
      const setting = await settingOf(server, 'credit');
      const info = expectOk(await server.get(loanPaths.myInfo, {}, { token: user.token })).body.result;
      expect(info.kycLevel).toBe(1);
      expect(usdt(info.creditLimit)).toBeGreaterThanOrEqual(usdt('10000'));
      const before = await moneySnapshot(server);
      expectRefused(await applyCredit(server, user, '99.99', 30), 400, 'loan_amount_out_of_range');
      expectRefused(await applyCredit(server, user, '50001', 30), 400, 'loan_amount_out_of_range');
      expectRefused(await applyCredit(server, user, '1000', 6), 400, 'loan_days_out_of_range');
      expectRefused(await applyCredit(server, user, '1000', 181), 400, 'loan_days_out_of_range');
      expectRefused(await applyCredit(server, user, '100.0000001', 30), 400, 'amount_too_many_decimals');
      const overLimit = (usdt(info.creditAvailable) + 1_000_000n) / 1_000_000n;
      expectRefused(await applyCredit(server, user, String(overLimit), 30), 400, 'loan_over_limit');
      expectRefused(await applyCredit(server, unverified, '100', 30), 400, 'loan_over_limit');
      expectRefused(await applyCredit(server, user, '1000', 30, { termsHash: sha256Hex('other terms') }), 409, 'loan_terms_changed');
      // The terms of other figures are not these terms.
      expectRefused(await applyCredit(server, user, '1000', 30, { termsHash: await termsHash(server, user, setting.id, '1000', 31) }), 409, 'loan_terms_changed');
      // Another user's terms name another borrower.
      expectRefused(await applyCredit(server, user, '1000', 30, { termsHash: await termsHash(server, stranger, setting.id, '1000', 30) }), 409, 'loan_terms_changed');
      expectRefused(await applyCredit(server, user, '1000', 30, { signatureFileId: await uploadSignature(server, user.userId, { blank: true }) }), 400, 'signature_empty');
      expectRefused(await applyCredit(server, user, '1000', 30, { signatureFileId: await uploadSignature(server, stranger.userId) }), 400, 'signature_invalid');
      expectRefused(await applyCredit(server, user, '1000', 30, { signatureFileId: await uploadSignature(server, user.userId, { purpose: 'chat' }) }), 400, 'signature_invalid');
      expectRefused(await applyCredit(server, user, '1000', 30, { signatureFileId: 'f'.repeat(32) }), 400, 'signature_invalid');
      expectRefused(await applyCredit(server, user, '1000', 30, { settingId: '999999' }), 404, 'loan_setting_not_found');
      const pledge = await settingOf(server, 'pledge', 'BTC');
      expectRefused(await applyCredit(server, user, '1000', 30, { settingId: pledge.id }), 404, 'loan_setting_not_found');
      expectRefused(await server.post(loanPaths.creditApply, { settingId: setting.id, amount: '1000', days: 30 }, { token: user.token }), 400, 'invalid_request');
      const after = await moneySnapshot(server);
      expect(after.transfers).toBe(before.transfers);
      expect(after.loans).toBe(before.loans);
      expect(after.accounts.map((account) => [account.id, account.creditsPosted, account.debitsPosted]))
        .toEqual(before.accounts.map((account) => [account.id, account.creditsPosted, account.debitsPosted]));

      // A closed offer refuses, and opens again.
      const token = await admin();
      const closeSetting = (enabled: boolean) => server.post(loanAdminPaths.setting.replace(':id', setting.id), { enabled }, { token });
      expectOk(await closeSetting(false));
      expectRefused(await applyCredit(server, user, '1000', 30), 409, 'loan_disabled');
      expectOk(await closeSetting(true));

      const open = expectOk(await applyCredit(server, user, '1000', 30)).body.result as Loan;
      expectRefused(await applyCredit(server, user, '100', 30), 409, 'loan_already_open');
      expectOk(await approve(server, token, open.id));
      expectRefused(await applyCredit(server, user, '100', 30), 409, 'loan_already_open');
      // Repaying more than the spot balance holds.
      const snapshot = await moneySnapshot(server);
      await server.db.execute(sql`select 1`);
      expectRefused(await server.post(loanPaths.repay, { id: open.id, amount: '1001' }, { token: user.token }), 400, 'repay_exceeds_owed');
      expectRefused(await server.post(loanPaths.repay, { id: open.id, amount: '0' }, { token: user.token }), 400, 'amount_not_positive');
      expect((await moneySnapshot(server)).transfers).toBe(snapshot.transfers);
    });

    it('counts every attempt toward 30 an hour, refused ones included: the next answers 429 and files nothing', async () => {
      const user = await borrower(server);
      const other = await borrower(server);
      const setting = await settingOf(server, 'credit');
      const signatureFileId = await uploadSignature(server, user.userId);
      // Refused late (on the amount, after the signature was read): each still costs an attempt.
      for (let attempt = 1; attempt <= loanApplyAttemptsPerUserPerHour; attempt += 1) {
        expectRefused(await server.post(loanPaths.creditApply, {
          settingId: setting.id, amount: '99', days: 10, signatureFileId, termsHash: '0'.repeat(64), clientOrderId: server.unique('attempt-'),
        }, { token: user.token }), 400, 'loan_amount_out_of_range');
      }
      const before = await moneySnapshot(server);
      const limited = await applyCredit(server, user, '500', 10);
      expectRefused(limited, 429, 'rate_limited');
      expect(limited.body.result.retryAfterSeconds).toBeGreaterThan(0);
      expect(limited.body.result.retryAfterSeconds).toBeLessThanOrEqual(3600);
      expect(await moneySnapshot(server)).toEqual(before);
      // Per user: another borrower applies as usual.
      expect((expectOk(await applyCredit(server, other, '500', 10)).body.result as Loan).status).toBe('pending');
      server.clock.advance(hourMs);
      expect((expectOk(await applyCredit(server, user, '500', 10)).body.result as Loan).status).toBe('pending');
    });

    it('refuses a signature past 1600 × 800 from its header, before any transaction or lock, and one without ink over a real area; nothing is filed', async () => {
      const user = await borrower(server);
      const before = await moneySnapshot(server);
      // The attack's image: 7 000 × 5 000 pixels. Uploading it as a signature is refused now...
      const huge = await drawnPng(7000, 5000);
      expectRefused(await upload(server, user.token, { bytes: huge, filename: 'signature.png', contentType: 'image/png' }, 'loan_signature'), 400, 'signature_too_large');
      // ...and one stored before the bound is refused at the application without a transaction:
      // no row lock is taken, so another client's reads never wait behind its decoding.
      const earlier = await storeEarlierSignature(server, user.userId, huge);
      const transactions = vi.spyOn(server.db, 'transaction');
      try {
        expectRefused(await applyCredit(server, user, '1000', 30, { signatureFileId: earlier }), 400, 'signature_too_large');
        expect(transactions).not.toHaveBeenCalled();
      } finally {
        transactions.mockRestore();
      }
      if (server.kind === 'postgres') {
        // With the user's row locked by another transaction, the refusal still answers at once.
        await server.db.transaction(async (tx) => {
          await tx.execute(sql`select id from users where id = ${user.userId} for update`);
          expectRefused(await applyCredit(server, user, '1000', 30, { signatureFileId: earlier }), 400, 'signature_too_large');
        });
      }
      // A 2 × 1 "signature", a tap and a blank pad hold no ink over a real area.
      const tiny = await sharp(Buffer.from([0, 0, 0, 255, 255, 255]), { raw: { width: 2, height: 1, channels: 3 } }).png().toBuffer();
      const saved = async (bytes: Buffer) => (await saveUpload(server.db, server.services.uploads, user.userId, 'loan_signature', bytes, server.clock.now())).id;
      expectRefused(await applyCredit(server, user, '1000', 30, { signatureFileId: await saved(tiny) }), 400, 'signature_empty');
      expectRefused(await applyCredit(server, user, '1000', 30, { signatureFileId: await saved(await drawnPng(527, 180, 'dot')) }), 400, 'signature_empty');
      expectRefused(await applyCredit(server, user, '1000', 30, { signatureFileId: await uploadSignature(server, user.userId, { blank: true }) }), 400, 'signature_empty');
      expect(await moneySnapshot(server)).toEqual(before);
      // What the app's pad makes at its largest (527 × 180 CSS px at a pixel ratio of 3) is taken.
      const pad = expectOk(await upload(server, user.token, { bytes: await drawnPng(1581, 540), filename: 'signature.png', contentType: 'image/png' }, 'loan_signature'));
      expect((expectOk(await applyCredit(server, user, '1000', 30, { signatureFileId: pad.body.result.id })).body.result as Loan).status).toBe('pending');
    });

    it("answers another user's loan as not found, everywhere", async () => {
      const owner = await borrower(server);
      const other = await borrower(server, { USDT: '5000' });
      const loan = expectOk(await applyCredit(server, owner, '200', 7)).body.result as Loan;
      expectOk(await approve(server, await admin(), loan.id));
      const snapshot = await moneySnapshot(server);
      expectRefused(await server.get(loanPaths.detail, { id: loan.id }, { token: other.token }), 404, 'loan_not_found');
      expectRefused(await server.get(loanPaths.agreementPdf, { id: loan.id }, { token: other.token }), 404, 'loan_not_found');
      expectRefused(await server.post(loanPaths.repay, { id: loan.id }, { token: other.token }), 404, 'loan_not_found');
      expectRefused(await server.post(loanPaths.addCollateral, { id: loan.id, amount: '1' }, { token: other.token }), 404, 'loan_not_found');
      const mine = expectOk(await server.get(loanPaths.myLoans, {}, { token: other.token })).body.result;
      expect(mine.total).toBe(0);
      expect(await moneySnapshot(server)).toEqual(snapshot);
      expectRefused(await server.get(loanPaths.myInfo), 401, 'unauthorized');
    });
  });

  describe('loan-accrual', () => {
    it('charges each day once: the job run twice the same day, and a repayment after it, charge nothing twice', async () => {
      const user = await borrower(server, { USDT: '100' });
      const loan = expectOk(await applyCredit(server, user, '2000', 7)).body.result as Loan;
      const { startsAt } = expectOk(await approve(server, await admin(), loan.id)).body.result as Loan;
      const dayOf = () => server.clock.now().toISOString().slice(0, 10);
      // To the next UTC day: one loan day has started before it began.
      const now = server.clock.now();
      const nextMidnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 30);
      server.clock.advance(nextMidnight - now.getTime());
      const first = await runLoanAccrual(server.services, dayOf());
      // Loans of the other tests run too: this one's figures are read from its row.
      expect(Number(first.charged)).toBeGreaterThanOrEqual(1);
      const second = await runLoanAccrual(server.services, dayOf());
      expect(second).toMatchObject({ charged: 0 });
      expect((await detail(user.token, loan.id)).interest).toBe('1.000000');
      expect(await balanceOf(server, user.userId, 'USDT', 'loan')).toBe(-usdt('2001'));
      // Through the back office: the day's run is done once and replayed after.
      const token = await admin();
      const runPath = productAdminPaths.runJob.replace(':name', 'loan-accrual');
      const run = expectOk(await server.post(runPath, {}, { token })).body.result;
      expect(run).toMatchObject({ name: 'loan-accrual', state: 'done', replayed: false });
      const again = expectOk(await server.post(runPath, {}, { token })).body.result;
      expect(again).toMatchObject({ replayed: true, result: run.result });
      expect((await detail(user.token, loan.id)).interest).toBe('1.000000');
      // Past the first 24 hours the second day has started: repaying charges it, not the first again.
      server.clock.advance(Math.max(0, startsAt! + 25 * hourMs - server.clock.now().getTime()));
      const repaid = expectOk(await server.post(loanPaths.repay, { id: loan.id }, { token: user.token })).body.result as Loan;
      expect(repaid).toMatchObject({ status: 'repaid', interest: '2.000000', repaid: '2002.000000' });
      await expectLedgerSound(server);
    });

    it('adds the penalty for overdue days and tells the user once', async () => {
      const user = await borrower(server, { USDT: '100' });
      const loan = expectOk(await applyCredit(server, user, '1000', 7)).body.result as Loan;
      expectOk(await approve(server, await admin(), loan.id));
      const [{ startsAt }] = await server.db.select().from(loans).where(eq(loans.id, BigInt(loan.id)));
      server.clock.advance(9 * 24 * hourMs + 1);
      const day = server.clock.now().toISOString().slice(0, 10);
      await runLoanAccrual(server.services, day);
      // The days that started before today began: 7 at 0.5 USDT, the overdue ones at 0.5 + 1 penalty.
      const started = Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${startsAt!.toISOString().slice(0, 10)}T00:00:00Z`)) / (24 * hourMs));
      expect(started).toBeGreaterThan(7);
      const expected = usdt('0.5') * BigInt(started) + usdt('1') * BigInt(started - 7);
      const [row] = await server.db.select().from(loans).where(eq(loans.id, BigInt(loan.id)));
      expect(row.interest).toBe(expected);
      expect(await balanceOf(server, user.userId, 'USDT', 'loan')).toBe(-(usdt('1000') + expected));
      const messages = await server.db.select().from(userMessages).where(sql`${userMessages.userId} = ${user.userId} and ${userMessages.kind} = 'loan_overdue'`);
      expect(messages).toHaveLength(1);
      await runLoanAccrual(server.services, day);
      const [again] = await server.db.select().from(loans).where(eq(loans.id, BigInt(loan.id)));
      expect(again.interest).toBe(expected);
      await expectLedgerSound(server);
    });
  });

  describe('the signed agreement', () => {
    it('is a PDF with the terms, the signature, the time and the terms hash, for the user and the operator', async () => {
      const user = await borrower(server);
      const loan = expectOk(await applyCredit(server, user, '750', 20)).body.result as Loan;
      const answer = await server.app.inject({ method: 'GET', url: `/api${loanPaths.agreementPdf}?id=${loan.id}`, headers: { 'x-access-token': user.token } });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toContain('application/pdf');
      const bytes = answer.rawPayload;
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const document = await PDFDocument.load(bytes);
      expect(document.getSubject()).toBe(loan.termsHash);
      // The page's text streams hold the hash and the amount as printed.
      const text = [...bytes.toString('latin1').matchAll(/stream\r?\n([\s\S]*?)endstream/g)]
        .map((match) => { try { return inflateSync(Buffer.from(match[1], 'latin1')).toString('latin1'); } catch { return match[1]; } }).join('\n');
      const printed = (value: string) => Buffer.from(value, 'latin1').toString('hex').toUpperCase();
      expect(text.includes(loan.termsHash) || text.toUpperCase().includes(printed(loan.termsHash))).toBe(true);
      expect(text.includes('/Image') || bytes.toString('latin1').includes('/Subtype /Image')).toBe(true);
      const operatorAnswer = await server.app.inject({ method: 'GET', url: `/api${loanAdminPaths.agreementPdf.replace(':id', loan.id)}`, headers: { 'x-access-token': await admin() } });
      expect(operatorAnswer.statusCode).toBe(200);
      expect(operatorAnswer.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const signature = await server.app.inject({ method: 'GET', url: `/api${loanAdminPaths.signature.replace(':id', loan.id)}`, headers: { 'x-access-token': await admin() } });
      expect(signature.statusCode).toBe(200);
      expect(signature.headers['content-type']).toBe('image/png');
      const adminDetail = expectOk(await server.get(loanAdminPaths.loan.replace(':id', loan.id), {}, { token: await admin() })).body.result;
      expect(adminDetail).toMatchObject({ id: loan.id, userEmail: user.email, kycLevel: 1, earlierLoans: [] });
      expect(sha256Hex(adminDetail.terms)).toBe(loan.termsHash);
      const list = expectOk(await server.get(loanAdminPaths.loans, { status: 'pending', userId: String(user.userId) }, { token: await admin() })).body.result;
      expect(list.records.map((record: Loan) => record.id)).toEqual([loan.id]);
    });
  });
});
