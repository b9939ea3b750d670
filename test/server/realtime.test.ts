// The realtime socket at /api/ws through the real server: a `ws` client subscribes, gets a
// snapshot of each channel and then the updates of a market engine driven tick by tick on the
// test clock, numbered without gaps; a client that loses an update resyncs; bad requests get
// errors while the rest of the request and the connection go on; limits hold; heartbeats flow and
// a silent connection is dropped. No assertion depends on how long anything took.
import { beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/api/contract/paths.ts';
import { candlePeriods, subscriptionsPerConnectionMax, type Candle, type Ticker } from '../../src/api/contract/market.ts';
import { symbolSpecs } from '../../server/domain/core/market/symbols.ts';
import { defaultRealtimeSettings } from '../../server/plugins/realtime/settings.ts';
import { expectOk, forEachDatabase } from './helpers.ts';
import { SocketClient, socketClients, socketUrl, startTestEngine } from './realtimeHelpers.ts';

forEachDatabase((server) => {
  let url: string;
  let tick: (count?: number) => Promise<void>;
  const connect = socketClients(() => url);

  beforeAll(async () => {
    ({ tick } = await startTestEngine(server));
    await tick(2);
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(server.app);
  });

  describe('GET /api/ws subscribe', () => {
    it('sends a snapshot of each channel equal to the REST answers, then updates numbered one after another', async () => {
      const client = await connect();
      const channels = ['tickers', 'ticker.BTCUSDT', 'candle.BTCUSDT.1m'];
      client.send({ op: 'subscribe', channels });
      expect((await client.next('subscribed')).channels).toEqual(channels);

      const tickers = await client.nextOn('tickers');
      expect(tickers.type).toBe('snapshot');
      expect(tickers.data).toEqual(expectOk(await server.get(paths.tickerList)).body.result);
      const btc = await client.nextOn('ticker.BTCUSDT');
      expect(btc.type).toBe('snapshot');
      expect(btc.data).toEqual((tickers.data as Ticker[]).find((ticker) => ticker.symbol === 'BTCUSDT'));
      const candle = await client.nextOn('candle.BTCUSDT.1m');
      const kline = expectOk(await server.get(paths.kline, { symbol: 'BTCUSDT', period: '1m', limit: '1' })).body.result;
      expect(candle).toMatchObject({ type: 'snapshot', data: kline.candles[0] });

      await tick(3);
      for (const snapshot of [tickers, btc, candle]) {
        for (let step = 1; step <= 3; step += 1) {
          const update = await client.nextOn(snapshot.channel);
          expect(update).toMatchObject({ type: 'update', seq: snapshot.seq + step });
        }
      }
      // The last update of each channel leaves the client where the REST calls are now.
      const now = server.clock.now().getTime();
      const list = expectOk(await server.get(paths.tickerList)).body.result as Ticker[];
      expect(list.find((ticker) => ticker.symbol === 'BTCUSDT')?.time).toBe(now);
      await pingBarrier(client);
      expect(client.unread.filter((message) => message.type === 'update')).toEqual([]);
    });

    it('carries in a tickers update only the tickers that changed, and the whole ticker in ticker.<SYMBOL>', async () => {
      const client = await connect();
      client.send({ op: 'subscribe', channels: ['tickers', 'ticker.ETHUSDT'] });
      await client.nextOn('tickers');
      await client.nextOn('ticker.ETHUSDT');
      await tick();
      const list = (await client.nextOn('tickers')).data as Ticker[];
      expect(list.map((ticker) => ticker.symbol).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);
      const eth = (await client.nextOn('ticker.ETHUSDT')).data as Ticker;
      expect(eth).toEqual(list.find((ticker) => ticker.symbol === 'ETHUSDT'));
      expect(eth).toMatchObject({ symbol: 'ETHUSDT', displayName: 'ETH/USDT', time: server.clock.now().getTime() });
    });

    it('numbers a channel once for every connection: two clients see the same seq', async () => {
      const first = await connect();
      const second = await connect();
      for (const client of [first, second]) client.send({ op: 'subscribe', channels: ['candle.ETHUSDT.5m'] });
      const [a, b] = await Promise.all([first.nextOn('candle.ETHUSDT.5m'), second.nextOn('candle.ETHUSDT.5m')]);
      expect(a.seq).toBe(b.seq);
      await tick();
      const [nextA, nextB] = await Promise.all([first.nextOn('candle.ETHUSDT.5m'), second.nextOn('candle.ETHUSDT.5m')]);
      expect(nextA).toEqual(nextB);
      expect(nextA.seq).toBe(a.seq + 1);
      expect((nextA.data as Candle).close).toMatch(/^\d+\.\d{2}$/);
    });

    it('subscribing again to a held channel acknowledges it without a new snapshot and does not double the updates', async () => {
      const client = await connect();
      client.send({ op: 'subscribe', channels: ['ticker.BTCUSDT'] });
      await client.next('subscribed');
      const first = await client.nextOn('ticker.BTCUSDT');
      client.send({ op: 'subscribe', channels: ['ticker.BTCUSDT', 'ticker.BTCUSDT'] });
      expect((await client.next('subscribed')).channels).toEqual(['ticker.BTCUSDT']);
      await pingBarrier(client);
      expect(client.unread.filter((message) => message.type === 'snapshot')).toEqual([]);
      await tick();
      expect(await client.nextOn('ticker.BTCUSDT')).toMatchObject({ type: 'update', seq: first.seq + 1 });
      await pingBarrier(client);
      expect(client.unread.filter((message) => message.type === 'update')).toEqual([]);
    });
  });

  describe('GET /api/ws resync', () => {
    it('answers a client that saw a gap in seq with a snapshot at the latest seq, and updates follow it', async () => {
      const client = await connect();
      client.send({ op: 'subscribe', channels: ['ticker.BTCUSDT'] });
      const snapshot = await client.nextOn('ticker.BTCUSDT');
      await tick(3);
      expect((await client.nextOn('ticker.BTCUSDT')).seq).toBe(snapshot.seq + 1);
      await client.nextOn('ticker.BTCUSDT'); // lost on the way, as far as the client knows
      const third = await client.nextOn('ticker.BTCUSDT');
      expect(third.seq).toBe(snapshot.seq + 3);
      // The client sees seq jump from +1 to +3 and asks for the channel's state again.
      client.send({ op: 'resync', channel: 'ticker.BTCUSDT' });
      const fresh = await client.nextOn('ticker.BTCUSDT');
      expect(fresh).toMatchObject({ type: 'snapshot', seq: third.seq, data: third.data });
      await tick();
      expect(await client.nextOn('ticker.BTCUSDT')).toMatchObject({ type: 'update', seq: third.seq + 1 });
    });

    it('stops the updates on unsubscribe and, on a new subscribe, starts again from a snapshot', async () => {
      const client = await connect();
      client.send({ op: 'subscribe', channels: ['candle.BTCUSDT.1h'] });
      const first = await client.nextOn('candle.BTCUSDT.1h');
      client.send({ op: 'unsubscribe', channels: ['candle.BTCUSDT.1h'] });
      expect((await client.next('unsubscribed')).channels).toEqual(['candle.BTCUSDT.1h']);
      await tick(2);
      await pingBarrier(client);
      expect(client.unread.filter((message) => 'channel' in message && message.channel === 'candle.BTCUSDT.1h')).toEqual([]);
      client.send({ op: 'subscribe', channels: ['candle.BTCUSDT.1h'] });
      const again = await client.nextOn('candle.BTCUSDT.1h');
      expect(again.type).toBe('snapshot');
      expect(again.seq).toBeGreaterThanOrEqual(first.seq);
      expect(again.data).not.toEqual(first.data);
      await tick();
      expect(await client.nextOn('candle.BTCUSDT.1h')).toMatchObject({ type: 'update', seq: again.seq + 1 });
    });

    it('refuses resync and unsubscribe of a channel the connection does not hold with not_subscribed', async () => {
      const client = await connect();
      client.send({ op: 'resync', channel: 'ticker.ETHUSDT' });
      expect(await client.next('error')).toMatchObject({ code: 'not_subscribed', channel: 'ticker.ETHUSDT' });
      client.send({ op: 'unsubscribe', channels: ['ticker.ETHUSDT'] });
      expect(await client.next('error')).toMatchObject({ code: 'not_subscribed', channel: 'ticker.ETHUSDT' });
    });
  });

  describe('GET /api/ws bad requests', () => {
    it.each([
      { name: 'text that is not JSON', frame: 'subscribe tickers' },
      { name: 'an unknown op', frame: JSON.stringify({ op: 'dance' }) },
      { name: 'a subscribe without a channel list', frame: JSON.stringify({ op: 'subscribe', channels: 'tickers' }) },
      { name: 'a channel list with a number in it', frame: JSON.stringify({ op: 'subscribe', channels: ['tickers', 7] }) },
      { name: 'a JSON array', frame: '[1,2]' },
    ])('answers $name with a malformed error and keeps the connection working', async ({ frame }) => {
      const client = await connect();
      client.sendRaw(frame);
      const error = await client.next('error');
      expect(error.code).toBe('malformed');
      expect(error.message.length).toBeGreaterThan(10);
      client.send({ op: 'subscribe', channels: ['ticker.ETHUSDT'] });
      expect((await client.nextOn('ticker.ETHUSDT')).type).toBe('snapshot');
      client.send({ op: 'ping' });
      expect((await client.next('pong')).time).toBe(server.clock.now().getTime());
    });

    it('answers a binary frame with a malformed error', async () => {
      const client = await connect();
      client.sendRaw(Buffer.from(JSON.stringify({ op: 'ping' })), true);
      expect((await client.next('error')).code).toBe('malformed');
      client.send({ op: 'ping' });
      await client.next('pong');
    });

    it('answers unknown channels, symbols or periods with one unknown_channel error naming them and subscribes the rest', async () => {
      const client = await connect();
      const bad = ['weather', 'ticker.NOPEUSDT', 'candle.BTCUSDT.2m', 'candle.BTCUSDT', 'ticker.BTCUSDT.1m', 'tickers.BTCUSDT'];
      client.send({ op: 'subscribe', channels: [bad[0], bad[1], 'ticker.ETHUSDT', ...bad.slice(2)] });
      const error = await client.next('error');
      expect(error).toMatchObject({ code: 'unknown_channel', channel: bad[0], channels: bad });
      expect(error.message).toContain('6 channels were refused');
      expect((await client.next('subscribed')).channels).toEqual(['ticker.ETHUSDT']);
      const snapshot = await client.nextOn('ticker.ETHUSDT');
      await tick();
      expect(await client.nextOn('ticker.ETHUSDT')).toMatchObject({ type: 'update', seq: snapshot.seq + 1 });
    });

    it(`holds at most ${subscriptionsPerConnectionMax} subscriptions and honours the rest of the request up to the cap`, async () => {
      const client = await connect();
      const wanted = allChannels().slice(0, subscriptionsPerConnectionMax + 2);
      // One message may name as many channels as a connection may hold, so two go in a second one.
      client.send({ op: 'subscribe', channels: wanted.slice(0, subscriptionsPerConnectionMax - 1) });
      client.send({ op: 'subscribe', channels: wanted.slice(subscriptionsPerConnectionMax - 1) });
      const refused = wanted.slice(subscriptionsPerConnectionMax);
      expect((await client.next('subscribed')).channels).toEqual(wanted.slice(0, subscriptionsPerConnectionMax - 1));
      expect(await client.next('error')).toMatchObject({ code: 'too_many_subscriptions', channel: refused[0], channels: refused });
      expect((await client.next('subscribed')).channels).toEqual([wanted[subscriptionsPerConnectionMax - 1]]);
      for (const channel of wanted.slice(0, subscriptionsPerConnectionMax)) {
        expect((await client.nextOn(channel)).type).toBe('snapshot');
      }
      // A held channel again is not a new subscription; after one unsubscribe there is room for one.
      client.send({ op: 'subscribe', channels: ['tickers', refused[0]] });
      expect(await client.next('error')).toMatchObject({ code: 'too_many_subscriptions', channel: refused[0] });
      expect((await client.next('subscribed')).channels).toEqual(['tickers']);
      client.send({ op: 'unsubscribe', channels: ['tickers'] });
      await client.next('unsubscribed');
      client.send({ op: 'subscribe', channels: [refused[0]] });
      expect((await client.next('subscribed')).channels).toEqual([refused[0]]);
    });

    it(`refuses a message naming more than ${subscriptionsPerConnectionMax} channels whole, with one malformed error`, async () => {
      const client = await connect();
      client.send({ op: 'subscribe', channels: allChannels().slice(0, subscriptionsPerConnectionMax + 1) });
      const error = await client.next('error');
      expect(error).toMatchObject({ code: 'malformed' });
      expect(error.message).toContain(`at most ${subscriptionsPerConnectionMax} channels`);
      await pingBarrier(client);
      expect(client.unread).toEqual([]);
    });

    it('closes a connection that sends more messages than the limit allows (1008)', async () => {
      const client = await connect();
      for (let count = 0; count <= defaultRealtimeSettings.messagesPerWindowMax; count += 1) client.send({ op: 'ping' });
      expect((await client.closedWithin()).code).toBe(1008);
      expect(client.unread.filter((message) => message.type === 'pong').length).toBeLessThanOrEqual(defaultRealtimeSettings.messagesPerWindowMax);
    });

    it('answers a message above the size limit with an error, then closes the connection (1009)', async () => {
      const client = await connect();
      client.send({ op: 'subscribe', channels: Array.from({ length: 400 }, () => 'ticker.BTCUSDT') });
      expect((await client.next('error')).code).toBe('malformed');
      expect((await client.closedWithin()).code).toBe(1009);
    });
  });
}, { databases: 'embedded' });

/** Every channel name there is, the list first, then each symbol's ticker and candles. */
function allChannels(): string[] {
  return ['tickers', ...symbolSpecs.flatMap((spec) => [`ticker.${spec.symbol}`,
    ...candlePeriods.map((period) => `candle.${spec.symbol}.${period}`)])];
}

/** A ping's pong comes after everything the server sent before it: nothing else is in flight. */
async function pingBarrier(client: SocketClient) {
  client.send({ op: 'ping' });
  await client.next('pong');
}

describe('GET /api/ws heartbeat', () => {
  // Its own server with a short heartbeat and no engine, so nothing else holds up the event loop.
  forEachDatabase((server) => {
    let url: string;
    beforeAll(async () => {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      url = socketUrl(server.app);
    });

    it('sends heartbeats with the server time to a connection that answers its pings', async () => {
      const client = await SocketClient.connect(url);
      for (let count = 0; count < 5; count += 1) {
        expect((await client.next('heartbeat')).time).toBe(server.clock.now().getTime());
      }
      expect(client.socket.readyState).toBe(client.socket.OPEN);
      client.close();
    });

    it('terminates a connection that answers neither pings nor anything else', async () => {
      const silent = await SocketClient.connect(url, { autoPong: false });
      await silent.next('heartbeat');
      expect((await silent.closedWithin()).code).toBe(1006);
    });
  }, { databases: 'embedded', realtime: { heartbeatIntervalMs: 100 } });
});

describe('GET /api/ws backpressure', () => {
  // A bound of -1 bytes makes every socket count as not keeping up, so every update is skipped.
  forEachDatabase((server) => {
    let url: string;
    let tick: (count?: number) => Promise<void>;
    beforeAll(async () => {
      ({ tick } = await startTestEngine(server, ['BTCUSDT']));
      await tick();
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      url = socketUrl(server.app);
    });

    it('skips updates to a socket that is behind, numbering them all the same, so a resync catches it up', async () => {
      const client = await SocketClient.connect(url);
      try {
        client.send({ op: 'subscribe', channels: ['ticker.BTCUSDT'] });
        const snapshot = await client.nextOn('ticker.BTCUSDT');
        await tick(2);
        await pingBarrier(client);
        expect(client.unread.filter((message) => message.type === 'update')).toEqual([]);
        client.send({ op: 'resync', channel: 'ticker.BTCUSDT' });
        const fresh = await client.nextOn('ticker.BTCUSDT');
        expect(fresh).toMatchObject({ type: 'snapshot', seq: snapshot.seq + 2, data: { time: server.clock.now().getTime() } });
      } finally {
        client.close();
      }
    });
  }, { databases: 'embedded', realtime: { updateBufferedBytesMax: -1 } });
});
