// Investment products through the real protocol (issue 22): purchase and every refusal (nothing
// moves), idempotent client order ids, sold out by coverage, daily accrual and maturity (a second
// run pays nobody twice), a crash between the accrual's two steps, early redemption, freezing,
// reserve fundings with a second operator, bonds refunded and raised, mining receipts recomputed.
import { describe, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { productAdminPaths, productPaths } from '../../../src/api/contract/products.ts';
import { accrueProduct, runProductAccrual, runProductMaturity } from '../../../server/domain/programs/products/jobs.ts';
import { expectOk, expectRefused, forEachDatabase, type Reply, type TestServer } from '../helpers.ts';
import { createOperator, operatorLogin } from '../adminHelpers.ts';
import { recordTick } from '../trading/positionHelpers.ts';
import {
  admin, balance, buyer, createProduct, day, debitBuy, expectFiguresAgree, expectLedgerSound, fundReserve, moneySnapshot, type Admin,
} from './productHelpers.ts';

const dayMs = 86_400_000;
const usdt = (text: string) => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(6, '0'));
};

/** Moves the clock to 00:30 UTC of the next day. */
function nextDay(server: TestServer) {
  const now = server.clock.now().getTime();
  server.clock.advance(Math.floor(now / dayMs) * dayMs + dayMs + 30 * 60_000 - now);
}

async function receiptsOf(server: TestServer, orderId: string) {
  return server.query<{ day: string; amount: string; transfer_id: string }>(sql`select day, amount::text, transfer_id from product_accruals
    where order_id = ${BigInt(orderId)} order by day`);
}

async function paidTransfersTo(server: TestServer, userId: bigint, kind: string): Promise<bigint> {
  const [row] = await server.query<{ total: string }>(sql`select coalesce(sum(t.amount), 0)::text as total from ledger_transfers t
    join ledger_accounts a on a.id = t.credit_account_id where a.owner_user_id = ${userId} and t.kind = ${kind}`);
  return BigInt(row.total);
}

