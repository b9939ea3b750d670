// The realtime socket at /api/ws. A client subscribes to channels ("tickers", "ticker.<SYMBOL>",
// "candle.<SYMBOL>.<PERIOD>"), gets a snapshot of each, then the updates the market view applies.
// Each channel numbers its updates (seq) once for every connection of this instance, and each
// update is serialised and framed once and the same bytes are written to every subscriber, so
// fan-out costs one JSON.stringify per channel per update rather than one per socket, and one
// write per socket per update (its frames joined once per distinct set of channels, not once per
// socket): at 5 000 sockets the writes are the fan-out, and most of a write is the kernel's. A socket that does not
// keep up misses updates instead of growing an unbounded buffer; the gap in seq tells its client
// to ask for a fresh snapshot (resync).
// Nobody logs in to use it, so everything a client can make it do is bounded: sockets per address
// and in all (below the open-file limit), messages per window, channel names per message, one
// error frame per message, and the bytes of replies to the client's own requests (a token bucket
// per connection and one per address, so reconnecting does not refill it).
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import {
  candlePeriods, heartbeatIntervalMs, realtimePath, subscriptionsPerConnectionMax, userChannel,
  type AuthMessage, type CandlePeriod, type ClientMessage, type ServerMessage, type UserEvent,
} from '../../src/api/contract/market.ts';
import type { UserEventBus } from '../domain/kernel/userEvents.ts';
import { operatorChatChannel } from '../../src/api/contract/chat.ts';
import { operatorsBusUserId } from '../domain/programs/chat/events.ts';
import { defaultLimits, type Limits } from '../config.ts';
import { failure } from '../lib/envelope.ts';
import type { MarketUpdate } from '../domain/core/market/bus.ts';
import { symbolByCode } from '../domain/core/market/symbols.ts';
import { toCandle, toTicker, type MarketView } from '../domain/core/market/view.ts';
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
  /** Channel names one subscribe or unsubscribe may carry; a longer list is refused whole. */
  channelsPerMessageMax: number;
  /**
   * Replies to a connection's own requests (snapshots, acknowledgements, errors, pongs) draw their
   * bytes from a bucket of this size that refills at `replyBytesPerSecond`; when a reply does not
   * fit, the connection gets one error and is closed (1008). Market updates are not counted.
   */
  replyBytesBurstMax: number;
  replyBytesPerSecond: number;
  /** The same, shared by every connection of one address and kept across its reconnections. */
  addressReplyBytesBurstMax: number;
  addressReplyBytesPerSecond: number;
  /** Sockets in all; the hub keeps the cap below the process's open-file limit (`connectionsCap`). */
  connectionsMax: number;
  /** Sockets from one address (an IPv6 client counts by its /64), as `request.ip` names it. */
  connectionsPerAddressMax: number;
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
  channelsPerMessageMax: subscriptionsPerConnectionMax,
  // A full subscribe of 50 channels with every ticker is about 20 KB; the client resyncs a channel
  // at most once per gap, and a gap needs a socket that is already behind.
  replyBytesBurstMax: 64 * 1024,
  replyBytesPerSecond: 8 * 1024,
  // Room for several people behind one address to open the app at once, while one address
  // cycling its connections draws at most 64 KiB a second.
  addressReplyBytesBurstMax: 512 * 1024,
  addressReplyBytesPerSecond: 64 * 1024,
  connectionsMax: defaultLimits.realtimeConnectionsMax,
  connectionsPerAddressMax: defaultLimits.realtimeConnectionsPerAddressMax,
};

/** The realtime settings an operator sets through the environment (server/config.ts). */
export const realtimeSettingsOf = (limits: Limits): Partial<RealtimeSettings> => ({
  connectionsMax: limits.realtimeConnectionsMax,
  connectionsPerAddressMax: limits.realtimeConnectionsPerAddressMax,
});

/** Refused names an error lists (its message counts the rest), and how much of each it echoes. */
export const refusedChannelsListedMax = 8;
const channelNameEchoedMax = 64;

/**
 * The sockets this process may hold, given the configured cap and the soft open-file limit: every
 * socket is a file, and when they run out no HTTP connection is accepted either. Leaves 1 024
 * files or a fifth of the limit (whichever is more) for HTTP, the database and logs; under a small
 * limit (1 024 is a common default) half of it.
 */
