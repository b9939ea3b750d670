// Conformance: Web Push as a third-party client sees it. Paths and shapes read from the issue's
// list and src/api/contract/push.ts: GET /api/public/pushKey → { publicKey } (base64url P-256
// point); POST /api/user/appPush/subscribe { endpoint, keys: { p256dh, auth }, categories? };
// POST /api/user/appPush/unsubscribe { endpoint }; POST /api/user/appPush/state { endpoint } →
// { subscribed, categories }; price alerts at /api/user/appPriceAlert/{list,create,delete}. The
// server process is told PUSH_ALLOW_PRIVATE_ENDPOINTS=1 so it may reach this suite's https push
// service on 127.0.0.1, which checks the VAPID JWT and decrypts what arrives.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCode, startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient, tokenOf } from './specClient.ts';
import { describeAnswer, expectSuccess as ok } from './expectAnswer.ts';
import { TestPushService } from '../support/pushService.ts';

let server: RunningServer;
let client: SpecClient;
let pushService: TestPushService;

beforeAll(async () => {
  process.env.PUSH_ALLOW_PRIVATE_ENDPOINTS = '1';
  pushService = await TestPushService.start();
  server = await startServer();
  client = new SpecClient(server.baseUrl);
});

afterAll(async () => {
  await server?.stop();
  await pushService?.close();
  delete process.env.PUSH_ALLOW_PRIVATE_ENDPOINTS;
});

const unique = () => crypto.randomBytes(5).toString('hex');

async function registerAccount() {
  const email = `conf-push-${unique()}@example.test`;
  const password = `Conf${unique()}9`;
  expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
  const code = await readCode(server.dataDir, email, 'email');
  const registered = await client.register({ accountType: 'email', account: email, password, code });
  const token = tokenOf(registered);
  expect(token, describeAnswer(registered)).toEqual(expect.any(String));
  return token!;
}

describe('web push', () => {
  it('gives the VAPID public key: an uncompressed P-256 point in base64url', async () => {
    const answer = await client.get<{ publicKey: string }>('/public/pushKey');
    ok(answer);
    const point = Buffer.from(answer.envelope!.result.publicKey, 'base64url');
    expect(point).toHaveLength(65);
    expect(point[0]).toBe(4);
  });

  it('subscribes, reports the state, unsubscribes; refuses without a session and refuses http endpoints', async () => {
    const token = await registerAccount();
    const browser = pushService.subscription();
    const body = { endpoint: browser.endpoint, keys: browser.keys, categories: ['notices', 'price_alerts'] };
    expect((await client.post('/user/appPush/subscribe', body)).status).toBe(401);
    const subscribed = await client.post<{ subscribed: boolean; categories: string[] }>('/user/appPush/subscribe', body, token);
    ok(subscribed);
    expect(subscribed.envelope!.result).toEqual({ subscribed: true, categories: ['notices', 'price_alerts'] });
    const state = await client.post<{ subscribed: boolean; categories: string[] }>('/user/appPush/state', { endpoint: browser.endpoint }, token);
    expect(state.envelope!.result).toEqual({ subscribed: true, categories: ['notices', 'price_alerts'] });
    ok(await client.post('/user/appPush/unsubscribe', { endpoint: browser.endpoint }, token));
    const after = await client.post<{ subscribed: boolean }>('/user/appPush/state', { endpoint: browser.endpoint }, token);
    expect(after.envelope!.result.subscribed).toBe(false);

    const plain = await client.post('/user/appPush/subscribe', { ...body, endpoint: 'http://127.0.0.1/push/x' }, token);
    expect(plain.status, describeAnswer(plain)).toBe(400);
    expect(errorOf(plain)).toBe('push_endpoint_refused');
    const badKeys = await client.post('/user/appPush/subscribe', { ...body, keys: { p256dh: browser.keys.p256dh, auth: 'AAAA' } }, token);
    expect(errorOf(badKeys)).toBe('push_keys_invalid');
  });

  it('a price alert near the live price fires as an encrypted push once the price crosses it', async () => {
    const token = await registerAccount();
    const browser = pushService.subscription();
    ok(await client.post('/user/appPush/subscribe', { endpoint: browser.endpoint, keys: browser.keys, categories: ['price_alerts'] }, token));
    const price = await client.get<{ price: string }>('/trade/appSymbol/price', { symbol: 'BTCUSDT' });
    ok(price);
    // One cent either side of the last price: the next tick that moves crosses one of them.
    const cents = BigInt(price.envelope!.result.price.replace('.', ''));
    const level = (units: bigint) => `${units / 100n}.${String(units % 100n).padStart(2, '0')}`;
    for (const [direction, units] of [['above', cents + 1n], ['below', cents - 1n]] as const) {
      ok(await client.post('/user/appPriceAlert/create', { symbol: 'BTCUSDT', direction, price: level(units) }, token));
    }
    const list = await client.get<{ id: string; direction: string; active: boolean }[]>('/user/appPriceAlert/list', {}, token);
    expect(list.envelope!.result).toHaveLength(2);
    await pushService.until(() => pushService.pushesTo(browser.id).length > 0);
    expect(pushService.errors).toEqual([]);
    const [push] = pushService.pushesTo(browser.id);
    expect(push.payload).toMatchObject({ category: 'price_alerts', kind: 'price_alert', route: '/kline?symbol=BTCUSDT' });
    expect(push.payload.title).toMatch(/^BTCUSDT (rose above|fell below) \d+\.\d{2}$/);
    const key = (await client.get<{ publicKey: string }>('/public/pushKey')).envelope!.result.publicKey;
    expect(push.vapidKey).toBe(key);

    // Another account cannot delete it.
    const stranger = await registerAccount();
    const id = list.envelope!.result[0].id;
    expect(errorOf(await client.post('/user/appPriceAlert/delete', { id }, stranger))).toBe('not_found');
    ok(await client.post('/user/appPriceAlert/delete', { id }, token));
  });
});
