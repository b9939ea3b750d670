// The realtime socket under the floods of the abuse probe (issue 7, point 1), through the real
// server: made-up channel names, re-subscribing to a held channel, resyncs in a loop, and
// reconnecting to start afresh. Each flood is bounded in count, and the assertions are on frames
// and bytes the client received, never on how long anything took.
import { beforeAll, describe, expect, it } from 'vitest';
import { subscriptionsPerConnectionMax, type ServerMessage } from '../../../src/api/contract/market.ts';
import { symbolSpecs } from '../../../server/domain/core/market/symbols.ts';
import { defaultRealtimeSettings } from '../../../server/plugins/realtime/settings.ts';
import { refusedChannelsListedMax } from '../../../server/plugins/realtime/refusals.ts';
import { forEachDatabase } from '../helpers.ts';
import { SocketClient, socketClients, socketUrl, startTestEngine } from '../realtimeHelpers.ts';

/** An error frame is bounded: its few listed names echo at most 64 characters each. */
const errorFrameBytesMax = 1024;

/** The probe's message: as many made-up names as fit in 4 090 bytes (811 two-letter names). */
function madeUpNamesMessage(): string {
  const names: string[] = [];
  for (let index = 36; ; index += 1) {
    names.push(index.toString(36));
    if (JSON.stringify({ op: 'subscribe', channels: names }).length > 4090) break;
  }
  names.pop();
  return JSON.stringify({ op: 'subscribe', channels: names });
}

/** Waits until the server has answered everything sent before: its pong comes after all of it. */
async function drained(client: SocketClient) {
  client.send({ op: 'ping' });
  await client.next('pong');
}

const errors = (client: SocketClient) =>
  client.unread.filter((message): message is Extract<ServerMessage, { type: 'error' }> => message.type === 'error');

describe('GET /api/ws amplification', () => {
  forEachDatabase((server) => {
    let url: string;
    const connect = socketClients(() => url);

    beforeAll(async () => {
      // Every symbol ticks, so the tickers snapshot is as large as in production (about 6.6 KB).
      const { tick } = await startTestEngine(server, symbolSpecs.map((spec) => spec.symbol));
      await tick(2);
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      url = socketUrl(server.app);
    });

    it('answers a 4 KB subscribe of 811 made-up names with one short malformed error', async () => {
      const client = await connect();
      const message = madeUpNamesMessage();
      expect(JSON.parse(message).channels.length).toBe(811);
      client.sendRaw(message);
      await drained(client);
      expect(errors(client)).toEqual([expect.objectContaining({ code: 'malformed' })]);
      // The error and the pong: two frames, a few hundred bytes, for 4 086 bytes in.
      expect(client.received.frames).toBe(2);
      expect(client.received.bytes).toBeLessThan(300);
    });

    it(`answers ${subscriptionsPerConnectionMax} unknown names with one error listing ${refusedChannelsListedMax} and counting all`, async () => {
      const client = await connect();
      // Long names, so the message is as large as allowed; the error echoes 64 characters of each.
      const names = Array.from({ length: subscriptionsPerConnectionMax }, (_, index) => `ticker.${'X'.repeat(65)}${index}`);
      client.send({ op: 'subscribe', channels: names });
      await drained(client);
      const [error, ...more] = errors(client);
      expect(more).toEqual([]);
      expect(error).toMatchObject({ code: 'unknown_channel', channel: names[0].slice(0, 64) });
      expect(error.channels).toEqual(names.slice(0, refusedChannelsListedMax).map((name) => name.slice(0, 64)));
      expect(error.message).toContain(`${subscriptionsPerConnectionMax} channels were refused (${subscriptionsPerConnectionMax} unknown_channel)`);
      expect(client.received.frames).toBe(2);
      expect(client.received.bytes).toBeLessThan(errorFrameBytesMax + 100);
    });

    it('draws at most one bounded frame per message from 10 sockets sending 95 made-up-name messages each', async () => {
      const flooders = await Promise.all(Array.from({ length: 10 }, () => connect()));
      const longNames = Array.from({ length: subscriptionsPerConnectionMax }, (_, index) => `candle.${'Y'.repeat(60)}.${index}`);
      const messages = [madeUpNamesMessage(), JSON.stringify({ op: 'subscribe', channels: longNames })];
      let bytesIn = 0;
      for (const client of flooders) {
        for (let count = 0; count < 95; count += 1) {
          const message = messages[count % 2];
          bytesIn += message.length;
          client.sendRaw(message);
        }
      }
      await Promise.all(flooders.map(drained));
      for (const client of flooders) {
        expect(client.socket.readyState).toBe(client.socket.OPEN);
        expect(client.received.frames).toBe(95 + 1);
        expect(errors(client).length).toBe(95);
        expect(client.received.bytes).toBeLessThanOrEqual(95 * errorFrameBytesMax);
      }
      const bytesOut = flooders.reduce((total, client) => total + client.received.bytes, 0);
      // Before: 811 frames and about 91 KB for each 4 KB message, 22 times the bytes in.
      expect(bytesOut).toBeLessThan(bytesIn);
    });

    it(`serves a full subscribe of ${subscriptionsPerConnectionMax} channels and a resync of each within the default budget`, async () => {
      const client = await connect();
      const channels = ['tickers', ...symbolSpecs.flatMap((spec) => [`ticker.${spec.symbol}`, `candle.${spec.symbol}.1m`])]
        .slice(0, subscriptionsPerConnectionMax);
      client.send({ op: 'subscribe', channels });
      for (const channel of channels) expect((await client.nextOn(channel)).type).toBe('snapshot');
      for (const channel of channels) client.send({ op: 'resync', channel });
      for (const channel of channels) expect((await client.nextOn(channel)).type).toBe('snapshot');
      await drained(client);
      expect(errors(client)).toEqual([]);
      expect(client.socket.readyState).toBe(client.socket.OPEN);
      expect(client.received.bytes).toBeLessThan(defaultRealtimeSettings.replyBytesBurstMax);
    });

    it('answers re-subscribing to a held channel with an acknowledgement, not another snapshot', async () => {
      const client = await connect();
      client.send({ op: 'subscribe', channels: ['tickers'] });
      await client.next('subscribed');
      const snapshot = await client.nextOn('tickers');
      const snapshotBytes = JSON.stringify(snapshot).length;
      expect(snapshotBytes).toBeGreaterThan(5_000);
      const before = client.received.bytes;
      for (let count = 0; count < 90; count += 1) client.send({ op: 'subscribe', channels: ['tickers'] });
      await drained(client);
      const acknowledgements = client.unread.filter((message) => message.type === 'subscribed');
      expect(acknowledgements.length).toBe(90);
      expect(client.unread.filter((message) => message.type === 'snapshot')).toEqual([]);
      // 90 acknowledgements of 44 bytes and a pong, where each used to cost a 6.6 KB snapshot.
      const acknowledgementBytes = JSON.stringify({ type: 'subscribed', channels: ['tickers'] }).length;
      expect(client.received.bytes - before).toBeLessThan(90 * acknowledgementBytes + 100);
    });
  }, { databases: 'embedded' });
});