export function connectionsCap(configuredMax: number, openFilesLimit: number | undefined): number {
  if (openFilesLimit === undefined || !Number.isFinite(openFilesLimit)) return configuredMax;
  const belowLimit = Math.max(Math.floor(openFilesLimit / 2), Math.min(openFilesLimit - 1024, Math.floor(openFilesLimit * 0.8)));
  return Math.max(0, Math.min(configuredMax, belowLimit));
}

/** The soft "Max open files" of /proc/<pid>/limits (what `ulimit -n` shows); undefined if unlimited or unknown. */
export function parseOpenFilesLimit(limitsText: string): number | undefined {
  const soft = /^Max open files\s+(\S+)/m.exec(limitsText)?.[1];
  return soft !== undefined && /^\d+$/.test(soft) ? Number(soft) : undefined;
}

/** This process's soft open-file limit, on Linux; undefined elsewhere. */
export function openFilesLimit(): number | undefined {
  try {
    return parseOpenFilesLimit(fs.readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The key under which an address's sockets are counted: an IPv4 address as is (also when written
 * IPv4-mapped), an IPv6 address by its /64, since one subscriber usually holds a whole /64.
 */
export function addressKey(ip: string): string {
  const address = ip.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const [head, tail] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::1.2.3.4) takes two groups; it only ever lies in the lower 64 bits.
  const tailLength = tailGroups.reduce((total, group) => total + (group.includes('.') ? 2 : 1), 0);
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailLength)).fill('0'), ...tailGroups];
  return `${groups.slice(0, 4).map((group) => (Number.parseInt(group, 16) || 0).toString(16)).join(':')}::/64`;
}

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

/** Tokens are opaque and short; anything longer is not one. */
const authTokenLengthMax = 200;
/** Auth messages one connection may send; a client that keeps failing is closed. */
export const authAttemptsMax = 5;
/** How often an authenticated connection's session is checked again (a logout or expiry ends its user channel). */
export const authRecheckIntervalMs = 5 * 60_000;

/** Resolves a session token to its user, or undefined when it names no live session. */
export type Authenticate = (token: string) => Promise<bigint | undefined>;


/** A client message of a known shape, or undefined (malformed). Channel names are checked later. */
export function parseClientMessage(value: unknown): ClientMessage | AuthMessage | undefined {
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
    case 'auth':
      if (message.as !== undefined && message.as !== 'operator') return undefined;
      return typeof message.token === 'string' && message.token.length > 0 && message.token.length <= authTokenLengthMax
        ? { op: 'auth', token: message.token, ...(message.as === 'operator' ? { as: 'operator' as const } : {}) } : undefined;
    default:
      return undefined;
  }
}

type ErrorCode = Extract<ServerMessage, { type: 'error' }>['code'];
type RefusalCode = Extract<ErrorCode, 'unknown_channel' | 'too_many_subscriptions' | 'not_subscribed'>;

/** A budget of bytes that refills steadily up to its burst, on the monotonic clock (milliseconds). */
export class ByteBucket {
  #bytes: number;
  #updatedMs: number;

  constructor(readonly burstBytes: number, readonly bytesPerSecond: number, nowMs: number) {
    this.#bytes = burstBytes;
    this.#updatedMs = nowMs;
  }

  available(nowMs: number): number {
    const refill = Math.max(0, nowMs - this.#updatedMs) * this.bytesPerSecond / 1000;
    this.#bytes = Math.min(this.burstBytes, this.#bytes + refill);
    this.#updatedMs = Math.max(this.#updatedMs, nowMs);
    return this.#bytes;
  }

  /** Takes `bytes` after `available` said they are there. */
  take(bytes: number) {
    this.#bytes -= bytes;
  }
}

/** What one address holds: its sockets (counted from the upgrade request) and its reply budget. */
class AddressState {
  sockets = 0;
  constructor(readonly key: string, readonly budget: ByteBucket) {}
}

/** A socket's place under the caps, taken before the upgrade; released once, when the socket closes. */
export interface ConnectionSlot {
  readonly address: AddressState;
  release(): void;
}

export type Admission = ConnectionSlot | 'address_full' | 'server_full';

class Channel {
  /** The seq of the last update published on this channel on this instance. */
  seq = 0;
  readonly subscribers = new Set<Connection>();
  constructor(readonly name: string, readonly route: ChannelRoute) {}
}

/**
 * The frames one update sends to the sockets that hold the same channels: a path in a trie keyed
 * by frame, so sockets with the same subscriptions share one joined buffer (built at most once
 * per update) instead of each allocating its own.
 */
class FrameSet {
  readonly #next = new Map<PublishedFrame, FrameSet>();
  #joined: Buffer | undefined;
  constructor(readonly frame: PublishedFrame | undefined, readonly parent: FrameSet | undefined) {}

