// /api/admin/loans/* (issue 22): operators review loan applications with the user's context and
// signature, approve (the loan is paid out) or reject with a reason the user reads (they may apply
// again), download the signed agreement, and edit the loan offers. Reviewing is the finance desk's
// work as much as an admin's (like withdrawals): both roles may approve and reject; only admins
// edit the offers. Every write is audited in its own transaction, with the internal message to the
// user, delivered after commit.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { and, desc, eq, ne, type SQL } from 'drizzle-orm';
import {
  AdminLoanParams, AdminLoansQuery, RejectLoanBody, UpdateLoanSettingBody, loanAdminPaths, type AdminLoan,
} from '../../../src/api/contract/loans.ts';
import { Empty } from '../../../src/api/contract/common.ts';
import { loans, users } from '../../db/schema.ts';
import { recordAudit } from '../../domain/kernel/audit.ts';
import { deliverMessages } from '../../domain/kernel/messages.ts';
import { userKycLevel } from '../../domain/core/identity/kycLevels.ts';
import { userVipLevel } from '../../domain/core/levels/levels.ts';
import { userBalances } from '../../domain/kernel/ledger/accounts.ts';
import { formatAmount } from '../../domain/kernel/ledger/amounts.ts';
import { approveLoan, listUserLoans, loanById, loanToWire, rejectLoan, type LoanRow } from '../../domain/programs/loans/loans.ts';
import { refreshLoanMonitors } from '../../domain/programs/loans/ltvMonitor.ts';
import { assetScales, listLoanSettings, settingToWire, updateLoanSetting } from '../../domain/programs/loans/settings.ts';
import { signatureOf, signedAgreementPdf } from '../../domain/programs/loans/signedPdf.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

const readers = operatorOnly(['admin', 'finance']);
const reviewers = operatorOnly(['admin', 'finance']);
const writers = operatorOnly(['admin']);

type Id = Static<typeof AdminLoanParams>;

const auditState = (row: LoanRow) => ({
  status: row.status, amount: row.amount, days: row.days, type: row.type, asset: row.asset, collateral: row.collateral,
  collateralAsset: row.collateralAsset, startsAt: row.startsAt, dueAt: row.dueAt, rejectReason: row.rejectReason, termsHash: row.termsHash,
});