describe('GET /api/ws reply budget', () => {
  // Small budgets that hardly refill (1 byte a second), so the bounds are plain byte counts.
  const budgets = {
    replyBytesBurstMax: 16 * 1024, replyBytesPerSecond: 1,
    addressReplyBytesBurstMax: 48 * 1024, addressReplyBytesPerSecond: 1,
  };
  forEachDatabase((server) => {
    let url: string;
    let startedMs: number;
    /** What the slow refill may have added since the suite started, for every bound below. */
    const refillSlackBytes = () => Math.ceil((performance.now() - startedMs) / 1000) + 1;

    beforeAll(async () => {
      const { tick } = await startTestEngine(server, symbolSpecs.map((spec) => spec.symbol));
      await tick(2);
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      url = socketUrl(server.app);
      startedMs = performance.now();
    });

    it('closes a connection that resyncs in a loop once its replies pass the budget, with one rate_limited error (1008)', async () => {
      const client = await SocketClient.connect(url);
      client.send({ op: 'subscribe', channels: ['tickers'] });
      await client.nextOn('tickers');
      for (let count = 0; count < 50; count += 1) client.send({ op: 'resync', channel: 'tickers' });
      expect(await client.closedWithin()).toMatchObject({ code: 1008 });
      const refusals = errors(client);
      expect(refusals).toEqual([expect.objectContaining({ code: 'rate_limited' })]);
      const snapshots = client.unread.filter((message) => message.type === 'snapshot');
      // One more 6.6 KB snapshot fits in 16 KiB after the first; the 50 asked for would be 330 KB.
      expect(snapshots.length).toBe(1);
      expect(client.received.bytes).toBeLessThanOrEqual(budgets.replyBytesBurstMax + errorFrameBytesMax + refillSlackBytes());
    });

    it('keeps the address budget across reconnections, while another address is served', async () => {
      let bytes = 0;
      let served = 0;
      let refused: SocketClient | undefined;
      // Each new socket has a fresh budget of its own; the address's is spent by the seventh or so.
      for (let count = 0; count < 20 && !refused; count += 1) {
        const client = await SocketClient.connect(url, { localAddress: '127.0.0.3' });
        client.send({ op: 'subscribe', channels: ['tickers'] });
        const answer = await client.take((message) => message.type === 'snapshot' || message.type === 'error', 'a snapshot or an error');
        if (answer.type === 'snapshot') {
          served += 1;
          client.close();
          await client.closed;
        } else {
          expect(answer).toMatchObject({ code: 'rate_limited' });
          expect((await client.closedWithin()).code).toBe(1008);
          refused = client;
        }
        bytes += client.received.bytes;
      }
      expect(refused).toBeDefined();
      expect(served).toBeGreaterThanOrEqual(5);
      expect(bytes).toBeLessThanOrEqual(budgets.addressReplyBytesBurstMax + errorFrameBytesMax + refillSlackBytes());

      const neighbour = await SocketClient.connect(url, { localAddress: '127.0.0.4' });
      neighbour.send({ op: 'subscribe', channels: ['tickers'] });
      expect((await neighbour.nextOn('tickers')).type).toBe('snapshot');
      neighbour.close();
    });
  }, { databases: 'embedded', realtime: budgets });
});
