// /api/finance/appWithdrawal/* and /api/admin/withdrawals: a request reserves amount + fee at once
// (a pending ledger transfer), every refusal moves nothing, and the operators' decisions void or
// post the reservation once, audited, with the outcome and reason on the user's record. The
// ledger check passes after every test.
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { walletPaths } from '../../../src/api/contract/wallet.ts';
import { withdrawalPaths } from '../../../src/api/contract/withdrawals.ts';
import { userAccountId } from '../../../server/domain/kernel/ledger/accounts.ts';
import { expectOk, expectRefused, forEachDatabase, type Reply, type TestServer } from '../helpers.ts';
import { approvedBySecondAdmin, createOperator, operatorLogin } from '../adminHelpers.ts';
import {
  addresses, apply, bindAddress, expectLedgerSound, fund, moneySnapshot, setWithdrawPassword, spotOf, usdt, userIdOf,
  withdrawer, type Withdrawer,
} from './withdrawHelpers.ts';
import { markVerified } from '../identity/kycHelpers.ts';

const adminPath = (id: string, action: string) => `/admin/withdrawals/${id}/${action}`;

async function listMy(server: TestServer, user: Withdrawer) {
  return expectOk(await server.get(withdrawalPaths.listMy, {}, { token: user.token })).body.result;
}

/** The audit entries of one withdrawal, oldest first. */
async function auditOf(server: TestServer, id: string) {
  return server.query<{ action: string; operator_id: string; reason: string | null; user_id: string }>(sql`select action,
    operator_id::text, reason, user_id::text from audit_log where target_type = 'withdrawal' and target_id = ${id} order by id`);
}

