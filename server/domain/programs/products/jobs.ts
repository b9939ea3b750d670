// Daily product jobs (issue 22): accrual (each running order's return for the day, from the
// product's reserve, through a payout job) and maturity (principal back, bonds raised or refunded,
// through postGroups a chunk of orders per transaction: see Maturity below for why not a job).
//
// Accrual, per product, is crash-safe in two steps:
//  1. One transaction, the product row locked: a receipt per order and day not yet paid (ON
//     CONFLICT DO NOTHING on (order, day)), the orders' accrued / owed / last day and the product's
//     owed / paid / reserve moved, and the payout job that will pay the receipts made with its
//     targets (the sum of the receipts per user spot account). Each receipt names the ledger
//     transfer that pays it: `${job}:${account}` (payouts.ts payoutTransferId).
//  2. The payout job runs (finishPayoutJob): the transfers product_reserve → spot
//     ('product_interest', 'mining_output'), in batches, resumable, each transfer id paying once.
// The accounts paid into and the job's number come from the ledger kernel (userAccountsOf,
// countPayoutJobs): this file reads no ledger or payout table itself.
// A crash after step 1 leaves a payout job 'running' that the next run (or the start-up resume
// of payout jobs) finishes; step 1 of the rerun finds every receipt made and makes none again.
// So every receipt is paid exactly once, whatever stops where.
//
// Days: an order's term is days 1..n from its start day (the purchase day with 'full', the next
// day with 'next_day', a bond's first midnight after its deadline); a day's return is paid by that
// day's run, and a run pays every day of the term up to its day that was not paid yet (a day the
// job did not run, or the purchase day bought after the day's run, is paid at the next run).
// Fixed rate: daily = floor(principal × ppm / 10^6), the last day takes the remainder, so the sum
// is exactly what the order was promised. Mining: the published formula (mining.ts), never above
// what the reserve holds. Bond coupons accrue daily as receipts and are paid at maturity with the
// principal. A frozen order is skipped; the days it missed are paid after it is unfrozen.
import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { MachineSpec } from '../../../../src/api/contract/products.ts';
import { productOrders, products } from '../../../db/schema.ts';
import type { Db, Tx } from '../../../db/client.ts';
import type { Services } from '../../kernel/services.ts';
import { assert } from '../../../lib/errors.ts';
import { openAccounts, systemShard, accountKeysMax } from '../../kernel/ledger/accounts.ts';
import { formatAmount } from '../../kernel/ledger/amounts.ts';
import {
  countPayoutJobs, createPayoutJob, finishPayoutJob, finishPayoutJobsOf, postGroups, userAccountsOf, type PayoutTarget, type TransferGroup,
} from '../../kernel/ledger/payouts.ts';
import type { NewTransferRequest } from '../../kernel/ledger/rules.ts';
import type { JobResult } from '../../kernel/jobs.ts';
import { deliverMessages, writeMessages, type NewMessage, type WrittenMessage } from '../../kernel/messages.ts';
import { dailyOutput, lastPrice, outputReceiptInputs, rewardInForce, type MiningRewardRow } from './mining.ts';
import { addToFigures, lockProduct, type ProductRow } from './products.ts';
import { assetScales, scaleOf } from '../../kernel/ledger/assets.ts';
import { dayMs, dayOf } from '../../kernel/shared/days.ts';
import { productMessage } from './orders.ts';
import { rowsOf, tokenArrayLiteral } from '../../../db/arrays.ts';

const payoutPrefix = 'pa-';

/** Payout concurrency on a PostgreSQL pool (PGlite runs one transaction at a time anyway). */
const payoutConcurrency = 4;

export interface AccrualStep {
  productId: bigint;
  asset: string;
  orders: number;
  receipts: number;
  amount: bigint;
  /** The payout job made in step 1, when anything is to be paid. */
  jobId?: string;
}

