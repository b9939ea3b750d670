// Web Push end to end on the server: the app sends to the tests' https push service, which checks
// the VAPID JWT and decrypts each payload with the subscription's own keys (no mock of web-push).
// Subscriptions and price alerts are each user's own; endpoints into private networks are refused.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { priceAlerts, pushSubscriptions, userMessages } from '../../../server/db/schema.ts';
import type { TickerState } from '../../../server/domain/core/market/bus.ts';
import { writeMessage } from '../../../server/domain/kernel/messages.ts';
import { pushPaths } from '../../../src/api/contract/push.ts';
import { TestPushService, type TestSubscription } from '../../support/pushService.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import { createOperator, operatorLogin } from '../adminHelpers.ts';
import { contentAdminPaths } from '../../../src/api/contract/content.ts';

function ticker(symbol: string, last: bigint, timeMs: number): TickerState {
  return { symbol, timeMs, last, open24h: last, high24h: last, low24h: last, volume24h: 0n, quoteVolume24h: 0n, open: true, source: 'test' };
}

async function publishPrice(server: TestServer, symbol: string, last: bigint) {
  server.clock.advance(1000);
  const timeMs = server.clock.now().getTime();
  await server.marketBus.publish({ timeMs, candles: [], tickers: [ticker(symbol, last, timeMs)] });
  // The alert engine has handled the update and every push it caused went out.
  await server.services.push!.idle();
}

async function userId(server: TestServer, email: string): Promise<bigint> {
  return (await server.userByEmail(email)).id;
}

const subscribeBody = (subscription: TestSubscription, categories?: string[]) =>
  ({ endpoint: subscription.endpoint, keys: subscription.keys, ...(categories ? { categories } : {}) });