  with(frame: PublishedFrame): FrameSet {
    let next = this.#next.get(frame);
    if (!next) this.#next.set(frame, next = new FrameSet(frame, this));
    return next;
  }

  /** The frames from the first published to this one. */
  get frames(): PublishedFrame[] {
    const frames: PublishedFrame[] = [];
    for (let set: FrameSet | undefined = this; set?.frame; set = set.parent) frames.push(set.frame);
    return frames.reverse();
  }

  /** All the frames as one WebSocket byte stream, for one write. */
  get joined(): Buffer {
    if (!this.#joined) {
      const frames = this.frames;
      this.#joined = frames.length === 1 ? frames[0].framed : Buffer.concat(frames.map((frame) => frame.framed));
    }
    return this.#joined;
  }
}

/** One channel update: its text, and the same as a whole unmasked WebSocket text frame. */
interface PublishedFrame {
  readonly text: Buffer;
  readonly framed: Buffer;
}

/** A final, unmasked text frame (RFC 6455 §5.2) around `payload`, as `ws` would write it. */
export function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  const headerBytes = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerBytes + length);
  frame[0] = 0x81;
  if (headerBytes === 2) {
    frame[1] = length;
  } else if (headerBytes === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, headerBytes);
  return frame;
}

/** What `ws` keeps inside a WebSocket (stable across ws 8): its TCP socket and its frame writer. */
interface WsInternals {
  _socket?: Socket;
  _sender?: { _state?: number; _queue?: unknown[] };
}

/**
 * The TCP socket a pre-framed update may be written to directly, or undefined when `ws` must
 * write it: no TCP socket (injectWS), or `ws` holds frames of its own back (compressing, reading
 * a Blob), which a direct write would overtake. Without compression (the server offers none) and
 * with text replies only, its queue is always empty.
 */
function directSocket(socket: WebSocket): Socket | undefined {
  const { _socket: raw, _sender: sender } = socket as unknown as WsInternals;
  if (!raw || !sender || sender._state !== 0 || (sender._queue?.length ?? 0) > 0) return undefined;
  return raw;
}

class Connection {
  readonly channels = new Set<Channel>();
  /** The user whose channel this connection holds, once it authenticated. */
  userId: bigint | undefined;
  /** The operator whose back-office chat screen this connection is (the operators' channel). */
  operatorId: bigint | undefined;
  token: string | undefined;
  userSeq = 0;
  authAttempts = 0;
  authCheckedMs = 0;
  missedHeartbeats = 0;
  /** The update round `frames` belongs to, and the frames this connection gets in it. */
  round = 0;
  frames: FrameSet | undefined;
  windowStartMs = 0;
  messagesInWindow = 0;
  constructor(readonly socket: WebSocket, readonly slot: ConnectionSlot, readonly budget: ByteBucket) {}
}

/** The names one message had refused, in order, for its one error frame. */
class Refusals {
  readonly listed: string[] = [];
  readonly counts = new Map<RefusalCode, number>();
  first: { code: RefusalCode; name: string } | undefined;

  add(code: RefusalCode, name: string) {
    const echoed = name.slice(0, channelNameEchoedMax);
    this.first ??= { code, name: echoed };
    if (this.listed.length < refusedChannelsListedMax) this.listed.push(echoed);
    this.counts.set(code, (this.counts.get(code) ?? 0) + 1);
  }

  get total(): number {
    let total = 0;
    for (const count of this.counts.values()) total += count;
    return total;
  }
}

export interface RealtimeStats {
  connections: number;
  /** Addresses with a socket or a reply budget not yet refilled. */
  addresses: number;
  /** Updates not sent because their socket's buffer was full (since start). */
  updatesSkipped: number;
  /** Connections closed because their replies (or their address's) ran over the budget (since start). */
  budgetsExhausted: number;
}

