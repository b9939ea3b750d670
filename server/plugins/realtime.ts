// The realtime socket at /api/ws. A client subscribes to channels ("tickers", "ticker.<SYMBOL>",
// "candle.<SYMBOL>.<PERIOD>"), gets a snapshot of each, then the updates the market view applies.
// Each channel numbers its updates (seq) once for every connection of this instance, and each
// update is serialised once and the same bytes are written to every subscriber, so fan-out costs
// one JSON.stringify per channel per update rather than one per socket. A socket that does not
// keep up misses updates instead of growing an unbounded buffer; the gap in seq tells its client
// to ask for a fresh snapshot (resync).
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import {
  candlePeriods, heartbeatIntervalMs, realtimePath, subscriptionsPerConnectionMax,
  type CandlePeriod, type ClientMessage, type ServerMessage,
} from '../../src/api/contract/market.ts';
import type { MarketUpdate } from '../domain/market/bus.ts';
import { symbolByCode } from '../domain/market/symbols.ts';
import { toCandle, toTicker, type MarketView } from '../domain/market/view.ts';
import type { Clock } from '../lib/time.ts';

export interface RealtimeSettings {
  heartbeatIntervalMs: number;
  /** Heartbeats a connection may leave unanswered (no pong, no message) before it is terminated. */
  missedHeartbeatsMax: number;
  subscriptionsPerConnectionMax: number;
  /** A client message above this size gets an error and the connection is closed. */
  messageBytesMax: number;
  /** Client messages allowed per window; beyond that the connection is closed (1008). */
  messagesPerWindowMax: number;
  messageWindowMs: number;
  /** Updates are skipped for a socket whose unsent bytes exceed this; its client resyncs on the gap. */
  updateBufferedBytesMax: number;
  /** A socket whose unsent bytes exceed this is not reading at all and is terminated. */
  bufferedBytesMax: number;
  connectionsMax: number;
}

export const defaultRealtimeSettings: RealtimeSettings = {
  heartbeatIntervalMs,
  missedHeartbeatsMax: 2,
  subscriptionsPerConnectionMax,
  messageBytesMax: 4096,
  messagesPerWindowMax: 100,
  messageWindowMs: 10_000,
  updateBufferedBytesMax: 64 * 1024,
  bufferedBytesMax: 1024 * 1024,
  connectionsMax: 20_000,
};

/**
 * The largest frame the WebSocket layer accepts at all. It is well above `messageBytesMax`, so a
 * message between the two gets a readable error before the close; above it `ws` closes with 1009.
 */
export const framePayloadBytesMax = (settings: RealtimeSettings) => settings.messageBytesMax * 16;

export type ChannelRoute =
  | { kind: 'tickers' }
  | { kind: 'ticker'; symbol: string }
  | { kind: 'candle'; symbol: string; period: CandlePeriod };

/** What a channel name means, or undefined when it names no channel, symbol or period. */
export function parseChannel(name: string): ChannelRoute | undefined {
  if (name === 'tickers') return { kind: 'tickers' };
  const parts = name.split('.');
  if (!symbolByCode.has(parts[1] ?? '')) return undefined;
  if (parts[0] === 'ticker' && parts.length === 2) return { kind: 'ticker', symbol: parts[1] };
  const period = candlePeriods.find((candidate) => candidate === parts[2]);
  if (parts[0] === 'candle' && parts.length === 3 && period) return { kind: 'candle', symbol: parts[1], period };
  return undefined;
}

/** A client message of a known shape, or undefined (malformed). Channel names are checked later. */
export function parseClientMessage(value: unknown): ClientMessage | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const message = value as Record<string, unknown>;
  const isNames = (names: unknown): names is string[] =>
    Array.isArray(names) && names.length > 0 && names.every((name) => typeof name === 'string');
  switch (message.op) {
    case 'subscribe':
    case 'unsubscribe':
      return isNames(message.channels) ? { op: message.op, channels: message.channels } : undefined;
    case 'resync':
      return typeof message.channel === 'string' ? { op: 'resync', channel: message.channel } : undefined;
    case 'ping':
      return { op: 'ping' };
    default:
      return undefined;
  }
}