describe('web push to a push service that checks and decrypts', () => {
  let service: TestPushService;
  beforeAll(async () => {
    process.env.PUSH_ALLOW_PRIVATE_ENDPOINTS = '1';
    service = await TestPushService.start();
  });
  afterAll(async () => {
    delete process.env.PUSH_ALLOW_PRIVATE_ENDPOINTS;
    await service.close();
  });

  forEachDatabase((server) => {
    it('gives the VAPID public key, made once under DATA_DIR/keys with mode 0600 and kept over a restart', async () => {
      const first = expectOk(await server.get(pushPaths.publicKey)).body.result.publicKey as string;
      expect(Buffer.from(first, 'base64url')).toHaveLength(65);
      expect(Buffer.from(first, 'base64url')[0]).toBe(4);
      const file = path.join(server.dataDir, 'keys', 'vapid.json');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      await server.restartApp();
      expect(expectOk(await server.get(pushPaths.publicKey)).body.result.publicKey).toBe(first);
    });

    it('pushes a notice to the subscribers of the notices category only, encrypted for each', async () => {
      const publicKey = expectOk(await server.get(pushPaths.publicKey)).body.result.publicKey as string;
      service.expectedKey = publicKey;
      const reader = await server.registerByEmail();
      const other = await server.registerByEmail();
      const wantsNotices = service.subscription();
      const moneyOnly = service.subscription();
      expect(expectOk(await server.post(pushPaths.subscribe, subscribeBody(wantsNotices), { token: reader.token })).body.result)
        .toEqual({ subscribed: true, categories: ['notices', 'trading', 'money', 'chat', 'security', 'price_alerts'] });
      expectOk(await server.post(pushPaths.subscribe, subscribeBody(moneyOnly, ['money']), { token: other.token }));
      expect(expectOk(await server.post(pushPaths.state, { endpoint: moneyOnly.endpoint }, { token: other.token })).body.result)
        .toEqual({ subscribed: true, categories: ['money'] });

      const outcome = await server.services.push!.toCategory('notices', {
        title: 'Maintenance tonight', body: 'Trading pauses 02:00–02:30 UTC.', route: '/home', category: 'notices', tag: 'notice-1',
      });
      expect(outcome.failed).toBe(0);
      expect(service.errors).toEqual([]);
      const [push] = service.pushesTo(wantsNotices.id);
      expect(push.payload).toMatchObject({ title: 'Maintenance tonight', body: 'Trading pauses 02:00–02:30 UTC.', route: '/home', category: 'notices', tag: 'notice-1' });
      expect(push.vapidKey).toBe(publicKey);
      expect(push.claims.aud).toBe(service.origin);
      expect(push.ttl).toBeGreaterThan(0);
      expect(service.pushesTo(moneyOnly.id)).toEqual([]);

      // An audience narrows it to those users.
      const narrowed = await server.services.push!.toCategory('money', {
        title: 'x', body: 'y', route: '/home', category: 'money',
      }, [await userId(server, reader.email!)]);
      expect(narrowed.sent).toBe(1);
      expect(service.pushesTo(moneyOnly.id)).toEqual([]);
    });

    it('pushes a notice an operator publishes in the back office to the notices subscribers', async () => {
      const admin = await operatorLogin(server, await createOperator(server));
      const user = await server.registerByEmail();
      const browser = service.subscription();
      expectOk(await server.post(pushPaths.subscribe, subscribeBody(browser, ['notices']), { token: user.token }));
      const notice = expectOk(await server.post(contentAdminPaths.notices, { title: 'Deposits on TRON resume', body: '<p>From 10:00 UTC.</p>' }, { token: admin })).body.result;
      await service.until(() => service.pushesTo(browser.id).length > 0);
      await server.services.push!.idle();
      expect(service.errors).toEqual([]);
      expect(service.pushesTo(browser.id)).toHaveLength(1);
      expect(service.pushesTo(browser.id)[0].payload).toMatchObject({ title: 'Deposits on TRON resume', category: 'notices', route: `/noticeDetail?id=${notice.id}` });
    });

    it('pushes a written internal message after commit, with its kind, params and route', async () => {
      const user = await server.registerByEmail();
      const id = await userId(server, user.email!);
      const browser = service.subscription();
      expectOk(await server.post(pushPaths.subscribe, subscribeBody(browser, ['money']), { token: user.token }));
      const written = await server.db.transaction((tx) => writeMessage(tx, {
        userId: id, kind: 'deposit_credited', category: 'money', params: { amount: '125.50', currency: 'USDT' },
        route: '/chongzhitixianRecord', dedupeKey: 'deposit:test:1',
      }, server.clock.now()));
      server.services.push!.deliver([written!]);
      await server.services.push!.idle();
      const [push] = service.pushesTo(browser.id);
      expect(push.payload).toMatchObject({
        title: 'Deposit credited', body: '125.50 USDT has been credited to your account.', route: '/chongzhitixianRecord',
        category: 'money', kind: 'deposit_credited', params: { amount: '125.50', currency: 'USDT' },
      });
      expect(push.urgency).toBe('normal');
    });

    it('deletes a subscription the push service answers 410 for, and counts other failures', async () => {
      const user = await server.registerByEmail();
      const id = await userId(server, user.email!);
      const gone = service.subscription();
      const failing = service.subscription();
      expectOk(await server.post(pushPaths.subscribe, subscribeBody(gone), { token: user.token }));
      expectOk(await server.post(pushPaths.subscribe, subscribeBody(failing), { token: user.token }));
      service.answer(gone.id, 410);
      service.answer(failing.id, 503);
      const outcome = await server.services.push!.toUser(id, 'security', { title: 'New login', body: 'A new device signed in.', route: '/anquanZhongxin', category: 'security' });
      expect(outcome).toEqual({ sent: 0, removed: 1, failed: 1 });
      const rows = await server.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, id));
      expect(rows.map((row) => row.endpoint)).toEqual([failing.endpoint]);
      expect(rows[0].failures).toBe(1);
    });

    it('fires a price alert once on a crossing: an internal message and a push; a repeating one again only after the price went back', async () => {
      const user = await server.registerByEmail();
      const id = await userId(server, user.email!);
      const browser = service.subscription();
      expectOk(await server.post(pushPaths.subscribe, subscribeBody(browser, ['price_alerts']), { token: user.token }));
      await publishPrice(server, 'BTCUSDT', 6_900_000n);
      const once = expectOk(await server.post(pushPaths.createAlert, { symbol: 'BTC/USDT', direction: 'above', price: '70000' }, { token: user.token })).body.result;
      expect(once).toMatchObject({ symbol: 'BTCUSDT', direction: 'above', price: '70000.00', repeat: false, active: true });
      const repeat = expectOk(await server.post(pushPaths.createAlert, { symbol: 'BTCUSDT', direction: 'below', price: '68000.5', repeat: true }, { token: user.token })).body.result;

      await publishPrice(server, 'BTCUSDT', 6_950_000n); // no crossing
      expect(service.pushesTo(browser.id)).toEqual([]);
      await publishPrice(server, 'BTCUSDT', 7_000_100n); // crosses 70000 upwards
      expect(service.pushesTo(browser.id).map((push) => push.payload.title)).toEqual(['BTCUSDT rose above 70000.00']);
      expect(service.pushesTo(browser.id)[0].payload).toMatchObject({ route: '/kline?symbol=BTCUSDT', category: 'price_alerts', kind: 'price_alert' });
      await publishPrice(server, 'BTCUSDT', 6_990_000n);
      await publishPrice(server, 'BTCUSDT', 7_010_000n); // crosses again: a "once" alert is off
      expect(service.pushesTo(browser.id)).toHaveLength(1);
      const [onceRow] = await server.db.select().from(priceAlerts).where(eq(priceAlerts.id, BigInt(once.id)));
      expect(onceRow.active).toBe(false);

      await publishPrice(server, 'BTCUSDT', 6_800_000n); // below 68000.50
      await publishPrice(server, 'BTCUSDT', 6_700_000n); // still below: no second fire
      await publishPrice(server, 'BTCUSDT', 6_900_000n); // back above: re-armed
      await publishPrice(server, 'BTCUSDT', 6_795_000n); // below again: fires again
      const titles = service.pushesTo(browser.id).map((push) => push.payload.title);
      expect(titles).toEqual(['BTCUSDT rose above 70000.00', 'BTCUSDT fell below 68000.50', 'BTCUSDT fell below 68000.50']);
      const messages = await server.db.select().from(userMessages).where(and(eq(userMessages.userId, id), eq(userMessages.kind, 'price_alert')));
      expect(messages).toHaveLength(3);
      expect(messages[0]).toMatchObject({ category: 'price_alerts', route: '/kline?symbol=BTCUSDT' });
      const list = expectOk(await server.get(pushPaths.alerts, {}, { token: user.token })).body.result as { id: string; active: boolean }[];
      expect(list.find((alert) => alert.id === repeat.id)).toMatchObject({ active: true });
      expect(list.find((alert) => alert.id === once.id)).toMatchObject({ active: false });
    });

    it('fires an alert once when two instances see the same tick (the database update decides)', async () => {
      const user = await server.registerByEmail();
      const id = await userId(server, user.email!);
      await publishPrice(server, 'ETHUSDT', 300_000n);
      const alert = expectOk(await server.post(pushPaths.createAlert, { symbol: 'ETHUSDT', direction: 'above', price: '3100', repeat: true }, { token: user.token })).body.result;
      // A second engine on the same database, as another instance would run it.
      const { PriceAlertEngine } = await import('../../../server/domain/programs/push/alerts.ts');
      const delivered: unknown[] = [];
      const second = new PriceAlertEngine({ db: server.db, clock: server.clock, delivery: { deliver: (m) => delivered.push(...m) } });
      await second.reload();
      second.index.crossings('ETHUSDT', 300_000n);
      server.clock.advance(1000);
      const timeMs = server.clock.now().getTime();
      const update = { timeMs, candles: [], tickers: [ticker('ETHUSDT', 311_000n, timeMs)] };
      second.onUpdate(update);
      await server.marketBus.publish(update);
      await second.drained();
      await server.services.push!.idle();
      second.close();
      const rows = await server.db.select().from(userMessages).where(and(eq(userMessages.userId, id), eq(userMessages.kind, 'price_alert')));
      expect(rows).toHaveLength(1);
      expect(rows[0].params).toMatchObject({ symbol: 'ETHUSDT', price: '3100.00', last: '3110.00' });
      const [row] = await server.db.select().from(priceAlerts).where(eq(priceAlerts.id, BigInt(alert.id)));
      expect(row.lastFiredAt?.getTime()).toBe(timeMs);
    });

    it('keeps price alerts each user\'s own, known symbols only, within the precision, at most 50 active', async () => {
      const owner = await server.registerByEmail();
      const stranger = await server.registerByEmail();
      const alert = expectOk(await server.post(pushPaths.createAlert, { symbol: 'EURUSD', direction: 'below', price: '1.05' }, { token: owner.token })).body.result;
      expect(alert.price).toBe('1.05000');
      expectRefused(await server.post(pushPaths.deleteAlert, { id: alert.id }, { token: stranger.token }), 404, 'not_found');
      expect(expectOk(await server.get(pushPaths.alerts, {}, { token: stranger.token })).body.result).toEqual([]);
      expectRefused(await server.post(pushPaths.createAlert, { symbol: 'FOOBAR', direction: 'above', price: '1' }, { token: owner.token }), 400, 'unknown_symbol');
      expectRefused(await server.post(pushPaths.createAlert, { symbol: 'BTCUSDT', direction: 'above', price: '1.001' }, { token: owner.token }), 400, 'price_alert_price_invalid');
      expectRefused(await server.post(pushPaths.createAlert, { symbol: 'BTCUSDT', direction: 'above', price: '0' }, { token: owner.token }), 400, 'price_alert_price_invalid');
      expectRefused(await server.post(pushPaths.createAlert, { symbol: 'BTCUSDT', direction: 'sideways', price: '1' }, { token: owner.token }), 400, 'invalid_request');
      expectRefused(await server.post(pushPaths.createAlert, { symbol: 'BTCUSDT', direction: 'above', price: '1e5' }, { token: owner.token }), 400, 'invalid_request');
      expectRefused(await server.get(pushPaths.alerts), 401, 'unauthorized');
      for (let i = 1; i < 50; i += 1) {
        expectOk(await server.post(pushPaths.createAlert, { symbol: 'BTCUSDT', direction: 'above', price: String(70_000 + i) }, { token: owner.token }));
      }
      expectRefused(await server.post(pushPaths.createAlert, { symbol: 'BTCUSDT', direction: 'above', price: '1' }, { token: owner.token }), 409, 'price_alert_limit');
      expect(await server.db.select({ n: sql<number>`count(*)::int` }).from(priceAlerts).where(eq(priceAlerts.userId, await userId(server, owner.email!))))
        .toEqual([{ n: 50 }]);
      expectOk(await server.post(pushPaths.deleteAlert, { id: alert.id }, { token: owner.token }));
      expectOk(await server.post(pushPaths.createAlert, { symbol: 'BTCUSDT', direction: 'above', price: '1' }, { token: owner.token }));
    });

    it('moves an endpoint to another account only with the keys it was subscribed with; unsubscribe touches only one\'s own', async () => {
      const first = await server.registerByEmail();
      const second = await server.registerByEmail();
      const browser = service.subscription();
      expectOk(await server.post(pushPaths.subscribe, subscribeBody(browser), { token: first.token }));
      const impostorKeys = service.subscription().keys;
      expectRefused(await server.post(pushPaths.subscribe, { endpoint: browser.endpoint, keys: impostorKeys }, { token: second.token }), 409, 'push_endpoint_taken');
      // Another account's unsubscribe leaves it in place.
      expectOk(await server.post(pushPaths.unsubscribe, { endpoint: browser.endpoint }, { token: second.token }));
      const owner = async () => (await server.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, browser.endpoint)))[0]?.userId;
      expect(await owner()).toBe(await userId(server, first.email!));
      expect(expectOk(await server.post(pushPaths.state, { endpoint: browser.endpoint }, { token: second.token })).body.result.subscribed).toBe(false);
      // The same browser signed into the second account: same keys, so it moves.
      expectOk(await server.post(pushPaths.subscribe, subscribeBody(browser, ['chat']), { token: second.token }));
      expect(await owner()).toBe(await userId(server, second.email!));
      expectOk(await server.post(pushPaths.unsubscribe, { endpoint: browser.endpoint }, { token: second.token }));
      expect(await owner()).toBeUndefined();
    });

    it('refuses keys that are not push keys, and stores nothing', async () => {
      const user = await server.registerByEmail();
      const browser = service.subscription();
      const notOnCurve = Buffer.alloc(65, 7);
      notOnCurve[0] = 4;
      const cases = [
        { p256dh: notOnCurve.toString('base64url'), auth: browser.keys.auth },
        { p256dh: browser.keys.p256dh.slice(0, 40), auth: browser.keys.auth },
        { p256dh: browser.keys.p256dh, auth: Buffer.alloc(8, 1).toString('base64url') },
      ];
      for (const keys of cases) {
        expectRefused(await server.post(pushPaths.subscribe, { endpoint: browser.endpoint, keys }, { token: user.token }), 400, 'push_keys_invalid');
      }
      expectRefused(await server.post(pushPaths.subscribe, { endpoint: browser.endpoint, keys: { p256dh: 'not base64!', auth: 'x' } }, { token: user.token }), 400, 'invalid_request');
      expectRefused(await server.post(pushPaths.subscribe, { ...subscribeBody(browser), categories: ['spam'] }, { token: user.token }), 400, 'invalid_request');
      expect(await server.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, browser.endpoint))).toEqual([]);
    });
  }, { databases: 'embedded' });
});

