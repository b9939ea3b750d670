// The fan-out's own write path: each market update is framed once, sockets holding the same
// channels share one joined buffer, and each socket gets its frames of an update in one write,
// written to the TCP socket directly. These tests check what a client sees through a real `ws`
// client (the frames parse, each client gets exactly its channels, in order, without gaps) and
// the frame header for every length form, against `ws`'s own framing. No timing is asserted.
import { beforeAll, describe, expect, it } from 'vitest';
import * as ws from 'ws';
import { textFrame } from '../../server/plugins/realtime/frames.ts';
import { forEachDatabase } from './helpers.ts';
import { socketClients, socketUrl, startTestEngine, type SocketClient } from './realtimeHelpers.ts';
import type { ServerMessage } from '../../src/api/contract/market.ts';

/** ws's frame writer: exported at runtime, not declared in its types. */
const { Sender } = ws as unknown as {
  Sender: { frame(data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }): Buffer[] };
};

describe('textFrame', () => {
  it.each([0, 1, 125, 126, 300, 65_535, 65_536, 70_000])('frames %i bytes exactly as ws does (unmasked, final, text)', (length) => {
    const payload = Buffer.alloc(length, 0x61);
    const expected = Buffer.concat(Sender.frame(payload, { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false }));
    expect(textFrame(payload).equals(expected)).toBe(true);
  });
});

const updates = (client: SocketClient) =>
  client.unread.filter((message): message is Extract<ServerMessage, { type: 'update' }> => message.type === 'update');

async function pingBarrier(client: SocketClient) {
  client.send({ op: 'ping' });
  await client.next('pong');
}

forEachDatabase((server) => {
  let url: string;
  let tick: (count?: number) => Promise<void>;
  const connect = socketClients(() => url);

  beforeAll(async () => {
    ({ tick } = await startTestEngine(server, ['BTCUSDT', 'ETHUSDT']));
    await tick();
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(server.app);
  });

  describe('GET /api/ws fan-out', () => {
    it('gives each client the updates of exactly its own channels, in publish order and numbered without gaps', async () => {
      // Two clients share a set of channels (one joined buffer), the others each hold a set of their own.
      const subscriptions = [
        ['tickers', 'ticker.BTCUSDT'],
        ['tickers', 'ticker.BTCUSDT'],
        ['tickers', 'ticker.ETHUSDT'],
        ['ticker.ETHUSDT'],
        ['candle.BTCUSDT.1m', 'ticker.ETHUSDT'],
      ];
      const clients = await Promise.all(subscriptions.map(() => connect()));
      const seqs: Map<string, number>[] = [];
      for (const [index, client] of clients.entries()) {
        client.send({ op: 'subscribe', channels: subscriptions[index] });
        const held = new Map<string, number>();
        for (const channel of subscriptions[index]) held.set(channel, (await client.nextOn(channel)).seq);
        seqs.push(held);
      }
      await tick(3);
      for (const [index, client] of clients.entries()) {
        await pingBarrier(client);
        const received = updates(client);
        expect(new Set(received.map((update) => update.channel))).toEqual(new Set(subscriptions[index]));
        for (const channel of subscriptions[index]) {
          const first = seqs[index].get(channel)!;
          expect(received.filter((update) => update.channel === channel).map((update) => update.seq)).toEqual([first + 1, first + 2, first + 3]);
        }
        // Within a tick the frames come in the order the hub publishes: each symbol's ticker before the list.
        if (subscriptions[index][0] === 'tickers') {
          expect(received.map((update) => update.channel)).toEqual([...Array(3)].flatMap(() => [subscriptions[index][1], 'tickers']));
        }
      }
      // The two clients with the same channels read the same updates.
      expect(updates(clients[0])).toEqual(updates(clients[1]));
    });

    it('writes a large update (a 126–65 535-byte frame) that the client parses whole', async () => {
      const client = await connect();
      client.send({ op: 'subscribe', channels: ['tickers'] });
      await client.nextOn('tickers');
      await tick();
      const update = await client.nextOn('tickers');
      expect(update.type).toBe('update');
      expect(Buffer.byteLength(JSON.stringify(update))).toBeGreaterThan(125);
      expect((update.data as { symbol: string }[]).map((ticker) => ticker.symbol).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);
    });

    it('keeps replies and updates of one socket in order: a snapshot asked between ticks comes between their updates', async () => {
      const client = await connect();
      client.send({ op: 'subscribe', channels: ['ticker.BTCUSDT'] });
      const snapshot = await client.nextOn('ticker.BTCUSDT');
      await tick();
      client.send({ op: 'resync', channel: 'ticker.BTCUSDT' });
      await pingBarrier(client);
      await tick();
      await pingBarrier(client);
      const seen = client.unread.filter((message) => message.type === 'snapshot' || message.type === 'update')
        .map((message) => [message.type, (message as { seq: number }).seq]);
      expect(seen).toEqual([['update', snapshot.seq + 1], ['snapshot', snapshot.seq + 1], ['update', snapshot.seq + 2]]);
    });
  });
}, { databases: 'embedded' });
