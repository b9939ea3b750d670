// Internal messages of trading events (issue 21): positions closed by take-profit, stop-loss or
// liquidation (one at a time and in a burst) and second contracts settled in a batch each write
// their message in the settlement's transaction, once, and the user's app is told after commit.
// The user's own close and demo trades write none.
import { describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import type { UserEvent } from '../../../src/api/contract/market.ts';
import { tradePaths } from '../../../src/api/contract/trading.ts';
import { userMessages } from '../../../server/db/schema.ts';
import { settleFired, settleOnTick } from '../../../server/domain/core/trading/positions.ts';
import { expectOk, forEachDatabase, type TestServer } from '../helpers.ts';
import { freshTick, opened, trader } from '../trading/positionHelpers.ts';
import { bought, recordTicks, settlerOf, trader as secondTrader } from '../trading/secondHelpers.ts';

const depsOf = (server: TestServer) => ({ db: server.db, clock: server.clock, userEvents: server.services.userEvents, competitions: server.services.ports.competitions });
const messagesOf = (server: TestServer, userIds: bigint[]) =>
  server.db.select().from(userMessages).where(inArray(userMessages.userId, userIds)).orderBy(userMessages.id);

function listen(server: TestServer) {
  const heard: Array<{ userId: bigint; event: UserEvent }> = [];
  const stop = server.services.userEvents.subscribe((userId, event) => { if (event.kind === 'message') heard.push({ userId, event }); });
  return { heard, stop };
}

forEachDatabase((server) => {
  describe('positions', () => {
    it('a burst of take-profits writes one message per position with symbol, price and result; a stale fire writes none', async () => {
      await freshTick(server, 'BTCUSDT', '60000.00');
      const owners = await Promise.all(Array.from({ length: 3 }, () => trader(server, '1000')));
      const positions = [];
      for (const owner of owners) {
        for (let k = 0; k < 2; k += 1) positions.push(await opened(server, owner, { takeProfit: '61000', clientOrderId: server.unique('tp') }));
      }
      const high = await freshTick(server, 'BTCUSDT', '61010.00');
      const fired = positions.map((position) => ({ positionId: BigInt(position.id), tick: high }));
      const { heard, stop } = listen(server);
      const outcome = await settleFired(depsOf(server), fired);
      stop();
      expect(outcome.failed).toEqual([]);
      const messages = await messagesOf(server, owners.map((o) => o.userId));
      expect(messages).toHaveLength(6);
      for (const position of positions) {
        const message = messages.find((m) => (m.params as Record<string, string>).id === position.id)!;
        expect(message).toMatchObject({ kind: 'position_take_profit', category: 'trading', route: '/heyue', dedupeKey: `position:${position.id}:closed` });
        expect(message.params).toMatchObject({ symbol: 'BTCUSDT', reason: 'take_profit', direction: position.direction });
        const owner = owners.find((o) => o.userId === message.userId)!;
        const closed = expectOk(await server.get(tradePaths.getPosition, { id: position.id }, { token: owner.token })).body.result;
        expect((message.params as Record<string, string>).pnl).toBe(closed.pnl);
      }
      expect(new Set(heard.map((h) => h.userId))).toEqual(new Set(owners.map((o) => o.userId)));
      await settleFired(depsOf(server), fired);
      expect(await messagesOf(server, owners.map((o) => o.userId))).toHaveLength(6);
    });

    it('a stop-loss fired alone writes position_stop_loss; the user\'s own close writes nothing', async () => {
      await freshTick(server, 'BTCUSDT', '60000.00');
      const owner = await trader(server, '1000');
      const position = await opened(server, owner, { stopLoss: '59000', direction: 'long' });
      const mine = await opened(server, owner, { clientOrderId: server.unique('own') });
      expectOk(await server.post(tradePaths.closePosition.replace(':id', mine.id), {}, { token: owner.token }));
      const low = await freshTick(server, 'BTCUSDT', '58900.00');
      expect(await settleOnTick(depsOf(server), BigInt(position.id), low)).toBe('stop_loss');
      const messages = await messagesOf(server, [owner.userId]);
      expect(messages.map((m) => m.kind)).toEqual(['position_stop_loss']);
      expect(messages[0].params).toMatchObject({ id: position.id, symbol: 'BTCUSDT', reason: 'stop_loss' });
    });

    it('a liquidation writes position_liquidated with the loss', async () => {
      const owner = await trader(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const position = await opened(server, owner, { margin: '100', leverage: 10 });
      const gap = await freshTick(server, 'BTCUSDT', '50000.00');
      expect(await settleOnTick(depsOf(server), BigInt(position.id), gap)).toBe('liquidation');
      const [message] = await messagesOf(server, [owner.userId]);
      expect(message).toMatchObject({ kind: 'position_liquidated', category: 'trading', route: '/heyue' });
      expect(message.params).toMatchObject({ id: position.id, symbol: 'BTCUSDT', reason: 'liquidation', pnl: '-99.611172' });
    });
  });

  describe('second contracts', () => {
    it('a batch settled together writes one "settled" message per real order, none for demo ones', async () => {
      const users = await Promise.all(Array.from({ length: 4 }, () => secondTrader(server, '1000', '1000')));
      await freshTick(server, 'BTCUSDT', '60000.00');
      server.clock.advance(1000);
      const orders = [];
      for (const user of users) orders.push({ user, order: await bought(server, user, { direction: 'up', duration: 60, amount: '100' }) });
      const demo = await bought(server, users[0], { direction: 'up', duration: 60, amount: '50', demo: true });
      const accept = orders[0].order.acceptTime as number;
      const expiry = Math.max(...orders.map(({ order }) => order.expireTime as number), demo.expireTime as number);
      const ticks = await recordTicks(server, 'BTCUSDT', [['60000.00', accept], ['60100.00', expiry]]);
      const { heard, stop } = listen(server);
      await settlerOf(server, { chunkSize: 3 }).onTicks(ticks);
      stop();
      const messages = await messagesOf(server, users.map((u) => u.userId));
      expect(messages).toHaveLength(4);
      for (const { user, order } of orders) {
        const [message] = messages.filter((m) => m.userId === user.userId);
        expect(message).toMatchObject({ kind: 'second_contract_settled', category: 'trading', route: '/heyue', dedupeKey: `second:${order.id}:settled` });
        expect(message.params).toMatchObject({ id: order.id, symbol: 'BTCUSDT', direction: 'up', status: 'won', amount: '100.000000', payout: '185.000000' });
      }
      const [demoMessage] = await server.db.select().from(userMessages)
        .where(and(eq(userMessages.userId, users[0].userId), eq(userMessages.dedupeKey, `second:${demo.id}:settled`)));
      expect(demoMessage).toBeUndefined();
      expect(new Set(heard.map((h) => h.userId))).toEqual(new Set(users.map((u) => u.userId)));
    });
  });
});
