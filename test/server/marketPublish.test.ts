// The market engine publishes a tick as soon as it is stored: the trading engines' work on the
// same ticks (a burst of second contracts expiring takes about a second) runs after, so no
// client's price waits for it.
import { expect, it } from 'vitest';
import { localBus } from '../../server/domain/core/market/bus.ts';
import { MarketEngine, seededSimulator, simulatorSource } from '../../server/domain/core/market/engine.ts';
import { forEachDatabase } from './helpers.ts';

forEachDatabase((server) => {
  it('publishes a tick once it is stored, without waiting for the trading engines\' work on it', async () => {
    const bus = localBus();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => { release = resolve; });
    const seen: Array<{ ticks: number; published: boolean }> = [];
    let published = false;
    bus.subscribe(() => { published = true; });
    const engine = new MarketEngine({
      db: server.db, clock: server.clock, bus, source: simulatorSource(seededSimulator('publish-first')), seed: 'publish first',
      tickIntervalMs: 1000, tickRetentionMs: 3_600_000,
      // A settlement that takes its time: the update must be out before it ends.
      onTicks: async (recorded) => { seen.push({ ticks: recorded.length, published }); await held; },
    });
    await engine.init();
    published = false;
    seen.length = 0;
    const tick = engine.tickOnce(server.clock.now().getTime() + 1000);
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0].ticks).toBeGreaterThan(0);
    expect(seen[0].published).toBe(true);
    release();
    await tick;
  });
}, { databases: 'embedded' });