type ErrorCode = Extract<ServerMessage, { type: 'error' }>['code'];

class Channel {
  /** The seq of the last update published on this channel on this instance. */
  seq = 0;
  readonly subscribers = new Set<Connection>();
  constructor(readonly name: string, readonly route: ChannelRoute) {}
}

class Connection {
  readonly channels = new Set<Channel>();
  missedHeartbeats = 0;
  corkedRound = 0;
  windowStartMs = 0;
  messagesInWindow = 0;
  constructor(readonly socket: WebSocket) {}
}

export interface RealtimeStats {
  connections: number;
  /** Updates not sent because their socket's buffer was full (since start). */
  updatesSkipped: number;
}

/** The connections, channels and fan-out of one instance. Fastify-free, so tests can reason about it. */
export class RealtimeHub {
  readonly #channels = new Map<string, Channel>();
  readonly #connections = new Set<Connection>();
  /** The last serialised ticker of each symbol: an unchanged ticker is not sent again. */
  readonly #tickerJson = new Map<string, string>();
  readonly #stopListening: () => void;
  readonly #heartbeatTimer: ReturnType<typeof setInterval>;
  #updatesSkipped = 0;
  /** Counts market updates, so a socket is corked once per update. */
  #round = 0;
  readonly #corked: Socket[] = [];

  constructor(
    private readonly view: MarketView,
    private readonly clock: Clock,
    private readonly settings: RealtimeSettings,
    private readonly log: FastifyBaseLogger,
  ) {
    this.#stopListening = view.onUpdate((update) => this.#publishUpdate(update));
    this.#heartbeatTimer = setInterval(() => this.#heartbeat(), settings.heartbeatIntervalMs);
    this.#heartbeatTimer.unref();
  }

  get stats(): RealtimeStats {
    return { connections: this.#connections.size, updatesSkipped: this.#updatesSkipped };
  }

  close() {
    clearInterval(this.#heartbeatTimer);
    this.#stopListening();
  }

  accept(socket: WebSocket) {
    if (this.#connections.size >= this.settings.connectionsMax) {
      socket.close(1013, 'Too many connections, try again later.');
      return;
    }
    const connection = new Connection(socket);
    this.#connections.add(connection);
    socket.on('message', (data, isBinary) => this.#receive(connection, data, isBinary));
    socket.on('pong', () => { connection.missedHeartbeats = 0; });
    socket.on('close', () => this.#forget(connection));
  }

  #forget(connection: Connection) {
    for (const channel of connection.channels) channel.subscribers.delete(connection);
    connection.channels.clear();
    this.#connections.delete(connection);
  }

  #receive(connection: Connection, data: RawData, isBinary: boolean) {
    connection.missedHeartbeats = 0;
    if (connection.socket.readyState !== connection.socket.OPEN) return;
    if (!this.#withinRate(connection)) {
      connection.socket.close(1008, 'Too many messages.');
      return;
    }
    if (byteLength(data) > this.settings.messageBytesMax) {
      this.#error(connection, 'malformed', `Messages are limited to ${this.settings.messageBytesMax} bytes.`);
      connection.socket.close(1009, 'Message too big.');
      return;
    }
    let message: ClientMessage | undefined;
    try {
      message = isBinary ? undefined : parseClientMessage(JSON.parse(textOf(data)));
    } catch {
      message = undefined;
    }
    if (!message) {
      this.#error(connection, 'malformed', 'Send a JSON text message with op subscribe, unsubscribe, resync or ping.');
      return;
    }
    switch (message.op) {
      case 'subscribe': return this.#subscribe(connection, message.channels);
      case 'unsubscribe': return this.#unsubscribe(connection, message.channels);
      case 'resync': return this.#resync(connection, message.channel);
      case 'ping': return this.#send(connection, { type: 'pong', time: this.clock.now().getTime() });
    }
  }

  /** A fixed window on the monotonic clock: every message may cost a snapshot, so they are counted. */
  #withinRate(connection: Connection): boolean {
    const nowMs = performance.now();
    if (nowMs - connection.windowStartMs >= this.settings.messageWindowMs) {
      connection.windowStartMs = nowMs;
      connection.messagesInWindow = 0;
    }
    connection.messagesInWindow += 1;
    return connection.messagesInWindow <= this.settings.messagesPerWindowMax;
  }

  /** The channel of a name, created on first use; there are only as many as symbols × periods. */
  #channel(connection: Connection, name: string): Channel | undefined {
    let channel = this.#channels.get(name);
    if (!channel) {
      const route = parseChannel(name);
      if (route) this.#channels.set(name, channel = new Channel(name, route));
    }
    if (!channel) this.#error(connection, 'unknown_channel', 'There is no such channel, symbol or period.', name.slice(0, 64));
    return channel;
  }