forEachDatabase((server) => {
  let boss: Admin;
  let second: Admin;
  // Back-office sessions end as the suite's clock moves on by days: fresh operators for each test.
  const setup = async () => {
    boss = await admin(server);
    second = await admin(server);
  };

  describe('purchase', () => {
    test('debitBuy holds the principal in the buyer\'s product_holdings, owes the exact return and shows coverage', async () => {
      await setup();
      const product = await createProduct(server, boss, { days: 3, dailyRate: '0.05' });
      await fundReserve(server, boss, product.id, '100');
      const user = await buyer(server, '1000');
      const order = expectOk(await debitBuy(server, user, product.id, '1000')).body.result;
      expect(order).toMatchObject({ status: 'running', amount: '1000.000000', owed: '1.500000', days: 3, dailyRate: '0.05', productType: 'arbitrage' });
      expect(await balance(server, user.userId, 'spot')).toBe(0n);
      expect(await balance(server, user.userId, 'product_holdings')).toBe(usdt('1000'));
      const detail = expectOk(await server.get(productPaths.detail, { id: product.id })).body.result;
      // (100 + 1000) / (1000 + 1.5) = 109.835...%
      expect(detail).toMatchObject({ coverage: '109.83', reserve: '100.000000', owed: '1.500000', sold: '1000.000000', returnSource: 'reserve_fixed_rate' });
      const list = expectOk(await server.get(productPaths.list, { type: 'arbitrage' })).body.result;
      expect(list.records.map((record: { id: string }) => record.id)).toContain(product.id);
      await expectFiguresAgree(server);
      await expectLedgerSound(server);
    });

    test('the same clientOrderId answers the first order, sequentially and concurrently, and debits once', async () => {
      await setup();
      const product = await createProduct(server, boss);
      await fundReserve(server, boss, product.id, '50');
      const user = await buyer(server, '1000');
      const clientOrderId = server.unique('same-order-');
      const first = expectOk(await debitBuy(server, user, product.id, '100', clientOrderId)).body.result;
      const again = expectOk(await debitBuy(server, user, product.id, '100', clientOrderId)).body.result;
      expect(again.id).toBe(first.id);
      const racing = server.unique('race-order-');
      const answers = await Promise.all([1, 2, 3].map(() => debitBuy(server, user, product.id, '200', racing)));
      const ids = new Set(answers.map((answer) => expectOk(answer).body.result.id));
      expect(ids.size).toBe(1);
      expect(await balance(server, user.userId, 'spot')).toBe(usdt('700'));
      await expectFiguresAgree(server);
    });

    test('the same clientOrderId with another amount or product answers 409 client_order_id_reused and moves nothing', async () => {
      await setup();
      const product = await createProduct(server, boss);
      const other = await createProduct(server, boss);
      await fundReserve(server, boss, product.id, '50');
      await fundReserve(server, boss, other.id, '50');
      const user = await buyer(server, '1000');
      const clientOrderId = server.unique('reused-order-');
      const first = expectOk(await debitBuy(server, user, product.id, '100', clientOrderId)).body.result;
      const before = await moneySnapshot(server);
      for (const reply of [
        debitBuy(server, user, product.id, '200', clientOrderId),
        debitBuy(server, user, product.id, '100.000001', clientOrderId),
        debitBuy(server, user, product.id, 'not a number', clientOrderId),
        debitBuy(server, user, other.id, '100', clientOrderId),
        server.post(productPaths.minerBuy, { productId: product.id, quantity: 1, clientOrderId }, { token: user.token }),
      ]) {
        const refused = await reply;
        expectRefused(refused, 409, 'client_order_id_reused');
        expect(refused.body.result).toMatchObject({ id: first.id });
      }
      expect(await moneySnapshot(server)).toEqual(before);
      // The same amount written with more zeros is the same order: the retry answers it.
      expect(expectOk(await debitBuy(server, user, product.id, '100.00', clientOrderId)).body.result.id).toBe(first.id);
      expect(await moneySnapshot(server)).toEqual(before);
      expect(await balance(server, user.userId, 'spot')).toBe(usdt('900'));
    });

    test('names follow the caller\'s language, falling back to the English name; drafts are not listed', async () => {
      await setup();
      const product = await createProduct(server, boss, { name: 'Quant fund', type: 'quant', names: { 'zh-cn': '量化基金' } });
      const draft = await createProduct(server, boss, { status: 'draft' });
      expect(expectOk(await server.get(productPaths.detail, { id: product.id, lang: 'zh-cn' })).body.result.name).toBe('量化基金');
      expect(expectOk(await server.get(productPaths.detail, { id: product.id }, { headers: { lang: 'zh-cn' } })).body.result.name).toBe('量化基金');
      expect(expectOk(await server.get(productPaths.detail, { id: product.id, lang: 'ko' })).body.result.name).toBe('Quant fund');
      expectRefused(await server.get(productPaths.detail, { id: draft.id }), 404, 'product_not_found');
      const all = expectOk(await server.get(productPaths.list, { pageSize: '100' })).body.result.records.map((record: { id: string }) => record.id);
      expect(all).not.toContain(draft.id);
    });

    test('every refusal moves nothing', async () => {
      await setup();
      const product = await createProduct(server, boss, { minAmount: '10', maxAmount: '500', perUserMax: '600' });
      await fundReserve(server, boss, product.id, '100');
      const draft = await createProduct(server, boss, { status: 'draft' });
      const later = await createProduct(server, boss, { opensAt: server.clock.now().getTime() + dayMs });
      const closed = await createProduct(server, boss);
      expectOk(await server.post(productAdminPaths.product.replace(':id', closed.id), { status: 'closed' }, { token: boss.token }));
      const thin = await createProduct(server, boss, { days: 30, dailyRate: '1' });
      await fundReserve(server, boss, thin.id, '1');
      const levelled = await createProduct(server, boss, { minLevel: 5 });
      await fundReserve(server, boss, levelled.id, '100');
      const user = await buyer(server, '1000');
      const poor = await buyer(server, '5');
      const unverified = await buyer(server, '1000', false);
      expectOk(await debitBuy(server, user, product.id, '500'));
      const cases: Array<[Promise<Reply>, number, string]> = [];
      const before = await moneySnapshot(server);
      cases.push(
        [debitBuy(server, user, '999999', '100'), 404, 'product_not_found'],
        [debitBuy(server, user, draft.id, '100'), 404, 'product_not_found'],
        [debitBuy(server, user, later.id, '100'), 409, 'product_not_open'],
        [debitBuy(server, user, closed.id, '100'), 409, 'product_not_open'],
        [debitBuy(server, unverified, product.id, '100'), 403, 'product_kyc_required'],
        [debitBuy(server, user, product.id, '5'), 400, 'product_amount_out_of_range'],
        [debitBuy(server, user, product.id, '501'), 400, 'product_amount_out_of_range'],
        [debitBuy(server, user, product.id, '10.1234567'), 400, 'amount_too_many_decimals'],
        [debitBuy(server, user, product.id, '1e3'), 400, 'amount_exponent'],
        [debitBuy(server, user, product.id, '150'), 409, 'product_user_cap'],
        [debitBuy(server, poor, product.id, '10'), 400, 'balance_insufficient'],
        [debitBuy(server, user, thin.id, '100'), 409, 'product_sold_out'],
        [debitBuy(server, user, levelled.id, '100'), 403, 'product_level_required'],
        [server.post(productPaths.minerBuy, { productId: product.id, quantity: 1, clientOrderId: server.unique('miner-') }, { token: user.token }), 400, 'product_wrong_kind'],
      );
      for (const [reply, status, error] of cases) expectRefused(await reply, status, error);
      expect(await moneySnapshot(server)).toEqual(before);
      await expectLedgerSound(server);
    });

    test('another user\'s order is not found: receipts, redeem', async () => {
      await setup();
      const product = await createProduct(server, boss, { earlyRedeem: true });
      await fundReserve(server, boss, product.id, '50');
      const owner = await buyer(server, '100');
      const other = await buyer(server, '100');
      const order = expectOk(await debitBuy(server, owner, product.id, '100')).body.result;
      const before = await moneySnapshot(server);
      expectRefused(await server.get(productPaths.receipts, { id: order.id }, { token: other.token }), 404, 'order_not_found');
      expectRefused(await server.post(productPaths.redeem, { id: order.id }, { token: other.token }), 404, 'order_not_found');
      expect(await moneySnapshot(server)).toEqual(before);
    });
  });

  describe('coverage', () => {
    test('a purchase that would take coverage under 100 % is sold out; one that keeps it at 100 % goes through', async () => {
      await setup();
      // 0.1 % a day for 10 days: 1 % of principal owed. A reserve of 5 covers 500 of principal.
      const product = await createProduct(server, boss, { days: 10, dailyRate: '0.1', maxAmount: '1000' });
      await fundReserve(server, boss, product.id, '5');
      const user = await buyer(server, '1000');
      expectOk(await debitBuy(server, user, product.id, '300'));
      expectRefused(await debitBuy(server, user, product.id, '201'), 409, 'product_sold_out');
      expectOk(await debitBuy(server, user, product.id, '200'));
      const detail = expectOk(await server.get(productPaths.detail, { id: product.id })).body.result;
      // (5 + 500) / (500 + 5) = 100 %
      expect(detail.coverage).toBe('100.00');
      expectRefused(await debitBuy(server, user, product.id, '10'), 409, 'product_sold_out');
      await expectFiguresAgree(server);
    });
  });

  describe('accrual and maturity', () => {
    test('daily returns sum exactly to what was owed, a rerun the same day pays nobody twice, principal returns at maturity', async () => {
      await setup();
      const product = await createProduct(server, boss, { days: 3, dailyRate: '0.05' });
      await fundReserve(server, boss, product.id, '10');
      const user = await buyer(server, '333.333333');
      const order = expectOk(await debitBuy(server, user, product.id, '333.333333')).body.result;
      // floor(333.333333 × 500 × 3 / 10^6) = 0.499999; daily 0.166666, the last day 0.166667.
      expect(order.owed).toBe('0.499999');
      await runProductAccrual(server.services, day(server));
      expect(await receiptsOf(server, order.id)).toHaveLength(1);
      const again = await runProductAccrual(server.services, day(server));
      expect(again).toMatchObject({ orders: 0, receipts: 0 });
      expect(await balance(server, user.userId)).toBe(166_666n);
      const mine = expectOk(await server.get(productPaths.myOrders, {}, { token: user.token })).body.result.records[0];
      expect(mine).toMatchObject({ todayIncome: '0.166666', accumulatedIncome: '0.166666', owed: '0.333333', remainingDays: 3 });
      nextDay(server);
      await runProductAccrual(server.services, day(server));
      nextDay(server);
      await runProductAccrual(server.services, day(server));
      await runProductAccrual(server.services, day(server));
      const receipts = await receiptsOf(server, order.id);
      expect(receipts.map((receipt) => receipt.amount)).toEqual(['166666', '166666', '166667']);
      expect(await paidTransfersTo(server, user.userId, 'product_interest')).toBe(499_999n);
      // Each receipt names the transfer that paid it.
      const [{ found }] = await server.query<{ found: number }>(sql`select count(*)::int as found from ledger_transfers
        where id = any(${`{${receipts.map((receipt) => receipt.transfer_id).join(',')}}`}::varchar[])`);
      expect(found).toBe(3);
      nextDay(server);
      expect((await runProductMaturity(server.services, day(server))).ended).toBeGreaterThanOrEqual(1);
      expect(await runProductMaturity(server.services, day(server))).toMatchObject({ ended: 0 });
      expect(await balance(server, user.userId)).toBe(usdt('333.333333') + 499_999n);
      expect(await balance(server, user.userId, 'product_holdings')).toBe(0n);
      const ended = expectOk(await server.get(productPaths.myOrders, { status: 'ended' }, { token: user.token })).body.result.records;
      expect(ended.map((record: { id: string }) => record.id)).toContain(order.id);
      const stat = expectOk(await server.get(productPaths.orderStat, {}, { token: user.token })).body.result;
      expect(stat.ended).toBe(1);
      expect(stat.totals).toEqual([{ asset: 'USDT', hosted: '0.000000', todayIncome: '0.000000', accumulatedIncome: '0.499999' }]);
      const receiptPage = expectOk(await server.get(productPaths.receipts, { id: order.id }, { token: user.token })).body.result;
      expect(receiptPage.records[0].inputs).toMatchObject({ principal: '333.333333', ratePpm: 500, days: 3, dayNumber: 3 });
      await expectFiguresAgree(server);
      await expectLedgerSound(server);
    });

    test('the job route runs once per day: the second run is replayed', async () => {
      await setup();
      const product = await createProduct(server, boss);
      await fundReserve(server, boss, product.id, '10');
      const user = await buyer(server, '100');
      expectOk(await debitBuy(server, user, product.id, '100'));
      nextDay(server);
      boss = await admin(server);
      const path = productAdminPaths.runJob.replace(':name', 'product-accrual');
      const run = expectOk(await server.post(path, {}, { token: boss.token })).body.result;
      expect(run).toMatchObject({ state: 'done', replayed: false });
      const spot = await balance(server, user.userId);
      const replay = expectOk(await server.post(path, {}, { token: boss.token })).body.result;
      expect(replay).toMatchObject({ state: 'done', replayed: true });
      expect(await balance(server, user.userId)).toBe(spot);
    });

    test('a crash between the receipts and their payout: the rerun pays exactly once', async () => {
      await setup();
      const product = await createProduct(server, boss, { days: 5, dailyRate: '0.08' });
      await fundReserve(server, boss, product.id, '100');
      const users = [await buyer(server, '1250'), await buyer(server, '500')];
      expectOk(await debitBuy(server, users[0], product.id, '1000'));
      expectOk(await debitBuy(server, users[0], product.id, '250'));
      expectOk(await debitBuy(server, users[1], product.id, '500'));
      // Step 1 only, as if the process died before running the payout job.
      const step = await accrueProduct(server.db, BigInt(product.id), day(server), server.clock.now());
      expect(step.jobId).toBeDefined();
      expect(await balance(server, users[0].userId)).toBe(0n);
      const [{ receipts }] = await server.query<{ receipts: number }>(sql`select count(*)::int as receipts from product_accruals a
        join product_orders o on o.id = a.order_id where o.product_id = ${BigInt(product.id)}`);
      expect(receipts).toBe(3);
      await runProductAccrual(server.services, day(server));
      await runProductAccrual(server.services, day(server));
      // 0.08 % a day: 0.8 + 0.2 for the first buyer (one transfer), 0.4 for the second.
      expect(await balance(server, users[0].userId)).toBe(usdt('1'));
      expect(await balance(server, users[1].userId)).toBe(usdt('0.4'));
      await expectFiguresAgree(server);
      await expectLedgerSound(server);
    });

    test('next_day orders start the next day; a day the job missed is paid at the next run', async () => {
      await setup();
      const product = await createProduct(server, boss, { days: 2, dailyRate: '0.05', firstDayRule: 'next_day' });
      await fundReserve(server, boss, product.id, '10');
      const user = await buyer(server, '1000');
      const order = expectOk(await debitBuy(server, user, product.id, '1000')).body.result;
      expect(order.status).toBe('not_started');
      await runProductAccrual(server.services, day(server));
      expect(await receiptsOf(server, order.id)).toEqual([]);
      nextDay(server);
      nextDay(server);
      // The first day's run was missed: today's run pays both days.
      await runProductAccrual(server.services, day(server));
      expect((await receiptsOf(server, order.id)).map((receipt) => receipt.amount)).toEqual(['500000', '500000']);
      nextDay(server);
      await runProductMaturity(server.services, day(server));
      expect(await balance(server, user.userId)).toBe(usdt('1001'));
    });
  });

  describe('redemption and freezing', () => {
    test('early redemption returns principal minus the stated fee (to the reserve) and releases what was owed', async () => {
      await setup();
      const product = await createProduct(server, boss, { earlyRedeem: true, earlyRedeemFee: '1', days: 10 });
      await fundReserve(server, boss, product.id, '20');
      const user = await buyer(server, '1000');
      const order = expectOk(await debitBuy(server, user, product.id, '1000')).body.result;
      await runProductAccrual(server.services, day(server));
      const redeemed = expectOk(await server.post(productPaths.redeem, { id: order.id }, { token: user.token })).body.result;
      expect(redeemed).toMatchObject({ status: 'cancelled', owed: '0.000000', accumulatedIncome: '0.500000' });
      expect(await balance(server, user.userId)).toBe(usdt('990.5'));
      const detail = expectOk(await server.get(productPaths.detail, { id: product.id })).body.result;
      expect(detail).toMatchObject({ reserve: '29.500000', owed: '0.000000', coverage: '∞' });
      expectRefused(await server.post(productPaths.redeem, { id: order.id }, { token: user.token }), 409, 'order_not_redeemable');
      const fixed = await createProduct(server, boss);
      await fundReserve(server, boss, fixed.id, '20');
      const locked = expectOk(await debitBuy(server, user, fixed.id, '100')).body.result;
      expectRefused(await server.post(productPaths.redeem, { id: locked.id }, { token: user.token }), 409, 'order_not_redeemable');
      await expectFiguresAgree(server);
      await expectLedgerSound(server);
    });

    test('a frozen order earns nothing while frozen, the user reads why, and is paid the missed days after unfreezing', async () => {
      await setup();
      const product = await createProduct(server, boss, { days: 3 });
      await fundReserve(server, boss, product.id, '10');
      const user = await buyer(server, '1000');
      const order = expectOk(await debitBuy(server, user, product.id, '1000')).body.result;
      const frozen = expectOk(await server.post(productAdminPaths.freeze.replace(':id', order.id), { reason: 'Source of funds check' }, { token: boss.token })).body.result;
      expect(frozen.status).toBe('frozen');
      const mine = expectOk(await server.get(productPaths.myOrders, {}, { token: user.token })).body.result.records[0];
      expect(mine).toMatchObject({ status: 'frozen', frozenReason: 'Source of funds check' });
      await runProductAccrual(server.services, day(server));
      expect(await receiptsOf(server, order.id)).toEqual([]);
      expectRefused(await server.post(productPaths.redeem, { id: order.id }, { token: user.token }), 409, 'order_not_redeemable');
      nextDay(server);
      boss = await admin(server);
      expectOk(await server.post(productAdminPaths.unfreeze.replace(':id', order.id), {}, { token: boss.token }));
      await runProductAccrual(server.services, day(server));
      expect((await receiptsOf(server, order.id)).length).toBe(2);
      const [audit] = await server.query<{ actions: string }>(sql`select string_agg(action, ',' order by id) as actions from audit_log
        where target_type = 'product_order' and target_id = ${order.id}`);
      expect(audit.actions).toBe('product.order.freeze,product.order.unfreeze');
    });
  });

  describe('reserve funding', () => {
    test('above the threshold a second, different operator approves; the same operator twice is refused', async () => {
      await setup();
      const product = await createProduct(server, boss);
      const funding = await fundReserve(server, boss, product.id, '20000');
      expect(funding).toMatchObject({ status: 'pending', approvalsRequired: 2 });
      const before = await moneySnapshot(server);
      expectRefused(await server.post(productAdminPaths.approveFunding.replace(':fundingId', funding.id), {}, { token: boss.token }), 409, 'funding_approved_by_you');
      expect(await moneySnapshot(server)).toEqual(before);
      const pending = expectOk(await server.get(productAdminPaths.fundings, {}, { token: second.token })).body.result;
      expect(pending.map((item: { id: string }) => item.id)).toContain(funding.id);
      const done = expectOk(await server.post(productAdminPaths.approveFunding.replace(':fundingId', funding.id), {}, { token: second.token })).body.result;
      expect(done.status).toBe('done');
      expect(done.approvals.length).toBe(2);
      expect(expectOk(await server.get(productPaths.detail, { id: product.id })).body.result.reserve).toBe('20000.000000');
      expectRefused(await server.post(productAdminPaths.approveFunding.replace(':fundingId', funding.id), {}, { token: second.token }), 409, 'record_already_decided');
      const rejected = await fundReserve(server, boss, product.id, '30000');
      const answer = expectOk(await server.post(productAdminPaths.rejectFunding.replace(':fundingId', rejected.id), { reason: 'Too much' }, { token: second.token })).body.result;
      expect(answer.status).toBe('rejected');
      expect(expectOk(await server.get(productPaths.detail, { id: product.id })).body.result.reserve).toBe('20000.000000');
      expectRefused(await server.post(productAdminPaths.approveFunding.replace(':fundingId', '999999'), {}, { token: second.token }), 404, 'funding_not_found');
      await expectFiguresAgree(server);
      await expectLedgerSound(server);
    });
  });

  describe('bonds', () => {
    test('a raise that misses its target by the deadline refunds every subscriber in full', async () => {
      await setup();
      const closesAt = server.clock.now().getTime() + 3_600_000;
      const bond = await createProduct(server, boss, { type: 'bond', target: '1000', closesAt, days: 10, dailyRate: '0.04', minAmount: '100' });
      await fundReserve(server, boss, bond.id, '10');
      const a = await buyer(server, '300');
      const b = await buyer(server, '300');
      const orderA = expectOk(await debitBuy(server, a, bond.id, '200')).body.result;
      expect(orderA.status).toBe('not_started');
      expectOk(await debitBuy(server, b, bond.id, '300'));
      await runProductAccrual(server.services, day(server));
      server.clock.advance(2 * 3_600_000);
      expectRefused(await debitBuy(server, b, bond.id, '100'), 409, 'product_not_open');
      const result = await runProductMaturity(server.services, day(server));
      expect(result).toMatchObject({ failed: 1, refunded: 2 });
      expect(await balance(server, a.userId)).toBe(usdt('300'));
      expect(await balance(server, b.userId)).toBe(usdt('300'));
      expectRefused(await server.get(productPaths.detail, { id: bond.id }), 404, 'product_not_found');
      const cancelled = expectOk(await server.get(productPaths.myOrders, {}, { token: a.token })).body.result.records[0];
      expect(cancelled.status).toBe('cancelled');
      await expectFiguresAgree(server);
      await expectLedgerSound(server);
    });

    test('a raise that meets its target runs; coupons accrue as receipts and are paid at maturity with the principal', async () => {
      await setup();
      const closesAt = server.clock.now().getTime() + 3_600_000;
      const bond = await createProduct(server, boss, { type: 'bond', target: '500', closesAt, days: 2, dailyRate: '0.1', minAmount: '100', maxAmount: '500' });
      await fundReserve(server, boss, bond.id, '10');
      const a = await buyer(server, '500');
      expectRefused(await debitBuy(server, a, bond.id, '600'), 400, 'product_amount_out_of_range');
      const order = expectOk(await debitBuy(server, a, bond.id, '500')).body.result;
      expectRefused(await debitBuy(server, a, bond.id, '100'), 409, 'product_sold_out');
      server.clock.advance(2 * 3_600_000);
      expect(await runProductMaturity(server.services, day(server))).toMatchObject({ raised: 1 });
      nextDay(server);
      await runProductAccrual(server.services, day(server));
      nextDay(server);
      await runProductAccrual(server.services, day(server));
      const receipts = await receiptsOf(server, order.id);
      expect(receipts.map((receipt) => receipt.amount)).toEqual(['500000', '500000']);
      expect(await balance(server, a.userId)).toBe(0n);
      nextDay(server);
      await runProductMaturity(server.services, day(server));
      expect(await balance(server, a.userId)).toBe(usdt('501'));
      expect(receipts.every((receipt) => receipt.transfer_id === `bc-${order.id}`)).toBe(true);
      await expectFiguresAgree(server);
      await expectLedgerSound(server);
    });
  });

  describe('mining', () => {
    test('output follows the published formula; the receipt\'s inputs recompute it', async () => {
      await setup();
      const today = day(server);
      expectOk(await server.post(productAdminPaths.miningRewards, {
        asset: 'BTC', day: today, rewardPerThsDay: '0.0000007', electricityPerKwh: '0.06', source: 'test figure from network difficulty',
      }, { token: boss.token }));
      await recordTick(server, 'BTCUSDT', '67250.00');
      const product = await createProduct(server, boss, {
        type: 'mining', name: 'S21', asset: 'USDT', payoutAsset: 'BTC', days: 2, dailyRate: undefined, unitPrice: '300', minAmount: '300', maxAmount: '3000',
        machine: { manufacturer: 'Bitmain Antminer S21', hashrateThs: '200', powerW: 3500, size: '400x195x290 mm', weightKg: '15.4', temperature: '0-40 C', humidity: '10-90 %', network: 'BTC' },
      });
      const user = await buyer(server, '1000');
      expectRefused(await server.post(productPaths.minerBuy, { productId: product.id, quantity: 2, clientOrderId: server.unique('miner-') }, { token: user.token }), 409, 'product_sold_out');
      await fundReserve(server, boss, product.id, '0.01');
      expectRefused(await debitBuy(server, user, product.id, '300'), 400, 'product_wrong_kind');
      const detail = expectOk(await server.get(productPaths.detail, { id: product.id })).body.result;
      // 200 × 70 sat = 14 000 sat; 3500 W × 24 h = 84 kWh × 0.06 = 5.04 USDT = 7494.4 sat → 7495; net 6505 sat.
      expect(detail.miningReward).toMatchObject({ rewardPerThsDay: '0.00000070', electricityPerKwh: '0.060000', estimatedDailyOutput: '0.00006505' });
      const order = expectOk(await server.post(productPaths.minerBuy, { productId: product.id, quantity: 2, clientOrderId: server.unique('miner-') }, { token: user.token })).body.result;
      expect(order).toMatchObject({ amount: '600.000000', quantity: 2, payoutAsset: 'BTC', owed: '0.00026020' });
      expect(await balance(server, user.userId)).toBe(usdt('400'));
      // Its clientOrderId again with another number of machines is refused; with the same, it answers the order.
      const rented = await moneySnapshot(server);
      const rentAgain = (quantity: number) => server.post(productPaths.minerBuy, { productId: product.id, quantity, clientOrderId: order.clientOrderId }, { token: user.token });
      expectRefused(await rentAgain(1), 409, 'client_order_id_reused');
      expect(expectOk(await rentAgain(2)).body.result.id).toBe(order.id);
      expect(await moneySnapshot(server)).toEqual(rented);
      await runProductAccrual(server.services, today);
      const receipt = expectOk(await server.get(productPaths.receipts, { id: order.id }, { token: user.token })).body.result.records[0];
      const inputs = receipt.inputs;
      // Recompute from the receipt alone, in satoshi and micro-USDT.
      const gross = BigInt(inputs.hashrateThs) * BigInt(inputs.quantity) * BigInt(Math.round(Number(inputs.rewardPerThsDay) * 1e8));
      const costNumerator = BigInt(inputs.powerW) * BigInt(inputs.quantity) * 24n * usdt(inputs.electricityPerKwh) * 10n ** 8n * 100n;
      const costDenominator = 1000n * 10n ** 6n * BigInt(String(inputs.price).replace('.', ''));
      const cost = (costNumerator + costDenominator - 1n) / costDenominator;
      expect(receipt.amount).toBe(`0.000${String(gross - cost).padStart(5, '0')}`);
      expect(receipt.amount).toBe('0.00013011');
      expect(inputs).toMatchObject({ price: '67250.00', priceSymbol: 'BTCUSDT', rewardSource: 'test figure from network difficulty' });
      expect(typeof inputs.tickTime).toBe('number');
      expect(await balance(server, user.userId, 'spot', 'BTC')).toBe(13_011n);
      const pool = expectOk(await server.get(productPaths.miningPool, { asset: 'BTC' }, { token: user.token })).body.result;
      expect(pool).toMatchObject({ machinesRunning: 2, my: { machines: 2, hashrateThs: '400.0000', outputTotal: '0.00013011' } });
      await expectFiguresAgree(server);
      await expectLedgerSound(server);
    });

    test('costs above the output pay nothing that day, and the receipt says so', async () => {
      await setup();
      const today = day(server);
      expectOk(await server.post(productAdminPaths.miningRewards, {
        asset: 'ETH', day: today, rewardPerThsDay: '0.000000000000000001', electricityPerKwh: '0.5', source: 'test figure, costs above output',
      }, { token: boss.token }));
      await recordTick(server, 'ETHUSDT', '3180.00');
      const product = await createProduct(server, boss, {
        type: 'mining', name: 'Loss maker', asset: 'USDT', payoutAsset: 'ETH', days: 2, dailyRate: undefined, unitPrice: '100', minAmount: '100', maxAmount: '1000',
        machine: { manufacturer: 'Test rig', hashrateThs: '1', powerW: 3000, size: '1', weightKg: '1', temperature: '1', humidity: '1', network: 'ETH' },
      });
      const user = await buyer(server, '100');
      const order = expectOk(await server.post(productPaths.minerBuy, { productId: product.id, quantity: 1, clientOrderId: server.unique('miner-') }, { token: user.token })).body.result;
      await runProductAccrual(server.services, today);
      const receipts = expectOk(await server.get(productPaths.receipts, { id: order.id }, { token: user.token })).body.result.records;
      expect(receipts).toHaveLength(1);
      expect(receipts[0].amount).toBe('0.000000000000000000');
      expect(String(receipts[0].inputs.note)).toMatch(/nothing paid/);
      expect(await balance(server, user.userId, 'spot', 'ETH')).toBe(0n);
    });
  });

  describe('back office', () => {
    test('creation is checked per type, needs the admin role, and is audited', async () => {
      await setup();
      const finance = await createOperatorToken(server);
      expectRefused(await server.post(productAdminPaths.products, { type: 'bond', name: 'No target', asset: 'USDT', days: 10, dailyRate: '0.05', minAmount: '1', maxAmount: '10' }, { token: boss.token }), 400, 'invalid_request');
      expectRefused(await server.post(productAdminPaths.products, { type: 'mining', name: 'No machine', asset: 'USDT', payoutAsset: 'BTC', days: 10, minAmount: '1', maxAmount: '10' }, { token: boss.token }), 400, 'invalid_request');
      expectRefused(await server.post(productAdminPaths.products, { type: 'arbitrage', name: 'No rate', asset: 'USDT', days: 10, minAmount: '1', maxAmount: '10' }, { token: boss.token }), 400, 'invalid_request');
      expectRefused(await server.post(productAdminPaths.products, { type: 'arbitrage', name: 'x', asset: 'USDT', days: 10, dailyRate: '0.05', minAmount: '1', maxAmount: '10' }, { token: finance }), 403, 'forbidden');
      const listed = expectOk(await server.get(productAdminPaths.products, {}, { token: finance })).body.result;
      expect(listed.total).toBeGreaterThan(0);
      // Filtered by kind and status on the server: every record of the page matches, the total counts only those.
      const drafts = expectOk(await server.get(productAdminPaths.products, { type: 'arbitrage', status: 'draft' }, { token: finance })).body.result;
      const [counted] = await server.query<{ n: number }>(sql`select count(*)::int as n from products where type = 'arbitrage' and status = 'draft'`);
      expect(drafts.total).toBe(counted.n);
      expect(drafts.records.every((product: { type: string; status: string }) => product.type === 'arbitrage' && product.status === 'draft')).toBe(true);
      expectRefused(await server.get(productAdminPaths.products, { status: 'sold' }, { token: finance }), 400, 'invalid_request');
      const made = await createProduct(server, boss, { name: 'Audited' });
      const [row] = await server.query<{ actions: string }>(sql`select string_agg(action, ',') as actions from audit_log where target_type = 'product' and target_id = ${made.id}`);
      // Created as a draft by one admin, put on sale by a second (issue 38): both audited.
      expect(row.actions).toBe('product.create,product.update');
      const orders = expectOk(await server.get(productAdminPaths.orders, { pageSize: '5' }, { token: finance })).body.result;
      expect(orders.records.length).toBeGreaterThan(0);
      expect(orders.records[0].userId).toBeDefined();
      expect(orders.records[0].account).toMatch(/@example\.com$/);
    });
  });
});

async function createOperatorToken(server: TestServer): Promise<string> {
  return operatorLogin(server, await createOperator(server, 'finance'));
}
