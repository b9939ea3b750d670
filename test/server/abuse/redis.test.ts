// Redis trouble, made real: the server reaches Redis through a TCP proxy this test can freeze
// (connections stay open, nothing passes: a hung Redis) or stop (connections cut, new ones
// refused: a dead Redis) and then restore. Calls that use the shared limits keep answering in the
// envelope — never a 5xx, never a hang longer than the command timeout — and use Redis again once
// it is back. The real Redis at 127.0.0.1:6379 is never touched by the outage.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { forEachDatabase } from '../helpers.ts';
import { paths } from '../../../src/api/contract/paths.ts';
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

forEachDatabase((server) => {
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
}, { redisUrl: proxyUrl });