/** The connections, channels and fan-out of one instance. Fastify-free, so tests can reason about it. */
export class RealtimeHub {
  readonly #channels = new Map<string, Channel>();
  readonly #connections = new Set<Connection>();
  readonly #addresses = new Map<string, AddressState>();
  /** Sockets admitted and not yet closed, from the upgrade request on. */
  #sockets = 0;
  /** The configured cap, lowered below the open-file limit. */
  readonly connectionsMax: number;
  /** The last serialised ticker of each symbol: an unchanged ticker is not sent again. */
  readonly #tickerJson = new Map<string, string>();
  readonly #stopListening: () => void;
  readonly #heartbeatTimer: ReturnType<typeof setInterval>;
  #updatesSkipped = 0;
  #budgetsExhausted = 0;
  /** Counts market updates, so a connection's frames of one update are written together. */
  #round = 0;
  /** The connections that get frames in the current round, in the order they first got one. */
  readonly #pending: Connection[] = [];
  #frameSets = new FrameSet(undefined, undefined);
  /** The connections holding each user's channel. */
  readonly #userConnections = new Map<bigint, Set<Connection>>();
  /** The back-office connections holding the operators' chat channel. */
  readonly #operatorConnections = new Set<Connection>();
  readonly #stopUserEvents: () => void;

  constructor(
    private readonly view: MarketView,
    private readonly clock: Clock,
    private readonly settings: RealtimeSettings,
    private readonly log: FastifyBaseLogger,
    filesLimit: number | undefined = openFilesLimit(),
    private readonly users?: { authenticate: Authenticate; events: UserEventBus; authenticateOperator?: Authenticate },
  ) {
    // A knob read from the environment as NaN would turn a cap off (`n >= NaN` is never true).
    // Infinity is allowed: a bench whose thousands of clients share one address lifts the caps so.
    for (const [name, value] of Object.entries(settings)) {
      if (typeof value !== 'number' || Number.isNaN(value)) throw new Error(`realtime setting ${name} must be a number, not ${value}`);
    }
    this.connectionsMax = connectionsCap(settings.connectionsMax, filesLimit);
    if (this.connectionsMax < settings.connectionsMax) {
      log.info(`realtime sockets capped at ${this.connectionsMax} below the open-file limit of ${filesLimit}`);
    }
    this.#stopListening = view.onUpdate((update) => this.#publishUpdate(update));
    this.#stopUserEvents = users?.events.subscribe((userId, event) => this.#publishUserEvent(userId, event)) ?? (() => {});
    this.#heartbeatTimer = setInterval(() => this.#heartbeat(), settings.heartbeatIntervalMs);
    this.#heartbeatTimer.unref();
  }

  get stats(): RealtimeStats {
    return {
      connections: this.#connections.size, addresses: this.#addresses.size,
      updatesSkipped: this.#updatesSkipped, budgetsExhausted: this.#budgetsExhausted,
    };
  }

