// Redis trouble, made real: the server reaches Redis through a TCP proxy this test can freeze
// (connections stay open, nothing passes: a hung Redis) or stop (connections cut, new ones
// refused: a dead Redis) and then restore. Calls that use the shared limits keep answering in the
// envelope — never a 5xx, never a hang longer than the command timeout — and use Redis again once
// it is back. The market bus hands the leader's updates to its own sockets whatever Redis does
// (and only once while Redis works), and the health answer says "degraded" while the instance's
// bus is cut off. The real Redis at 127.0.0.1:6379 is never touched by the outage.
import net from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { forEachDatabase, TestClock } from '../helpers.ts';
import { eventually, SocketClient, socketUrl } from '../realtimeHelpers.ts';
import { buildApp, type BuiltApp } from '../../../server/app.ts';
import { loadConfig } from '../../../server/lib/config.ts';
import { createKeys } from '../../../server/plugins/encryption.ts';
import type { MarketBus, MarketUpdate } from '../../../server/domain/core/market/bus.ts';
import { redisBus } from '../../../server/domain/core/market/redisBus.ts';
import { MarketEngine, seededSimulator, simulatorSource } from '../../../server/domain/core/market/engine.ts';
import { symbolByCode } from '../../../server/domain/core/market/symbols.ts';
import { apiPrefix, paths } from '../../../src/api/contract/paths.ts';
import { redisRateLimiter, memoryRateLimiter } from '../../../server/lib/rateLimiter.ts';
import { redisClient } from '../../../server/lib/redisClient.ts';

type ProxyState = 'open' | 'frozen' | 'stopped';

class OutageProxy {
  state: ProxyState = 'open';
  readonly #pairs = new Set<[net.Socket, net.Socket]>();
  readonly #server = net.createServer((client) => {
    if (this.state === 'stopped') return void client.destroy();
    const upstream = net.connect(6379, '127.0.0.1');
    const pair: [net.Socket, net.Socket] = [client, upstream];
    this.#pairs.add(pair);
    const forward = (from: net.Socket, to: net.Socket) => from.on('data', (chunk) => {
      if (this.state === 'open') to.write(chunk);
    });
    forward(client, upstream);
    forward(upstream, client);
    const end = () => { client.destroy(); upstream.destroy(); this.#pairs.delete(pair); };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `redis://127.0.0.1:${(this.#server.address() as net.AddressInfo).port}`;
  }