/** Step 1 for one product (see the header). Exported for the crash tests. */
export async function accrueProduct(db: Db, productId: bigint, day: string, now: Date): Promise<AccrualStep> {
  const scales = await assetScales(db);
  return db.transaction(async (tx) => {
    const product = await lockProduct(tx, productId);
    assert(product, `product ${productId} exists`);
    const empty: AccrualStep = { productId, asset: product.payoutAsset, orders: 0, receipts: 0, amount: 0n };
    const jobs = await countPayoutJobs(tx, `${payoutPrefix}${day}-${productId}-`);
    const jobId = `${payoutPrefix}${day}-${productId}-${jobs + 1}`;
    if (product.type === 'mining') return (await accrueMining(tx, product, day, now, jobId, scales)) ?? empty;
    const bond = product.type === 'bond';
    const scale = scaleOf(scales, product.asset);
    // Bond coupons are paid at maturity with the principal: the receipt names that transfer.
    const transferOf = bond ? sql`'bc-' || x.id::text` : sql`case when x.amt > 0 then ${jobId}::text || ':' || x.account_id::text else '' end`;
    // The spot account each owner is paid into, from the ledger's accounts (none needed for a bond's coupons).
    const spotOf = bond ? new Map<bigint, bigint>() : await userAccountsOf(tx, { ledger: 'real', asset: product.payoutAsset, kind: 'spot' },
      rowsOf<{ user_id: string }>(await tx.execute(sql`select distinct user_id::text from product_orders
        where product_id = ${productId} and status = 'running' and (last_accrued_day is null or last_accrued_day < ${day})`))
        .map((row) => BigInt(row.user_id)));
    // generate_series makes the planner guess a thousand rows per order: at 100 000 orders that
    // guess turns on JIT compilation, which costs seconds and saves nothing here.
    await tx.execute(sql`select set_config('jit', 'off', true)`);
    const rows = rowsOf<{ transfer_id: string; total: string; receipts: number; orders: number }>(await tx.execute(sql`
      with eligible as (
        select o.id, o.user_id, o.amount, o.daily_rate_ppm as ppm, o.days,
          (o.starts_at at time zone 'UTC')::date as start_day, o.last_accrued_day
        from product_orders o
        where o.product_id = ${productId} and o.status = 'running' and (o.last_accrued_day is null or o.last_accrued_day < ${day})
      ), dayrows as (
        select e.*, a.id as account_id, g.n, e.start_day + g.n - 1 as d
        from eligible e
        left join unnest(${tokenArrayLiteral([...spotOf.keys()])}::bigint[], ${tokenArrayLiteral([...spotOf.values()])}::bigint[])
          as a(user_id, id) on a.user_id = e.user_id
        cross join lateral generate_series(
          greatest(1, coalesce(e.last_accrued_day::date - e.start_day + 2, 1)),
          least(e.days, ${day}::date - e.start_day + 1)) as g(n)
      ), x as (
        select d.*, case when d.n = d.days then div(d.amount * d.ppm * d.days, 1000000) - div(d.amount * d.ppm, 1000000) * (d.days - 1)
          else div(d.amount * d.ppm, 1000000) end as amt
        from dayrows d
      ), ins as (
        insert into product_accruals (order_id, day, amount, inputs, transfer_id, created_at)
        select x.id, to_char(x.d, 'YYYY-MM-DD'), x.amt, jsonb_build_object(
            'principal', round(x.amount / ${(10n ** BigInt(scale)).toString()}::numeric, ${scale})::text,
            'ratePpm', x.ppm, 'days', x.days, 'dayNumber', x.n),
          ${transferOf}, ${now.toISOString()}::timestamptz
        from x
        on conflict do nothing
        returning order_id, day, amount, transfer_id
      ), per_order as (
        select order_id, sum(amount) as s, max(day) as last from ins group by order_id
      ), upd as (
        update product_orders o set accrued = o.accrued + p.s,
          owed = case when ${bond}::boolean then o.owed else o.owed - p.s end, last_accrued_day = p.last
        from per_order p where o.id = p.order_id
        returning o.id
      )
      select transfer_id, sum(amount)::text as total, count(*)::int as receipts, count(distinct order_id)::int as orders,
        (select count(*) from upd)::int as updated
      from ins group by transfer_id`));
    const amount = rows.reduce((total, row) => total + BigInt(row.total), 0n);
    const receipts = rows.reduce((total, row) => total + Number(row.receipts), 0);
    const orders = rows.reduce((total, row) => total + Number(row.orders), 0);
    if (bond || amount === 0n) return { ...empty, orders, receipts, amount: bond ? amount : 0n };
    await addToFigures(tx, productId, { owed: -amount, paid: amount, reserve: -amount }, now);
    const targets: PayoutTarget[] = rows.filter((row) => row.transfer_id !== '' && BigInt(row.total) > 0n)
      .map((row) => ({ accountId: BigInt(row.transfer_id.slice(jobId.length + 1)), amountAtomic: BigInt(row.total) }));
    await makePayoutJob(tx, jobId, product, 'product_interest', day, targets);
    return { ...empty, orders, receipts, amount, jobId };
  });
}

