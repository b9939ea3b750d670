// What one operator may not do alone (issue 38 points 1–3), through the operator API on both
// databases: raise the two-operator threshold (or any setting that decides what the house pays),
// split a sum across currencies, users or kinds under the threshold, or fund product reserves and
// reward pools in pieces. The one rule (server/domain/kernel/ledger/dualControl.ts) counts, in USDT value,
// the user's last 24 hours across currencies and the operator's own last 24 hours of what they
// decided alone. Every refusal and every first approval leaves every balance as it was.
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { productAdminPaths } from '../../../src/api/contract/products.ts';
import { rewardAdminPaths } from '../../../src/api/contract/rewards.ts';
import { settingChangePaths } from '../../../src/api/contract/settingChanges.ts';
import { walletAdminPaths } from '../../../src/api/contract/wallet.ts';
import { withdrawalAdminPaths } from '../../../src/api/contract/withdrawals.ts';
import { ledgerAccounts } from '../../../server/db/schema.ts';
import { approvedBySecondAdmin, createOperator, operatorLogin } from '../adminHelpers.ts';
import { expectOk, expectRefused, forEachDatabase } from '../helpers.ts';
import { markVerified } from '../identity/kycHelpers.ts';
import { createProduct } from '../products/productHelpers.ts';
import { applyDeposit, withDepositAddresses } from './walletHelpers.ts';
import { addresses, apply, bindAddress, expectLedgerSound, fund, spotOf, usdt, withdrawer } from './withdrawHelpers.ts';

const approveDeposit = (id: string) => walletAdminPaths.rechargeApprove.replace(':id', id);
const thresholdPath = withdrawalAdminPaths.setting.replace(':currency', 'USDT');

