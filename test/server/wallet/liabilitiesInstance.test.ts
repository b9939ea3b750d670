// The daily proof-of-liabilities publication as the instances run it: two instances on one
// PostgreSQL, each with its check timer (fired here by hand, the clock moved by the test, so
// nothing waits for a real day). Only the engine-lock holder publishes, once per UTC day however
// often the timers fire; when it closes, the other takes the lock and publishes the next day's.
// Needs TEST_DATABASE_URL (the leader election is PostgreSQL's advisory lock); skipped without it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../server/lib/config.ts';
import { openDatabase, type Database } from '../../../server/db/client.ts';
import { seed } from '../../../server/seed.ts';
import { seededSimulator, simulatorSource } from '../../../server/domain/core/market/engine.ts';
import { symbolByCode } from '../../../server/domain/core/market/symbols.ts';
import type { Timer } from '../../../server/domain/core/wallet/liabilities.ts';
import { startInstance, type Instance } from '../../../server/instance.ts';
import { createKeys } from '../../../server/plugins/encryption.ts';
import { TestClock } from '../helpers.ts';
import { createPostgresDatabase, eventually } from '../realtimeHelpers.ts';

const adminUrl = process.env.TEST_DATABASE_URL;

/** A timer whose callbacks the test fires. */
function manualTimer() {
  const callbacks = new Set<() => void>();
  const timer: Timer = {
    setInterval: (callback) => { callbacks.add(callback); return callback; },
    clearInterval: (handle) => { callbacks.delete(handle as () => void); },
  };
  return { timer, fire: () => { for (const callback of callbacks) callback(); } };
}

describe.skipIf(!adminUrl)('daily publication on two instances', () => {
  const clock = new TestClock();
  const specs = [symbolByCode.get('BTCUSDT')!];
  const keys = createKeys();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-liab-'));
  let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let config: Config;
  let reader: Database;
  const databases: Database[] = [];
  const instances: Instance[] = [];

  const start = async () => {
    const database = await openDatabase({ databaseUrl: created.url });
    databases.push(database);
    const { timer, fire } = manualTimer();
    const instance = await startInstance({
      config, database, keys, clock, logger: false, lockRetryIntervalMs: 100, engineSpecs: specs, readyWaitMs: 50,
      priceSource: () => simulatorSource(seededSimulator('liab-test'), specs), liabilityTimer: timer,
    });
    instances.push(instance);
    return { instance, fire };
  };
  const dailyRoots = async () => {
    const result = await reader.db.execute('select day from liability_roots where trigger = \'daily\' order by id');
    return (result as unknown as { rows: { day: string }[] }).rows.map((row) => row.day);
  };

  beforeAll(async () => {
    created = await createPostgresDatabase(adminUrl!);
    const base = loadConfig({ DATABASE_URL: created.url, DATA_DIR: dataDir });
    config = { ...base, redisUrl: undefined, webRoot: path.join(dataDir, 'no-web'), market: { ...base.market, tickIntervalMs: 3_600_000 } };
    reader = await openDatabase({ databaseUrl: created.url });
    await seed(reader.db, { demo: false });
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close().catch(() => {});
    for (const database of databases) await database.close().catch(() => {});
    await reader?.close();
    await created?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('publishes once per UTC day on the lock holder only, and moves with the lock', async () => {
    const leader = await start();
    const follower = await start();
    expect(leader.instance.leadership.leading).toBe(true);
    expect(follower.instance.leadership.leading).toBe(false);
    // The leader's first check at start-up published today's root.
    await leader.instance.liabilityPublisher.check();
    const today = clock.now().toISOString().slice(0, 10);
    expect(await dailyRoots()).toEqual([today]);

    // Checks all day long, on both, publish nothing more.
    for (let hour = 0; hour < 3; hour += 1) {
      clock.advance(3_600_000);
      leader.fire();
      follower.fire();
      await leader.instance.liabilityPublisher.check();
      expect(await follower.instance.liabilityPublisher.check()).toBeNull();
    }
    expect(await dailyRoots()).toEqual([today]);

    // The next UTC day: the follower's checks still do nothing, the leader's publishes one.
    clock.advance(24 * 3_600_000);
    const tomorrow = clock.now().toISOString().slice(0, 10);
    expect(await follower.instance.liabilityPublisher.check()).toBeNull();
    expect(await dailyRoots()).toEqual([today]);
    leader.fire();
    await leader.instance.liabilityPublisher.check();
    expect(await dailyRoots()).toEqual([today, tomorrow]);

    // The leader goes away; the other instance takes the lock and publishes the day after.
    await leader.instance.close();
    await eventually(() => follower.instance.leadership.leading, 'the follower takes the engine lock');
    clock.advance(24 * 3_600_000);
    const dayAfter = clock.now().toISOString().slice(0, 10);
    follower.fire();
    await follower.instance.liabilityPublisher.check();
    expect(await dailyRoots()).toEqual([today, tomorrow, dayAfter]);
  });
});
