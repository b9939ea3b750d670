// Two operators for money created or paid above a threshold (issue 18 point 3), through the
// operator API: a deposit that, with the user's deposits credited in the last 24 hours, passes the
// currency's threshold waits under review for a second, different operator; a withdrawal needs two
// once the user's withdrawals approved in the last 24 hours plus this one pass it. Every refusal
// changes nothing (balances, transfers, requests and approvals snapshotted before and after), and
// the user's context beside a review reads right. The ledger check passes after every test.
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { walletAdminPaths, walletPaths } from '../../../src/api/contract/wallet.ts';
import { withdrawalAdminPaths } from '../../../src/api/contract/withdrawals.ts';
import { ledgerAccounts } from '../../../server/db/schema.ts';
import { approvedBySecondAdmin, createOperator, operatorLogin } from '../adminHelpers.ts';
import { expectOk, expectRefused, forEachDatabase, type Reply } from '../helpers.ts';
import { markVerified } from '../identity/kycHelpers.ts';
import { applyDeposit, balanceOf, withDepositAddresses } from './walletHelpers.ts';
import { apply, expectLedgerSound, fund, spotOf, usdt, userIdOf, withdrawer } from './withdrawHelpers.ts';

const approveDeposit = (id: string) => walletAdminPaths.rechargeApprove.replace(':id', id);
const rejectDeposit = (id: string) => walletAdminPaths.rechargeReject.replace(':id', id);
const decideWithdrawal = (id: string, action: 'approve' | 'reject' | 'paid' | 'failed') =>
  withdrawalAdminPaths[action].replace(':id', id);
const contextPath = (userId: bigint | string) => walletAdminPaths.reviewContext.replace(':id', String(userId));
const dayMs = 24 * 3_600_000;