  set(state: ProxyState) {
    this.state = state;
    if (state === 'stopped') for (const [client, upstream] of this.#pairs) { client.destroy(); upstream.destroy(); }
  }

  /** Frozen connections would swallow replies sent meanwhile: a thaw starts them afresh. */
  thaw() {
    this.set('stopped');
    this.state = 'open';
  }

  close() {
    this.set('stopped');
    return new Promise((resolve) => this.#server.close(resolve));
  }
}

const proxy = new OutageProxy();
const proxyUrl = await proxy.listen();
afterAll(() => proxy.close());

describe('the Redis rate limiter in an outage', () => {
  let redis: Redis;
  const outages: unknown[] = [];
  beforeAll(() => { redis = redisClient(proxyUrl, () => {}); });
  afterAll(() => redis.disconnect());

  it('counts in Redis with the window set in the same step as the count', async () => {
    const limiter = redisRateLimiter(redis, { onOutage: (error) => outages.push(error) });
    const key = `test-atomic-${process.pid}-${Date.now()}`;
    await limiter.hit(key, 5, 60_000);
    const direct = new Redis('redis://127.0.0.1:6379');
    try {
      expect(Number(await direct.get(`bourse:rl:${key}`))).toBe(1);
      const ttl = await direct.pttl(`bourse:rl:${key}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      await direct.del(`bourse:rl:${key}`);
    } finally {
      direct.disconnect();
    }
    expect(outages).toHaveLength(0);
  });

  it('falls back to its own counters while Redis hangs or is down, still enforcing the limit', async () => {
    const fallback = memoryRateLimiter();
    const limiter = redisRateLimiter(redis, { fallback, onOutage: (error) => outages.push(error) });
    for (const state of ['frozen', 'stopped'] as const) {
      proxy.set(state);
      const key = `test-outage-${state}-${process.pid}`;
      for (let i = 0; i < 3; i += 1) await limiter.hit(key, 3, 60_000);
      await expect(limiter.hit(key, 3, 60_000)).rejects.toMatchObject({ statusCode: 429, errorCode: 'rate_limited' });
      expect(await fallback.count(key, 60_000)).toBe(4);
      proxy.thaw();
    }
    expect(outages.length).toBeGreaterThan(0);
  });
});

describe('the market bus in an outage', () => {
  const channel = `bourse-test:market:${randomBytes(6).toString('hex')}`;
  // The leader reaches Redis through the proxy; the follower straight, so only the leader is cut off.
  let leader: MarketBus;
  let follower: MarketBus;
  const onLeader: number[] = [];
  const onFollower: number[] = [];
  const update = (timeMs: number): MarketUpdate => ({ timeMs, tickers: [], candles: [] });
  beforeAll(async () => {
    leader = await redisBus(proxyUrl, { channel, probeIntervalMs: 50 });
    follower = await redisBus('redis://127.0.0.1:6379', { channel, probeIntervalMs: 50 });
    leader.subscribe((received) => onLeader.push(received.timeMs));
    follower.subscribe((received) => onFollower.push(received.timeMs));
  });
  afterAll(async () => {
    await leader?.close();
    await follower?.close();
  });

  it('hands an update to its own listeners at once and to the other instances through Redis, never twice', async () => {
    await leader.publish(update(1));
    expect(onLeader).toEqual([1]);
    await eventually(() => onFollower.includes(1), 'the follower gets the leader\'s update');
    // Redis delivers in order: once the follower's later update is back at the leader, the
    // leader's own echo of its update has come back too, and was dropped.
    await follower.publish(update(2));
    await eventually(() => onLeader.includes(2), 'the leader gets the follower\'s update');
    expect(onLeader).toEqual([1, 2]);
    expect(onFollower).toEqual([1, 2]);
    expect(leader.connected).toBe(true);
    expect(follower.connected).toBe(true);
  });

  it('keeps feeding its own listeners while Redis hangs or is down, says it is not connected, and recovers', async () => {
    let timeMs = 100;
    for (const state of ['frozen', 'stopped'] as const) {
      proxy.set(state);
      timeMs += 1;
      const cutOff = timeMs;
      await leader.publish(update(cutOff));
      expect(onLeader.at(-1)).toBe(cutOff);
      await eventually(() => !leader.connected, `the bus notices that Redis is ${state}`);
      timeMs += 1;
      await leader.publish(update(timeMs));
      expect(onLeader.at(-1)).toBe(timeMs);

      proxy.thaw();
      await eventually(() => leader.connected, `the bus is connected again after Redis was ${state}`);
      timeMs += 1;
      const after = timeMs;
      await leader.publish(update(after));
      await eventually(() => onFollower.includes(after), 'the follower gets updates again');
      // The leader subscribed again on its new connection: the follower's updates reach it.
      timeMs += 1;
      const fromFollower = timeMs;
      await follower.publish(update(fromFollower));
      await eventually(() => onLeader.includes(fromFollower), 'the leader hears the channel again');
      // What was published while Redis hung may reach the follower late (the client resends what
      // went unanswered), but in order; the leader got each of its updates once.
      expect(onFollower).toEqual([...onFollower].sort((a, b) => a - b));
      expect(new Set(onFollower).size).toBe(onFollower.length);
      expect(new Set(onLeader).size).toBe(onLeader.length);
    }
  });
});

forEachDatabase((server) => {
  describe('an instance whose market bus is cut off from Redis', () => {
    let built: BuiltApp;
    let bus: MarketBus;
    let engine: MarketEngine;
    const clock = new TestClock();
    const specs = [symbolByCode.get('BTCUSDT')!];
    const tick = async () => {
      clock.advance(1000);
      await engine.tickOnce(clock.now().getTime());
    };
    const health = async () => {
      const reply = await built.app.inject({ method: 'GET', url: `${apiPrefix}${paths.health}` });
      return JSON.parse(reply.body).result as { ready: boolean; redis: string };
    };

    beforeAll(async () => {
      bus = await redisBus(proxyUrl, { channel: `bourse-test:market:${randomBytes(6).toString('hex')}`, probeIntervalMs: 50 });
      const config = { ...loadConfig({}), dataDir: server.dataDir, webRoot: path.join(server.dataDir, 'no-web') };
      built = await buildApp({ config, database: server.database, keys: createKeys(), clock, logger: false, marketBus: bus });
      engine = new MarketEngine({
        db: server.db, clock, bus, source: simulatorSource(seededSimulator('redis-outage'), specs),
        seed: 'redis-outage', tickIntervalMs: 1000, tickRetentionMs: 3_600_000, specs,
      });
      await engine.init();
      await built.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      proxy.thaw();
      await built?.app.close();
      await bus?.close();
    });

    it('sends the leader\'s ticks to its own sockets while Redis is down, and says degraded until it is back', async () => {
      await tick();
      expect(await health()).toMatchObject({ ready: true, redis: 'ok' });
      const client = await SocketClient.connect(socketUrl(built.app));
      try {
        client.send({ op: 'subscribe', channels: ['ticker.BTCUSDT'] });
        const snapshot = await client.nextOn('ticker.BTCUSDT');
        for (const state of ['stopped', 'frozen'] as const) {
          proxy.set(state);
          await eventually(async () => (await health()).redis === 'degraded', `health says degraded while Redis is ${state}`);
          await tick();
          const update = await client.nextOn('ticker.BTCUSDT');
          expect(update).toMatchObject({ type: 'update', data: { symbol: 'BTCUSDT', time: clock.now().getTime() } });
          expect(update.seq).toBeGreaterThan(snapshot.seq);
          proxy.thaw();
          await eventually(async () => (await health()).redis === 'ok', `health says ok once Redis is back from ${state}`);
        }
        // Back on Redis, the ticks still reach the socket, in order.
        await tick();
        const again = await client.nextOn('ticker.BTCUSDT');
        expect(again.data).toMatchObject({ time: clock.now().getTime() });
        await tick();
        const next = await client.nextOn('ticker.BTCUSDT');
        expect(next.seq).toBe(again.seq + 1);
        expect(next.data).toMatchObject({ time: clock.now().getTime() });
      } finally {
        client.close();
      }
    });
  });

  describe('calls that use the shared limits while Redis is out', () => {
    it('answer checkAccount, code sending and login in the envelope while Redis hangs, is down and comes back', async () => {
      const account = await server.registerByEmail();
      for (const state of ['frozen', 'stopped', 'open'] as const) {
        proxy.set(state);
        server.freshIp();
        const check = await server.get(paths.checkAccount, { account: account.email! });
        expect(check.status).toBe(200);
        const code = await server.requestEmailCode(server.uniqueEmail(), 'register');
        expect(code.status).toBe(200);
        const login = await server.post(paths.login, { account: account.account, password: account.password });
        expect(login.status).toBe(200);
        expect(login.body.result.token).toEqual(expect.any(String));
        if (state !== 'open') proxy.thaw();
      }
      expect(server.services.signals.redisFailedAtMs).toBeDefined();
    });
  });
}, { databases: 'embedded', redisUrl: proxyUrl, redisCommandTimeoutMs: 250 });