forEachDatabase((server) => {
  afterEach(() => expectLedgerSound(server));

  /** Asserts a refusal that moved nothing: no transfer, no account total, no request. */
  async function refusedUnmoved(send: () => Promise<Reply>, status: number, error: string) {
    const before = await moneySnapshot(server);
    const answer = await send();
    expectRefused(answer, status, error);
    expect(await moneySnapshot(server)).toEqual(before);
    return answer;
  }

  describe('applying', () => {
    it('reserves amount + fee at once with a pending transfer, status 0, shown in listMy', async () => {
      const user = await withdrawer(server, '100');
      const answer = expectOk(await apply(server, user, { amount: '20.5' }));
      expect(answer.body.result).toMatchObject({
        currency: 'USDT', network: 'TRC20', amount: '20.500000', fee: '1.000000', total: '21.500000', status: 0, reason: null,
        destination: { type: 'chain', address: addresses.trc20 },
      });
      expect(await spotOf(server, user.userId)).toEqual({ posted: usdt(100), held: usdt('21.5'), available: usdt('78.5') });
      const [hold] = await server.query<{ phase: string; amount: string; kind: string }>(sql`select phase, amount::text, kind
        from ledger_transfers where reference = ${`withdrawal:${answer.body.result.id}`}`);
      expect(hold).toEqual({ phase: 'pending', amount: String(usdt('21.5')), kind: 'withdrawal' });
      const page = await listMy(server, user);
      expect(page).toMatchObject({ total: 1, size: 10, current: 1, pages: 1 });
      expect(page.records[0]).toEqual(answer.body.result);
    });

    it('refuses every bad amount, currency, destination and password, and moves nothing', async () => {
      const user = await withdrawer(server, '100');
      const other = await withdrawer(server, '100');
      await refusedUnmoved(() => apply(server, user, { amount: '0' }), 400, 'amount_not_positive');
      await refusedUnmoved(() => apply(server, user, { amount: '0.000000' }), 400, 'amount_not_positive');
      await refusedUnmoved(() => apply(server, user, { amount: '-20' }), 400, 'amount_negative');
      await refusedUnmoved(() => apply(server, user, { amount: '2e1' }), 400, 'amount_exponent');
      await refusedUnmoved(() => apply(server, user, { amount: '20.0000001' }), 400, 'amount_too_many_decimals');
      await refusedUnmoved(() => apply(server, user, { amount: '20,5' }), 400, 'amount_malformed');
      await refusedUnmoved(() => apply(server, user, { amount: '' }), 400, 'amount_empty');
      await refusedUnmoved(() => apply(server, user, { amount: '9'.repeat(40) }), 400, 'amount_too_large');
      await refusedUnmoved(() => apply(server, user, { amount: 20 }), 400, 'invalid_request');
      const belowMinimum = await refusedUnmoved(() => apply(server, user, { amount: '9.999999' }), 400, 'amount_below_minimum');
      expect(belowMinimum.body.result.minimum).toBe('10.000000');
      // 99.5 + the 1 USDT fee is more than the 100 held.
      const aboveBalance = await refusedUnmoved(() => apply(server, user, { amount: '99.5' }), 400, 'balance_insufficient');
      expect(aboveBalance.body.result.fee).toBe('1.000000');
      await refusedUnmoved(() => apply(server, user, { currency: 'DOGE' }), 404, 'currency_unknown');
      await refusedUnmoved(() => apply(server, user, { currency: 'BTC', amount: '0.01' }), 400, 'destination_currency_mismatch');
      await refusedUnmoved(() => apply(server, user, { withdrawalInfoId: other.destinationId }), 404, 'destination_not_found');
      await refusedUnmoved(() => apply(server, user, { withdrawalInfoId: '987654321' }), 404, 'destination_not_found');
      await refusedUnmoved(() => apply(server, user, { withdrawalInfoId: '0' }), 400, 'invalid_request');
      await refusedUnmoved(() => apply(server, user, { withdrawalInfoId: '9'.repeat(19) }), 400, 'invalid_request');
      await refusedUnmoved(() => apply(server, user, { withdrawPassword: 'Wrong2026key' }), 400, 'withdraw_password_invalid');
      expect(await spotOf(server, user.userId)).toEqual({ posted: usdt(100), held: 0n, available: usdt(100) });
      // Exactly the balance (99 + 1 fee) goes through.
      expectOk(await apply(server, user, { amount: '99' }));
      expect(await spotOf(server, user.userId)).toEqual({ posted: usdt(100), held: usdt(100), available: 0n });
      await refusedUnmoved(() => apply(server, user, { amount: '10' }), 400, 'balance_insufficient');
    });

    it('says which to set first: a destination, then a withdrawal password', async () => {
      const user = await server.registerByEmail();
      const userId = await userIdOf(server, user);
      await fund(server, userId, '100');
      const send = () => server.post(withdrawalPaths.apply, {
        currency: 'USDT', amount: '20', withdrawalInfoId: '1', withdrawPassword: 'Any2026key',
      }, { token: user.token });
      const noDestination = await refusedUnmoved(send, 400, 'destination_required');
      expect(noDestination.body.result.setPath).toBe(withdrawalPaths.addDestination);
      await bindAddress(server, user.token);
      const noPassword = await refusedUnmoved(send, 400, 'withdraw_password_required');
      expect(noPassword.body.result.setPath).toBe(withdrawalPaths.setWithdrawPassword);
      await setWithdrawPassword(server, user);
    });

    it('refuses a network an operator switched off for withdrawals', async () => {
      const user = await withdrawer(server, '100');
      await server.query(sql`update wallet_networks set withdrawal_enabled = false where currency = 'USDT' and network = 'TRC20'`);
      try {
        await refusedUnmoved(() => apply(server, user), 400, 'withdrawal_unavailable');
      } finally {
        await server.query(sql`update wallet_networks set withdrawal_enabled = true where currency = 'USDT' and network = 'TRC20'`);
      }
    });

    it('pays USDT to a bank card on the seeded BANK network, and refuses where an operator removed it', async () => {
      const user = await withdrawer(server, '100');
      const card = expectOk(await server.post(withdrawalPaths.addDestination, {
        type: 'bank', bankName: 'Test Bank', realName: 'Ana Lee', cardNumber: '6222021234567890',
      }, { token: user.token })).body.result.id;
      // Seeded: minimum 20, fee 2; no deposits on it.
      const list = expectOk(await server.get('/set/appCurrencySet/getCurrencyList')).body.result;
      expect(list.find((row: { currency: string }) => row.currency === 'USDT').networks
        .find((row: { network: string }) => row.network === 'BANK')).toMatchObject({ depositEnabled: false, withdrawalMin: '20.000000', withdrawalFee: '2.000000' });
      await refusedUnmoved(() => apply(server, user, { withdrawalInfoId: card, amount: '19' }), 400, 'amount_below_minimum');
      const answer = expectOk(await apply(server, user, { withdrawalInfoId: card, amount: '50' })).body.result;
      expect(answer).toMatchObject({
        network: 'BANK', amount: '50.000000', fee: '2.000000', total: '52.000000',
        destination: { type: 'bank', bankName: 'Test Bank', realName: 'Ana Lee', cardNumber: '•••• 7890', address: null },
      });
      const token = await operatorLogin(server, await createOperator(server, 'finance'));
      const queued = expectOk(await server.get('/admin/withdrawals', { status: '0' }, { token })).body.result.records
        .find((row: { id: string }) => row.id === answer.id);
      // The operator paying it out sees the whole number.
      expect(queued.cardNumber).toBe('6222021234567890');
      expectOk(await server.post(adminPath(answer.id, 'reject'), { reason: 'Card holder name differs' }, { token }));
      // The user's ledger shows the hold and its return as such (newest first), the spot balance whole again.
      const log = expectOk(await server.get(walletPaths.balanceLog, { type: 'withdrawal' }, { token: user.token })).body.result;
      expect(log.records.map((entry: { phase: string; amount: string; balanceAfter: string }) => [entry.phase, entry.amount, entry.balanceAfter]))
        .toEqual([['void', '52.000000', '100.000000'], ['pending', '-52.000000', '100.000000']]);
      await server.query(sql`delete from wallet_networks where currency = 'USDT' and network = 'BANK'`);
      try {
        await refusedUnmoved(() => apply(server, user, { withdrawalInfoId: card }), 404, 'network_unknown');
      } finally {
        await server.query(sql`insert into wallet_networks (currency, network, deposit_enabled, deposit_min, withdrawal_min, withdrawal_fee)
          values ('USDT', 'BANK', false, ${String(usdt(10))}::numeric, ${String(usdt(20))}::numeric, ${String(usdt(2))}::numeric)`);
      }
    });

    it('keeps each user\'s records to themselves', async () => {
      const owner = await withdrawer(server, '100');
      const other = await withdrawer(server, '0');
      expectOk(await apply(server, owner));
      expect(await listMy(server, other)).toMatchObject({ records: [], total: 0 });
      expectRefused(await server.get(withdrawalPaths.listMy), 401, 'unauthorized');
    });

    it('keeps the destination as it was when the request was made', async () => {
      const user = await withdrawer(server, '100');
      const id = expectOk(await apply(server, user)).body.result.id;
      expectOk(await server.post(withdrawalPaths.editDestination, {
        id: user.destinationId, type: 'chain', currency: 'USDT', network: 'ERC20', address: addresses.erc20,
      }, { token: user.token }));
      const record = (await listMy(server, user)).records.find((row: { id: string }) => row.id === id);
      expect(record).toMatchObject({ network: 'TRC20', destination: { address: addresses.trc20 } });
    });
  });

  describe('review', () => {
    it('reject: the reservation is voided (money back), status -1 with the reason, audited', async () => {
      const user = await withdrawer(server, '100');
      const id = expectOk(await apply(server, user, { amount: '30' })).body.result.id;
      const token = await operatorLogin(server, await createOperator(server, 'finance'));
      const queue = expectOk(await server.get('/admin/withdrawals', { status: '0' }, { token })).body.result;
      expect(queue.records.find((row: { id: string }) => row.id === id)).toMatchObject({
        userId: String(user.userId), account: user.email, amount: '30.000000', approvalsRequired: 1, approvals: [],
      });
      const rejected = expectOk(await server.post(adminPath(id, 'reject'), { reason: 'Address on a sanctions list' }, { token }));
      expect(rejected.body.result).toMatchObject({ status: -1, reason: 'Address on a sanctions list' });
      expect(await spotOf(server, user.userId)).toEqual({ posted: usdt(100), held: 0n, available: usdt(100) });
      expect((await listMy(server, user)).records[0]).toMatchObject({ id, status: -1, reason: 'Address on a sanctions list', decideTime: expect.any(Number) });
      expect(await auditOf(server, id)).toEqual([
        expect.objectContaining({ action: 'withdrawal.reject', reason: 'Address on a sanctions list', user_id: String(user.userId) }),
      ]);
    });

    it('approve then paid: amount to withdrawal clearing, fee to fees, status 2 with the reference', async () => {
      const user = await withdrawer(server, '100');
      const id = expectOk(await apply(server, user, { amount: '40' })).body.result.id;
      const token = await operatorLogin(server, await createOperator(server, 'finance'));
      const [feesBefore] = await server.query<{ fees: string }>(sql`select coalesce(sum(credits_posted - debits_posted), 0)::text as fees
        from ledger_accounts where kind = 'fees' and asset = 'USDT'`);
      await refusedUnmoved(() => server.post(adminPath(id, 'paid'), { reference: '0xabc' }, { token }), 409, 'withdrawal_not_approved');
      const approved = expectOk(await server.post(adminPath(id, 'approve'), {}, { token })).body.result;
      expect(approved).toMatchObject({ status: 0, approvalsRequired: 1, approvedTime: expect.any(Number) });
      await refusedUnmoved(() => server.post(adminPath(id, 'approve'), {}, { token }), 409, 'withdrawal_fully_approved');
      const paid = expectOk(await server.post(adminPath(id, 'paid'), { reference: 'a1b2c3 tx hash' }, { token }));
      expect(paid.body.result).toMatchObject({ status: 2, payoutReference: 'a1b2c3 tx hash', reason: null });
      expect(await spotOf(server, user.userId)).toEqual({ posted: usdt(59), held: 0n, available: usdt(59) });
      const [feesAfter] = await server.query<{ fees: string }>(sql`select coalesce(sum(credits_posted - debits_posted), 0)::text as fees
        from ledger_accounts where kind = 'fees' and asset = 'USDT'`);
      expect(BigInt(feesAfter.fees) - BigInt(feesBefore.fees)).toBe(usdt(1));
      const [clearing] = await server.query<{ amount: string }>(sql`select sum(t.amount)::text as amount from ledger_transfers t
        join ledger_accounts a on a.id = t.credit_account_id where t.reference = ${`withdrawal:${id}`} and t.phase = 'post'
        and a.kind = 'withdrawal_clearing'`);
      expect(BigInt(clearing.amount)).toBe(usdt(41));
      expect((await listMy(server, user)).records[0]).toMatchObject({ status: 2, payoutReference: 'a1b2c3 tx hash' });
      expect((await auditOf(server, id)).map((entry) => entry.action)).toEqual(['withdrawal.approve', 'withdrawal.paid']);
      // Decided: every further decision is refused and moves nothing.
      for (const [action, body] of [['reject', { reason: 'late' }], ['failed', { reason: 'late' }], ['paid', { reference: 'again' }], ['approve', {}]] as const) {
        await refusedUnmoved(() => server.post(adminPath(id, action), body, { token }), 409, 'record_already_decided');
      }
    });

    it('failed after approval: the reservation is voided, status -2 with the reason', async () => {
      const user = await withdrawer(server, '100');
      const id = expectOk(await apply(server, user, { amount: '25' })).body.result.id;
      const token = await operatorLogin(server, await createOperator(server, 'admin'));
      await refusedUnmoved(() => server.post(adminPath(id, 'failed'), { reason: 'node down' }, { token }), 409, 'withdrawal_not_approved');
      expectOk(await server.post(adminPath(id, 'approve'), {}, { token }));
      expectOk(await server.post(adminPath(id, 'failed'), { reason: 'Bank returned the transfer' }, { token }));
      expect(await spotOf(server, user.userId)).toEqual({ posted: usdt(100), held: 0n, available: usdt(100) });
      expect((await listMy(server, user)).records[0]).toMatchObject({ status: -2, reason: 'Bank returned the transfer' });
      await refusedUnmoved(() => server.post(adminPath(id, 'reject'), { reason: 'x' }, { token }), 409, 'record_already_decided');
    });

    it('above the threshold two different operators must approve; the same one twice is refused', async () => {
      const user = await withdrawer(server, '0');
      await fund(server, user.userId, '20000');
      await markVerified(server, user.userId); // above the unverified daily limit (KYC)
      const id = expectOk(await apply(server, user, { amount: '12000' })).body.result.id;
      const first = await operatorLogin(server, await createOperator(server, 'finance'));
      const second = await operatorLogin(server, await createOperator(server, 'admin'));
      const once = expectOk(await server.post(adminPath(id, 'approve'), {}, { token: first })).body.result;
      expect(once).toMatchObject({ approvalsRequired: 2, approvedTime: null });
      expect(once.approvals).toHaveLength(1);
      await refusedUnmoved(() => server.post(adminPath(id, 'approve'), {}, { token: first }), 409, 'withdrawal_approved_by_you');
      await refusedUnmoved(() => server.post(adminPath(id, 'paid'), { reference: 'early' }, { token: first }), 409, 'withdrawal_not_approved');
      const twice = expectOk(await server.post(adminPath(id, 'approve'), {}, { token: second })).body.result;
      expect(twice).toMatchObject({ approvedTime: expect.any(Number) });
      expect(twice.approvals).toHaveLength(2);
      expectOk(await server.post(adminPath(id, 'paid'), { reference: 'wire 77' }, { token: first }));
      expect(await spotOf(server, user.userId)).toEqual({ posted: usdt(20000 - 12001), held: 0n, available: usdt(20000 - 12001) });
    });

    it('an admin sets a currency\'s threshold (audited); finance may read it, not set it', async () => {
      const admin = await operatorLogin(server, await createOperator(server, 'admin'));
      const finance = await operatorLogin(server, await createOperator(server, 'finance'));
      const settings = expectOk(await server.get('/admin/withdrawals/settings', {}, { token: finance })).body.result;
      expect(settings).toContainEqual({ currency: 'USDT', dualApprovalAbove: '10000.000000' });
      expectRefused(await server.post('/admin/withdrawals/settings/USDT', { dualApprovalAbove: '50' }, { token: finance }), 403, 'forbidden');
      expectRefused(await server.post('/admin/withdrawals/settings/USDT', { dualApprovalAbove: '-1' }, { token: admin }), 400, 'amount_negative');
      expectRefused(await server.post('/admin/withdrawals/settings/DOGE', { dualApprovalAbove: '1' }, { token: admin }), 404, 'currency_unknown');
      try {
        expectOk(await server.post('/admin/withdrawals/settings/USDT', { dualApprovalAbove: '50' }, { token: admin }));
        const user = await withdrawer(server, '200');
        const large = expectOk(await apply(server, user, { amount: '60' })).body.result.id;
        const small = expectOk(await apply(server, user, { amount: '50' })).body.result.id;
        expect((await server.post(adminPath(large, 'approve'), {}, { token: finance })).body.result).toMatchObject({ approvalsRequired: 2, approvedTime: null });
        expect((await server.post(adminPath(small, 'approve'), {}, { token: finance })).body.result).toMatchObject({ approvalsRequired: 1, approvedTime: expect.any(Number) });
        const [audit] = await server.query<{ before: unknown; after: unknown }>(sql`select before, after from audit_log
          where action = 'withdrawal.settings' and target_id = 'USDT' order by id desc limit 1`);
        expect(audit).toEqual({ before: { dualApprovalAbove: '10000.000000' }, after: { dualApprovalAbove: '50.000000' } });
      } finally {
        // Raising it back waits for a second admin (issue 38).
        await approvedBySecondAdmin(server, expectOk(await server.post('/admin/withdrawals/settings/USDT', { dualApprovalAbove: '10000' }, { token: admin })).body.result);
      }
    });

    it('needs an operator session: a user\'s token and no token are refused', async () => {
      const user = await withdrawer(server, '100');
      const id = expectOk(await apply(server, user)).body.result.id;
      await refusedUnmoved(() => server.post(adminPath(id, 'reject'), { reason: 'x' }, { token: user.token }), 401, 'unauthorized');
      await refusedUnmoved(() => server.post(adminPath(id, 'reject'), { reason: 'x' }), 401, 'unauthorized');
      const token = await operatorLogin(server, await createOperator(server, 'finance'));
      await refusedUnmoved(() => server.post(adminPath('999999999', 'reject'), { reason: 'x' }, { token }), 404, 'withdrawal_not_found');
      await refusedUnmoved(() => server.post(adminPath(id, 'reject'), { reason: '' }, { token }), 400, 'invalid_request');
    });
  });

  it('the user\'s ledger shows the reservation and its release as withdrawal entries', async () => {
    const user = await withdrawer(server, '100');
    const id = expectOk(await apply(server, user, { amount: '10' })).body.result.id;
    const token = await operatorLogin(server, await createOperator(server, 'finance'));
    expectOk(await server.post(adminPath(id, 'reject'), { reason: 'Please use another address' }, { token }));
    const spot = await userAccountId(server.db, user.userId, 'USDT', 'spot');
    const entries = await server.query<{ phase: string; kind: string; remark: string | null }>(sql`select phase, kind, remark
      from ledger_transfers where debit_account_id = ${String(spot)}::bigint and reference = ${`withdrawal:${id}`} order by seq`);
    expect(entries).toEqual([
      { phase: 'pending', kind: 'withdrawal', remark: null },
      { phase: 'void', kind: 'withdrawal', remark: 'Please use another address' },
    ]);
  });
});
