// Deposit review and wallet settings through the operator API: finance and admin operators list
// requests by status, read the proof, approve (the money arrives once) or reject with a reason the
// user reads; a decided request is refused and moves nothing; only admins change settings; every
// action is in the audit trail. The ledger verifies after every test.
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { walletAdminPaths, walletPaths } from '../../../src/api/contract/wallet.ts';
import { approvedBySecondAdmin, createOperator, operatorLogin } from '../adminHelpers.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import { applyDeposit, balanceOf, expectLedgerSound, getRaw, withDepositAddresses } from './walletHelpers.ts';

const approvePath = (id: string) => walletAdminPaths.rechargeApprove.replace(':id', id);
const rejectPath = (id: string) => walletAdminPaths.rechargeReject.replace(':id', id);

async function auditOf(server: TestServer, action: string, targetId: string) {
  return server.query<{ operator_id: string; reason: string | null; before: unknown; after: unknown; user_id: string | null }>(
    sql`select operator_id::text, reason, before, after, user_id::text from audit_log where action = ${action} and target_id = ${targetId}`);
}

forEachDatabase((server) => {
  afterEach(() => expectLedgerSound(server));

  async function staff(role: 'admin' | 'finance' = 'finance') {
    const operator = await createOperator(server, role);
    return { operator, token: await operatorLogin(server, operator) };
  }

  describe('GET /api/admin/recharges', () => {
    it('lists requests by status with the user and the proof link, to finance and admin operators only', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const record = await applyDeposit(server, user.token, { amount: '42' });
      const { token } = await staff('finance');
      const pending = expectOk(await server.get(walletAdminPaths.recharges, { status: '0', pageSize: '100' }, { token })).body.result;
      const listed = pending.records.find((row: { id: string }) => row.id === record.id);
      expect(listed).toMatchObject({ amount: '42.000000', status: 0, userAccount: user.email, proofAdminUrl: `/api/admin/files/${record.proofFileId}` });
      const proof = await getRaw(server, `/admin/files/${record.proofFileId}`, token);
      expect(proof.status).toBe(200);
      expect(proof.headers['x-content-type-options']).toBe('nosniff');
      // A user's session opens nothing here, and a user cannot read the operator's file path.
      expectRefused(await server.get(walletAdminPaths.recharges, {}, { token: user.token }), 401, 'unauthorized');
      expect((await getRaw(server, `/admin/files/${record.proofFileId}`, user.token)).status).toBe(401);
      expectRefused(await server.get(walletAdminPaths.recharges), 401, 'unauthorized');
    });
  });

  describe('POST /api/admin/recharges/{id}/approve and reject', () => {
    it('approval credits the amount once, audited; a second approval or a rejection is refused and moves nothing', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const record = await applyDeposit(server, user.token, { amount: '300.25' });
      const { operator, token } = await staff('finance');
      const approved = expectOk(await server.post(approvePath(record.id), {}, { token })).body.result;
      expect(approved).toMatchObject({ id: record.id, status: 1 });
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '300.250000' });
      expectRefused(await server.post(approvePath(record.id), {}, { token }), 409, 'record_already_decided');
      const other = await staff('admin');
      expectRefused(await server.post(approvePath(record.id), {}, { token: other.token }), 409, 'record_already_decided');
      expectRefused(await server.post(rejectPath(record.id), { reason: 'too late' }, { token: other.token }), 409, 'record_already_decided');
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '300.250000' });
      const audit = await auditOf(server, 'recharge.approve', record.id);
      expect(audit).toHaveLength(1);
      const [row] = await server.query<{ id: string }>(sql`select id::text from operators where email = ${operator.email}`);
      expect(audit[0].operator_id).toBe(row.id);
      expect(audit[0].after).toMatchObject({ status: 1, transferId: `recharge:${record.id}` });
    });

    it('rejection shows the reason in the user\'s records, audited, and moves nothing', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const record = await applyDeposit(server, user.token);
      const { token } = await staff('finance');
      expectRefused(await server.post(rejectPath(record.id), {}, { token }), 400, 'invalid_request');
      expectRefused(await server.post(rejectPath(record.id), { reason: '' }, { token }), 400, 'invalid_request');
      const rejected = expectOk(await server.post(rejectPath(record.id), { reason: 'No such transfer on chain.' }, { token })).body.result;
      expect(rejected).toMatchObject({ status: -1, reason: 'No such transfer on chain.' });
      expectRefused(await server.post(approvePath(record.id), {}, { token }), 409, 'record_already_decided');
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '0.000000' });
      const mine = expectOk(await server.get(walletPaths.rechargeListMy, {}, { token: user.token })).body.result;
      expect(mine.records[0]).toMatchObject({ id: record.id, status: -1, reason: 'No such transfer on chain.' });
      expect(await auditOf(server, 'recharge.reject', record.id)).toEqual([expect.objectContaining({ reason: 'No such transfer on chain.' })]);
    });

    it('two operators approving at once: the money arrives once', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const record = await applyDeposit(server, user.token, { amount: '77' });
      const first = await staff('finance');
      const second = await staff('admin');
      const answers = await Promise.all([
        server.post(approvePath(record.id), {}, { token: first.token }), server.post(approvePath(record.id), {}, { token: second.token }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '77.000000' });
      expect(await auditOf(server, 'recharge.approve', record.id)).toHaveLength(1);
    });

    it('refuses an unknown id, a malformed one and a body with fields', async () => {
      const { token } = await staff('finance');
      expectRefused(await server.post(approvePath('999999999'), {}, { token }), 404, 'not_found');
      expectRefused(await server.post(approvePath('abc'), {}, { token }), 400, 'invalid_request');
      expectRefused(await server.post(approvePath('1'), { amount: '5' }, { token }), 400, 'invalid_request');
    });
  });

  describe('/api/admin/settings/currencies', () => {
    it('an admin sets a network\'s address, minimum and fee and a currency\'s rate, audited; users see the change', async () => {
      const { token } = await staff('admin');
      const user = await server.registerByEmail();
      const list = expectOk(await server.get(walletAdminPaths.currencies, {}, { token })).body.result;
      expect(list.map((row: { currency: string }) => row.currency)).toEqual(['USDT', 'BTC', 'ETH', 'USDC']);
      const path = walletAdminPaths.network.replace(':code', 'USDT').replace(':network', 'ERC20');
      const address = '0x52908400098527886E0F7030069857D2E4169EE7';
      const after = expectOk(await server.post(path, { depositAddress: address, depositMin: '15.5', withdrawalFee: '3' }, { token })).body.result;
      expect(after.networks.find((row: { network: string }) => row.network === 'ERC20'))
        .toMatchObject({ depositAddress: address, depositMin: '15.500000', withdrawalFee: '3.000000' });
      expect(expectOk(await server.get(walletPaths.depositAddress, { currency: 'USDT', network: 'ERC20' }, { token: user.token })).body.result)
        .toEqual({ currency: 'USDT', network: 'ERC20', address, depositMin: '15.500000' });
      const audit = await auditOf(server, 'settings.network', 'USDT:ERC20');
      expect(audit.at(-1)?.before).toBeTruthy();
      // A new network needs all of its amounts; amounts follow the currency's scale.
      const bep = walletAdminPaths.network.replace(':code', 'USDT').replace(':network', 'BEP20');
      expectRefused(await server.post(bep, { depositMin: '1' }, { token }), 400, 'invalid_request');
      expectRefused(await server.post(path, { depositMin: '0.0000001' }, { token }), 400, 'amount_too_many_decimals');
      expectRefused(await server.post(path, { withdrawalFee: '-1' }, { token }), 400, 'amount_negative');
      // Addresses are checked with the network's encoding: a checksum typo, or a TRON address for ERC20.
      expectRefused(await server.post(path, { depositAddress: '0x52908400098527886E0F7030069857D2E4169Ee7' }, { token }), 400, 'address_invalid');
      expectRefused(await server.post(path, { depositAddress: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb' }, { token }), 400, 'address_wrong_network');
      const rate = walletAdminPaths.currency.replace(':code', 'USDC');
      // The rate values VIP levels, withdrawal limits and the two-operator windows: a second operator approves its change (issue 38).
      const asked = expectOk(await server.post(rate, { usdtRate: '0.9995' }, { token })).body.result;
      expect(asked).toMatchObject({ usdtRate: '1', pendingChange: { setting: 'currency_rate', target: 'USDC' } });
      const changed = await approvedBySecondAdmin(server, asked);
      expect(changed).toMatchObject({ usdtRate: '0.9995', usdtRateTime: server.clock.now().getTime() });
      expect(expectOk(await server.get(walletPaths.rateByCurrency, { currency: 'USDC' })).body.result).toMatchObject({ rate: '0.9995', source: 'operator' });
      expectRefused(await server.post(rate, { usdtRate: '0' }, { token }), 400, 'amount_not_positive');
      expectRefused(await server.post(walletAdminPaths.currency.replace(':code', 'NOPE'), { enabled: false }, { token }), 404, 'currency_unknown');
      expect(await auditOf(server, 'settings.currency', 'USDC')).toHaveLength(1);
    });

    it('a finance operator reads the settings but may not change them', async () => {
      const { token } = await staff('finance');
      expectOk(await server.get(walletAdminPaths.currencies, {}, { token }));
      const path = walletAdminPaths.network.replace(':code', 'BTC').replace(':network', 'BTC');
      expectRefused(await server.post(path, { depositEnabled: false }, { token }), 403, 'forbidden');
    });
  });
});