async function makePayoutJob(tx: Tx, jobId: string, product: ProductRow, kind: 'product_interest' | 'mining_output', day: string, targets: PayoutTarget[]) {
  // The payout job is made inside step 1's transaction (a savepoint): receipts and the job that
  // pays them commit together or not at all.
  await createPayoutJob(tx as unknown as Db, {
    id: jobId, ledger: 'real', asset: product.payoutAsset, sourceKind: 'product_reserve', direction: 'credit', kind,
    reference: `product:${product.id}`, remark: `${product.name}: returns of ${day}`,
  }, targets, { now: () => new Date() });
}

/** Mining: each order's output per day by the formula, capped by what the reserve holds. */
async function accrueMining(tx: Tx, product: ProductRow, day: string, now: Date, jobId: string, scales: Map<string, number>): Promise<AccrualStep | undefined> {
  const machine = product.machine as unknown as MachineSpec | null;
  if (!machine) return undefined;
  const orders = await tx.select().from(productOrders)
    .where(and(eq(productOrders.productId, product.id), eq(productOrders.status, 'running'))).for('update');
  const price = await lastPrice(tx, product.payoutAsset, now);
  if (!price || orders.length === 0) return undefined;
  const minedScale = scaleOf(scales, product.payoutAsset);
  const usdtScale = scales.get('USDT') ?? 6;
  const rewards = new Map<string, MiningRewardRow | undefined>();
  const rewardOn = async (d: string) => {
    if (!rewards.has(d)) rewards.set(d, await rewardInForce(tx, product.payoutAsset, d));
    return rewards.get(d);
  };
  const spotOf = new Map<bigint, bigint>();
  for (let start = 0; start < orders.length; start += accountKeysMax) {
    const chunk = orders.slice(start, start + accountKeysMax);
    const ids = await openAccounts(tx, chunk.map((order) => ({ ledger: 'real' as const, asset: product.payoutAsset, kind: 'spot' as const, ownerUserId: order.userId })));
    chunk.forEach((order, index) => spotOf.set(order.userId, ids[index]));
  }
  let reserve = product.reserve;
  let owedReleased = 0n;
  let paid = 0n;
  let receipts = 0;
  const paidOrders = new Set<bigint>();
  const perAccount = new Map<bigint, bigint>();
  const receiptRows: Array<{ orderId: bigint; day: string; amount: bigint; inputs: Record<string, string | number>; transferId: string }> = [];
  const orderChanges: Array<{ id: bigint; paid: bigint; owed: bigint; last: string }> = [];
  for (const order of orders) {
    const startDay = Date.parse(`${dayOf(order.startsAt)}T00:00:00Z`);
    const lastN = Math.min(order.days, Math.floor((Date.parse(`${day}T00:00:00Z`) - startDay) / dayMs) + 1);
    const firstN = order.lastAccruedDay ? Math.floor((Date.parse(`${order.lastAccruedDay}T00:00:00Z`) - startDay) / dayMs) + 2 : 1;
    let orderPaid = 0n; let orderOwed = order.owed; let last: string | undefined;
    for (let n = Math.max(1, firstN); n <= lastN; n += 1) {
      const d = dayOf(startDay + (n - 1) * dayMs);
      const reward = await rewardOn(d);
      // Without a figure for the day nothing is paid and the later days wait for one.
      if (!reward) break;
      const inputs = {
        hashrateThs: String(machine.hashrateThs), powerW: Number(machine.powerW), quantity: order.quantity,
        rewardPerThsDay: reward.rewardPerThsDay, electricityPerKwh: reward.electricityPerKwh, minedScale, usdtScale, price,
      };
      const output = dailyOutput(inputs);
      const amount = output.net < reserve ? output.net : reserve;
      const receiptInputs = outputReceiptInputs(inputs, output, reward, d);
      if (output.net === 0n) receiptInputs.note = 'electricity cost at or above the output: nothing paid this day';
      else if (amount < output.net) receiptInputs.note = `capped at what the reserve held (${formatAmount(amount, minedScale)})`;
      const account = spotOf.get(order.userId)!;
      receiptRows.push({ orderId: order.id, day: d, amount, inputs: receiptInputs, transferId: amount > 0n ? `${jobId}:${account}` : '' });
      if (amount > 0n) perAccount.set(account, (perAccount.get(account) ?? 0n) + amount);
      reserve -= amount; paid += amount; orderPaid += amount; receipts += 1;
      const release = amount < orderOwed ? amount : orderOwed;
      orderOwed -= release; owedReleased += release;
      last = d;
    }
    if (last) {
      orderChanges.push({ id: order.id, paid: orderPaid, owed: orderOwed, last });
      paidOrders.add(order.id);
    }
  }
  if (receiptRows.length === 0) return undefined;
  for (let start = 0; start < receiptRows.length; start += 1000) {
    await tx.execute(sql`insert into product_accruals (order_id, day, amount, inputs, transfer_id, created_at)
      select * from jsonb_to_recordset(${JSON.stringify(receiptRows.slice(start, start + 1000).map((row) => ({
        order_id: row.orderId.toString(), day: row.day, amount: row.amount.toString(), inputs: row.inputs, transfer_id: row.transferId,
        created_at: now.toISOString(),
      })))}::jsonb) as r(order_id bigint, day varchar, amount numeric, inputs jsonb, transfer_id varchar, created_at timestamptz)
      on conflict do nothing`);
  }
  for (const change of orderChanges) {
    await tx.update(productOrders).set({ accrued: sql`${productOrders.accrued} + ${change.paid.toString()}::numeric`, owed: change.owed, lastAccruedDay: change.last })
      .where(eq(productOrders.id, change.id));
  }
  await addToFigures(tx, product.id, { owed: -owedReleased, paid, reserve: -paid }, now);
  const targets = [...perAccount].map(([accountId, amountAtomic]) => ({ accountId, amountAtomic }));
  if (targets.length > 0) await makePayoutJob(tx, jobId, product, 'mining_output', day, targets);
  return {
    productId: product.id, asset: product.payoutAsset, orders: paidOrders.size, receipts, amount: paid, ...(targets.length > 0 ? { jobId } : {}),
  };
}