describe('push endpoints into private networks (PUSH_ALLOW_PRIVATE_ENDPOINTS unset)', () => {
  let service: TestPushService;
  beforeAll(async () => {
    delete process.env.PUSH_ALLOW_PRIVATE_ENDPOINTS;
    service = await TestPushService.start();
  });
  afterAll(() => service.close());

  forEachDatabase((server) => {
    it('refuses http, loopback, link-local, private and names resolving to loopback; stores nothing', async () => {
      const user = await server.registerByEmail();
      const keys = service.subscription().keys;
      const port = new URL(service.origin).port;
      const endpoints = [
        'http://127.0.0.1/push/x', 'http://169.254.169.254/latest/meta-data', 'https://169.254.169.254/latest/meta-data',
        'https://[::1]/push/x', `https://[::ffff:127.0.0.1]:${port}/push/x`, 'https://10.0.0.1/push/x', 'https://192.168.1.20/push',
        'https://100.64.0.1/push', 'https://[fd00::1]/push', 'https://[fe80::1]/push', 'https://0.0.0.0/push', 'https://0x7f.1/push',
        `https://localhost:${port}/push/x`, 'https://user:pw@push.example.com/x', 'ftp://push.example.com/x',
      ];
      for (const endpoint of endpoints) {
        const reply = await server.post(pushPaths.subscribe, { endpoint, keys }, { token: user.token });
        expect(reply.body?.result?.error, endpoint).toBe('push_endpoint_refused');
        expectRefused(reply, 400, 'push_endpoint_refused');
      }
      expect(await server.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, await userId(server, user.email!)))).toEqual([]);
    });

    it('refuses at send time a name that now resolves to loopback (DNS rebinding): no request leaves', async () => {
      const user = await server.registerByEmail();
      const id = await userId(server, user.email!);
      const browser = service.subscription();
      // As if localhost had resolved to a public address when it was subscribed.
      await server.db.insert(pushSubscriptions).values({
        userId: id, endpoint: browser.endpoint.replace('127.0.0.1', 'localhost'), p256dh: browser.keys.p256dh, auth: browser.keys.auth,
        categories: ['security'], createdAt: server.clock.now(),
      });
      await server.db.insert(pushSubscriptions).values({
        userId: id, endpoint: browser.endpoint, p256dh: browser.keys.p256dh, auth: browser.keys.auth,
        categories: ['security'], createdAt: server.clock.now(),
      });
      const outcome = await server.services.push!.toUser(id, 'security', { title: 't', body: 'b', route: '/my', category: 'security' });
      expect(outcome).toEqual({ sent: 0, removed: 0, failed: 2 });
      expect(service.accepted).toBe(0);
      expect(service.errors).toEqual([]);
    });
  }, { databases: 'embedded' });
});
