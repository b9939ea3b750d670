// Money to many accounts after a crash (issue 33): a VIP bonus run, a product maturity and a bond
// refund are each stopped at EVERY point where a process can die between two database calls (the
// database handle starts failing at call k and never answers again, k = 1, 2, ... until a run
// completes), then run again on the real handle. At each crash point the rows already agree with
// the money (an order is cancelled or ended exactly when its transfers exist, with one message;
// no bonus is paid without its grant); after the rerun every user is paid exactly once (balances
// per user), a further run pays nothing, the product figures agree and every asset sums to zero.
// A bond refund of more orders than one chunk is shown to commit chunk by chunk.
import { beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { kycApplications, productOrders, products, userLevelHolds, userLevels, vipRewards } from '../../../server/db/schema.ts';
import type { Db } from '../../../server/db/client.ts';
import type { Services } from '../../../server/domain/kernel/services.ts';
import { openAccounts, systemShard } from '../../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';
import { runPayoutJob, unfinishedPayoutJobs } from '../../../server/domain/kernel/ledger/payouts.ts';
import type { NewTransferRequest } from '../../../server/domain/kernel/ledger/rules.ts';
import { grantVipBonuses } from '../../../server/domain/programs/rewards/vip.ts';
import { matureOrders } from '../../../server/domain/programs/products/jobs.ts';
import { forEachDatabase, type TestServer } from '../helpers.ts';
import { balance, expectFiguresAgree, expectLedgerSound } from '../products/productHelpers.ts';

const dayMs = 86_400_000;
const usdt = (whole: number) => BigInt(whole) * 1_000_000n;

/** A run per crash point: on a machine shared by several test runs these take minutes, so the net is wide (nothing is timed). */
const crashSuiteTimeoutMs = 600_000;

/** What a database call through a dead handle throws: the process died there. */
class Crash extends Error {}

/** The calls that reach the database from outside a transaction (inside one, the transaction's own handle is used). */
const databaseCalls = new Set(['select', 'selectDistinct', 'insert', 'update', 'delete', 'execute', 'transaction']);

/**
 * `db` as a process sees it that dies just before its `crashAt`-th database call: that call and
 * every later one throw Crash, so nothing after the crash point happens (an open transaction is
 * never committed). `onlyTransactions` counts transactions only (a crash between two of them).
 */
function dyingAt(db: Db, crashAt: number, onlyTransactions = false): Db {
  let calls = 0;
  return new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const counted = typeof property === 'string' && (onlyTransactions ? property === 'transaction' : databaseCalls.has(property));
      if (!counted) return value.bind(target);
      return (...args: unknown[]) => {
        calls += 1;
        if (calls >= crashAt) throw new Crash(`the process died before database call ${calls}`);
        return value.apply(target, args);
      };
    },
  });
}

/** `db` as a process sees it that dies right after its `commits`-th transaction commits: every later call throws Crash. */
function dyingAfterCommit(db: Db, commits: number): Db {
  let committed = 0;
  return new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (typeof property !== 'string' || !databaseCalls.has(property)) return value.bind(target);
      return (...args: unknown[]) => {
        if (committed >= commits) throw new Crash(`the process died after commit ${committed}`);
        const answer = value.apply(target, args);
        if (property === 'transaction') return (answer as Promise<unknown>).then((result) => { committed += 1; return result; });
        return answer;
      };
    },
  });
}

const servicesOn = (server: TestServer, db: Db): Services => ({ ...server.services, db });

/** `count` fresh users (set-wise), their ids in order. */
async function newUsers(server: TestServer, count: number): Promise<bigint[]> {
  const tag = server.unique('crash-');
  const rows = await server.query<{ id: string }>(sql`insert into users (email, password_hash, invite_code)
    select ${tag} || n || '@example.com', 'x', upper(substr(md5(${tag} || n), 1, 10)) from generate_series(1, ${count}) n
    returning id::text`);
  return rows.map((row) => BigInt(row.id)).sort((a, b) => (a < b ? -1 : 1));
}

/** The sum of every account per ledger and asset is zero. */
async function expectConserved(server: TestServer) {
  expect(await server.query(sql`select ledger, asset from ledger_accounts group by ledger, asset
    having sum(credits_posted - debits_posted) <> 0 or sum(credits_pending - debits_pending) <> 0`)).toEqual([]);
}