forEachDatabase((server) => {
  afterEach(() => expectLedgerSound(server));

  const staff = async (role: 'admin' | 'finance' = 'finance') => operatorLogin(server, await createOperator(server, role));
  const accounts = () => server.db.select().from(ledgerAccounts).orderBy(ledgerAccounts.id);
  const threshold = async (token: string) => (expectOk(await server.get(withdrawalAdminPaths.settings, {}, { token })).body.result as
    Array<{ currency: string; dualApprovalAbove: string }>).find((row) => row.currency === 'USDT')!.dualApprovalAbove;

  describe('POST /api/admin/withdrawals/settings/{currency}: raising the threshold', () => {
    it('waits for a second admin: meanwhile a 50 000 USDT deposit still needs two, the requester cannot approve, a bound refuses 1e9', async () => {
      const admin = await staff('admin');
      await expectRefusedUnchanged(() => server.post(thresholdPath, { dualApprovalAbove: '1000000000' }, { token: admin }), 400, 'setting_out_of_bounds');
      const asked = expectOk(await server.post(thresholdPath, { dualApprovalAbove: '100000' }, { token: admin })).body.result;
      expect(asked).toMatchObject({ currency: 'USDT', dualApprovalAbove: '10000.000000', pendingChange: { status: 'pending', setting: 'dual_threshold', target: 'USDT' } });
      expect(await threshold(admin)).toBe('10000.000000');

      // The same admin approves the deposit alone: it still waits for a second operator.
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const record = await applyDeposit(server, user.token, { amount: '50000' });
      const before = await accounts();
      expect(expectOk(await server.post(approveDeposit(record.id), {}, { token: admin })).body.result).toMatchObject({ status: 0, approvalsRequired: 2 });
      expect(await accounts()).toEqual(before);

      const approvePath = settingChangePaths.approve.replace(':id', asked.pendingChange.id);
      await expectRefusedUnchanged(() => server.post(approvePath, {}, { token: admin }), 409, 'setting_change_requested_by_you');
      // A finance operator may be the second; a finance operator may not ask.
      const second = await staff('finance');
      expectRefused(await server.post(thresholdPath, { dualApprovalAbove: '5' }, { token: second }), 403, 'forbidden');
      expect(expectOk(await server.post(approvePath, {}, { token: second })).body.result).toMatchObject({ status: 'applied', after: { dualApprovalAbove: '100000.000000' } });
      expect(await threshold(admin)).toBe('100000.000000');
      expectRefused(await server.post(approvePath, {}, { token: second }), 409, 'record_already_decided');
      // Lowering applies at once, by one admin.
      expect(expectOk(await server.post(thresholdPath, { dualApprovalAbove: '10000' }, { token: admin })).body.result)
        .toEqual({ currency: 'USDT', dualApprovalAbove: '10000.000000' });
      const [audit] = await server.query<{ actions: string }>(sql`select string_agg(action, ',' order by id) as actions from audit_log
        where action in ('setting.change.request', 'withdrawal.settings') and created_at >= ${new Date(server.clock.now().getTime() - 60_000).toISOString()}::timestamptz`);
      expect(audit.actions).toBe('setting.change.request,withdrawal.settings,withdrawal.settings');
    });

    it('a rejected change never applies and reads as rejected with its reason', async () => {
      const admin = await staff('admin');
      const asked = expectOk(await server.post(thresholdPath, { dualApprovalAbove: '20000' }, { token: admin })).body.result;
      const other = await staff('admin');
      const rejected = expectOk(await server.post(settingChangePaths.reject.replace(':id', asked.pendingChange.id), { reason: 'Not agreed.' }, { token: other })).body.result;
      expect(rejected).toMatchObject({ status: 'rejected', reason: 'Not agreed.' });
      expect(await threshold(admin)).toBe('10000.000000');
      const all = expectOk(await server.get(settingChangePaths.list, { all: 'true' }, { token: other })).body.result as Array<{ id: string; status: string }>;
      expect(all.find((change) => change.id === asked.pendingChange.id)?.status).toBe('rejected');
    });
  });

  describe('settings that decide what the house pays', () => {
    it('a product goes on sale, a VIP bonus rises, a welfare task switches on only with a second admin; bounds hold', async () => {
      const admin = await staff('admin');
      const made = expectOk(await server.post(productAdminPaths.products, {
        type: 'arbitrage', name: 'One admin', asset: 'USDT', days: 7, dailyRate: '0.05', minAmount: '1', maxAmount: '100',
      }, { token: admin })).body.result;
      expect(made).toMatchObject({ status: 'draft', pendingChange: { setting: 'product' } });
      await expectRefusedUnchanged(() => server.post(productAdminPaths.products, {
        type: 'arbitrage', name: 'Too generous', asset: 'USDT', days: 7, dailyRate: '50', minAmount: '1', maxAmount: '100',
      }, { token: admin }), 400, 'setting_out_of_bounds');
      expect(await approvedBySecondAdmin(server, made)).toMatchObject({ status: 'open' });
      // Closing pays less: at once.
      expect(expectOk(await server.post(productAdminPaths.product.replace(':id', made.id), { status: 'closed' }, { token: admin })).body.result)
        .toMatchObject({ status: 'closed' });

      const vip = expectOk(await server.post(rewardAdminPaths.vipRewards, { level: 1, asset: 'USDT', bonus: '500', weeklyEnvelope: '1' }, { token: admin })).body.result;
      expect(vip.pendingChange).toBeDefined();
      await expectRefusedUnchanged(() => server.post(rewardAdminPaths.vipRewards, { level: 1, asset: 'USDT', bonus: '50000', weeklyEnvelope: '1' }, { token: admin }),
        400, 'setting_out_of_bounds');
      expect(await approvedBySecondAdmin(server, vip)).toMatchObject({ bonus: '500.000000' });
      expect(expectOk(await server.post(rewardAdminPaths.vipRewards, { level: 1, asset: 'USDT', bonus: '0', weeklyEnvelope: '0' }, { token: admin })).body.result)
        .toMatchObject({ bonus: '0.000000', weeklyEnvelope: '0.000000' });

      const task = expectOk(await server.post(rewardAdminPaths.tasks, { kind: 'first_trade', name: 'Big', rewardAsset: 'USDT', rewardAmount: '5' }, { token: admin })).body.result;
      expect(task).toMatchObject({ enabled: false, pendingChange: { setting: 'welfare_task' } });
      await expectRefusedUnchanged(() => server.post(rewardAdminPaths.task.replace(':id', task.id), { rewardAmount: '100000' }, { token: admin }),
        400, 'setting_out_of_bounds');
      expect(await approvedBySecondAdmin(server, task)).toMatchObject({ enabled: true });
      expect(expectOk(await server.post(rewardAdminPaths.task.replace(':id', task.id), { enabled: false }, { token: admin })).body.result)
        .toMatchObject({ enabled: false });
    });
  });

  describe('POST /api/admin/recharges/{id}/approve: one operator, several currencies and users', () => {
    it('9 000 USDT and 9 000 USDC for one user: the second needs a second operator, nothing credited until then', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const operator = await staff('finance');
      const first = await applyDeposit(server, user.token, { amount: '9000' });
      expect(expectOk(await server.post(approveDeposit(first.id), {}, { token: operator })).body.result).toMatchObject({ status: 1, approvalsRequired: 1 });
      const second = await applyDeposit(server, user.token, { currency: 'USDC', network: 'ERC20', amount: '9000' });
      const before = await accounts();
      expect(expectOk(await server.post(approveDeposit(second.id), {}, { token: operator })).body.result).toMatchObject({ status: 0, approvalsRequired: 2 });
      expect(await accounts()).toEqual(before);
      const other = await staff('admin');
      expect(expectOk(await server.post(approveDeposit(second.id), {}, { token: other })).body.result).toMatchObject({ status: 1 });
    });

    it('9 000 USDT each for two users by one operator: the second needs a second operator; another operator alone may', async () => {
      await withDepositAddresses(server);
      const operator = await staff('finance');
      const [alice, bob, carol] = [await server.registerByEmail(), await server.registerByEmail(), await server.registerByEmail()];
      const forAlice = await applyDeposit(server, alice.token, { amount: '9000' });
      const forBob = await applyDeposit(server, bob.token, { amount: '9000' });
      expect(expectOk(await server.post(approveDeposit(forAlice.id), {}, { token: operator })).body.result).toMatchObject({ status: 1 });
      const before = await accounts();
      expect(expectOk(await server.post(approveDeposit(forBob.id), {}, { token: operator })).body.result).toMatchObject({ status: 0, approvalsRequired: 2 });
      expect(await accounts()).toEqual(before);
      // A different operator's own window is empty: Carol's deposit passes alone.
      const forCarol = await applyDeposit(server, carol.token, { amount: '9000' });
      expect(expectOk(await server.post(approveDeposit(forCarol.id), {}, { token: await staff('finance') })).body.result).toMatchObject({ status: 1 });
      // A day later the operator's window is empty again.
      server.clock.advance(24 * 3_600_000 + 1_000);
      const tomorrow = await operatorLogin(server, await createOperator(server, 'finance'));
      const later = await applyDeposit(server, carol.token, { amount: '100' });
      expect(expectOk(await server.post(approveDeposit(later.id), {}, { token: tomorrow })).body.result).toMatchObject({ status: 1 });
    });

    it('withdrawals of 6 000 USDT and 6 000 USDC for one user: the second needs a second operator, nothing leaves until then', async () => {
      const user = await withdrawer(server, '7000');
      await markVerified(server, user.userId);
      await fund(server, user.userId, '7000', 'USDC');
      const usdcDestination = await bindAddress(server, user.token, { currency: 'USDC', network: 'ERC20', address: addresses.erc20 });
      const operator = await staff('finance');
      const first = expectOk(await apply(server, user, { amount: '6000' })).body.result.id as string;
      expect(expectOk(await server.post(withdrawalAdminPaths.approve.replace(':id', first), {}, { token: operator })).body.result)
        .toMatchObject({ approvalsRequired: 1, approvedTime: expect.any(Number) });
      const second = expectOk(await apply(server, user, { currency: 'USDC', amount: '6000', withdrawalInfoId: usdcDestination })).body.result.id as string;
      expect(expectOk(await server.post(withdrawalAdminPaths.approve.replace(':id', second), {}, { token: operator })).body.result)
        .toMatchObject({ approvalsRequired: 2, approvedTime: null });
      expectRefused(await server.post(withdrawalAdminPaths.paid.replace(':id', second), { reference: 'early' }, { token: operator }), 409, 'withdrawal_not_approved');
      expect(await spotOf(server, user.userId, 'USDC')).toMatchObject({ posted: usdt(7000) });
    });
  });

  describe('house money into reserves and pools in pieces', () => {
    it('three 9 000 USDT fundings by one admin across a reserve and the rewards pool: only the first moves alone', async () => {
      const admin = await staff('admin');
      const product = await createProduct(server, { token: admin } as never, { name: 'Pieces' });
      const reservePath = productAdminPaths.reserve.replace(':id', product.id);
      expect(expectOk(await server.post(reservePath, { amount: '9000' }, { token: admin })).body.result).toMatchObject({ status: 'done', approvalsRequired: 1 });
      const before = await accounts();
      const second = expectOk(await server.post(reservePath, { amount: '9000' }, { token: admin })).body.result;
      expect(second).toMatchObject({ status: 'pending', approvalsRequired: 2 });
      const pool = expectOk(await server.post(rewardAdminPaths.fundings, { pool: 'rewards', asset: 'USDT', amount: '9000' }, { token: admin })).body.result;
      expect(pool).toMatchObject({ status: 'pending', approvalsRequired: 2 });
      expect(await accounts()).toEqual(before);
      expectRefused(await server.post(productAdminPaths.approveFunding.replace(':fundingId', second.id), {}, { token: admin }), 409, 'funding_approved_by_you');
      const other = await staff('admin');
      expect(expectOk(await server.post(productAdminPaths.approveFunding.replace(':fundingId', second.id), {}, { token: other })).body.result)
        .toMatchObject({ status: 'done' });
      expect(expectOk(await server.post(rewardAdminPaths.approveFunding.replace(':id', pool.id), {}, { token: other })).body.result)
        .toMatchObject({ status: 'done' });
    });
  });

  async function expectRefusedUnchanged(send: () => Promise<Awaited<ReturnType<typeof server.post>>>, status: number, error: string) {
    const before = await server.query(sql`select (select count(*)::int from setting_changes) as changes,
      (select count(*)::int from products) as products, (select count(*)::int from welfare_tasks) as tasks,
      (select coalesce(json_agg(json_build_object('c', currency, 'a', dual_approval_above::text) order by currency), '[]') from withdrawal_settings) as thresholds,
      (select coalesce(json_agg(json_build_object('l', level, 'b', bonus::text) order by level), '[]') from vip_rewards) as vip`);
    expectRefused(await send(), status, error);
    expect(await server.query(sql`select (select count(*)::int from setting_changes) as changes,
      (select count(*)::int from products) as products, (select count(*)::int from welfare_tasks) as tasks,
      (select coalesce(json_agg(json_build_object('c', currency, 'a', dual_approval_above::text) order by currency), '[]') from withdrawal_settings) as thresholds,
      (select coalesce(json_agg(json_build_object('l', level, 'b', bonus::text) order by level), '[]') from vip_rewards) as vip`)).toEqual(before);
  }
});