/** Runs the product payout jobs a crash or an error left unfinished; answers how many. */
export async function payPendingAccruals(db: Db): Promise<number> {
  return (await finishPayoutJobsOf(db, payoutPrefix, { concurrency: payoutConcurrency })).length;
}

/** Orders of products other than bonds whose start has come: running. */
async function startOrders(db: Db, now: Date) {
  await db.execute(sql`update product_orders o set status = 'running' from products p
    where p.id = o.product_id and p.type <> 'bond' and o.status = 'not_started' and o.starts_at <= ${now.toISOString()}::timestamptz`);
}

export async function runProductAccrual(services: Services, day: string): Promise<JobResult> {
  const { db, clock } = services;
  const resumed = await payPendingAccruals(db);
  const now = clock.now();
  await startOrders(db, now);
  const due = rowsOf<{ product_id: string }>(await db.execute(sql`select distinct product_id::text from product_orders
    where status = 'running' and (last_accrued_day is null or last_accrued_day < ${day}) order by 1`));
  const scales = await assetScales(db);
  const paidByAsset = new Map<string, bigint>();
  let orders = 0; let receipts = 0; let couponsAccrued = 0;
  for (const { product_id: id } of due) {
    const step = await accrueProduct(db, BigInt(id), day, now);
    orders += step.orders; receipts += step.receipts;
    if (step.jobId) {
      await finishPayoutJob(db, step.jobId, { concurrency: payoutConcurrency });
      paidByAsset.set(step.asset, (paidByAsset.get(step.asset) ?? 0n) + step.amount);
    } else if (step.amount > 0n) {
      couponsAccrued += 1;
    }
  }
  // Orders whose last day this run paid (bought late on their first day, say) end now, not tomorrow.
  const maturity = await matureOrders(services, clock.now());
  const usdt = paidByAsset.get('USDT') ?? 0n;
  return {
    products: due.length, orders, receipts, paid: formatAmount(usdt, scales.get('USDT') ?? 6),
    paidByAsset: [...paidByAsset].map(([asset, amount]) => `${asset} ${formatAmount(amount, scaleOf(scales, asset))}`).join('; ') || 'none',
    bondProductsAccrued: couponsAccrued, resumedPayouts: resumed, ended: maturity.ended,
  };
}

