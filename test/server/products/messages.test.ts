// Investment products' internal messages (issue 22): maturity writes one product_matured per
// ended order (principal, asset, the income it earned) and a second run writes none; a bond whose
// raise missed its target writes product_refunded to each subscriber; freezing and unfreezing
// write product_frozen (with the operator's reason) and product_unfrozen, a second freeze its own
// message; each is told to the user's open app after its transaction commits. A few hundred orders
// maturing at once get their messages in one statement per chunk.
import { describe, expect, test, vi } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { productAdminPaths } from '../../../src/api/contract/products.ts';
import { products, userMessages } from '../../../server/db/schema.ts';
import { openAccounts, systemShard } from '../../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';
import type { NewTransferRequest } from '../../../server/domain/kernel/ledger/rules.ts';
import { matureOrders, runProductAccrual, runProductMaturity } from '../../../server/domain/programs/products/jobs.ts';
import { messageText } from '../../../server/domain/programs/push/texts.ts';
import { expectOk, forEachDatabase, type TestServer } from '../helpers.ts';
import {
  admin, buyer, createProduct, day, debitBuy, expectFiguresAgree, expectLedgerSound, fundReserve,
} from './productHelpers.ts';

const dayMs = 86_400_000;

/** Moves the clock to 00:30 UTC of the next day. */
function nextDay(server: TestServer) {
  const now = server.clock.now().getTime();
  server.clock.advance(Math.floor(now / dayMs) * dayMs + dayMs + 30 * 60_000 - now);
}

async function messagesOf(server: TestServer, userId: bigint, kind?: string) {
  return server.db.select().from(userMessages)
    .where(kind ? and(eq(userMessages.userId, userId), eq(userMessages.kind, kind)) : eq(userMessages.userId, userId))
    .orderBy(asc(userMessages.id));
}

/** The users told (a 'message' event on their channel) while `run` ran. */
async function toldDuring(server: TestServer, run: () => Promise<unknown>): Promise<bigint[]> {
  const publish = vi.spyOn(server.services.userEvents, 'publish');
  try {
    await run();
    return publish.mock.calls.filter(([, event]) => event.kind === 'message').map(([userId]) => userId);
  } finally {
    publish.mockRestore();
  }
}

/**
 * `count` users, each with a running order of 10 USDT in a new three-day arbitrage product whose
 * every day was paid (0.01 USDT earned): due to mature now. Written set-wise; the principal is
 * deposited and moved to each user's product_holdings through the ledger, as a purchase does.
 */
async function dueOrders(server: TestServer, count: number) {
  const now = server.clock.now();
  const tag = server.unique('bulk-');
  const [product] = await server.db.insert(products).values({
    type: 'arbitrage', name: `Bulk ${tag}`, asset: 'USDT', payoutAsset: 'USDT', days: 3, dailyRatePpm: 333, firstDayRule: 'full',
    minAmount: 1n, maxAmount: 10_000_000n, createdAt: now, updatedAt: now,
  }).returning();
  const users = await server.query<{ id: string }>(sql`insert into users (email, password_hash, invite_code)
    select ${tag} || n || '@example.com', 'x', upper(substr(md5(${tag} || n), 1, 10)) from generate_series(1, ${count}) n returning id::text`);
  const ids = users.map((row) => BigInt(row.id));
  const [clearing] = await openAccounts(server.db, [{ ledger: 'real', asset: 'USDT', kind: 'deposit_clearing', shard: systemShard(`test:${tag}`) }]);
  const transfers: NewTransferRequest[] = [];
  for (let start = 0; start < ids.length; start += 100) {
    const chunk = ids.slice(start, start + 100);
    const accounts = await openAccounts(server.db, chunk.flatMap((userId) => [
      { ledger: 'real' as const, asset: 'USDT', kind: 'spot' as const, ownerUserId: userId },
      { ledger: 'real' as const, asset: 'USDT', kind: 'product_holdings' as const, ownerUserId: userId },
    ]));
    chunk.forEach((userId, index) => {
      transfers.push({ id: `${tag}-d-${userId}`, kind: 'deposit', reference: `${tag}:${userId}`, amountAtomic: 10_000_000n, debitAccountId: clearing, creditAccountId: accounts[index * 2] });
      transfers.push({ id: `${tag}-p-${userId}`, kind: 'product_purchase', reference: `${tag}:${userId}`, amountAtomic: 10_000_000n, debitAccountId: accounts[index * 2], creditAccountId: accounts[index * 2 + 1] });
    });
  }
  for (let start = 0; start < transfers.length; start += 1000) {
    const posted = await postTransfers(server.db, transfers.slice(start, start + 1000), server.clock);
    if (!posted.ok) throw new Error(`bulk funding refused: ${posted.refusal}`);
  }
  const startsAt = new Date(Math.floor(now.getTime() / dayMs) * dayMs - 3 * dayMs);
  const lastDay = new Date(startsAt.getTime() + 2 * dayMs).toISOString().slice(0, 10);
  await server.db.execute(sql`insert into product_orders (user_id, product_id, client_order_id, amount, quantity, status, daily_rate_ppm, days,
      starts_at, ends_at, accrued, owed, last_accrued_day, created_at)
    select u, ${product.id}, 'bulk', 10000000, 1, 'running', 333, 3, ${startsAt.toISOString()}::timestamptz,
      ${new Date(startsAt.getTime() + 3 * dayMs).toISOString()}::timestamptz, 9990, 0, ${lastDay}, ${now.toISOString()}::timestamptz
    from unnest(${`{${ids.join(',')}}`}::bigint[]) u`);
  await server.db.update(products).set({ principal: 10_000_000n * BigInt(count), sold: 10_000_000n * BigInt(count) }).where(eq(products.id, product.id));
  return { productId: product.id, userIds: ids, name: product.name };
}

