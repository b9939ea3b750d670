// The realtime client against a fake WebSocket and fake timers: it connects on demand, subscribes
// and resubscribes, follows each channel's seq (drops duplicates, asks for a resync on a gap and
// ignores updates until the snapshot), backs off with jitter between attempts, and drops a socket
// that goes silent past the heartbeat.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backoffDelayMs, RealtimeClient, silenceLimitMs, idleCloseMs, type ChannelMessage, type SocketLike,
} from '../../src/api/realtime.ts';
import { subscriptionsPerConnectionMax, type ClientMessage } from '../../src/api/contract/market.ts';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: ClientMessage[] = [];
  closed = false;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data) as ClientMessage);
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  // What the server side does:
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
}

function setup(random = () => 0.5) {
  const sockets: FakeSocket[] = [];
  const client = new RealtimeClient({
    url: () => 'ws://test/api/ws',
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    random,
  });
  const last = () => sockets[sockets.length - 1];
  return { client, sockets, last };
}

const snapshot = (channel: string, seq: number, data: unknown = []) => ({ type: 'snapshot', channel, seq, data });
const update = (channel: string, seq: number, data: unknown = []) => ({ type: 'update', channel, seq, data });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('RealtimeClient: connecting and subscribing', () => {
  it('opens one socket on the first subscription and subscribes every wanted channel on open', () => {
    const { client, sockets, last } = setup();
    client.subscribe('tickers', () => undefined);
    client.subscribe('candle.BTCUSDT.1m', () => undefined);
    expect(sockets).toHaveLength(1);
    expect(last().url).toBe('ws://test/api/ws');
    expect(client.state).toBe('connecting');
    last().open();
    expect(client.state).toBe('open');
    expect(last().sent).toEqual([{ op: 'subscribe', channels: ['tickers', 'candle.BTCUSDT.1m'] }]);
  });

  it('subscribes a channel added while open right away, and only once for several listeners', () => {
    const { client, last } = setup();
    client.subscribe('tickers', () => undefined);
    last().open();
    client.subscribe('ticker.ETHUSDT', () => undefined);
    client.subscribe('ticker.ETHUSDT', () => undefined);
    expect(last().sent).toEqual([
      { op: 'subscribe', channels: ['tickers'] },
      { op: 'subscribe', channels: ['ticker.ETHUSDT'] },
    ]);
  });

  it('unsubscribes when the last listener of a channel leaves, and closes the idle socket later', () => {
    const { client, last } = setup();
    const stopA = client.subscribe('tickers', () => undefined);
    const stopB = client.subscribe('tickers', () => undefined);
    last().open();
    stopA();
    expect(last().sent).toHaveLength(1);
    stopB();
    expect(last().sent.at(-1)).toEqual({ op: 'unsubscribe', channels: ['tickers'] });
    expect(last().closed).toBe(false);
    vi.advanceTimersByTime(idleCloseMs);
    expect(last().closed).toBe(true);
    expect(client.state).toBe('idle');
  });

  it('keeps the socket when a channel is wanted again before the idle close', () => {
    const { client, sockets, last } = setup();
    const stop = client.subscribe('tickers', () => undefined);
    last().open();
    stop();
    vi.advanceTimersByTime(idleCloseMs / 2);
    client.subscribe('tickers', () => undefined);
    vi.advanceTimersByTime(idleCloseMs);
    expect(sockets).toHaveLength(1);
    expect(last().closed).toBe(false);
  });

  it(`holds back channels beyond the server's limit of ${subscriptionsPerConnectionMax} and sends them when room frees`, () => {
    const { client, last } = setup();
    const stops = Array.from({ length: subscriptionsPerConnectionMax + 1 }, (_, index) =>
      client.subscribe(`ticker.S${String(index).padStart(3, '0')}`, () => undefined));
    last().open();
    const first = last().sent[0] as { channels: string[] };
    expect(first.channels).toHaveLength(subscriptionsPerConnectionMax);
    stops[0]();
    expect(last().sent.slice(1)).toEqual([
      { op: 'unsubscribe', channels: ['ticker.S000'] },
      { op: 'subscribe', channels: [`ticker.S${String(subscriptionsPerConnectionMax).padStart(3, '0')}`] },
    ]);
  });
});