// ─── Maturity ──────────────────────────────────────────────────────────────────────────────────────
//
// Maturity and bond refunds move money between two accounts of the same user (product_holdings →
// spot; a bond's coupons from its reserve → spot), one event per order (reference
// product-order:<id>, transfer ids mp-/bc-/br-<order> that the receipts and the user's ledger
// show). They go through the payout module's lower layer (postGroups: an order's transfers are one
// group, a refused order is set aside), a chunk of orders per transaction, with the order's status,
// the product's figures and the order's message in the same transaction: the order row is the
// durable record of what was paid, as a loan's row is for loan accrual (loans/jobs.ts). A payout
// job's stored target list would be a second record beside it, and a job's transfer ids
// (`${job}:${account}`, one reference per job) would change what each order's event shows. So
// a crash anywhere leaves whole chunks done and the rest untouched, and a rerun finds the done
// orders ended or cancelled and pays nobody twice. No transaction holds more than a chunk of orders.

interface MaturityResult { raised: number; failed: number; refunded: number; ended: number }

/** Orders per transaction at maturity and at a bond's refund: two transfers each at most, within one ledger batch. */
export const maturityChunkSize = 400;

export interface MaturityOptions {
  /** Orders per transaction (1 to maturityChunkSize); default maturityChunkSize. */
  chunkSize?: number;
}

/** Statuses of an order that still holds its principal: what a failed bond refunds. */
const refundableStatuses = ['not_started', 'running', 'frozen'];

type OrderRow = typeof productOrders.$inferSelect;

/** Each order's [product_holdings, spot] account in `asset`, opened when missing, in chunks of the kernel's limit. */
async function holdingsAndSpot(tx: Tx, asset: string, orders: readonly OrderRow[]): Promise<Array<[bigint, bigint]>> {
  const pairs: Array<[bigint, bigint]> = [];
  for (let start = 0; start < orders.length; start += accountKeysMax / 2) {
    const chunk = orders.slice(start, start + accountKeysMax / 2);
    const ids = await openAccounts(tx, chunk.flatMap((order) => [
      { ledger: 'real' as const, asset, kind: 'product_holdings' as const, ownerUserId: order.userId },
      { ledger: 'real' as const, asset, kind: 'spot' as const, ownerUserId: order.userId },
    ]));
    chunk.forEach((_, index) => pairs.push([ids[index * 2], ids[index * 2 + 1]]));
  }
  return pairs;
}

/**
 * Posts each order's group of transfers through postGroups and answers the orders it paid: those
 * with nothing to post (a mining order ends without a transfer) and those whose group was posted.
 * An order the ledger refused is left as it was (not ended, not refunded) and counted; a later run
 * tries it again.
 */