export function loanAdminRoutes(app: FastifyInstance, services: Services) {
  const { db, clock } = services;

  const adminLoan = (row: LoanRow, scales: Map<string, number>, email: string | null): AdminLoan => ({
    ...loanToWire(row, scales, clock.now()),
    userId: String(row.userId), ...(email ? { userEmail: email } : {}),
    ...(row.reviewedBy ? { reviewedBy: String(row.reviewedBy) } : {}), ...(row.reviewedAt ? { reviewedAt: row.reviewedAt.getTime() } : {}),
  });

  app.get<{ Querystring: Static<typeof AdminLoansQuery> }>(loanAdminPaths.loans,
    { schema: { querystring: AdminLoansQuery }, preHandler: readers }, async (request) => {
      const { status, userId, pageNo = 1, pageSize = 20 } = request.query;
      const conditions: SQL[] = [
        ...(status ? [eq(loans.status, status)] : []), ...(userId ? [eq(loans.userId, BigInt(userId))] : []),
      ];
      const { rows, total } = await listUserLoans(db, conditions.length > 0 ? conditions : [ne(loans.id, 0n)], pageNo, pageSize);
      const scales = await assetScales(db);
      const emails = new Map<bigint, string | null>();
      for (const row of rows) {
        if (emails.has(row.userId)) continue;
        const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, row.userId)).limit(1);
        emails.set(row.userId, user?.email ?? null);
      }
      return ok({
        records: rows.map((row) => adminLoan(row, scales, emails.get(row.userId) ?? null)), total, size: pageSize, current: pageNo,
        pages: Math.ceil(total / pageSize),
      });
    });

  // The offers: registered before '/admin/loans/:id' would not matter to the router (static wins),
  // but it reads better first.
  app.get(loanAdminPaths.settings, { preHandler: readers }, async () => {
    const scales = await assetScales(db);
    return ok((await listLoanSettings(db)).map((row) => settingToWire(row, scales.get(row.asset) ?? 6)));
  });

  app.post<{ Params: Id; Body: Static<typeof UpdateLoanSettingBody> }>(loanAdminPaths.setting,
    { schema: { params: AdminLoanParams, body: UpdateLoanSettingBody }, preHandler: writers }, async (request) => {
      const id = BigInt(request.params.id);
      const result = await db.transaction(async (tx) => {
        const { before, after, scale } = await updateLoanSetting(tx, id, request.body, clock.now());
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'loan_setting.update', targetType: 'loan_setting', targetId: id,
          before: settingToWire(before, scale), after: settingToWire(after, scale),
        }, clock);
        return settingToWire(after, scale);
      });
      // The LTV thresholds of running pledge loans follow their offer.
      await Promise.all([refreshAllMonitors()]);
      return ok(result);
    });

  const refreshAllMonitors = async () => {
    const active = await db.select({ id: loans.id }).from(loans).where(and(eq(loans.status, 'active'), eq(loans.type, 'pledge')));
    await refreshLoanMonitors(active.map((row) => row.id));
  };

  app.get<{ Params: Id }>(loanAdminPaths.loan, { schema: { params: AdminLoanParams }, preHandler: readers }, async (request) => {
    const row = await loanById(db, BigInt(request.params.id));
    const scales = await assetScales(db);
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, row.userId)).limit(1);
    const earlier = await db.select().from(loans).where(and(eq(loans.userId, row.userId), ne(loans.id, row.id))).orderBy(desc(loans.id)).limit(50);
    const balances = await userBalances(db, row.userId, 'real');
    return ok({
      ...adminLoan(row, scales, user?.email ?? null),
      kycLevel: await userKycLevel(db, row.userId),
      vipLevel: await userVipLevel(db, row.userId),
      balances: balances.map((balance) => ({
        asset: balance.asset, kind: balance.kind, amount: formatAmount(balance.postedAtomic, scales.get(balance.asset) ?? 0),
      })),
      earlierLoans: earlier.map((other) => ({
        id: String(other.id), type: other.type as AdminLoan['type'], asset: other.asset, amount: formatAmount(other.amount, scales.get(other.asset) ?? 6),
        status: other.status as AdminLoan['status'], createdAt: other.createdAt.getTime(),
      })),
      terms: row.terms,
    } satisfies AdminLoan);
  });

  app.post<{ Params: Id }>(loanAdminPaths.approve, { schema: { params: AdminLoanParams, body: Empty }, preHandler: reviewers }, async (request) => {
    const id = BigInt(request.params.id);
    const decided = await db.transaction(async (tx) => {
      const result = await approveLoan(tx, id, request.operator!.id, clock);
      await recordAudit(tx, {
        operatorId: request.operator!.id, action: 'loan.approve', targetType: 'loan', targetId: id, userId: result.after.userId,
        before: auditState(result.before), after: auditState(result.after),
      }, clock);
      return result;
    });
    deliverMessages(services, decided.messages);
    await refreshLoanMonitors([id]);
    return ok(adminLoan(decided.after, await assetScales(db), null));
  });

  app.post<{ Params: Id; Body: Static<typeof RejectLoanBody> }>(loanAdminPaths.reject,
    { schema: { params: AdminLoanParams, body: RejectLoanBody }, preHandler: reviewers }, async (request) => {
      const id = BigInt(request.params.id);
      const reason = request.body.reason.trim();
      if (reason.length === 0) throw badRequest('invalid_request', 'Please give the user a reason.');
      const decided = await db.transaction(async (tx) => {
        const result = await rejectLoan(tx, id, request.operator!.id, reason, clock);
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'loan.reject', targetType: 'loan', targetId: id, userId: result.after.userId,
          before: auditState(result.before), after: auditState(result.after), reason,
        }, clock);
        return result;
      });
      deliverMessages(services, decided.messages);
      return ok(adminLoan(decided.after, await assetScales(db), null));
    });

  app.get<{ Params: Id }>(loanAdminPaths.agreementPdf, { schema: { params: AdminLoanParams }, preHandler: readers }, async (request, reply) => {
    const row = await loanById(db, BigInt(request.params.id));
    const pdf = await signedAgreementPdf(services, row);
    return reply.header('content-type', 'application/pdf').header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="loan-agreement-${row.id}.pdf"`).send(Buffer.from(pdf));
  });

  app.get<{ Params: Id }>(loanAdminPaths.signature, { schema: { params: AdminLoanParams }, preHandler: readers }, async (request, reply) => {
    const row = await loanById(db, BigInt(request.params.id));
    const signature = await signatureOf(services, row);
    if (!signature) throw notFound('file_not_found', 'The signature image is not stored.');
    return reply.header('content-type', signature.contentType).header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff').header('content-disposition', 'inline').send(signature.bytes);
  });
}