  #subscribe(connection: Connection, names: string[]) {
    const accepted: Channel[] = [];
    for (const name of new Set(names)) {
      const channel = this.#channel(connection, name);
      if (!channel) continue;
      if (!connection.channels.has(channel)) {
        if (connection.channels.size >= this.settings.subscriptionsPerConnectionMax) {
          const message = `A connection may hold ${this.settings.subscriptionsPerConnectionMax} subscriptions.`;
          this.#error(connection, 'too_many_subscriptions', message, name);
          continue;
        }
        connection.channels.add(channel);
        channel.subscribers.add(connection);
      }
      accepted.push(channel);
    }
    if (accepted.length === 0) return;
    this.#send(connection, { type: 'subscribed', channels: accepted.map((channel) => channel.name) });
    for (const channel of accepted) this.#snapshot(connection, channel);
  }

  #unsubscribe(connection: Connection, names: string[]) {
    const removed: string[] = [];
    for (const name of new Set(names)) {
      const channel = this.#channel(connection, name);
      if (!channel) continue;
      if (!connection.channels.delete(channel)) {
        this.#error(connection, 'not_subscribed', 'This connection is not subscribed to the channel.', name);
        continue;
      }
      channel.subscribers.delete(connection);
      removed.push(name);
    }
    if (removed.length > 0) this.#send(connection, { type: 'unsubscribed', channels: removed });
  }

  #resync(connection: Connection, name: string) {
    const channel = this.#channel(connection, name);
    if (!channel) return;
    if (!connection.channels.has(channel)) {
      this.#error(connection, 'not_subscribed', 'Subscribe to the channel before asking for a resync.', name);
      return;
    }
    this.#snapshot(connection, channel);
  }

  /** The channel's whole state as of its current seq: the next update carries seq + 1. */
  #snapshot(connection: Connection, channel: Channel) {
    const { route } = channel;
    const data = route.kind === 'tickers' ? this.view.tickers()
      : route.kind === 'ticker' ? this.view.ticker(route.symbol) ?? null
        : this.view.currentCandle(route.symbol, route.period) ?? null;
    this.#send(connection, { type: 'snapshot', channel: channel.name, seq: channel.seq, data });
  }

  #publishUpdate(update: MarketUpdate) {
    this.#round += 1;
    try {
      this.#publishChannels(update);
    } finally {
      // Each socket now writes all of this update's frames in one system call.
      for (const raw of this.#corked.splice(0)) raw.uncork();
    }
  }

  #publishChannels(update: MarketUpdate) {
    const changedTickers: string[] = [];
    for (const state of update.tickers) {
      const spec = symbolByCode.get(state.symbol);
      if (!spec) continue;
      const json = JSON.stringify(toTicker(spec, state));
      if (this.#tickerJson.get(state.symbol) === json) continue;
      this.#tickerJson.set(state.symbol, json);
      changedTickers.push(json);
      this.#publish(`ticker.${state.symbol}`, () => json);
    }
    // The list carries only the tickers that changed; the client merges them by symbol.
    if (changedTickers.length > 0) this.#publish('tickers', () => `[${changedTickers.join(',')}]`);
    for (const candle of update.candles) {
      const spec = symbolByCode.get(candle.symbol);
      if (spec) this.#publish(`candle.${candle.symbol}.${candle.period}`, () => JSON.stringify(toCandle(spec, candle)));
    }
  }

  /** Numbers the update and writes the one serialised frame to every subscriber that keeps up. */
  #publish(name: string, data: () => string) {
    const channel = this.#channels.get(name);
    if (!channel || channel.subscribers.size === 0) return;
    channel.seq += 1;
    // Channel names are checked against the symbol and period lists, so they need no escaping.
    const frame = Buffer.from(`{"type":"update","channel":"${name}","seq":${channel.seq},"data":${data()}}`);
    for (const connection of channel.subscribers) {
      const { socket } = connection;
      if (socket.readyState !== socket.OPEN) continue;
      const buffered = socket.bufferedAmount;
      if (buffered > this.settings.bufferedBytesMax) {
        socket.terminate();
      } else if (buffered > this.settings.updateBufferedBytesMax) {
        this.#updatesSkipped += 1;
      } else {
        this.#cork(connection);
        socket.send(frame, { binary: false });
      }
    }
  }

  /**
   * Holds a socket's writes until the whole update is queued. A client on several channels gets
   * several frames per update, and one write per frame costs a system call each: at thousands of
   * sockets those calls are most of the fan-out. `ws` keeps its TCP socket in `_socket` (stable
   * across ws 8); without it, frames are simply written one by one.
   */
  #cork(connection: Connection) {
    if (connection.corkedRound === this.#round) return;
    connection.corkedRound = this.#round;
    const raw = (connection.socket as unknown as { _socket?: Socket })._socket;
    if (!raw) return;
    raw.cork();
    this.#corked.push(raw);
  }

  #heartbeat() {
    const frame = Buffer.from(JSON.stringify({ type: 'heartbeat', time: this.clock.now().getTime() } satisfies ServerMessage));
    for (const connection of this.#connections) {
      const { socket } = connection;
      if (connection.missedHeartbeats >= this.settings.missedHeartbeatsMax) {
        this.log.debug('terminating a realtime connection that stopped answering');
        socket.terminate();
        continue;
      }
      if (socket.readyState !== socket.OPEN) continue;
      connection.missedHeartbeats += 1;
      socket.ping();
      socket.send(frame, { binary: false });
    }
  }

  #error(connection: Connection, code: ErrorCode, message: string, channel?: string) {
    this.#send(connection, { type: 'error', code, message, ...(channel === undefined ? {} : { channel }) });
  }

  #send(connection: Connection, message: ServerMessage) {
    const { socket } = connection;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > this.settings.bufferedBytesMax) {
      socket.terminate();
      return;
    }
    socket.send(JSON.stringify(message));
  }
}

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((total, part) => total + part.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}

export interface RealtimeOptions {
  view: MarketView;
  clock: Clock;
  settings: RealtimeSettings;
}

/**
 * Adds the socket route under the app's prefix. @fastify/websocket must already be registered on
 * the root app (before any route, so it can refuse upgrades to the other routes).
 */
export function registerRealtime(app: FastifyInstance, options: RealtimeOptions): RealtimeHub {
  const hub = new RealtimeHub(options.view, options.clock, options.settings, app.log);
  app.addHook('onClose', async () => hub.close());
  app.get(realtimePath, { websocket: true }, (socket) => hub.accept(socket));
  return hub;
}