async function payOrders(tx: Tx, groups: TransferGroup<OrderRow>[], now: Date): Promise<{ paid: OrderRow[]; refused: number }> {
  const moving = groups.filter((group) => group.transfers.length > 0);
  const outcome = moving.length > 0 ? await postGroups(tx, moving, { now: () => now }) : { posted: [], refused: [] };
  const refused = new Set(outcome.refused.map((refusal) => refusal.target.id));
  return { paid: groups.map((group) => group.target).filter((order) => !refused.has(order.id)), refused: refused.size };
}

/**
 * A bond past its deadline is decided in one transaction: raised when its target is met (its
 * orders start), else failed; its subscribers are then refunded by refundBond, a chunk at a time.
 * Answers the decision ('decided' when another run decided it first, or it is not due).
 */
async function decideBond(db: Db, productId: bigint, now: Date): Promise<'raised' | 'failed' | 'decided'> {
  return db.transaction(async (tx) => {
    const product = await lockProduct(tx, productId);
    assert(product, 'bond exists');
    if (product.status !== 'open' && product.status !== 'closed') return 'decided';
    if (product.target !== null && product.sold >= product.target) {
      await tx.update(products).set({ status: 'raised', updatedAt: now }).where(eq(products.id, productId));
      // Rows only, no money: the orders start (a statement, not a transaction per order).
      await tx.update(productOrders).set({ status: 'running' })
        .where(and(eq(productOrders.productId, productId), eq(productOrders.status, 'not_started')));
      return 'raised';
    }
    await tx.update(products).set({ status: 'failed', updatedAt: now }).where(eq(products.id, productId));
    return 'failed';
  });
}

/**
 * One chunk of a failed bond's refund, in one transaction: the next `chunkSize` orders after
 * `afterOrderId` that still hold their principal, each refunded in full (br-<order>, holdings →
 * spot), cancelled, taken off the bond's figures and told so (product_refunded).
 */
async function refundChunk(db: Db, productId: bigint, afterOrderId: bigint, chunkSize: number, now: Date, scales: Map<string, number>) {
  return db.transaction(async (tx) => {
    const product = await lockProduct(tx, productId);
    assert(product && product.status === 'failed', `bond ${productId} failed`);
    const orders = await tx.select().from(productOrders)
      .where(and(eq(productOrders.productId, productId), inArray(productOrders.status, refundableStatuses), gt(productOrders.id, afterOrderId)))
      .orderBy(asc(productOrders.id)).limit(chunkSize).for('update');
    if (orders.length === 0) return { refunded: 0, refused: 0, messages: [] as WrittenMessage[], last: undefined };
    const accounts = await holdingsAndSpot(tx, product.asset, orders);
    const { paid, refused } = await payOrders(tx, orders.map((order, index) => ({
      target: order,
      transfers: [{
        id: `br-${order.id}`, kind: 'bond_refund' as const, reference: `product-order:${order.id}`, amountAtomic: order.amount,
        debitAccountId: accounts[index][0], creditAccountId: accounts[index][1], remark: 'raise target not met: refunded in full',
      }],
    })), now);
    let messages: WrittenMessage[] = [];
    if (paid.length > 0) {
      await tx.update(productOrders).set({ status: 'cancelled', owed: 0n, endedAt: now, frozenReason: null })
        .where(inArray(productOrders.id, paid.map((order) => order.id)));
      const principal = paid.reduce((sum, order) => sum + order.amount, 0n);
      const owed = paid.reduce((sum, order) => sum + order.owed, 0n);
      await addToFigures(tx, productId, { principal: -principal, owed: -owed }, now);
      const scale = scaleOf(scales, product.asset);
      messages = await writeMessages(tx, paid.map((order) => productMessage({ ...order, status: 'cancelled' }, product.name, 'product_refunded', {
        amount: formatAmount(order.amount, scale), asset: product.asset,
      })), now);
    }
    return { refunded: paid.length, refused, messages, last: orders[orders.length - 1].id };
  });
}

/** Refunds every subscriber of a failed bond, a chunk per transaction, each chunk's messages told after its commit. */
async function refundBond(services: Services, productId: bigint, chunkSize: number, now: Date, scales: Map<string, number>) {
  const total = { refunded: 0, refused: 0 };
  let after = 0n;
  for (;;) {
    const chunk = await refundChunk(services.db, productId, after, chunkSize, now, scales);
    deliverMessages(services, chunk.messages);
    total.refunded += chunk.refunded;
    total.refused += chunk.refused;
    if (chunk.last === undefined) return total;
    after = chunk.last;
  }
}