describe('RealtimeClient: seq tracking', () => {
  function flowing() {
    const harness = setup();
    const received: ChannelMessage[] = [];
    harness.client.subscribe('tickers', (message) => received.push(message));
    harness.last().open();
    return { ...harness, received };
  }

  it('is live only after the snapshot, and delivers the snapshot and consecutive updates', () => {
    const { client, last, received } = flowing();
    expect(client.isLive('tickers')).toBe(false);
    last().receive(snapshot('tickers', 7, ['s']));
    expect(client.isLive('tickers')).toBe(true);
    last().receive(update('tickers', 8, ['u8']));
    last().receive(update('tickers', 9, ['u9']));
    expect(received.map((message) => [message.type, message.seq, message.data])).toEqual([
      ['snapshot', 7, ['s']], ['update', 8, ['u8']], ['update', 9, ['u9']],
    ]);
  });

  it('drops duplicate and old updates', () => {
    const { last, received } = flowing();
    last().receive(snapshot('tickers', 3));
    last().receive(update('tickers', 4));
    last().receive(update('tickers', 4));
    last().receive(update('tickers', 2));
    expect(received.map((message) => message.seq)).toEqual([3, 4]);
  });

  it('ignores updates that come before the snapshot', () => {
    const { last, received } = flowing();
    last().receive(update('tickers', 1));
    expect(received).toEqual([]);
  });

  it('asks for a resync on a gap, ignores updates until the snapshot, then follows the new seq', () => {
    const { client, last, received } = flowing();
    last().receive(snapshot('tickers', 10));
    last().receive(update('tickers', 11));
    last().receive(update('tickers', 13));
    expect(last().sent.at(-1)).toEqual({ op: 'resync', channel: 'tickers' });
    expect(client.isLive('tickers')).toBe(false);
    last().receive(update('tickers', 14));
    last().receive(update('tickers', 15));
    expect(last().sent.filter((message) => message.op === 'resync')).toHaveLength(1);
    last().receive(snapshot('tickers', 15, ['fresh']));
    last().receive(update('tickers', 16));
    expect(client.isLive('tickers')).toBe(true);
    expect(received.map((message) => `${message.type}:${message.seq}`)).toEqual(['snapshot:10', 'update:11', 'snapshot:15', 'update:16']);
  });

  it('tracks each channel on its own', () => {
    const { client, last } = flowing();
    const candles: number[] = [];
    client.subscribe('candle.BTCUSDT.1m', (message) => candles.push(message.seq));
    last().receive(snapshot('tickers', 100));
    last().receive(snapshot('candle.BTCUSDT.1m', 5));
    last().receive(update('candle.BTCUSDT.1m', 6));
    last().receive(update('tickers', 101));
    expect(candles).toEqual([5, 6]);
    expect(last().sent.some((message) => message.op === 'resync')).toBe(false);
  });

  it('marks a channel the server refuses as not live and does not ask for it again on this connection', () => {
    const { client, last } = flowing();
    client.subscribe('ticker.NOPE', () => undefined);
    last().receive({ type: 'error', code: 'unknown_channel', message: 'no', channel: 'ticker.NOPE' });
    expect(client.isLive('ticker.NOPE')).toBe(false);
    client.subscribe('ticker.ETHUSDT', () => undefined);
    expect(last().sent.at(-1)).toEqual({ op: 'subscribe', channels: ['ticker.ETHUSDT'] });
  });

  it('tells listeners of changes when a channel goes live and when the connection state changes', () => {
    const { client, last } = setup();
    const changed = vi.fn();
    client.onChange(changed);
    client.subscribe('tickers', () => undefined);
    last().open();
    const before = changed.mock.calls.length;
    last().receive(snapshot('tickers', 1));
    expect(changed.mock.calls.length).toBe(before + 1);
  });
});

