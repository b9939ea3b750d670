// The trigger engine against a real database (issue 10): running positions are read from
// trade_positions in pages (rebuild), changes are picked up since the last look (refresh), and each
// recorded tick settles exactly the positions whose levels it reaches, one after another. The
// settlement here is a stand-in that records its calls and closes the row as settleOnTick would; a
// restart (a new engine, rebuilt from the table) fires nothing that was already settled.
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { tradePositions, users } from '../../../server/db/schema.ts';
import { insertTicks, type RecordedTick } from '../../../server/domain/core/market/store.ts';
import { TriggerEngine } from '../../../server/domain/core/trading/triggers.ts';
import { forEachDatabase, type TestServer } from '../helpers.ts';

const symbol = 'BTCUSDT';

interface PositionSpec {
  direction: 'long' | 'short';
  openPrice: bigint;
  spread?: bigint;
  takeProfit?: bigint | null;
  stopLoss?: bigint | null;
  liquidation?: bigint | null;
  symbol?: string;
}

async function aUser(server: TestServer): Promise<bigint> {
  const [row] = await server.db.insert(users)
    .values({ email: `${server.unique('trig')}@example.com`, passwordHash: 'not-a-hash', inviteCode: server.unique('I').slice(0, 12) })
    .returning({ id: users.id });
  return row.id;
}

async function openPosition(server: TestServer, userId: bigint, spec: PositionSpec): Promise<bigint> {
  const now = server.clock.now();
  const [row] = await server.db.insert(tradePositions).values({
    userId, ledger: 1, symbol: spec.symbol ?? symbol, direction: spec.direction, leverage: 10, quantity: 1000n, margin: 1_000_000n,
    openPrice: spec.openPrice, spreadUnits: spec.spread ?? 0n, feePpm: 500, maintenancePpm: 4000, openFee: 100n,
    takeProfit: spec.takeProfit ?? null, stopLoss: spec.stopLoss ?? null, liquidationPrice: spec.liquidation ?? null,
    status: 'running', clientOrderId: server.unique('c'), requestHash: 'h'.repeat(64), entryTickId: 1n,
    createdAt: now, updatedAt: now,
  }).returning({ id: tradePositions.id });
  return row.id;
}

/** What settleOnTick does to the row, minus the money: closed with a receipt, version bumped. */
async function closeRow(server: TestServer, positionId: bigint, tick: RecordedTick, reason: string) {
  const now = server.clock.now();
  const closed = await server.db.update(tradePositions).set({
    status: 'closed', exitTickId: tick.id, closePrice: tick.priceUnits, closeReason: reason, pnl: 0n, grossPnl: 0n, closeFee: 0n,
    shortfall: 0n, closedAt: now, updatedAt: now, version: sql`${tradePositions.version} + 1`,
  }).where(sql`${tradePositions.id} = ${positionId} and ${tradePositions.status} = 'running'`).returning({ id: tradePositions.id });
  return closed.length === 1;
}

/** A settle callback that records every call and closes the row (undefined when it was not running). */
function recordingSettle(server: TestServer) {
  const calls: Array<{ positionId: bigint; tickId: bigint; price: bigint }> = [];
  const settle = async (positionId: bigint, tick: RecordedTick) => {
    calls.push({ positionId, tickId: tick.id, price: tick.priceUnits });
    return (await closeRow(server, positionId, tick, 'trigger')) ? positionId : undefined;
  };
  return { calls, settle };
}

async function ticksAt(server: TestServer, prices: bigint[], tickSymbol = symbol): Promise<RecordedTick[]> {
  const startMs = server.clock.now().getTime();
  return insertTicks(server.db, prices.map((priceUnits, index) => ({ symbol: tickSymbol, priceUnits, volumeUnits: 1n, timeMs: startMs + index })), 'test');
}

/** Running positions (of this file's rows) close between tests, so each test starts from none. */
async function closeEverything(server: TestServer) {
  const now = server.clock.now();
  await server.db.update(tradePositions).set({
    status: 'closed', exitTickId: 1n, closeReason: 'user', pnl: 0n, closedAt: now, updatedAt: now,
  }).where(eq(tradePositions.status, 'running'));
}