describe('product messages\' push text', () => {
  test('says in English what happened, with the values it has', () => {
    expect(messageText('product_matured', { id: '1', product: 'BTC arbitrage', amount: '1000.000000', asset: 'USDT', income: '1.500000', incomeAsset: 'USDT' })).toEqual({
      title: 'Investment matured', body: 'Your BTC arbitrage order has ended. 1000.000000 USDT was returned to your balance. It earned 1.500000 USDT in all.',
    });
    expect(messageText('product_matured', { id: '2', product: 'S19 miner', asset: 'USDT', income: '0.00120000', incomeAsset: 'BTC' }).body)
      .toBe('Your S19 miner order has ended. It earned 0.00120000 BTC in all.');
    expect(messageText('product_refunded', { id: '3', product: 'Green bond', amount: '200.000000', asset: 'USDT' }).body)
      .toBe('Green bond did not reach its raise target, so 200.000000 USDT was refunded to your balance.');
    expect(messageText('product_frozen', { id: '4', product: 'AI quant', reason: 'Source of funds check' })).toEqual({
      title: 'Investment order frozen', body: 'Your AI quant order was frozen and earns nothing until it is unfrozen. Source of funds check',
    });
    expect(messageText('product_unfrozen', { id: '4', product: 'AI quant' }).title).toBe('Investment order unfrozen');
  });
});