  /** Whether a user holds their channel on this instance (the app is open). */
  isUserConnected(userId: bigint): boolean {
    return (this.#userConnections.get(userId)?.size ?? 0) > 0;
  }

  close() {
    clearInterval(this.#heartbeatTimer);
    this.#stopListening();
    this.#stopUserEvents();
  }

  /**
   * Takes a place for a socket from `ip` before its upgrade, so sockets still shaking hands count
   * too, or says which cap refuses it. The caller releases the slot when the socket closes.
   */
  admit(ip: string): Admission {
    if (this.#sockets >= this.connectionsMax) return 'server_full';
    const key = addressKey(ip);
    let address = this.#addresses.get(key);
    if (address && address.sockets >= this.settings.connectionsPerAddressMax) return 'address_full';
    if (!address) {
      const budget = new ByteBucket(this.settings.addressReplyBytesBurstMax, this.settings.addressReplyBytesPerSecond, performance.now());
      this.#addresses.set(key, address = new AddressState(key, budget));
    }
    address.sockets += 1;
    this.#sockets += 1;
    let released = false;
    const admitted = address;
    return {
      address: admitted,
      release: () => {
        if (released) return;
        released = true;
        admitted.sockets -= 1;
        this.#sockets -= 1;
        this.#forgetAddressIfIdle(admitted);
      },
    };
  }

  /** An address with no socket and a full budget has nothing worth remembering. */
  #forgetAddressIfIdle(address: AddressState) {
    if (address.sockets === 0 && address.budget.available(performance.now()) >= address.budget.burstBytes) {
      this.#addresses.delete(address.key);
    }
  }

  accept(socket: WebSocket, slot: ConnectionSlot) {
    const budget = new ByteBucket(this.settings.replyBytesBurstMax, this.settings.replyBytesPerSecond, performance.now());
    const connection = new Connection(socket, slot, budget);
    this.#connections.add(connection);
    socket.on('message', (data, isBinary) => this.#receive(connection, data, isBinary));
    socket.on('pong', () => { connection.missedHeartbeats = 0; });
    socket.on('close', () => this.#forget(connection));
  }

  #forget(connection: Connection) {
    this.#leaveUserChannel(connection);
    for (const channel of connection.channels) channel.subscribers.delete(connection);
    connection.channels.clear();
    this.#connections.delete(connection);
    connection.slot.release();
  }

  #receive(connection: Connection, data: RawData, isBinary: boolean) {
    connection.missedHeartbeats = 0;
    if (connection.socket.readyState !== connection.socket.OPEN) return;
    if (!this.#withinRate(connection)) {
      connection.socket.close(1008, 'Too many messages.');
      return;
    }
    if (byteLength(data) > this.settings.messageBytesMax) {
      this.#reply(connection, { type: 'error', code: 'malformed', message: `Messages are limited to ${this.settings.messageBytesMax} bytes.` });
      connection.socket.close(1009, 'Message too big.');
      return;
    }
    const message = readClientMessage(data, isBinary);
    if (!message) {
      this.#reply(connection, { type: 'error', code: 'malformed', message: 'Send a JSON text message with op subscribe, unsubscribe, resync, ping or auth.' });
      return;
    }
    if ('channels' in message && message.channels.length > this.settings.channelsPerMessageMax) {
      this.#reply(connection, { type: 'error', code: 'malformed', message: `A message may name at most ${this.settings.channelsPerMessageMax} channels.` });
      return;
    }
    switch (message.op) {
      case 'subscribe': return this.#subscribe(connection, message.channels);
      case 'unsubscribe': return this.#unsubscribe(connection, message.channels);
      case 'resync': return this.#resync(connection, message.channel);
      case 'ping': return this.#reply(connection, { type: 'pong', time: this.clock.now().getTime() });
      case 'auth': return void (message.as === 'operator'
        ? this.#authenticateOperator(connection, message.token) : this.#authenticate(connection, message.token));
    }
  }

  /**
   * Joins the connection to its user's channel once the token names a live session; a wrong token
   * gets an `unauthorized` error, and a connection that keeps sending them is closed.
   */
  async #authenticate(connection: Connection, token: string) {
    connection.authAttempts += 1;
    if (connection.authAttempts > authAttemptsMax) {
      connection.socket.close(1008, 'Too many authentication attempts.');
      return;
    }
    let userId: bigint | undefined;
    try {
      userId = await this.users?.authenticate(token);
    } catch (error) {
      this.log.error({ err: error }, 'realtime authentication failed');
    }
    if (connection.socket.readyState !== connection.socket.OPEN) return;
    this.#leaveUserChannel(connection);
    if (userId === undefined) {
      this.#reply(connection, { type: 'error', code: 'unauthorized', message: 'Please log in again.', channel: userChannel });
      return;
    }
    connection.userId = userId;
    connection.token = token;
    connection.authAttempts = 0;
    connection.authCheckedMs = performance.now();
    let held = this.#userConnections.get(userId);
    if (!held) this.#userConnections.set(userId, held = new Set());
    held.add(connection);
    this.#reply(connection, { type: 'subscribed', channels: [userChannel] });
  }

  /** Joins a back-office connection to the operators' chat channel once the token names a live operator session. */
  async #authenticateOperator(connection: Connection, token: string) {
    connection.authAttempts += 1;
    if (connection.authAttempts > authAttemptsMax) {
      connection.socket.close(1008, 'Too many authentication attempts.');
      return;
    }
    let operatorId: bigint | undefined;
    try {
      operatorId = await this.users?.authenticateOperator?.(token);
    } catch (error) {
      this.log.error({ err: error }, 'realtime operator authentication failed');
    }
    if (connection.socket.readyState !== connection.socket.OPEN) return;
    this.#leaveUserChannel(connection);
    if (operatorId === undefined) {
      this.#reply(connection, { type: 'error', code: 'unauthorized', message: 'Please log in to the back office again.', channel: operatorChatChannel });
      return;
    }
    connection.operatorId = operatorId;
    connection.token = token;
    connection.authAttempts = 0;
    connection.authCheckedMs = performance.now();
    this.#operatorConnections.add(connection);
    this.#reply(connection, { type: 'subscribed', channels: [operatorChatChannel] });
  }

  #leaveUserChannel(connection: Connection) {
    if (connection.operatorId !== undefined) {
      this.#operatorConnections.delete(connection);
      connection.operatorId = undefined;
      connection.token = undefined;
    }
    if (connection.userId === undefined) return;
    const held = this.#userConnections.get(connection.userId);
    held?.delete(connection);
    if (held?.size === 0) this.#userConnections.delete(connection.userId);
    connection.userId = undefined;
    connection.token = undefined;
  }