/** Runs `run` on a handle that dies at each call in turn, checking after each crash and after each rerun; answers the crash points. */
async function everyCrashPoint(server: TestServer, scenario: {
  setUp: () => Promise<void>;
  run: (db: Db) => Promise<unknown>;
  /** After the crash, before the rerun: the rows agree with the money. Answers how many users were paid by then. */
  atCrash: () => Promise<number>;
  /** After the rerun: everyone paid exactly once. */
  afterRerun: () => Promise<void>;
  users: number;
}): Promise<{ points: number; partial: number }> {
  let partial = 0;
  for (let crashAt = 1; ; crashAt += 1) {
    await scenario.setUp();
    let crashed = false;
    try {
      await scenario.run(dyingAt(server.db, crashAt));
    } catch (error) {
      if (!(error instanceof Crash)) throw error;
      crashed = true;
    }
    const paid = await scenario.atCrash();
    if (paid > 0 && paid < scenario.users) partial += 1;
    await scenario.run(server.db);
    await scenario.afterRerun();
    await expectConserved(server);
    if (!crashed) return { points: crashAt - 1, partial };
    expect(crashAt, 'a run that never completes').toBeLessThan(400);
  }
}

forEachDatabase((server) => {
  describe('VIP bonuses (payout jobs) stopped anywhere', () => {
    const now = () => server.clock.now();
    // Levels 1 and 2 pay 3 and 7 USDT; the rewards pool holds far more than the tests pay.
    beforeAll(async () => {
      await server.db.insert(vipRewards).values([1, 2].map((level) => ({ level, asset: 'USDT', bonus: usdt(level === 1 ? 3 : 7), weeklyEnvelope: 0n, updatedAt: now() })))
        .onConflictDoUpdate({ target: vipRewards.level, set: { bonus: sql`excluded.bonus`, asset: 'USDT' } });
      await server.db.update(vipRewards).set({ bonus: 0n }).where(sql`${vipRewards.level} > 2`);
      const [house, pool] = await openAccounts(server.db, [
        { ledger: 'real', asset: 'USDT', kind: 'house', shard: 0 }, { ledger: 'real', asset: 'USDT', kind: 'rewards', shard: 3 },
      ]);
      const funded = await postTransfers(server.db, [{
        id: server.unique('pool-'), kind: 'reward_funding', reference: 'crash-test-pool', amountAtomic: usdt(1_000_000),
        debitAccountId: house, creditAccountId: pool,
      }], server.clock);
      expect(funded.ok).toBe(true);
    });

    /** `count` verified users at level 2, both levels held for 30 days: 10 USDT of bonuses due to each. */
    async function dueUsers(count: number): Promise<bigint[]> {
      const userIds = await newUsers(server, count);
      const since = new Date(now().getTime() - 30 * dayMs);
      await server.db.insert(kycApplications).values(userIds.map((userId) => ({
        userId, level: 1, status: 'approved', details: { note: 'verified by the crash test' }, decidedAt: now(), createdAt: now(),
      })));
      await server.db.insert(userLevels).values(userIds.map((userId) => ({ userId, level: 2, highestLevel: 2, assets: usdt(10_000), checkedAt: now() })));
      await server.db.insert(userLevelHolds).values(userIds.flatMap((userId) => [1, 2].map((level) => ({ userId, level, since }))));
      return userIds;
    }

    test('every crash point, then a rerun: each user gets each level\'s bonus exactly once and no bonus is paid without its grant', async () => {
      let userIds: bigint[] = [];
      const setUp = async () => { userIds = await dueUsers(2); };
      // Two bonuses a batch: two batches, four payout jobs (one per level of a batch).
      const run = (db: Db) => grantVipBonuses(db, now(), userIds, { batchSize: 2 });
      const list = () => `{${userIds.join(',')}}`;
      const atCrash = async () => {
        // Money only with its grant: every bonus transfer to these users is named by a grant row, with its amount.
        const orphans = await server.query(sql`select t.id from ledger_transfers t join ledger_accounts a on a.id = t.credit_account_id
          where t.kind = 'vip_bonus' and a.owner_user_id = any(${list()}::bigint[])
            and not exists (select 1 from vip_bonus_grants g where g.transfer_id = t.id and g.amount = t.amount and g.user_id = a.owner_user_id)`);
        expect(orphans).toEqual([]);
        let paid = 0;
        for (const userId of userIds) if (await balance(server, userId) > 0n) paid += 1;
        return paid;
      };
      const afterRerun = async () => {
        for (const userId of userIds) expect(await balance(server, userId), `user ${userId}`).toBe(usdt(10));
        const grants = await server.query<{ user_id: string; n: number; paid: number }>(sql`select g.user_id::text, count(*)::int as n,
            count(t.id)::int as paid
          from vip_bonus_grants g left join ledger_transfers t on t.id = g.transfer_id and t.amount = g.amount
          where g.user_id = any(${list()}::bigint[]) group by g.user_id order by g.user_id`);
        expect(grants).toEqual(userIds.map((userId) => ({ user_id: userId.toString(), n: 2, paid: 2 })));
        expect(await grantVipBonuses(server.db, now(), userIds, { batchSize: 2 })).toEqual({ granted: 0, uncovered: 0, samePerson: 0 });
        for (const userId of userIds) expect(await balance(server, userId)).toBe(usdt(10));
      };
      const { points, partial } = await everyCrashPoint(server, { setUp, run, atCrash, afterRerun, users: 2 });
      // Two batches of grants and four jobs give dozens of places to die; some of them after a batch paid and before the rest.
      expect(points).toBeGreaterThan(20);
      expect(partial).toBeGreaterThan(0);
      const [{ left }] = await server.query<{ left: number }>(sql`select count(*)::int as left from payout_jobs where id like 'vb-%' and state <> 'done'`);
      expect(left).toBe(0);
      await expectLedgerSound(server);
    }, crashSuiteTimeoutMs);

    test('a run that meets a bonus job the start-up resume is running leaves it to that run: each bonus is still paid once', async () => {
      const userIds = await dueUsers(2);
      // The process dies after the first batch's grants and jobs committed, before any job ran.
      await expect(grantVipBonuses(dyingAfterCommit(server.db, 1), now(), userIds, { batchSize: 2 })).rejects.toThrow(Crash);
      const left = (await unfinishedPayoutJobs(server.db, ['running'])).filter((id) => id.startsWith('vb-'));
      expect(left).toHaveLength(2);
      expect(await balance(server, userIds[0])).toBe(0n);
      // The next start resumes them in the background while a deposit's recheck pays bonuses.
      const resuming = left.map((id) => runPayoutJob(server.db, id, { clock: server.clock }));
      expect(await grantVipBonuses(server.db, now(), userIds, { batchSize: 2 })).toEqual({ granted: 2, uncovered: 0, samePerson: 0 });
      expect((await Promise.all(resuming)).map((job) => job.state)).toEqual(['done', 'done']);
      for (const userId of userIds) expect(await balance(server, userId), `user ${userId}`).toBe(usdt(10));
      await expectConserved(server);
    });
  });

  describe('product maturity and bond refunds (postGroups, the order row in the same transaction) stopped anywhere', () => {
    const principal = usdt(100);
    const coupons = usdt(2);

    /** Deposits `principal` to each user's spot and moves it to their product holdings, as a purchase does. */
    async function holdPrincipal(userIds: readonly bigint[]) {
      const tag = server.unique('hold-');
      const [clearing] = await openAccounts(server.db, [{ ledger: 'real', asset: 'USDT', kind: 'deposit_clearing', shard: systemShard(tag) }]);
      const accounts = await openAccounts(server.db, userIds.flatMap((userId) => [
        { ledger: 'real' as const, asset: 'USDT', kind: 'spot' as const, ownerUserId: userId },
        { ledger: 'real' as const, asset: 'USDT', kind: 'product_holdings' as const, ownerUserId: userId },
      ]));
      const transfers: NewTransferRequest[] = userIds.flatMap((userId, index) => [
        { id: `${tag}-d-${userId}`, kind: 'deposit' as const, reference: `${tag}:${userId}`, amountAtomic: principal, debitAccountId: clearing, creditAccountId: accounts[index * 2] },
        { id: `${tag}-p-${userId}`, kind: 'product_purchase' as const, reference: `${tag}:${userId}`, amountAtomic: principal, debitAccountId: accounts[index * 2], creditAccountId: accounts[index * 2 + 1] },
      ]);
      const posted = await postTransfers(server.db, transfers, server.clock);
      expect(posted.ok).toBe(true);
    }

    /** A product with one order of `principal` per user, its figures as purchases would have left them. */
    async function productWithOrders(kind: 'failing-bond' | 'arbitrage' | 'raised-bond', userIds: readonly bigint[]) {
      const now = server.clock.now();
      const bond = kind !== 'arbitrage';
      const count = BigInt(userIds.length);
      const owedEach = kind === 'failing-bond' ? usdt(5) : 0n;
      const [product] = await server.db.insert(products).values({
        type: bond ? 'bond' : 'arbitrage', name: `${kind} ${server.unique('p-')}`, asset: 'USDT', payoutAsset: 'USDT',
        status: kind === 'failing-bond' ? 'open' : kind === 'raised-bond' ? 'raised' : 'open', days: 3, dailyRatePpm: 1000,
        firstDayRule: 'full', minAmount: 1n, maxAmount: principal, target: bond ? principal * 1000n : null,
        closesAt: bond ? new Date(now.getTime() - 10 * dayMs) : null, sold: principal * count, principal: principal * count,
        owed: owedEach * count, createdAt: now, updatedAt: now,
      }).returning();
      if (kind === 'raised-bond') {
        // The coupons accrued as receipts are paid from the bond's reserve at maturity.
        const reserve = coupons * count + usdt(1);
        const [house, reserveAccount] = await openAccounts(server.db, [
          { ledger: 'real', asset: 'USDT', kind: 'house', shard: systemShard(`product:${product.id}`) },
          { ledger: 'real', asset: 'USDT', kind: 'product_reserve', shard: systemShard(`product:${product.id}`) },
        ]);
        expect((await postTransfers(server.db, [{
          id: `rf-crash-${product.id}`, kind: 'reserve_funding', reference: `product:${product.id}`, amountAtomic: reserve,
          debitAccountId: house, creditAccountId: reserveAccount,
        }], server.clock)).ok).toBe(true);
        await server.db.update(products).set({ reserve }).where(sql`${products.id} = ${product.id}`);
      }
      const startsAt = new Date(Math.floor(now.getTime() / dayMs) * dayMs - 3 * dayMs);
      const waiting = kind === 'failing-bond';
      await server.db.insert(productOrders).values(userIds.map((userId) => ({
        userId, productId: product.id, clientOrderId: server.unique('o-'), amount: principal, status: waiting ? 'not_started' : 'running',
        dailyRatePpm: 1000, days: 3, startsAt: waiting ? new Date(now.getTime() + dayMs) : startsAt,
        endsAt: waiting ? new Date(now.getTime() + 4 * dayMs) : new Date(startsAt.getTime() + 3 * dayMs),
        accrued: kind === 'raised-bond' ? coupons : kind === 'arbitrage' ? usdt(1) : 0n, owed: owedEach,
        lastAccruedDay: waiting ? null : new Date(startsAt.getTime() + 2 * dayMs).toISOString().slice(0, 10), createdAt: now,
      })));
      return product.id;
    }

    interface Book { failing: bigint[]; arbitrage: bigint[]; raised: bigint[]; productIds: bigint[] }
    const book: Book = { failing: [], arbitrage: [], raised: [], productIds: [] };

    async function setUp(sizes = { failing: 5, arbitrage: 3, raised: 3 }) {
      const users = await newUsers(server, sizes.failing + sizes.arbitrage + sizes.raised);
      await holdPrincipal(users);
      book.failing = users.slice(0, sizes.failing);
      book.arbitrage = users.slice(sizes.failing, sizes.failing + sizes.arbitrage);
      book.raised = users.slice(sizes.failing + sizes.arbitrage);
      book.productIds = [];
      for (const [kind, userIds] of [['failing-bond', book.failing], ['arbitrage', book.arbitrage], ['raised-bond', book.raised]] as const) {
        if (userIds.length > 0) book.productIds.push(await productWithOrders(kind, userIds));
      }
    }

    /**
     * Rows and money agree for the book's orders: cancelled exactly when br-<order> exists, ended
     * exactly when mp-<order> exists (and bc-<order> for the coupons), one message each; answers
     * how many users have had their money back.
     */
    async function ordersAgreeWithMoney(): Promise<number> {
      const rows = await server.query<{ id: string; status: string; refund: number; principal: number; coupons: number; messages: number }>(sql`
        select o.id::text, o.status,
          (select count(*)::int from ledger_transfers t where t.id = 'br-' || o.id) as refund,
          (select count(*)::int from ledger_transfers t where t.id = 'mp-' || o.id) as principal,
          (select count(*)::int from ledger_transfers t where t.id = 'bc-' || o.id) as coupons,
          (select count(*)::int from user_messages m where m.user_id = o.user_id and m.params->>'id' = o.id::text) as messages
        from product_orders o where o.product_id = any(${`{${book.productIds.join(',')}}`}::bigint[]) order by o.id`);
      let paid = 0;
      for (const row of rows) {
        const done = row.status === 'cancelled' || row.status === 'ended';
        expect(row.refund, `order ${row.id} ${row.status}`).toBe(row.status === 'cancelled' ? 1 : 0);
        expect(row.principal, `order ${row.id} ${row.status}`).toBe(row.status === 'ended' ? 1 : 0);
        expect(row.coupons, `order ${row.id} ${row.status}`).toBeLessThanOrEqual(row.principal);
        expect(row.messages, `order ${row.id} ${row.status}`).toBe(done ? 1 : 0);
        if (done) paid += 1;
      }
      await expectFiguresAgree(server);
      return paid;
    }

    async function everyonePaidOnce() {
      expect(await ordersAgreeWithMoney()).toBe(book.failing.length + book.arbitrage.length + book.raised.length);
      for (const userId of [...book.failing, ...book.arbitrage]) {
        expect(await balance(server, userId), `user ${userId}`).toBe(principal);
        expect(await balance(server, userId, 'product_holdings')).toBe(0n);
      }
      for (const userId of book.raised) expect(await balance(server, userId), `user ${userId}`).toBe(principal + coupons);
      const [failing] = await server.db.select({ status: products.status }).from(products).where(sql`${products.id} = ${book.productIds[0]}`);
      expect(failing.status).toBe('failed');
    }

    test('every crash point, then a rerun: each order is refunded or ended exactly once, its row and message with its money', async () => {
      const run = (db: Db) => matureOrders(servicesOn(server, db), server.clock.now(), { chunkSize: 2 });
      const { points, partial } = await everyCrashPoint(server, {
        setUp: () => setUp(), run, atCrash: ordersAgreeWithMoney, users: 11,
        afterRerun: async () => {
          await everyonePaidOnce();
          expect(await matureOrders(server.services, server.clock.now(), { chunkSize: 2 })).toEqual({ raised: 0, failed: 0, refunded: 0, ended: 0 });
          await everyonePaidOnce();
        },
      });
      expect(points).toBeGreaterThan(10);
      expect(partial).toBeGreaterThan(0);
      await expectLedgerSound(server);
    }, crashSuiteTimeoutMs);

    test('a bond refund of more orders than one chunk is not one transaction: dying after the first chunk leaves it refunded and the rest untouched', async () => {
      await setUp({ failing: 5, arbitrage: 0, raised: 0 });
      // Transaction 1 decides the bond (failed), 2 refunds the first two orders; the process dies before 3.
      await expect(matureOrders(servicesOn(server, dyingAt(server.db, 3, true)), server.clock.now(), { chunkSize: 2 })).rejects.toThrow(Crash);
      const statuses = await server.query<{ status: string }>(sql`select status from product_orders where product_id = ${book.productIds[0]} order by id`);
      expect(statuses.map((row) => row.status)).toEqual(['cancelled', 'cancelled', 'not_started', 'not_started', 'not_started']);
      expect(await ordersAgreeWithMoney()).toBe(2);
      expect(await Promise.all(book.failing.map((userId) => balance(server, userId)))).toEqual([principal, principal, 0n, 0n, 0n]);
      const [bond] = await server.db.select().from(products).where(sql`${products.id} = ${book.productIds[0]}`);
      expect(bond).toMatchObject({ status: 'failed', principal: principal * 3n, owed: usdt(5) * 3n });

      // The next run finishes the refund: the failed bond's orders still holding principal, in two more chunks.
      expect(await matureOrders(server.services, server.clock.now(), { chunkSize: 2 })).toMatchObject({ failed: 0, refunded: 3 });
      expect(await ordersAgreeWithMoney()).toBe(5);
      for (const userId of book.failing) expect(await balance(server, userId)).toBe(principal);
      await expectConserved(server);
    });
  });
});
