// A tick that fires many positions at once (a take-profit, stop-loss or liquidation burst, issue 20)
// settles all of them through settleFired, in batches through the payout primitive: each closes
// with the receipt and the money settleOnTick would give it, one that is closed already or whose
// levels the tick no longer reaches is left alone, and the ledger stays sound.
import { describe, expect, it } from 'vitest';
import { tradePaths, type Position } from '../../../src/api/contract/trading.ts';
import { settleFired } from '../../../server/domain/core/trading/positions.ts';
import { expectOk, forEachDatabase, type TestServer } from '../helpers.ts';
import { expectLedgerSound, freshTick, fundsMovementOf, opened, trader, usdt } from './positionHelpers.ts';

const depsOf = (server: TestServer) => ({ db: server.db, clock: server.clock, userEvents: server.services.userEvents, competitions: server.services.ports.competitions });

forEachDatabase((server) => {
  describe('settleFired (a tick firing many positions)', () => {
    it('settles every position the tick reaches, each once with its own receipt, and leaves the others', async () => {
      await freshTick(server, 'BTCUSDT', '60000.00');
      const owners = await Promise.all(Array.from({ length: 3 }, () => trader(server, '1000')));
      const positions: Array<{ owner: (typeof owners)[number]; position: Position }> = [];
      for (const [i, owner] of owners.entries()) {
        for (let k = 0; k < 3; k += 1) positions.push({ owner, position: await opened(server, owner, { takeProfit: '61000', clientOrderId: `burst-${i}-${k}-${server.unique('c')}` }) });
      }
      const notReached = await opened(server, owners[0], { takeProfit: '65000' });
      const high = await freshTick(server, 'BTCUSDT', '61010.00');
      const fired = [...positions.map(({ position }) => ({ positionId: BigInt(position.id), tick: high })), { positionId: BigInt(notReached.id), tick: high }];
      const outcome = await settleFired(depsOf(server), fired);
      expect(outcome.failed).toEqual([]);
      expect(outcome.settled.map((each) => each.positionId).sort()).toEqual(positions.map(({ position }) => BigInt(position.id)).sort());
      expect(new Set(outcome.settled.map((each) => each.reason))).toEqual(new Set(['take_profit']));
      for (const { owner, position } of positions) {
        const closed = expectOk(await server.get(tradePaths.getPosition, { id: position.id }, { token: owner.token })).body.result;
        expect(closed.receipt).toMatchObject({ reason: 'take_profit', exitTick: { id: String(high.id) } });
        expect(await fundsMovementOf(server, owner.userId, position.id)).toBe(usdt(closed.receipt.balanceChange));
      }
      const still = expectOk(await server.get(tradePaths.getPosition, { id: notReached.id }, { token: owners[0].token })).body.result;
      expect(still.status).toBe('running');
      // Fired again (a stale trigger): nothing more moves.
      expect(await settleFired(depsOf(server), fired)).toEqual({ settled: [], failed: [] });
      await expectLedgerSound(server);
    });
  });
});