forEachDatabase((server) => {
  afterEach(() => expectLedgerSound(server));

  const staff = async (role: 'admin' | 'finance' = 'finance') => operatorLogin(server, await createOperator(server, role));

  /** Every account's totals, the transfers, the requests and the approvals: what a refusal must leave as it was. */
  async function snapshot() {
    const accounts = await server.db.select().from(ledgerAccounts).orderBy(ledgerAccounts.id);
    const rows = await server.query(sql`select
      (select count(*)::int from ledger_transfers) as transfers,
      (select coalesce(json_agg(json_build_object('id', id::text, 'status', status, 'required', approvals_required) order by id), '[]') from wallet_recharges) as recharges,
      (select coalesce(json_agg(json_build_object('id', id::text, 'status', status, 'required', approvals_required, 'approved', approved_at) order by id), '[]') from withdrawals) as withdrawals,
      (select count(*)::int from recharge_approvals) as recharge_approvals,
      (select count(*)::int from withdrawal_approvals) as withdrawal_approvals,
      (select count(*)::int from audit_log) as audit`);
    return { accounts, ...rows[0] };
  }

  async function refusedUnchanged(send: () => Promise<Reply>, status: number, error: string) {
    const before = await snapshot();
    expectRefused(await send(), status, error);
    expect(await snapshot()).toEqual(before);
  }

  /** Runs `body` with the USDT threshold at `above`, then puts the default back. */
  async function withThreshold(above: string, body: () => Promise<void>) {
    const admin = await staff('admin');
    expectOk(await server.post(withdrawalAdminPaths.setting.replace(':currency', 'USDT'), { dualApprovalAbove: above }, { token: admin }));
    try {
      await body();
    } finally {
      // A fresh login: the body may have moved the clock past the first one's session.
      // Raising it back is a change a second admin approves (issue 38).
      const restorer = await staff('admin');
      const asked = expectOk(await server.post(withdrawalAdminPaths.setting.replace(':currency', 'USDT'), { dualApprovalAbove: '10000' }, { token: restorer })).body.result;
      expect(await approvedBySecondAdmin(server, asked)).toMatchObject({ dualApprovalAbove: '10000.000000' });
    }
  }

  async function rechargeAudit(id: string) {
    return server.query<{ operator_id: string; after: Record<string, unknown> }>(sql`select operator_id::text, after from audit_log
      where action = 'recharge.approve' and target_id = ${id} order by id`);
  }

  const myRecharges = async (token: string) =>
    expectOk(await server.get(walletPaths.rechargeListMy, {}, { token })).body.result.records as Array<Record<string, unknown>>;

  describe('POST /api/admin/recharges/{id}/approve above the threshold', () => {
    it('the 900 000 000 USDT deposit waits for a second operator: the first approval credits nothing, the same operator again is refused', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const record = await applyDeposit(server, user.token, { amount: '900000000' });
      const first = await staff('finance');
      const second = await staff('admin');
      const queue = expectOk(await server.get(walletAdminPaths.recharges, { status: '0', pageSize: '100' }, { token: first })).body.result;
      expect(queue.records.find((row: { id: string }) => row.id === record.id)).toMatchObject({ approvalsRequired: 2, approvals: [] });

      const balanceBefore = await balanceOf(server, user.token);
      const once = expectOk(await server.post(approveDeposit(record.id), {}, { token: first })).body.result;
      expect(once).toMatchObject({ id: record.id, status: 0, approvalsRequired: 2, decideTime: null });
      expect(once.approvals).toHaveLength(1);
      expect(await balanceOf(server, user.token)).toEqual(balanceBefore);
      // The user still sees the deposit under review.
      expect((await myRecharges(user.token))[0]).toMatchObject({ id: record.id, status: 0, reason: null });
      expect(await rechargeAudit(record.id)).toEqual([
        expect.objectContaining({ after: expect.objectContaining({ status: 0, approvals: 1, approvalsRequired: 2, waitingForSecondOperator: true }) }),
      ]);

      await refusedUnchanged(() => server.post(approveDeposit(record.id), {}, { token: first }), 409, 'deposit_approved_by_you');

      const twice = expectOk(await server.post(approveDeposit(record.id), {}, { token: second })).body.result;
      expect(twice).toMatchObject({ status: 1, approvalsRequired: 2, decideTime: expect.any(Number) });
      expect(twice.approvals).toHaveLength(2);
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '900000000.000000' });
      expect((await myRecharges(user.token))[0]).toMatchObject({ id: record.id, status: 1 });
      const audit = await rechargeAudit(record.id);
      expect(audit).toHaveLength(2);
      expect(audit[1].after).toMatchObject({ status: 1, approvals: 2, transferId: `recharge:${record.id}` });
      await refusedUnchanged(() => server.post(approveDeposit(record.id), {}, { token: first }), 409, 'record_already_decided');
    });

    it('a rejection by the first approver ends it: nothing credited, the reason shown to the user', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const record = await applyDeposit(server, user.token, { amount: '20000' });
      const first = await staff('finance');
      const second = await staff('finance');
      expectOk(await server.post(approveDeposit(record.id), {}, { token: first }));
      const rejected = expectOk(await server.post(rejectDeposit(record.id), { reason: 'The proof is edited.' }, { token: first })).body.result;
      expect(rejected).toMatchObject({ status: -1, reason: 'The proof is edited.' });
      await refusedUnchanged(() => server.post(approveDeposit(record.id), {}, { token: second }), 409, 'record_already_decided');
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '0.000000' });
      expect((await myRecharges(user.token))[0]).toMatchObject({ id: record.id, status: -1, reason: 'The proof is edited.' });
    });

    it('deposits split under the threshold: the user\'s deposits credited in the last 24 hours count, counted again at approval', async () => {
      await withThreshold('100', async () => {
        const user = await server.registerByEmail();
        await withDepositAddresses(server);
        const operator = await staff('finance');
        const other = await staff('admin');
        // Both applied before either is credited: each looks like one operator's work on its own.
        const firstPiece = await applyDeposit(server, user.token, { amount: '60' });
        const secondPiece = await applyDeposit(server, user.token, { amount: '60' });
        expect(firstPiece.status).toBe(0);
        expect(expectOk(await server.post(approveDeposit(firstPiece.id), {}, { token: operator })).body.result)
          .toMatchObject({ status: 1, approvalsRequired: 1 });
        // 60 credited today + 60 passes 100: the second piece now needs another operator.
        expect(expectOk(await server.post(approveDeposit(secondPiece.id), {}, { token: operator })).body.result)
          .toMatchObject({ status: 0, approvalsRequired: 2 });
        expect(await balanceOf(server, user.token)).toMatchObject({ available: '60.000000' });
        await refusedUnchanged(() => server.post(approveDeposit(secondPiece.id), {}, { token: operator }), 409, 'deposit_approved_by_you');
        expectOk(await server.post(approveDeposit(secondPiece.id), {}, { token: other }));
        expect(await balanceOf(server, user.token)).toMatchObject({ available: '120.000000' });
        // More than 24 hours later the window is empty again: a piece under the threshold needs one.
        // (Operators' sessions are short: the one reviewing tomorrow logs in tomorrow.)
        server.clock.advance(dayMs + 60_000);
        const tomorrow = await staff('finance');
        const later = await applyDeposit(server, user.token, { amount: '90' });
        expect(expectOk(await server.post(approveDeposit(later.id), {}, { token: tomorrow })).body.result)
          .toMatchObject({ status: 1, approvalsRequired: 1 });
      });
    });

    it('two operators approving at the same moment: both approvals count, the money arrives exactly once', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const record = await applyDeposit(server, user.token, { amount: '50000' });
      const [first, second] = [await staff('finance'), await staff('admin')];
      const answers = await Promise.all([
        server.post(approveDeposit(record.id), {}, { token: first }), server.post(approveDeposit(record.id), {}, { token: second }),
      ]);
      const results = answers.map((answer) => expectOk(answer).body.result as { status: number });
      expect(results.map((result) => result.status).sort()).toEqual([0, 1]);
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '50000.000000' });
      const [{ n }] = await server.query<{ n: number }>(sql`select count(*)::int as n from ledger_transfers where id = ${`recharge:${record.id}`}`);
      expect(n).toBe(1);
    });

    it('the same operator approving twice at the same moment: one approval, nothing credited', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const record = await applyDeposit(server, user.token, { amount: '50000' });
      const operator = await staff('finance');
      const answers = await Promise.all([
        server.post(approveDeposit(record.id), {}, { token: operator }), server.post(approveDeposit(record.id), {}, { token: operator }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expectRefused(answers.find((answer) => answer.status === 409)!, 409, 'deposit_approved_by_you');
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '0.000000' });
      const [{ n }] = await server.query<{ n: number }>(sql`select count(*)::int as n from recharge_approvals where recharge_id = ${record.id}::bigint`);
      expect(n).toBe(1);
    });
  });

  describe('POST /api/admin/withdrawals/{id}/approve with the last 24 hours', () => {
    it('three withdrawals of exactly the threshold: the first alone, the next ones need a second operator', async () => {
      await withThreshold('100', async () => {
        const user = await withdrawer(server, '0');
        await fund(server, user.userId, '1000');
        await markVerified(server, user.userId);
        const ids: string[] = [];
        for (let index = 0; index < 3; index += 1) ids.push(expectOk(await apply(server, user, { amount: '100' })).body.result.id as string);
        const operator = await staff('finance');
        const other = await staff('admin');
        const first = expectOk(await server.post(decideWithdrawal(ids[0], 'approve'), {}, { token: operator })).body.result;
        expect(first).toMatchObject({ approvalsRequired: 1, approvedTime: expect.any(Number) });
        expectOk(await server.post(decideWithdrawal(ids[0], 'paid'), { reference: 'tx-1' }, { token: operator }));
        // 100 approved today + 100 passes 100.
        const second = expectOk(await server.post(decideWithdrawal(ids[1], 'approve'), {}, { token: operator })).body.result;
        expect(second).toMatchObject({ approvalsRequired: 2, approvedTime: null });
        await refusedUnchanged(() => server.post(decideWithdrawal(ids[1], 'approve'), {}, { token: operator }), 409, 'withdrawal_approved_by_you');
        await refusedUnchanged(() => server.post(decideWithdrawal(ids[1], 'paid'), { reference: 'early' }, { token: operator }), 409, 'withdrawal_not_approved');
        expect(expectOk(await server.post(decideWithdrawal(ids[1], 'approve'), {}, { token: other })).body.result)
          .toMatchObject({ approvalsRequired: 2, approvedTime: expect.any(Number) });
        // The third was applied when nothing was approved; its approval counts the 200 approved since.
        const list = expectOk(await server.get(withdrawalAdminPaths.list, { status: '0', pageSize: '100' }, { token: operator })).body.result;
        expect(list.records.find((row: { id: string }) => row.id === ids[2])).toMatchObject({ approvalsRequired: 1 });
        expect(expectOk(await server.post(decideWithdrawal(ids[2], 'approve'), {}, { token: other })).body.result)
          .toMatchObject({ approvalsRequired: 2, approvedTime: null });
        expect(await spotOf(server, user.userId)).toMatchObject({ posted: usdt(1000 - 101) });
      });
    });

    it('a rejected or failed withdrawal gave the money back and does not count; one applied after an approval starts at two', async () => {
      await withThreshold('100', async () => {
        const user = await withdrawer(server, '0');
        await fund(server, user.userId, '1000');
        await markVerified(server, user.userId);
        const operator = await staff('finance');
        const failed = expectOk(await apply(server, user, { amount: '80' })).body.result.id as string;
        expectOk(await server.post(decideWithdrawal(failed, 'approve'), {}, { token: operator }));
        expectOk(await server.post(decideWithdrawal(failed, 'failed'), { reason: 'Node down' }, { token: operator }));
        const alone = expectOk(await apply(server, user, { amount: '80' })).body.result.id as string;
        expect(expectOk(await server.post(decideWithdrawal(alone, 'approve'), {}, { token: operator })).body.result)
          .toMatchObject({ approvalsRequired: 1, approvedTime: expect.any(Number) });
        // 80 approved and awaiting payout: a new request of 30 passes 100 from the start.
        const next = expectOk(await apply(server, user, { amount: '30' })).body.result.id as string;
        const list = expectOk(await server.get(withdrawalAdminPaths.list, { status: '0', pageSize: '100' }, { token: operator })).body.result;
        expect(list.records.find((row: { id: string }) => row.id === next)).toMatchObject({ approvalsRequired: 2 });
      });
    });
  });

  describe('GET /api/admin/users/{id}/reviewContext', () => {
    it('shows the level, the account\'s age, balances, the last 30 days and earlier rejections', async () => {
      const user = await withdrawer(server, '0');
      await markVerified(server, user.userId);
      await withDepositAddresses(server);
      const operator = await staff('finance');
      const old = await applyDeposit(server, user.token, { amount: '500' });
      expectOk(await server.post(approveDeposit(old.id), {}, { token: operator }));
      // Credited more than 30 days ago (moved back in the table: sessions would not last a real month
      // of the suite's clock): in the balance, not in the last 30 days.
      await server.query(sql`update wallet_recharges set decided_at = decided_at - interval '31 days' where id = ${old.id}::bigint`);
      for (const amount of ['100', '250.5']) {
        const record = await applyDeposit(server, user.token, { amount });
        expectOk(await server.post(approveDeposit(record.id), {}, { token: operator }));
      }
      const refused = await applyDeposit(server, user.token, { amount: '70' });
      expectOk(await server.post(rejectDeposit(refused.id), { reason: 'Not our address.' }, { token: operator }));
      const paid = expectOk(await apply(server, user, { amount: '40' })).body.result.id as string;
      expectOk(await server.post(decideWithdrawal(paid, 'approve'), {}, { token: operator }));
      expectOk(await server.post(decideWithdrawal(paid, 'paid'), { reference: 'tx-9' }, { token: operator }));
      server.clock.advance(60_000);
      const rejected = expectOk(await apply(server, user, { amount: '30' })).body.result.id as string;
      expectOk(await server.post(decideWithdrawal(rejected, 'reject'), { reason: 'Address on a sanctions list' }, { token: operator }));
      const held = expectOk(await apply(server, user, { amount: '20' })).body.result.id as string;
      expect(held).toBeTruthy();

      const context = expectOk(await server.get(contextPath(user.userId), {}, { token: operator })).body.result;
      const [created] = await server.query<{ ms: string }>(sql`select (extract(epoch from created_at) * 1000)::bigint::text as ms
        from users where id = ${String(user.userId)}::bigint`);
      expect(context).toMatchObject({
        userId: String(user.userId), account: user.email, kycLevel: 1, createTime: Number(created.ms),
        last30Days: [{ currency: 'USDT', deposits: { count: 2, total: '350.500000' }, withdrawals: { count: 1, total: '40.000000' } }],
        rejections: { count: 2, latestReason: 'Address on a sanctions list', latestTime: expect.any(Number) },
      });
      // 850.5 credited, 41 paid out (with the fee), 21 held by the request under review.
      expect(context.balances.find((row: { currency: string }) => row.currency === 'USDT'))
        .toMatchObject({ available: '788.500000', frozen: '21.000000' });
    });

    it('a user with no history reads as such; a user\'s token, no token and an unknown id are refused', async () => {
      const user = await server.registerByEmail();
      const userId = await userIdOf(server, user);
      const operator = await staff('admin');
      expect(expectOk(await server.get(contextPath(userId), {}, { token: operator })).body.result).toMatchObject({
        kycLevel: 0, last30Days: [], rejections: { count: 0, latestReason: null, latestTime: null },
      });
      expectRefused(await server.get(contextPath(userId), {}, { token: user.token }), 401, 'unauthorized');
      expectRefused(await server.get(contextPath(userId)), 401, 'unauthorized');
      expectRefused(await server.get(contextPath('999999999'), {}, { token: operator }), 404, 'account_not_found');
      expectRefused(await server.get(contextPath('abc'), {}, { token: operator }), 400, 'invalid_request');
    });
  });
});
