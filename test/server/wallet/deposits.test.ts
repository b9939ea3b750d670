// Deposits: the platform's address, applying with a proof (nothing moves), the user's records,
// and an operator's decision: approval credits exactly the amount once, rejection records the
// reason the user reads, and a decided request cannot be decided again. The ledger verifies
// (chains, balances, every asset summing to zero) after every test.
import { afterEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { walletPaths } from '../../../src/api/contract/wallet.ts';
import { walletNetworks, walletRecharges } from '../../../server/db/schema.ts';
import { listLedgerEntries } from '../../../server/domain/kernel/ledger/entries.ts';
import { rejectRecharge, type AuditEntry } from '../../../server/domain/core/wallet/deposits.ts';
import { AppError } from '../../../server/lib/errors.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import {
  applyDeposit, approveAsOperator, balanceOf, expectLedgerSound, operatorIdFor, pngImage, upload, userIdOf, withDepositAddresses,
} from './walletHelpers.ts';

async function recordCount(server: TestServer) {
  return (await server.db.select().from(walletRecharges)).length;
}

async function refusedCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.errorCode;
    throw error;
  }
  throw new Error('expected a refusal');
}

forEachDatabase((server) => {
  afterEach(() => expectLedgerSound(server));

  describe('GET /finance/rechargeAddr/getAddr', () => {
    it('answers the address and minimum of a network once one is set, and deposits are unavailable before', async () => {
      const { token } = await server.registerByEmail();
      expectRefused(await server.get(walletPaths.depositAddress, { currency: 'USDT', network: 'TRC20' }, { token }),
        400, 'deposit_unavailable');
      await withDepositAddresses(server);
      const answer = expectOk(await server.get(walletPaths.depositAddress, { currency: 'USDT', network: 'TRC20' }, { token }));
      expect(answer.body.result).toEqual({
        currency: 'USDT', network: 'TRC20', address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', depositMin: '10.000000',
      });
      const btc = expectOk(await server.get(walletPaths.depositAddress, { currency: 'BTC', network: 'BTC' }, { token }));
      expect(btc.body.result.depositMin).toBe('0.00050000');
    });

    it('refuses an unknown currency or network, a disabled network, and no session', async () => {
      const { token } = await server.registerByEmail();
      await withDepositAddresses(server);
      expectRefused(await server.get(walletPaths.depositAddress, { currency: 'DOGE', network: 'TRC20' }, { token }), 404, 'currency_unknown');
      expectRefused(await server.get(walletPaths.depositAddress, { currency: 'BTC', network: 'TRC20' }, { token }), 404, 'network_unknown');
      expectRefused(await server.get(walletPaths.depositAddress, { currency: 'usdt', network: 'TRC20' }, { token }), 400, 'invalid_request');
      const where = and(eq(walletNetworks.currency, 'ETH'), eq(walletNetworks.network, 'ERC20'));
      await server.db.update(walletNetworks).set({ depositEnabled: false }).where(where);
      try {
        expectRefused(await server.get(walletPaths.depositAddress, { currency: 'ETH', network: 'ERC20' }, { token }), 400, 'deposit_unavailable');
      } finally {
        await server.db.update(walletNetworks).set({ depositEnabled: true }).where(where);
      }
      expectRefused(await server.get(walletPaths.depositAddress, { currency: 'USDT', network: 'TRC20' }), 401, 'unauthorized');
    });
  });

  describe('POST /finance/appRecharge/apply', () => {
    it('records a request under review with the address shown, and moves no money', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const record = await applyDeposit(server, user.token, { amount: '150.5', txHash: 'abc123def4567890' });
      expect(record).toMatchObject({
        currency: 'USDT', network: 'TRC20', amount: '150.500000', status: 0, reason: null, decideTime: null,
        depositAddress: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', txHash: 'abc123def4567890',
      });
      expect(record.proofUrl).toBe(`/api/sys/common/file/${record.proofFileId}`);
      expect(record.createTime).toBe(server.clock.now().getTime());
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '0.000000', frozen: '0.000000' });
      const mine = expectOk(await server.get(walletPaths.rechargeListMy, {}, { token: user.token })).body.result;
      expect(mine).toMatchObject({ total: 1, size: 10, current: 1, pages: 1 });
      expect(mine.records).toEqual([record]);
    });

    it.each([
      ['0', 'amount_not_positive'],
      ['0.000000', 'amount_not_positive'],
      ['-100', 'amount_negative'],
      ['1e3', 'amount_exponent'],
      ['100.0000001', 'amount_too_many_decimals'],
      ['', 'amount_empty'],
      ['12,5', 'amount_malformed'],
      ['9.999999', 'amount_below_minimum'],
      ['9'.repeat(40), 'amount_too_large'],
    ])('refuses the amount %j as %s, records nothing and moves nothing', async (amount, error) => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const proof = expectOk(await upload(server, user.token, { bytes: await pngImage() })).body.result;
      const before = await recordCount(server);
      const answer = await server.post(walletPaths.rechargeApply, {
        currency: 'USDT', network: 'TRC20', amount, proofFileId: proof.id,
      }, { token: user.token });
      expectRefused(answer, 400, error);
      expect(await recordCount(server)).toBe(before);
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '0.000000', frozen: '0.000000' });
    });

    it('says what the minimum is', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const proof = expectOk(await upload(server, user.token, { bytes: await pngImage() })).body.result;
      const answer = await server.post(walletPaths.rechargeApply, {
        currency: 'BTC', network: 'BTC', amount: '0.0001', proofFileId: proof.id,
      }, { token: user.token });
      expectRefused(answer, 400, 'amount_below_minimum');
      expect(answer.body.result.minimum).toBe('0.00050000');
      expect(answer.body.message).toContain('0.00050000 BTC');
    });

    it('refuses an unknown currency or network, a number for the amount, and unknown fields', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const proof = expectOk(await upload(server, user.token, { bytes: await pngImage() })).body.result;
      const base = { currency: 'USDT', network: 'TRC20', amount: '100', proofFileId: proof.id };
      const before = await recordCount(server);
      expectRefused(await server.post(walletPaths.rechargeApply, { ...base, currency: 'XYZ' }, { token: user.token }), 404, 'currency_unknown');
      expectRefused(await server.post(walletPaths.rechargeApply, { ...base, network: 'BEP20' }, { token: user.token }), 404, 'network_unknown');
      expectRefused(await server.post(walletPaths.rechargeApply, { ...base, amount: 100 }, { token: user.token }), 400, 'invalid_request');
      expectRefused(await server.post(walletPaths.rechargeApply, { ...base, userId: '1' }, { token: user.token }), 400, 'invalid_request');
      expectRefused(await server.post(walletPaths.rechargeApply, { ...base, txHash: 'has space!' }, { token: user.token }), 400, 'invalid_request');
      expectRefused(await server.post(walletPaths.rechargeApply, base), 401, 'unauthorized');
      expect(await recordCount(server)).toBe(before);
    });

    it("refuses another user's file and a made-up one alike", async () => {
      const owner = await server.registerByEmail();
      const other = await server.registerByEmail();
      await withDepositAddresses(server);
      const proof = expectOk(await upload(server, owner.token, { bytes: await pngImage() })).body.result;
      const before = await recordCount(server);
      const base = { currency: 'USDT', network: 'TRC20', amount: '100' };
      const stolen = await server.post(walletPaths.rechargeApply, { ...base, proofFileId: proof.id }, { token: other.token });
      expectRefused(stolen, 404, 'file_not_found');
      const madeUp = await server.post(walletPaths.rechargeApply, { ...base, proofFileId: 'f'.repeat(32) }, { token: other.token });
      expectRefused(madeUp, 404, 'file_not_found');
      expect(stolen.body.message).toBe(madeUp.body.message);
      expect(await recordCount(server)).toBe(before);
    });
  });

  describe('one proof, one transaction, one deposit', () => {
    it('refuses a proof or a transaction hash already behind a request under review or delivered, not behind a rejected one', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const first = await applyDeposit(server, user.token, { amount: '50', txHash: 'feedbeef00112233' });
      const again = { currency: 'USDT', network: 'TRC20', amount: '50', proofFileId: first.proofFileId };
      const before = await recordCount(server);
      expectRefused(await server.post(walletPaths.rechargeApply, again, { token: user.token }), 409, 'deposit_duplicate');
      const otherProof = expectOk(await upload(server, user.token, { bytes: await pngImage() })).body.result;
      expectRefused(await server.post(walletPaths.rechargeApply, { ...again, proofFileId: otherProof.id, txHash: 'feedbeef00112233' },
        { token: user.token }), 409, 'deposit_duplicate');
      expect(await recordCount(server)).toBe(before);
      // The same hash on another network is another transaction.
      expectOk(await server.post(walletPaths.rechargeApply, { ...again, network: 'ERC20', proofFileId: otherProof.id, txHash: 'feedbeef00112233' },
        { token: user.token }));
      await rejectRecharge(server.db, BigInt(first.id), 'Unreadable proof.', {
        operatorId: await operatorIdFor(server), clock: server.clock, audit: async () => {},
      });
      const retried = expectOk(await server.post(walletPaths.rechargeApply, { ...again, txHash: 'feedbeef00112233' }, { token: user.token }));
      expect(retried.body.result.status).toBe(0);
    });
  });

  describe('GET /finance/appRecharge/listMy', () => {
    it("pages the caller's own requests, newest first, filtered by status; another user sees none of them", async () => {
      const user = await server.registerByEmail();
      const other = await server.registerByEmail();
      await withDepositAddresses(server);
      const made = [];
      for (let i = 0; i < 3; i += 1) made.push(await applyDeposit(server, user.token, { amount: `${20 + i}` }));
      await approveAsOperator(server, made[0].id);
      const page = expectOk(await server.get(walletPaths.rechargeListMy, { pageNo: '1', pageSize: '2' }, { token: user.token })).body.result;
      expect(page).toMatchObject({ total: 3, size: 2, current: 1, pages: 2 });
      expect(page.records.map((record: { id: string }) => record.id)).toEqual([made[2].id, made[1].id]);
      const second = expectOk(await server.get(walletPaths.rechargeListMy, { pageNo: '2', pageSize: '2' }, { token: user.token })).body.result;
      expect(second.records.map((record: { id: string }) => record.id)).toEqual([made[0].id]);
      const delivered = expectOk(await server.get(walletPaths.rechargeListMy, { status: '1' }, { token: user.token })).body.result;
      expect(delivered.records.map((record: { id: string; status: number }) => [record.id, record.status])).toEqual([[made[0].id, 1]]);
      const theirs = expectOk(await server.get(walletPaths.rechargeListMy, {}, { token: other.token })).body.result;
      expect(theirs).toMatchObject({ records: [], total: 0, pages: 0 });
      expectRefused(await server.get(walletPaths.rechargeListMy, { status: '5' }, { token: user.token }), 400, 'invalid_request');
      expectRefused(await server.get(walletPaths.rechargeListMy, { pageSize: '101' }, { token: user.token }), 400, 'invalid_request');
    });
  });

  describe('deciding a deposit', () => {
    it('approval credits exactly the amount once, from deposit clearing, with an audit entry and a ledger entry', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const record = await applyDeposit(server, user.token, { amount: '123.45' });
      server.clock.advance(60_000);
      const audit: AuditEntry[] = [];
      const operatorId = await operatorIdFor(server);
      const approved = await approveAsOperator(server, record.id, operatorId, audit);
      expect(approved).toMatchObject({ id: record.id, status: 1, reason: null, decideTime: server.clock.now().getTime() });
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '123.450000', frozen: '0.000000' });
      expect(audit).toEqual([expect.objectContaining({
        operatorId, action: 'recharge.approve', targetType: 'recharge', targetId: record.id,
        before: expect.objectContaining({ status: 0 }), after: expect.objectContaining({ status: 1, transferId: `recharge:${record.id}` }),
      })]);
      const userId = await userIdOf(server, user.email!);
      const entries = await listLedgerEntries(server.db, { userId });
      expect(entries.records).toEqual([expect.objectContaining({
        transferId: `recharge:${record.id}`, type: 'deposit', currency: 'USDT', amountAtomic: 123_450_000n, reference: `recharge:${record.id}`,
      })]);
      // A second decision of either kind is refused and moves nothing.
      const second = await operatorIdFor(server);
      expect(await refusedCode(approveAsOperator(server, record.id, second))).toBe('record_already_decided');
      expect(await refusedCode(rejectRecharge(server.db, BigInt(record.id), 'late', {
        operatorId: second, clock: server.clock, audit: async () => {},
      }))).toBe('record_already_decided');
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '123.450000' });
      const mine = expectOk(await server.get(walletPaths.rechargeListMy, {}, { token: user.token })).body.result;
      expect(mine.records[0]).toMatchObject({ status: 1, reason: null });
    });

    it('rejection records the reason the user reads, and moves nothing', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const record = await applyDeposit(server, user.token);
      const audit: AuditEntry[] = [];
      const rejected = await rejectRecharge(server.db, BigInt(record.id), 'The proof does not show the transfer.', {
        operatorId: await operatorIdFor(server), clock: server.clock, audit: async (_tx, entry) => { audit.push(entry); },
      });
      expect(rejected).toMatchObject({ status: -1, reason: 'The proof does not show the transfer.' });
      expect(audit).toEqual([expect.objectContaining({ action: 'recharge.reject', reason: 'The proof does not show the transfer.' })]);
      expect(await refusedCode(approveAsOperator(server, record.id))).toBe('record_already_decided');
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '0.000000', frozen: '0.000000' });
      const mine = expectOk(await server.get(walletPaths.rechargeListMy, {}, { token: user.token })).body.result;
      expect(mine.records[0]).toMatchObject({ id: record.id, status: -1, reason: 'The proof does not show the transfer.' });
    });

    it('an audit that fails undoes the whole approval: no money, the request still under review', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const record = await applyDeposit(server, user.token);
      await expect(approveRecharge(server, record.id, async () => { throw new Error('audit store down'); })).rejects.toThrow('audit store down');
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '0.000000' });
      const mine = expectOk(await server.get(walletPaths.rechargeListMy, {}, { token: user.token })).body.result;
      expect(mine.records[0]).toMatchObject({ status: 0 });
      await approveAsOperator(server, record.id);
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '100.000000' });
    });

    it('two approvals at once: one goes through, the other is refused, the money arrives once', async () => {
      const user = await server.registerByEmail();
      await withDepositAddresses(server);
      const record = await applyDeposit(server, user.token, { amount: '250' });
      const [first, second] = [await operatorIdFor(server), await operatorIdFor(server)];
      const outcomes = await Promise.allSettled([approveAsOperator(server, record.id, first), approveAsOperator(server, record.id, second)]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      expect(refused).toHaveLength(1);
      expect((refused[0].reason as AppError).errorCode).toBe('record_already_decided');
      expect(await balanceOf(server, user.token)).toMatchObject({ available: '250.000000' });
    });

    it('an unknown request is not found', async () => {
      expect(await refusedCode(approveAsOperator(server, '999999999'))).toBe('not_found');
    });
  });
});

/** approveRecharge with an audit writer of the test's choosing. */
async function approveRecharge(server: TestServer, id: string, audit: (tx: unknown, entry: AuditEntry) => Promise<void>) {
  const { approveRecharge: approve } = await import('../../../server/domain/core/wallet/deposits.ts');
  return approve(server.db, BigInt(id), { operatorId: await operatorIdFor(server), clock: server.clock, audit });
}
