// Property-based (issue 22): random purchases (some with a client order id sent again), days
// passing with accrual runs (some run twice), maturity runs and early redemptions keep every asset
// conserved across all ledger accounts, never pay a return twice (each order's receipts add up to
// what it was paid, the transfers credited to each user to the receipts that name them, and never
// to more than the order was promised), and never let a purchase take coverage under 100 %: a
// purchase is sold out exactly when the brute-force check (reserve < owed + the new order's
// return) says so. The domain functions are called directly (the protocol is covered elsewhere).
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { products } from '../../../server/db/schema.ts';
import { AppError } from '../../../server/lib/errors.ts';
import { createProduct } from '../../../server/domain/programs/products/admin.ts';
import { runProductAccrual, runProductMaturity } from '../../../server/domain/programs/products/jobs.ts';
import { debitBuy, redeemOrder } from '../../../server/domain/programs/products/orders.ts';
import { requestFunding } from '../../../server/domain/programs/products/reserve.ts';
import { eq } from 'drizzle-orm';
import { createOperator } from '../adminHelpers.ts';
import { forEachDatabase, type TestServer } from '../helpers.ts';
import { markVerified } from '../identity/kycHelpers.ts';
import { fundSpot } from '../trading/positionHelpers.ts';
import { expectFiguresAgree, expectLedgerSound } from './productHelpers.ts';

type Step =
  | { type: 'buy'; user: number; product: number; amount: number; repeat: boolean }
  | { type: 'pass'; hours: number; twice: boolean }
  | { type: 'mature' }
  | { type: 'redeem'; which: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ type: fc.constant('buy' as const), user: fc.integer({ min: 0, max: 1 }), product: fc.integer({ min: 0, max: 1 }), amount: fc.integer({ min: 10, max: 400 }), repeat: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('pass' as const), hours: fc.integer({ min: 0, max: 40 }), twice: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('mature' as const) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('redeem' as const), which: fc.nat() }) },
);

const rows = async <T>(server: TestServer, query: ReturnType<typeof sql>) => server.query<T>(query);

async function expectConserved(server: TestServer) {
  const unbalanced = await rows(server, sql`select ledger, asset from ledger_accounts group by ledger, asset
    having sum(credits_posted - debits_posted) <> 0 or sum(credits_pending - debits_pending) <> 0`);
  expect(unbalanced).toEqual([]);
}

/** Never paid twice: receipts add up per order, transfers match the receipts naming them, nobody paid beyond the promise. */
async function expectPaidOnce(server: TestServer, productIds: bigint[]) {
  const ids = `{${productIds.join(',')}}`;
  const orders = await rows<{ id: string; accrued: string; receipts: string; promised: string; owed: string; status: string }>(server, sql`
    select o.id::text, o.accrued::text, o.owed::text, o.status,
      coalesce((select sum(a.amount) from product_accruals a where a.order_id = o.id), 0)::text as receipts,
      div(o.amount * o.daily_rate_ppm * o.days, 1000000)::text as promised
    from product_orders o where o.product_id = any(${ids}::bigint[])`);
  for (const order of orders) {
    expect(order.accrued, `order ${order.id}`).toBe(order.receipts);
    expect(BigInt(order.accrued) <= BigInt(order.promised), `order ${order.id} paid beyond its promise`).toBe(true);
    if (order.status !== 'cancelled') expect(BigInt(order.accrued) + BigInt(order.owed)).toBe(BigInt(order.promised));
  }
  // Every paying transfer equals the receipts that name it.
  const mismatched = await rows(server, sql`select r.transfer_id, r.total, t.amount from (
      select a.transfer_id, sum(a.amount) as total from product_accruals a join product_orders o on o.id = a.order_id
      where o.product_id = any(${ids}::bigint[]) and a.transfer_id <> '' group by a.transfer_id) r
    left join ledger_transfers t on t.id = r.transfer_id where t.amount is distinct from r.total`);
  expect(mismatched).toEqual([]);
}