/**
 * Ends a chunk of matured orders of one product: principal (and a bond's coupons) back to spot,
 * and each order's owner told so (product_matured), the chunk's messages in one statement.
 */
async function endOrders(db: Db, productId: bigint, orderIds: bigint[], now: Date, scales: Map<string, number>) {
  return db.transaction(async (tx) => {
    const product = await lockProduct(tx, productId);
    assert(product, 'product exists');
    const orders = (await tx.select().from(productOrders).where(inArray(productOrders.id, orderIds)).orderBy(asc(productOrders.id)).for('update'))
      .filter((order) => order.status === 'running');
    if (orders.length === 0) return { ended: 0, refused: 0, messages: [] as WrittenMessage[] };
    // Mining holds no principal: its price was a rental.
    const accounts = product.type === 'mining' ? [] : await holdingsAndSpot(tx, product.asset, orders);
    const coupons = product.type === 'bond' ? await couponAccounts(tx, product, orders) : undefined;
    const groups = orders.map((order, index): TransferGroup<OrderRow> => {
      const reference = `product-order:${order.id}`;
      const transfers: NewTransferRequest[] = [];
      if (product.type !== 'mining') {
        transfers.push({
          id: `mp-${order.id}`, kind: 'product_principal', reference, amountAtomic: order.amount,
          debitAccountId: accounts[index][0], creditAccountId: accounts[index][1], remark: 'principal at maturity',
        });
      }
      if (coupons && order.accrued > 0n) {
        transfers.push({
          id: `bc-${order.id}`, kind: 'product_interest', reference, amountAtomic: order.accrued,
          debitAccountId: coupons.reserve, creditAccountId: coupons.spotOf.get(order.userId)!, remark: 'bond coupons at maturity',
        });
      }
      return { target: order, transfers };
    });
    const { paid, refused } = await payOrders(tx, groups, now);
    if (paid.length === 0) return { ended: 0, refused, messages: [] as WrittenMessage[] };
    const principal = product.type === 'mining' ? 0n : paid.reduce((sum, order) => sum + order.amount, 0n);
    const couponsPaid = coupons ? paid.reduce((sum, order) => sum + (order.accrued > 0n ? order.accrued : 0n), 0n) : 0n;
    const owed = paid.reduce((sum, order) => sum + order.owed, 0n);
    await tx.update(productOrders).set({ status: 'ended', owed: 0n, endedAt: now }).where(inArray(productOrders.id, paid.map((order) => order.id)));
    await addToFigures(tx, productId, { principal: -principal, owed: -owed, reserve: -couponsPaid, paid: couponsPaid }, now);
    const messages = await writeMessages(tx, paid.map((order) => maturedMessage(product, order, scales)), now);
    return { ended: paid.length, refused, messages };
  });
}

/** A bond's reserve account (its product's shard) and the spot accounts, in the payout asset, its coupons go to. */
async function couponAccounts(tx: Tx, product: ProductRow, orders: readonly OrderRow[]) {
  const [reserve] = await openAccounts(tx, [{ ledger: 'real', asset: product.payoutAsset, kind: 'product_reserve', shard: systemShard(`product:${product.id}`) }]);
  const owners = orders.filter((order) => order.accrued > 0n).map((order) => order.userId);
  const spotOf = await userAccountsOf(tx, { ledger: 'real', asset: product.payoutAsset, kind: 'spot' }, owners);
  return { reserve, spotOf };
}

/**
 * An ended order's message: the principal back (none for mining, whose price was a rental) and
 * all the order earned over its term (`accrued`, in the payout asset; a bond's coupons included).
 */
