// The trading engines as the instance runs them (issue 10): the market engine of the lock holder
// stores each tick and hands it to the trading runtime, whose trigger engine closes a position at
// its take-profit and whose settler settles a second contract at the first tick at or after
// expiry; both cite the very tick in their receipts. Then a restart: a contract that expired while
// no instance ran is settled when the next one starts. The feed is a source the test sets prices
// on, and the test ticks the engine by hand on its own clock; nothing waits for wall time.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { loadConfig, type Config } from '../../../server/lib/config.ts';
import { secondContractOrders, tradePositions, users } from '../../../server/db/schema.ts';
import type { PriceSource } from '../../../server/domain/core/market/engine.ts';
import { symbolByCode } from '../../../server/domain/core/market/symbols.ts';
import { openAccounts, systemShard } from '../../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';
import { createPosition } from '../../../server/domain/core/trading/positions.ts';
import { buySecondContract } from '../../../server/domain/core/trading/secondContracts.ts';
import { startInstance, type Instance } from '../../../server/instance.ts';
import { createKeys } from '../../../server/plugins/encryption.ts';
import { forEachDatabase } from '../helpers.ts';

forEachDatabase((server) => {
  const spec = symbolByCode.get('BTCUSDT')!;
  const prices = { current: 6_725_000n };
  const source: PriceSource = {
    name: 'test-feed',
    async init() {},
    async ticksAt(timeMs) {
      return [{ symbol: spec.symbol, priceUnits: prices.current, volumeUnits: 10n, timeMs }];
    },
  };
  let config: Config;
  let instance: Instance;
  const keys = createKeys();
  const start = () => startInstance({
    config, database: server.database, keys, clock: server.clock, logger: false, engineSpecs: [spec], readyWaitMs: 50,
    priceSource: () => source,
  });
  /** One tick at the test clock's time, then every queued batch of the trading engines handled. */
  const tick = async (price: bigint) => {
    prices.current = price;
    server.clock.advance(1000);
    await instance.engine!.tickOnce(server.clock.now().getTime());
    await instance.trading!.drained();
  };

  beforeAll(async () => {
    const base = loadConfig({ DATA_DIR: server.dataDir });
    // The engine's own timer never fires here: the test ticks it.
    config = { ...base, webRoot: path.join(server.dataDir, 'no-web'), market: { ...base.market, tickIntervalMs: 3_600_000 } };
    instance = await start();
  }, 120_000);

  afterAll(async () => {
    await instance?.close();
  });

  async function fundedUser(): Promise<bigint> {
    const account = await server.registerByEmail();
    const [{ id }] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, account.email!));
    const [spot, clearing] = await openAccounts(server.db, [
      { ledger: 'real', asset: 'USDT', kind: 'spot', ownerUserId: id },
      { ledger: 'real', asset: 'USDT', kind: 'deposit_clearing', shard: systemShard(String(id)) },
    ]);
    const posted = await postTransfers(server.db, [{
      id: `test-fund:${id}`, debitAccountId: clearing, creditAccountId: spot, amountAtomic: 10_000_000_000n, kind: 'deposit', reference: 'test',
    }], server.clock);
    expect(posted.ok).toBe(true);
    return id;
  }

  describe('trading engines on the engine instance', () => {
    it('closes a position at its take-profit on the tick that reaches it, citing that tick', async () => {
      await tick(6_725_000n);
      const userId = await fundedUser();
      const deps = { db: server.db, clock: server.clock, userEvents: instance.services.userEvents, competitions: instance.services.ports.competitions };
      const position = await createPosition(deps, userId, {
        symbol: 'BTCUSDT', direction: 'long', leverage: 10, margin: '100', takeProfit: '67400', clientOrderId: 'runtime-tp-0001',
      });
      expect(position.status).toBe('running');
      // The trigger engine learns of the position from the database on its next batch.
      await tick(6_730_000n);
      expect((await server.db.select().from(tradePositions).where(eq(tradePositions.id, BigInt(position.id))))[0].status).toBe('running');
      // Half the spread below this tick is above 67 400: the take-profit is reached.
      await tick(6_750_000n);
      const [row] = await server.db.select().from(tradePositions).where(eq(tradePositions.id, BigInt(position.id)));
      expect(row).toMatchObject({ status: 'closed', closeReason: 'take_profit' });
      const exitTime = (await server.db.execute(`select time from market_ticks where id = ${row.exitTickId}`) as unknown as { rows: Array<{ time: string | Date }> }).rows[0].time;
      expect(new Date(exitTime).getTime()).toBe(server.clock.now().getTime());
    });

    it('settles a second contract at the first tick at or after expiry, also after a restart', async () => {
      const userId = await fundedUser();
      const deps = { db: server.db, clock: server.clock, userEvents: instance.services.userEvents, competitions: instance.services.ports.competitions };
      // Accepted between two ticks: the entry is the next tick, not the one before.
      server.clock.advance(1);
      const order = await buySecondContract(deps, userId, {
        symbol: 'BTCUSDT', direction: 'up', duration: 30, amount: '10', clientOrderId: 'runtime-second-01',
      });
      await tick(6_750_100n); // the entry: the first tick at or after acceptance
      for (let second = 0; second < 30; second += 1) await tick(6_760_000n);
      const [settled] = await server.db.select().from(secondContractOrders).where(eq(secondContractOrders.id, BigInt(order.id)));
      expect(settled).toMatchObject({ status: 'won', entryPrice: 6_750_100n, exitPrice: 6_760_000n });

      const later = await buySecondContract(deps, userId, {
        symbol: 'BTCUSDT', direction: 'down', duration: 30, amount: '10', clientOrderId: 'runtime-second-02',
      });
      server.clock.advance(1);
      await tick(6_760_000n);
      await instance.close();
      // While no instance runs, time passes and the feed's ticks are stored by nobody; the next
      // leader's first ticks come after expiry, and its settler uses the first of them.
      server.clock.advance(60_000);
      instance = await start();
      await tick(6_700_000n);
      const [afterRestart] = await server.db.select().from(secondContractOrders).where(eq(secondContractOrders.id, BigInt(later.id)));
      expect(afterRestart).toMatchObject({ status: 'won', entryPrice: 6_760_000n, exitPrice: 6_700_000n });
    });
  });
}, { });