forEachDatabase((server) => {
  describe('products under random sequences', () => {
    test('conservation, paid once, and coverage never under 100 % through a purchase', async () => {
      const operator = await createOperator(server, 'admin');
      const [{ id: operatorText }] = await server.query<{ id: string }>(sql`select id::text from operators where email = ${operator.email}`);
      const operatorId = BigInt(operatorText);
      let runNo = 0;
      await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 12 }), async (steps) => {
        runNo += 1;
        const now = () => server.clock.now();
        const productIds: bigint[] = [];
        for (const [index, fields] of [
          { days: 3, dailyRate: '0.5', earlyRedeem: true, earlyRedeemFee: '1', firstDayRule: 'full' as const },
          { days: 2, dailyRate: '1', firstDayRule: 'next_day' as const },
        ].entries()) {
          const row = await server.db.transaction((tx) => createProduct(tx, operatorId, {
            type: index === 0 ? 'arbitrage' : 'quant', name: `Property ${runNo}-${index}`, asset: 'USDT', minAmount: '10', maxAmount: '400', ...fields,
          }, now()));
          await server.db.transaction((tx) => requestFunding(tx, row.id, operatorId, index === 0 ? '9' : '5', now()));
          productIds.push(row.id);
        }
        const users: bigint[] = [];
        for (let i = 0; i < 2; i += 1) {
          const [user] = await server.query<{ id: string }>(sql`insert into users (email, password_hash, invite_code)
            values (${`${server.unique('prop')}@example.com`}, 'x', ${server.unique('I').slice(0, 12)}) returning id::text`);
          await markVerified(server, BigInt(user.id), 1);
          await fundSpot(server, BigInt(user.id), '600');
          users.push(BigInt(user.id));
        }
        const orders: Array<{ user: bigint; id: bigint }> = [];
        let lastClientOrderId: { user: number; id: string; product: number; amount: number } | undefined;
        for (const current of steps) {
          if (current.type === 'buy') {
            const repeat = current.repeat && lastClientOrderId;
            const user = repeat ? lastClientOrderId!.user : current.user;
            const product = repeat ? lastClientOrderId!.product : current.product;
            const amount = repeat ? lastClientOrderId!.amount : current.amount;
            const clientOrderId = repeat ? lastClientOrderId!.id : server.unique('prop-order-');
            const [before] = await server.db.select().from(products).where(eq(products.id, productIds[product]));
            const newOwed = (BigInt(amount) * 1_000_000n * BigInt(before.dailyRatePpm) * BigInt(before.days)) / 1_000_000n;
            const transfersBefore = await rows<{ n: number }>(server, sql`select count(*)::int as n from ledger_transfers`);
            try {
              const order = await debitBuy(server.db, users[user], { productId: productIds[product].toString(), amount: String(amount), clientOrderId }, now());
              if (!repeat) {
                orders.push({ user: users[user], id: order.id });
                // Brute force: a purchase that went through kept the reserve at or above everything owed.
                expect(before.reserve >= before.owed + newOwed).toBe(true);
              }
              lastClientOrderId = { user, id: clientOrderId, product, amount };
            } catch (error) {
              if (!(error instanceof AppError)) throw error;
              expect(['product_sold_out', 'balance_insufficient', 'product_not_open']).toContain(error.errorCode);
              if (error.errorCode === 'product_sold_out') expect(before.reserve < before.owed + newOwed).toBe(true);
              if (error.errorCode === 'balance_insufficient') expect(before.reserve >= before.owed + newOwed).toBe(true);
              // Nothing moved.
              expect(await rows<{ n: number }>(server, sql`select count(*)::int as n from ledger_transfers`)).toEqual(transfersBefore);
            }
            const coverage = await rows<{ short: number }>(server, sql`select count(*)::int as short from products
              where id = any(${`{${productIds.join(',')}}`}::bigint[]) and reserve < owed`);
            expect(coverage[0].short).toBe(0);
          } else if (current.type === 'pass') {
            server.clock.advance(current.hours * 3_600_000);
            const day = now().toISOString().slice(0, 10);
            await runProductAccrual(server.services, day);
            if (current.twice) await runProductAccrual(server.services, day);
          } else if (current.type === 'mature') {
            await runProductMaturity(server.services, now().toISOString().slice(0, 10));
          } else if (orders.length > 0) {
            const target = orders[current.which % orders.length];
            try {
              await redeemOrder(server.db, target.user, target.id, now());
            } catch (error) {
              if (!(error instanceof AppError)) throw error;
              expect(error.errorCode).toBe('order_not_redeemable');
            }
          }
          await expectConserved(server);
        }
        await expectPaidOnce(server, productIds);
        await expectFiguresAgree(server);
      }), { numRuns: 30 });
      await expectLedgerSound(server);
    }, 600_000);
  });
});
