// Scale-out (DESIGN §7) on one machine: two server instances on one PostgreSQL database and one
// Redis. Only one holds the engine lock and runs the engine; each instance answers with market
// data as soon as it is up (a follower waits for the leader's next tick); the ticks the leader
// publishes reach a WebSocket client connected to the other instance; when the leader closes, the
// other takes the lock and its own engine feeds the same client. Needs TEST_DATABASE_URL (skipped
// without it) and Redis at TEST_REDIS_URL (default redis://127.0.0.1:6379).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../server/config.ts';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { seed } from '../../server/seed.ts';
import { seededSimulator, simulatorSource } from '../../server/domain/core/market/engine.ts';
import { engineLockKey } from '../../server/domain/core/market/leader.ts';
import { symbolByCode } from '../../server/domain/core/market/symbols.ts';
import { startInstance, type Instance } from '../../server/instance.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import type { Ticker } from '../../src/api/contract/market.ts';
import { apiPrefix, paths } from '../../src/api/contract/paths.ts';
import { TestClock } from './helpers.ts';
import { createPostgresDatabase, eventually, SocketClient, socketUrl } from './realtimeHelpers.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisReachable = adminUrl ? await canReach(redisUrl) : false;
if (adminUrl && !redisReachable) console.warn(`scale-out test skipped: no Redis at ${redisUrl} (set TEST_REDIS_URL)`);