  /** Sends a user's event to every connection of theirs on this instance (each numbers its own). */
  #publishUserEvent(userId: bigint, event: UserEvent) {
    if (userId === operatorsBusUserId) {
      const data = JSON.stringify(event.chat ?? null);
      for (const connection of this.#operatorConnections) {
        connection.userSeq += 1;
        this.#send(connection, `{"type":"update","channel":"${operatorChatChannel}","seq":${connection.userSeq},"data":${data}}`);
      }
      return;
    }
    const held = this.#userConnections.get(userId);
    if (!held) return;
    const data = JSON.stringify(event);
    for (const connection of held) {
      connection.userSeq += 1;
      this.#send(connection, `{"type":"update","channel":"${userChannel}","seq":${connection.userSeq},"data":${data}}`);
    }
  }

  /** A session that ended (logout, expiry) ends the user channel of the connections it opened. */
  #recheckSessions() {
    const nowMs = performance.now();
    for (const connection of this.#operatorConnections) {
      if (nowMs - connection.authCheckedMs < authRecheckIntervalMs || !connection.token) continue;
      connection.authCheckedMs = nowMs;
      const { token, operatorId } = connection;
      void this.users?.authenticateOperator?.(token).then((current) => {
        if (current === operatorId || connection.operatorId !== operatorId) return;
        this.#leaveUserChannel(connection);
        this.#reply(connection, { type: 'error', code: 'unauthorized', message: 'Please log in to the back office again.', channel: operatorChatChannel });
      }).catch((error: unknown) => this.log.error({ err: error }, 'realtime operator session check failed'));
    }
    for (const held of this.#userConnections.values()) {
      for (const connection of held) {
        if (nowMs - connection.authCheckedMs < authRecheckIntervalMs || !connection.token) continue;
        connection.authCheckedMs = nowMs;
        const { token, userId } = connection;
        void this.users?.authenticate(token).then((current) => {
          if (current === userId || connection.userId !== userId) return;
          this.#leaveUserChannel(connection);
          this.#reply(connection, { type: 'error', code: 'unauthorized', message: 'Please log in again.', channel: userChannel });
        }).catch((error: unknown) => this.log.error({ err: error }, 'realtime session check failed'));
      }
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
  #channel(name: string): Channel | undefined {
    let channel = this.#channels.get(name);
    if (!channel) {
      const route = parseChannel(name);
      if (route) this.#channels.set(name, channel = new Channel(name, route));
    }
    return channel;
  }

  /** Subscribes the names it can; a channel already held is acknowledged again but gets no new snapshot. */
  #subscribe(connection: Connection, names: string[]) {
    const refusals = new Refusals();
    const acknowledged: Channel[] = [];
    const added: Channel[] = [];
    for (const name of new Set(names)) {
      const channel = this.#channel(name);
      if (!channel) {
        refusals.add('unknown_channel', name);
      } else if (connection.channels.has(channel)) {
        acknowledged.push(channel);
      } else if (connection.channels.size >= this.settings.subscriptionsPerConnectionMax) {
        refusals.add('too_many_subscriptions', name);
      } else {
        connection.channels.add(channel);
        channel.subscribers.add(connection);
        acknowledged.push(channel);
        added.push(channel);
      }
    }
    this.#refuse(connection, refusals);
    if (acknowledged.length === 0) return;
    this.#reply(connection, { type: 'subscribed', channels: acknowledged.map((channel) => channel.name) });
    for (const channel of added) this.#snapshot(connection, channel);
  }

  #unsubscribe(connection: Connection, names: string[]) {
    const refusals = new Refusals();
    const removed: string[] = [];
    for (const name of new Set(names)) {
      const channel = this.#channel(name);
      if (!channel) {
        refusals.add('unknown_channel', name);
      } else if (!connection.channels.delete(channel)) {
        refusals.add('not_subscribed', name);
      } else {
        channel.subscribers.delete(connection);
        removed.push(name);
      }
    }
    this.#refuse(connection, refusals);
    if (removed.length > 0) this.#reply(connection, { type: 'unsubscribed', channels: removed });
  }

  /** A resync costs a snapshot: it is paid from the reply budget like any other answer. */
  #resync(connection: Connection, name: string) {
    const channel = this.#channel(name);
    const refusals = new Refusals();
    if (!channel) refusals.add('unknown_channel', name);
    else if (!connection.channels.has(channel)) refusals.add('not_subscribed', name);
    this.#refuse(connection, refusals);
    if (channel && refusals.total === 0) this.#snapshot(connection, channel);
  }

  /** The channel's whole state as of its current seq: the next update carries seq + 1. */
  #snapshot(connection: Connection, channel: Channel) {
    // Closed halfway through a subscribe (its budget ran out): the rest is not worth building.
    if (connection.socket.readyState !== connection.socket.OPEN) return;
    const { route } = channel;
    const data = route.kind === 'tickers' ? this.view.tickers()
      : route.kind === 'ticker' ? this.view.ticker(route.symbol) ?? null
        : this.view.currentCandle(route.symbol, route.period) ?? null;
    this.#reply(connection, { type: 'snapshot', channel: channel.name, seq: channel.seq, data });
  }

  #publishUpdate(update: MarketUpdate) {
    this.#round += 1;
    this.#frameSets = new FrameSet(undefined, undefined);
    try {
      this.#publishChannels(update);
    } finally {
      this.#flush();
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

  /** Numbers the update, frames it once and adds it to the frames of every subscriber that keeps up. */
  #publish(name: string, data: () => string) {
    const channel = this.#channels.get(name);
    if (!channel || channel.subscribers.size === 0) return;
    channel.seq += 1;
    // Channel names are checked against the symbol and period lists, so they need no escaping.
    const text = Buffer.from(`{"type":"update","channel":"${name}","seq":${channel.seq},"data":${data()}}`);
    const frame: PublishedFrame = { text, framed: textFrame(text) };
    const round = this.#round;
    for (const connection of channel.subscribers) {
      const { socket } = connection;
      if (socket.readyState !== socket.OPEN) continue;
      // Nothing of this round is written yet, so this is what the socket had left from before.
      const buffered = socket.bufferedAmount;
      if (buffered > this.settings.bufferedBytesMax) {
        socket.terminate();
      } else if (buffered > this.settings.updateBufferedBytesMax) {
        this.#updatesSkipped += 1;
      } else if (connection.round === round) {
        connection.frames = connection.frames!.with(frame);
      } else {
        connection.round = round;
        connection.frames = this.#frameSets.with(frame);
        this.#pending.push(connection);
      }
    }
  }

  /**
   * Writes each connection's frames of this update in one write, in the order the connections
   * first got a frame. A socket `ws` is still writing to gets them through `ws`, frame by frame.
   */
  #flush() {
    const pending = this.#pending;
    for (let index = 0; index < pending.length; index += 1) {
      const connection = pending[index];
      const { frames, socket } = connection;
      connection.frames = undefined;
      if (!frames || socket.readyState !== socket.OPEN) continue;
      const raw = directSocket(socket);
      if (raw) {
        raw.write(frames.joined);
      } else {
        for (const frame of frames.frames) socket.send(frame.text, { binary: false });
      }
    }
    pending.length = 0;
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
    for (const address of this.#addresses.values()) this.#forgetAddressIfIdle(address);
    this.#recheckSessions();
  }

  /**
   * One error frame for all the names a message had refused: the first name's reason and name
   * (`code`, `channel`, as a client that reads one name expects), the first few names, and counts.
   */
  #refuse(connection: Connection, refusals: Refusals) {
    const { first } = refusals;
    if (!first) return;
    let message = refusalReason(first.code, this.settings);
    if (refusals.total > 1) {
      const counts = [...refusals.counts].map(([code, count]) => `${count} ${code}`).join(', ');
      message += ` ${refusals.total} channels were refused (${counts}); the first ${refusals.listed.length} are listed.`;
    }
    this.#reply(connection, { type: 'error', code: first.code, message, channel: first.name, channels: refusals.listed });
  }

  /**
   * Sends an answer to the client's own request if the connection's budget and its address's both
   * hold its bytes; otherwise one last error and a close (1008). The error is not charged: it is
   * small, and sent once.
   */
  #reply(connection: Connection, message: ServerMessage) {
    const { socket } = connection;
    if (socket.readyState !== socket.OPEN) return;
    const text = JSON.stringify(message);
    const bytes = Buffer.byteLength(text);
    const nowMs = performance.now();
    const { budget } = connection;
    const addressBudget = connection.slot.address.budget;
    if (budget.available(nowMs) < bytes || addressBudget.available(nowMs) < bytes) {
      this.#budgetsExhausted += 1;
      const exhausted: ServerMessage = {
        type: 'error', code: 'rate_limited', message: 'This connection asked for more data than it may. Connect again later.',
      };
      this.#send(connection, JSON.stringify(exhausted));
      socket.close(1008, 'Reply budget exhausted.');
      return;
    }
    budget.take(bytes);
    addressBudget.take(bytes);
    this.#send(connection, text);
  }

  /** Writes one frame, unless the socket is closing or has stopped reading (then it is dropped). */
  #send(connection: Connection, text: string) {
    const { socket } = connection;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > this.settings.bufferedBytesMax) {
      socket.terminate();
      return;
    }
    socket.send(text);
  }
}