describe('RealtimeClient: reconnecting', () => {
  it('reconnects after the backoff, resubscribes, and starts each channel over from its new snapshot', () => {
    const { client, sockets, last } = setup(() => 0);
    const received: string[] = [];
    client.subscribe('tickers', (message) => received.push(`${message.type}:${message.seq}`));
    last().open();
    last().receive(snapshot('tickers', 40));
    last().drop();
    expect(client.state).toBe('waiting');
    expect(client.isLive('tickers')).toBe(false);
    vi.advanceTimersByTime(backoffDelayMs(0, () => 0) - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().sent).toEqual([{ op: 'subscribe', channels: ['tickers'] }]);
    // The new connection's seq starts elsewhere; it is not a gap.
    last().receive(snapshot('tickers', 2));
    last().receive(update('tickers', 3));
    expect(received).toEqual(['snapshot:40', 'snapshot:2', 'update:3']);
  });

  it('waits longer after each failed attempt, up to the cap, and starts over after a healthy connection', () => {
    const { client, sockets, last } = setup(() => 0);
    client.subscribe('tickers', () => undefined);
    const waits: number[] = [];
    for (let attempt = 0; attempt < 8; attempt += 1) {
      last().drop();
      const count = sockets.length;
      let waitedMs = 0;
      while (sockets.length === count) {
        vi.advanceTimersByTime(100);
        waitedMs += 100;
      }
      waits.push(waitedMs);
    }
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 15000, 15000, 15000]);
    last().open();
    last().receive({ type: 'heartbeat', time: 1 });
    expect(client.attempt).toBe(0);
  });

  it('reconnects at once when asked (the browser is online again)', () => {
    const { client, sockets, last } = setup();
    client.subscribe('tickers', () => undefined);
    last().drop();
    client.reconnectNow();
    expect(sockets).toHaveLength(2);
  });

  it('does not reconnect once nothing is wanted', () => {
    const { client, sockets, last } = setup();
    const stop = client.subscribe('tickers', () => undefined);
    last().open();
    stop();
    last().drop();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(client.state).toBe('idle');
  });
});

describe('RealtimeClient: heartbeat', () => {
  it('pings after half the silence limit and drops the socket after the whole limit, then reconnects', () => {
    const { client, sockets, last } = setup(() => 0);
    client.subscribe('tickers', () => undefined);
    last().open();
    last().receive(snapshot('tickers', 1));
    vi.advanceTimersByTime(silenceLimitMs / 2);
    expect(last().sent.at(-1)).toEqual({ op: 'ping' });
    vi.advanceTimersByTime(silenceLimitMs / 2);
    expect(sockets[0].closed).toBe(true);
    expect(client.isLive('tickers')).toBe(false);
    vi.advanceTimersByTime(backoffDelayMs(0, () => 0));
    expect(sockets).toHaveLength(2);
  });

  it('keeps a socket that hears heartbeats', () => {
    const { client, last } = setup();
    client.subscribe('tickers', () => undefined);
    last().open();
    for (let beat = 0; beat < 10; beat += 1) {
      vi.advanceTimersByTime(15_000);
      last().receive({ type: 'heartbeat', time: beat });
    }
    expect(last().closed).toBe(false);
    expect(last().sent.some((message) => message.op === 'ping')).toBe(false);
    expect(client.state).toBe('open');
  });
});

describe('backoffDelayMs', () => {
  it('doubles from one second to a 30 s cap, with half of each step random', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((attempt) => backoffDelayMs(attempt, () => 0))).toEqual(
      [500, 1000, 2000, 4000, 8000, 15000, 15000, 15000]);
    expect([0, 1, 5, 20].map((attempt) => backoffDelayMs(attempt, () => 0.999999))).toEqual([1000, 2000, 30000, 30000]);
  });

  it('spreads clients out: different random draws give different delays', () => {
    const delays = new Set([0.1, 0.3, 0.5, 0.7, 0.9].map((draw) => backoffDelayMs(4, () => draw)));
    expect(delays.size).toBe(5);
    for (const delay of delays) expect(delay).toBeGreaterThanOrEqual(8000);
  });
});