function maturedMessage(product: ProductRow, order: OrderRow, scales: Map<string, number>): NewMessage {
  return productMessage({ ...order, status: 'ended' }, product.name, 'product_matured', {
    ...(product.type === 'mining' ? {} : { amount: formatAmount(order.amount, scaleOf(scales, product.asset)) }),
    asset: product.asset,
    income: formatAmount(order.accrued, scaleOf(scales, product.payoutAsset)), incomeAsset: product.payoutAsset,
  });
}

/** Failed bonds whose refund a crash or a refusal left unfinished: some order still holds its principal. */
async function bondsLeftToRefund(db: Db): Promise<bigint[]> {
  const rows = await db.selectDistinct({ id: products.id }).from(products)
    .innerJoin(productOrders, eq(productOrders.productId, products.id))
    .where(and(eq(products.type, 'bond'), eq(products.status, 'failed'), inArray(productOrders.status, refundableStatuses)))
    .orderBy(asc(products.id));
  return rows.map((row) => row.id);
}

/**
 * Bonds past their deadline are raised or refunded; running orders whose term has ended and whose
 * every day was accrued end (a frozen one waits to be unfrozen). Safe to run any number of times,
 * and after a crash anywhere: a failed bond's refund left half-way is finished first, the messages
 * (product_refunded, product_matured) are written with the change they tell of, once per order,
 * and pushed after each transaction commits. An order the ledger refused is left for a later run
 * and counted as refusedOrders (the key is there only when there were some).
 */
export async function matureOrders(services: Services, now: Date, options: MaturityOptions = {}): Promise<MaturityResult & { refusedOrders?: number }> {
  const { db } = services;
  const chunkSize = options.chunkSize ?? maturityChunkSize;
  assert(Number.isInteger(chunkSize) && chunkSize >= 1 && chunkSize <= maturityChunkSize, `a maturity chunk of 1 to ${maturityChunkSize} orders`);
  const result: MaturityResult = { raised: 0, failed: 0, refunded: 0, ended: 0 };
  let refusedOrders = 0;
  const scales = await assetScales(db);
  const bonds = await db.select({ id: products.id }).from(products)
    .where(and(eq(products.type, 'bond'), inArray(products.status, ['open', 'closed']), lte(products.closesAt, now)));
  for (const bond of bonds) {
    const decision = await decideBond(db, bond.id, now);
    if (decision === 'raised') result.raised += 1;
    else if (decision === 'failed') result.failed += 1;
  }
  for (const bondId of await bondsLeftToRefund(db)) {
    const refund = await refundBond(services, bondId, chunkSize, now, scales);
    result.refunded += refund.refunded;
    refusedOrders += refund.refused;
  }
  let after = { productId: -1n, orderId: -1n };
  for (;;) {
    const due = rowsOf<{ id: string; product_id: string }>(await db.execute(sql`select o.id::text, o.product_id::text from product_orders o
      where o.status = 'running' and o.ends_at <= ${now.toISOString()}::timestamptz
        and o.last_accrued_day is not null
        and o.last_accrued_day >= to_char((o.starts_at at time zone 'UTC')::date + o.days - 1, 'YYYY-MM-DD')
        and (o.product_id, o.id) > (${after.productId}::bigint, ${after.orderId}::bigint)
      order by o.product_id, o.id limit ${chunkSize}`));
    if (due.length === 0) break;
    const last = due[due.length - 1];
    // Past the chunk, refused or not: an order the ledger refused is not tried again by this run.
    after = { productId: BigInt(last.product_id), orderId: BigInt(last.id) };
    const byProduct = new Map<string, bigint[]>();
    for (const row of due) byProduct.set(row.product_id, [...(byProduct.get(row.product_id) ?? []), BigInt(row.id)]);
    for (const [productId, ids] of byProduct) {
      const chunk = await endOrders(db, BigInt(productId), ids, now, scales);
      deliverMessages(services, chunk.messages);
      result.ended += chunk.ended;
      refusedOrders += chunk.refused;
    }
    if (due.length < chunkSize) break;
  }
  return refusedOrders > 0 ? { ...result, refusedOrders } : result;
}

export async function runProductMaturity(services: Services, _day: string): Promise<JobResult> {
  const result = await matureOrders(services, services.clock.now());
  return { ...result };
}