forEachDatabase((server) => {
  describe('TriggerEngine', () => {
    it('rebuilds from the table in pages and settles exactly the positions each tick reaches', async () => {
      await closeEverything(server);
      const userId = await aUser(server);
      // Prices in cents of BTCUSDT around 60 000.00; spread 20 (exit = tick ∓ 10).
      const longTake = await openPosition(server, userId, { direction: 'long', openPrice: 6_000_000n, spread: 20n, takeProfit: 6_010_000n, stopLoss: 5_990_000n });
      const longStop = await openPosition(server, userId, { direction: 'long', openPrice: 6_000_000n, spread: 20n, stopLoss: 5_995_000n, liquidation: 5_950_000n });
      const shortTake = await openPosition(server, userId, { direction: 'short', openPrice: 6_000_000n, spread: 20n, takeProfit: 5_994_000n });
      const shortLiquidated = await openPosition(server, userId, { direction: 'short', openPrice: 6_000_000n, spread: 20n, liquidation: 6_030_000n });
      const untouched = await openPosition(server, userId, { direction: 'long', openPrice: 6_000_000n, takeProfit: 7_000_000n, stopLoss: 5_000_000n });
      const otherSymbol = await openPosition(server, userId, { direction: 'long', openPrice: 300_000n, takeProfit: 300_010n, symbol: 'ETHUSDT' });

      const { calls, settle } = recordingSettle(server);
      const errors: unknown[] = [];
      const engine = new TriggerEngine({ db: server.db, clock: server.clock, settle, onError: (error) => errors.push(error), pageSize: 2 });
      await engine.rebuild();
      expect(engine.index.size).toBe(6);

      // 5 995 010: a long exits at 5 995 000, its stop-loss exactly (≤); a short exits at 5 995 020.
      // 5 994 009: the short exits at 5 994 019, above its take-profit of 5 994 000: not yet.
      // 5 993 990: the short exits at 5 994 000: take-profit.
      // 6 010 009: the long exits at 6 009 999, below its take-profit of 6 010 000: not yet.
      // 6 010 010: take-profit. 6 029 990: the other short exits at 6 030 000: liquidation.
      const ticks = await ticksAt(server, [5_995_010n, 5_994_009n, 5_993_990n, 6_010_009n, 6_010_010n, 6_029_990n]);
      await engine.onTicks(ticks);
      expect(errors).toEqual([]);
      expect(calls).toEqual([
        { positionId: longStop, tickId: ticks[0].id, price: 5_995_010n },
        { positionId: shortTake, tickId: ticks[2].id, price: 5_993_990n },
        { positionId: longTake, tickId: ticks[4].id, price: 6_010_010n },
        { positionId: shortLiquidated, tickId: ticks[5].id, price: 6_029_990n },
      ]);
      expect(engine.index.has(untouched)).toBe(true);
      expect(engine.index.has(otherSymbol)).toBe(true);

      // The same prices again fire nothing: each trigger fires once.
      await engine.onTicks(await ticksAt(server, [5_995_010n, 5_993_990n, 6_010_010n, 6_029_990n]));
      expect(calls).toHaveLength(4);
      // The other symbol's tick reaches its own position only.
      const eth = await ticksAt(server, [300_010n], 'ETHUSDT');
      await engine.onTicks(eth);
      expect(calls.slice(4)).toEqual([{ positionId: otherSymbol, tickId: eth[0].id, price: 300_010n }]);
    });

    it('refresh picks up an opened position, a changed level and a position closed by its owner', async () => {
      await closeEverything(server);
      const userId = await aUser(server);
      const changed = await openPosition(server, userId, { direction: 'long', openPrice: 6_000_000n, takeProfit: 6_100_000n });
      const closedByUser = await openPosition(server, userId, { direction: 'short', openPrice: 6_000_000n, stopLoss: 6_050_000n });
      const { calls, settle } = recordingSettle(server);
      const engine = new TriggerEngine({ db: server.db, clock: server.clock, settle, pageSize: 3 });
      await engine.rebuild();

      server.clock.advance(1000);
      const now = server.clock.now();
      await server.db.update(tradePositions).set({ takeProfit: 6_020_000n, version: 2, updatedAt: now }).where(eq(tradePositions.id, changed));
      await server.db.update(tradePositions).set({
        status: 'closed', exitTickId: 1n, closeReason: 'user', pnl: 0n, closedAt: now, updatedAt: now, version: 2,
      }).where(eq(tradePositions.id, closedByUser));
      const opened = await openPosition(server, userId, { direction: 'short', openPrice: 6_000_000n, takeProfit: 5_900_000n });

      await engine.refresh();
      expect(engine.index.has(closedByUser)).toBe(false);
      expect(engine.index.has(opened)).toBe(true);
      // 6 060 000 reaches the new take-profit (6 020 000) and the closed short's
      // stop-loss; only the running position settles.
      const [up] = await ticksAt(server, [6_060_000n]);
      await engine.onTicks([up]);
      expect(calls).toEqual([{ positionId: changed, tickId: up.id, price: 6_060_000n }]);
      // The newly opened short (refresh inside onTicks would have found it too) fires at its take-profit.
      const [down] = await ticksAt(server, [5_900_000n]);
      await engine.onTicks([down]);
      expect(calls.slice(1)).toEqual([{ positionId: opened, tickId: down.id, price: 5_900_000n }]);
    });

    it('onTicks refreshes first: a level changed after the last look counts for the next batch', async () => {
      await closeEverything(server);
      const userId = await aUser(server);
      const position = await openPosition(server, userId, { direction: 'long', openPrice: 6_000_000n, stopLoss: 5_000_000n });
      const { calls, settle } = recordingSettle(server);
      const engine = new TriggerEngine({ db: server.db, clock: server.clock, settle });
      await engine.onTicks([]); // builds on first use
      expect(engine.index.has(position)).toBe(true);
      // A change stamped up to the overlap before the last look is still seen (a late commit).
      server.clock.advance(500);
      // 9 s before now is 8.5 s before the last look: inside the 10 s overlap (refreshOverlapMs).
      const stamped = new Date(server.clock.now().getTime() - 9_000);
      await server.db.update(tradePositions).set({ stopLoss: 5_990_000n, version: 2, updatedAt: stamped }).where(eq(tradePositions.id, position));
      const [tick] = await ticksAt(server, [5_990_000n]);
      await engine.onTicks([tick]);
      expect(calls).toEqual([{ positionId: position, tickId: tick.id, price: 5_990_000n }]);
    });

    it('reports a failing settlement, settles the others, and tries the failed one again next batch', async () => {
      await closeEverything(server);
      const userId = await aUser(server);
      const failing = await openPosition(server, userId, { direction: 'long', openPrice: 6_000_000n, takeProfit: 6_001_000n });
      const fine = await openPosition(server, userId, { direction: 'long', openPrice: 6_000_000n, takeProfit: 6_001_000n });
      const recording = recordingSettle(server);
      let failures = 1;
      const errors: unknown[] = [];
      const settle = async (positionId: bigint, tick: RecordedTick) => {
        if (positionId === failing && failures-- > 0) throw new Error('database went away');
        return recording.settle(positionId, tick);
      };
      const engine = new TriggerEngine({ db: server.db, clock: server.clock, settle, onError: (error) => errors.push(error) });
      await engine.rebuild();
      const first = await ticksAt(server, [6_002_000n, 6_003_000n]);
      await engine.onTicks(first);
      expect(errors).toHaveLength(1);
      // The failed one is not retried within the batch; the other settled at the first tick.
      expect(recording.calls).toEqual([{ positionId: fine, tickId: first[0].id, price: 6_002_000n }]);
      const [again] = await ticksAt(server, [6_002_500n]);
      await engine.onTicks([again]);
      expect(recording.calls.slice(1)).toEqual([{ positionId: failing, tickId: again.id, price: 6_002_500n }]);
    });

    it('a restart (a new engine, rebuilt) does not fire what was settled, and fires what was not', async () => {
      await closeEverything(server);
      const userId = await aUser(server);
      const settled = await openPosition(server, userId, { direction: 'short', openPrice: 6_000_000n, stopLoss: 6_010_000n });
      const waiting = await openPosition(server, userId, { direction: 'long', openPrice: 6_000_000n, stopLoss: 5_980_000n });
      const before = recordingSettle(server);
      const engine = new TriggerEngine({ db: server.db, clock: server.clock, settle: before.settle });
      await engine.rebuild();
      await engine.onTicks(await ticksAt(server, [6_010_000n]));
      expect(before.calls.map((call) => call.positionId)).toEqual([settled]);

      server.clock.advance(60_000);
      const after = recordingSettle(server);
      const restarted = new TriggerEngine({ db: server.db, clock: server.clock, settle: after.settle });
      await restarted.rebuild();
      expect(restarted.index.has(settled)).toBe(false);
      const ticks = await ticksAt(server, [6_010_000n, 6_020_000n, 5_980_000n]);
      await restarted.onTicks(ticks);
      expect(after.calls).toEqual([{ positionId: waiting, tickId: ticks[2].id, price: 5_980_000n }]);
    });

    it('a stale trigger (closed by its owner after the engine last looked) fires once and settles nothing', async () => {
      await closeEverything(server);
      const userId = await aUser(server);
      const position = await openPosition(server, userId, { direction: 'long', openPrice: 6_000_000n, takeProfit: 6_001_000n });
      const { calls, settle } = recordingSettle(server);
      const results: unknown[] = [];
      const engine = new TriggerEngine({
        db: server.db, clock: server.clock, settle: async (positionId, tick) => { const result = await settle(positionId, tick); results.push(result); return result; },
      });
      await engine.rebuild();
      // The owner's close commits with a time stamp older than the refresh looks back: the engine
      // cannot know, fires, and the settlement (deciding from the row) finds nothing to do.
      const [tick] = await ticksAt(server, [6_001_000n]);
      const longAgo = new Date(server.clock.now().getTime() - 3_600_000);
      await server.db.update(tradePositions).set({
        status: 'closed', exitTickId: tick.id, closeReason: 'user', pnl: 0n, closedAt: longAgo, updatedAt: longAgo, version: 2,
      }).where(eq(tradePositions.id, position));
      await engine.onTicks([tick]);
      expect(calls).toEqual([{ positionId: position, tickId: tick.id, price: 6_001_000n }]);
      expect(results).toEqual([undefined]);
      expect(engine.index.has(position)).toBe(false);
      await engine.onTicks(await ticksAt(server, [6_002_000n]));
      expect(calls).toHaveLength(1);
      const [row] = await server.db.select({ reason: tradePositions.closeReason }).from(tradePositions).where(eq(tradePositions.id, position));
      expect(row.reason).toBe('user');
    });
  });
});
