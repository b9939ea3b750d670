// Scale-out (DESIGN §7) on one machine: two server instances on one PostgreSQL database and one
// Redis. Only one holds the engine lock and runs the engine; each instance answers with market
// data as soon as it is up (a follower waits for the leader's next tick); the ticks the leader
// publishes reach a WebSocket client connected to the other instance; when the leader closes, the
// other takes the lock and its own engine feeds the same client; the support chat's events cross
// from one instance to the other on the chat's own bus. Needs TEST_DATABASE_URL (skipped without it)
// and Redis at TEST_REDIS_URL (default redis://127.0.0.1:6379).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../server/lib/config.ts';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { operators, users } from '../../server/db/schema.ts';
import { createSession } from '../../server/domain/kernel/sessions.ts';
import { createOperator, operatorLogin } from '../../server/domain/kernel/operators.ts';
import { totpCode } from '../../server/domain/kernel/totp.ts';
import { sendChat } from '../../server/domain/programs/chat/userChat.ts';
import { reply } from '../../server/domain/programs/chat/operatorChat.ts';
import { operatorChatChannel, type ChatEvent } from '../../src/api/contract/chat.ts';
import { seed } from '../../server/seed.ts';
import { seededSimulator, simulatorSource } from '../../server/domain/core/market/engine.ts';
import { engineLockKey } from '../../server/domain/core/market/leader.ts';
import { symbolByCode } from '../../server/domain/core/market/symbols.ts';
import { startInstance, type Instance } from '../../server/instance.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import type { Ticker, UserEvent } from '../../src/api/contract/market.ts';
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

  it('carries the support chat between instances: a user on one, the operators on the other', async () => {
    // Run alone, it starts its own leader; after the tests above, it joins the one they left.
    const holder = instances.find((instance) => instance.leadership.leading) ?? await start();
    const other = await startFollower(holder);
    for (const instance of [holder, other]) {
      if (!instance.app.server.listening) await instance.app.listen({ port: 0, host: '127.0.0.1' });
    }
    const { db, limits } = holder.services;
    const suffix = randomBytes(6).toString('hex');
    const [user] = await db.insert(users).values({ email: `chat-${suffix}@example.com`, passwordHash: 'unused', inviteCode: suffix })
      .returning({ id: users.id });
    const userToken = await createSession(db, clock, limits, user.id);
    const operator = await createOperator(db, `chat-${suffix}@bourse.test`, 'finance');
    const operatorToken = await operatorLogin(holder.services, operator.email, operator.password,
      await totpCode(operator.totpSecret, clock.now().getTime()), '127.0.0.1');
    const [{ id: operatorId }] = await db.select({ id: operators.id }).from(operators).where(eq(operators.email, operator.email));
    const userSocket = await SocketClient.connect(socketUrl(other.app));
    const operatorSocket = await SocketClient.connect(socketUrl(holder.app));
    // Other suites on the same Redis may chat too: each socket waits for this conversation's events.
    const chatOf = (data: unknown) => (data as UserEvent | undefined)?.chat;
    try {
      userSocket.send({ op: 'auth', token: userToken });
      expect((await userSocket.next('subscribed')).channels).toEqual(['user']);
      operatorSocket.send({ op: 'auth', token: operatorToken, as: 'operator' });
      expect((await operatorSocket.next('subscribed')).channels).toEqual([operatorChatChannel]);

      // The user writes through one instance; the operators' socket on the other hears it.
      const sent = await sendChat(other.services, user.id, { clientMessageId: `scale-out-${suffix}`, text: 'Hello from the other instance' });
      const forOperators = await operatorSocket.take((message) => message.type === 'update' && message.channel === operatorChatChannel
        && (message.data as ChatEvent).conversationId === sent.conversationId, 'the user\'s message on the operators\' channel');
      expect(forOperators).toMatchObject({ data: { type: 'chat.message', userId: String(user.id), message: { seq: 1, sender: 'user' } } });

      // The operator answers through the other instance; the user's socket hears both messages.
      await reply(holder.services, operatorId, BigInt(sent.conversationId), 'Heard you.');
      const forUser = (seq: number) => userSocket.take((message) => message.type === 'update' && message.channel === 'user'
        && chatOf(message.data)?.conversationId === sent.conversationId && chatOf(message.data)?.message?.seq === seq, `message ${seq} on the user channel`);
      expect(await forUser(1)).toMatchObject({ data: { kind: 'chat', chat: { type: 'chat.message', message: { sender: 'user' } } } });
      expect(await forUser(2)).toMatchObject({ data: { kind: 'chat', chat: { type: 'chat.message', message: { sender: 'operator', text: 'Heard you.' } } } });
    } finally {
      userSocket.close();
      operatorSocket.close();
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