async function canReach(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

describe.skipIf(!adminUrl || !redisReachable)('two instances on one PostgreSQL and one Redis', () => {
  const clock = new TestClock();
  const specs = [symbolByCode.get('BTCUSDT')!];
  const keys = createKeys();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-scale-'));
  const marketChannel = `bourse-test:market:${randomBytes(6).toString('hex')}`;
  let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let config: Config;
  const databases: Database[] = [];
  const instances: Instance[] = [];

  const start = async () => {
    // Each instance has its own pool, as two processes would.
    const database = await openDatabase({ databaseUrl: created.url });
    databases.push(database);
    const instance = await startInstance({
      config, database, keys, clock, logger: false, marketChannel, lockRetryIntervalMs: 100, engineSpecs: specs,
      priceSource: () => simulatorSource(seededSimulator('scale-test'), specs),
    });
    instances.push(instance);
    return instance;
  };
  const tickOn = async (instance: Instance) => {
    clock.advance(1000);
    await instance.engine!.tickOnce(clock.now().getTime());
  };
  /**
   * Starts an instance that follows `leader`. Start-up waits for the market's next update (the
   * engine's own timer never fires here), so the leader ticks until the follower is up.
   */
  const startFollower = async (leader: Instance) => {
    let started = false;
    const starting = start().finally(() => { started = true; });
    while (!started) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (!started) await tickOn(leader);
    }
    return starting;
  };
  const tickerList = async (instance: Instance) => {
    const reply = await instance.app.inject({ method: 'GET', url: `${apiPrefix}${paths.tickerList}` });
    return { status: reply.statusCode, body: JSON.parse(reply.body) as { result: Ticker[] } };
  };

  beforeAll(async () => {
    created = await createPostgresDatabase(adminUrl!);
    const base = loadConfig({ DATABASE_URL: created.url, REDIS_URL: redisUrl, DATA_DIR: dataDir });
    // The engine's own timer never fires here: the test moves it tick by tick.
    config = { ...base, webRoot: path.join(dataDir, 'no-web'), market: { ...base.market, tickIntervalMs: 3_600_000 } };
    const migrated = await openDatabase({ databaseUrl: created.url });
    await seed(migrated.db, { demo: false });
    await migrated.close();
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close().catch(() => {});
    for (const database of databases) await database.close().catch(() => {});
    await created?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the engine on the lock holder only, fans its ticks out to the other, and fails over when it closes', async () => {
    const leader = await start();
    // The leader published its market before start-up returned; the follower got the next update.
    expect(leader.market.ready).toBe(true);
    const follower = await startFollower(leader);
    expect(follower.market.ready).toBe(true);
    expect(leader.leadership.leading).toBe(true);
    expect(leader.engine).toBeDefined();
    expect(follower.leadership.leading).toBe(false);
    expect(follower.engine).toBeUndefined();
    expect(await lockIsFree(created.url)).toBe(false);
    // So both answer the market calls with data from their first request.
    for (const instance of [leader, follower]) {
      const reply = await tickerList(instance);
      expect(reply.status).toBe(200);
      expect(reply.body.result.map((ticker) => ticker.symbol)).toEqual(['BTCUSDT']);
    }

    await follower.app.listen({ port: 0, host: '127.0.0.1' });
    const client = await SocketClient.connect(socketUrl(follower.app));
    try {
      client.send({ op: 'subscribe', channels: ['ticker.BTCUSDT'] });
      const snapshot = await client.nextOn('ticker.BTCUSDT');
      expect(snapshot).toMatchObject({ type: 'snapshot', seq: 0, data: { symbol: 'BTCUSDT' } });

      await tickOn(leader);
      const fromLeader = await client.nextOn('ticker.BTCUSDT');
      expect(fromLeader).toMatchObject({ type: 'update', seq: 1, data: { symbol: 'BTCUSDT', time: clock.now().getTime() } });

      await leader.close();
      await eventually(() => follower.leadership.leading && follower.engine !== undefined, 'the follower takes the engine lock');
      expect(await lockIsFree(created.url)).toBe(false);

      await tickOn(follower);
      const fromNewLeader = await client.nextOn('ticker.BTCUSDT');
      expect(fromNewLeader).toMatchObject({ type: 'update', seq: 2, data: { symbol: 'BTCUSDT', time: clock.now().getTime() } });
      // The new engine carried on from the candles the old one stored: the 24 h open is the same.
      expect((fromNewLeader.data as Ticker).open24h).toBe((fromLeader.data as Ticker).open24h);
    } finally {
      client.close();
    }
  });

  it('moves the engine to a single new leader when the holder\'s database session dies', async () => {
    const holder = instances.find((instance) => instance.leadership.leading)!;
    const other = await startFollower(holder);
    expect(other.leadership.leading).toBe(false);
    const holderPid = await lockHolderPid(created.url);
    expect(holderPid).toBeDefined();
    await terminateSession(created.url, holderPid!);

    // Whichever instance wins the lock now, exactly one runs the engine, and on a new session.
    const leaders = () => [holder, other].filter((instance) => instance.leadership.leading && instance.engine);
    await eventually(async () => leaders().length === 1 && !!(await lockHolderPid(created.url))
      && [holder, other].every((instance) => instance.leadership.leading === (instance.engine !== undefined)),
    'one instance leads again');
    expect(await lockHolderPid(created.url)).not.toBe(holderPid);

    const follower = leaders()[0] === holder ? other : holder;
    if (!follower.app.server.listening) await follower.app.listen({ port: 0, host: '127.0.0.1' });
    const client = await SocketClient.connect(socketUrl(follower.app));
    try {
      client.send({ op: 'subscribe', channels: ['ticker.BTCUSDT'] });
      const snapshot = await client.nextOn('ticker.BTCUSDT');
      await tickOn(leaders()[0]);
      expect(await client.nextOn('ticker.BTCUSDT')).toMatchObject({
        type: 'update', seq: snapshot.seq + 1, data: { symbol: 'BTCUSDT', time: clock.now().getTime() },
      });
    } finally {
      client.close();
    }
  });
});

/** The server process id of the session that holds the engine lock in this database, if any. */
async function lockHolderPid(databaseUrl: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(`select pid from pg_locks where locktype = 'advisory' and granted
      and database = (select oid from pg_database where datname = current_database())`);
    return rows[0]?.pid;
  } finally {
    await client.end();
  }
}

/** Ends a session the way a crash or a network cut would, as far as its locks go. */
async function terminateSession(databaseUrl: string, pid: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('select pg_terminate_backend($1)', [pid]);
  } finally {
    await client.end();
  }
}

/** Whether a third session could take the engine lock (and gives it back at once if so). */
async function lockIsFree(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ acquired: boolean }>('select pg_try_advisory_lock($1::bigint) as acquired', [String(engineLockKey)]);
    if (rows[0].acquired) await client.query('select pg_advisory_unlock($1::bigint)', [String(engineLockKey)]);
    return rows[0].acquired;
  } finally {
    await client.end();
  }
}