forEachDatabase((server) => {
  describe('product messages', () => {
    test('maturity writes one product_matured per ended order, with the principal and income, told after the commit; a second run writes none', async () => {
      const boss = await admin(server);
      const product = await createProduct(server, boss, { name: 'Messages arbitrage', days: 3, dailyRate: '0.05' });
      await fundReserve(server, boss, product.id, '10');
      const [a, b] = [await buyer(server, '1000'), await buyer(server, '1000')];
      const orderA = expectOk(await debitBuy(server, a, product.id, '1000')).body.result;
      const orderB = expectOk(await debitBuy(server, b, product.id, '200')).body.result;
      for (let n = 0; n < 3; n += 1) {
        await runProductAccrual(server.services, day(server));
        expect(await messagesOf(server, a.userId, 'product_matured')).toEqual([]);
        nextDay(server);
      }
      const told = await toldDuring(server, () => runProductMaturity(server.services, day(server)));
      expect(told).toEqual(expect.arrayContaining([a.userId, b.userId]));
      const [matured] = await messagesOf(server, a.userId, 'product_matured');
      expect(matured).toMatchObject({
        category: 'money', route: '/taoliOrder?status=ended', dedupeKey: `product-order:${orderA.id}:product_matured`,
        params: { id: orderA.id, product: 'Messages arbitrage', amount: '1000.000000', asset: 'USDT', income: '1.500000', incomeAsset: 'USDT' },
      });
      expect((await messagesOf(server, b.userId, 'product_matured')).map((message) => message.params))
        .toEqual([{ id: orderB.id, product: 'Messages arbitrage', amount: '200.000000', asset: 'USDT', income: '0.300000', incomeAsset: 'USDT' }]);
      const again = await toldDuring(server, () => runProductMaturity(server.services, day(server)));
      expect(again).not.toContain(a.userId);
      expect(await messagesOf(server, a.userId)).toHaveLength(1);
      expect(await messagesOf(server, b.userId)).toHaveLength(1);
    });

    test('a bond raise that missed its target writes product_refunded to each subscriber', async () => {
      const boss = await admin(server);
      const closesAt = server.clock.now().getTime() + 3_600_000;
      const bond = await createProduct(server, boss, { type: 'bond', name: 'Messages bond', target: '1000', closesAt, days: 10, dailyRate: '0.04', minAmount: '100' });
      await fundReserve(server, boss, bond.id, '10');
      const [a, b] = [await buyer(server, '300'), await buyer(server, '300')];
      const orderA = expectOk(await debitBuy(server, a, bond.id, '200')).body.result;
      const orderB = expectOk(await debitBuy(server, b, bond.id, '300')).body.result;
      server.clock.advance(2 * 3_600_000);
      const told = await toldDuring(server, () => runProductMaturity(server.services, day(server)));
      expect(told).toEqual(expect.arrayContaining([a.userId, b.userId]));
      expect(await messagesOf(server, a.userId)).toMatchObject([{
        kind: 'product_refunded', category: 'money', route: '/taoliOrder?status=cancelled',
        params: { id: orderA.id, product: 'Messages bond', amount: '200.000000', asset: 'USDT' },
      }]);
      expect(await messagesOf(server, b.userId)).toMatchObject([{
        kind: 'product_refunded', params: { id: orderB.id, product: 'Messages bond', amount: '300.000000', asset: 'USDT' },
      }]);
      await runProductMaturity(server.services, day(server));
      expect(await messagesOf(server, a.userId)).toHaveLength(1);
    });

    test('freezing writes product_frozen with the operator\'s reason, unfreezing product_unfrozen; a second freeze is a message of its own', async () => {
      const boss = await admin(server);
      const product = await createProduct(server, boss, { name: 'Frozen arbitrage', days: 5 });
      await fundReserve(server, boss, product.id, '10');
      const user = await buyer(server, '1000');
      const order = expectOk(await debitBuy(server, user, product.id, '100')).body.result;
      const freeze = (reason: string) => server.post(productAdminPaths.freeze.replace(':id', order.id), { reason }, { token: boss.token });
      const unfreeze = () => server.post(productAdminPaths.unfreeze.replace(':id', order.id), {}, { token: boss.token });
      expect(await toldDuring(server, async () => expectOk(await freeze('  Source of funds check  ')))).toEqual([user.userId]);
      expect(await messagesOf(server, user.userId)).toMatchObject([{
        kind: 'product_frozen', category: 'money', route: '/taoliOrder?status=frozen',
        params: { id: order.id, product: 'Frozen arbitrage', reason: 'Source of funds check' },
      }]);
      expect(await toldDuring(server, async () => expectOk(await unfreeze()))).toEqual([user.userId]);
      // The same instant again (the test clock stands still): still a freeze and an unfreeze of their own.
      expectOk(await freeze('Second review'));
      expectOk(await unfreeze());
      const messages = await messagesOf(server, user.userId);
      expect(messages.map((message) => [message.kind, message.params])).toEqual([
        ['product_frozen', { id: order.id, product: 'Frozen arbitrage', reason: 'Source of funds check' }],
        ['product_unfrozen', { id: order.id, product: 'Frozen arbitrage' }],
        ['product_frozen', { id: order.id, product: 'Frozen arbitrage', reason: 'Second review' }],
        ['product_unfrozen', { id: order.id, product: 'Frozen arbitrage' }],
      ]);
      expect(messages[1].route).toBe('/taoliOrder?status=running');
      // A refused unfreeze (not frozen) writes nothing.
      expect((await unfreeze()).status).toBe(409);
      expect(await messagesOf(server, user.userId)).toHaveLength(4);
    });

    test('a few hundred orders maturing at once: one message each, and the ledger and figures agree', async () => {
      const count = 450;
      const bulk = await dueOrders(server, count);
      const started = performance.now();
      const result = await matureOrders(server.services, server.clock.now());
      const elapsed = performance.now() - started;
      expect(result.ended).toBeGreaterThanOrEqual(count);
      const [written] = await server.query<{ n: number; users: number; ok: number }>(sql`select count(*)::int as n, count(distinct m.user_id)::int as users,
          count(*) filter (where m.params->>'amount' = '10.000000' and m.params->>'income' = '0.009990' and m.params->>'product' = ${bulk.name})::int as ok
        from user_messages m join product_orders o on o.id = (m.params->>'id')::bigint
        where o.product_id = ${bulk.productId} and m.kind = 'product_matured'`);
      expect(written).toEqual({ n: count, users: count, ok: count });
      expect(elapsed).toBeLessThan(60_000);
      await expectFiguresAgree(server);
      await expectLedgerSound(server);
    });
  });
});