function refusalReason(code: RefusalCode, settings: RealtimeSettings): string {
  switch (code) {
    case 'unknown_channel': return 'There is no such channel, symbol or period.';
    case 'too_many_subscriptions': return `A connection may hold ${settings.subscriptionsPerConnectionMax} subscriptions.`;
    case 'not_subscribed': return 'This connection is not subscribed to the channel.';
  }
}

/** A client message of a known shape, or undefined (binary, not JSON, or malformed). */
function readClientMessage(data: RawData, isBinary: boolean): ClientMessage | AuthMessage | undefined {
  if (isBinary) return undefined;
  try {
    return parseClientMessage(JSON.parse(textOf(data)));
  } catch {
    return undefined;
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
  /** The user channel: how a token becomes a user, and where that user's events come from. */
  users?: { authenticate: Authenticate; events: UserEventBus; authenticateOperator?: Authenticate };
}

/**
 * Adds the socket route under the app's prefix. @fastify/websocket must already be registered on
 * the root app (before any route, so it can refuse upgrades to the other routes). The caps are
 * checked on the upgrade request, before the handshake, and refused with an HTTP answer in the
 * envelope (429 for the address, 503 for the server); the slot is released when the TCP socket
 * closes, whether or not the upgrade went through.
 */
export function registerRealtime(app: FastifyInstance, options: RealtimeOptions): RealtimeHub {
  const hub = new RealtimeHub(options.view, options.clock, options.settings, app.log, undefined, options.users);
  const slots = new WeakMap<IncomingMessage, ConnectionSlot>();
  app.addHook('onClose', async () => hub.close());
  const admitSocket = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.ws) return;
    const admission = hub.admit(request.ip);
    if (admission === 'address_full') {
      return reply.code(429).header('retry-after', '10')
        .send(failure(429, 'Too many connections from this address.', { error: 'too_many_connections' }));
    }
    if (admission === 'server_full') {
      return reply.code(503).header('retry-after', '10')
        .send(failure(503, 'The server holds all the connections it can. Try again later.', { error: 'server_busy' }));
    }
    // The socket may have gone while earlier hooks waited; then 'close' may be past, and the
    // upgrade will not happen (ws drops a socket that is no longer writable). Without a TCP
    // socket (injectWS) the slot is released when the WebSocket closes.
    const raw = request.raw.socket as Socket | undefined;
    if (raw?.destroyed) {
      admission.release();
      return;
    }
    raw?.once('close', admission.release);
    slots.set(request.raw, admission);
  };
  app.get(realtimePath, { websocket: true, onRequest: admitSocket }, (socket, request) => {
    const slot = slots.get(request.raw);
    if (!slot) {
      socket.close(1011, 'No connection slot.');
      return;
    }
    hub.accept(socket, slot);
  });
  return hub;
}
