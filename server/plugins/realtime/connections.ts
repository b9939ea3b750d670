// The sockets of /api/ws and their limits. Nobody logs in to use the socket, so everything a client
// can make it do is bounded here: sockets per address and in all (below the open-file limit, taken
// before the upgrade), messages per window, message bytes, channel names per message, heartbeats
// left unanswered, and the bytes of replies to the client's own requests (a token bucket per
// connection and one per address, so reconnecting does not refill it). What a message asks for is
// the channels' business (market.ts, sessions.ts); they answer through `reply` and `send` here.
import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { AuthMessage, ClientMessage, ServerMessage } from '../../../src/api/contract/market.ts';
import type { Clock } from '../../lib/time.ts';
import { byteLength, readClientMessage } from './clientMessages.ts';
import type { RealtimeSettings } from './settings.ts';

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

/** One socket: its place under the caps, its reply budget, and its message and heartbeat counts. */
export class Connection {
  missedHeartbeats = 0;
  windowStartMs = 0;
  messagesInWindow = 0;
  constructor(readonly socket: WebSocket, readonly slot: ConnectionSlot, readonly budget: ByteBucket) {}
}

/** A client message that passed the limits, for the channel it concerns (a ping is answered here). */
export type ChannelMessage = Exclude<ClientMessage | AuthMessage, { op: 'ping' }>;

export interface ConnectionEvents {
  received(connection: Connection, message: ChannelMessage): void;
  /** The socket closed: whatever holds the connection lets it go. */
  closed(connection: Connection): void;
}

/** The sockets of one instance under their caps and budgets. Fastify-free, so tests can reason about it. */
export class Connections {
  readonly #connections = new Set<Connection>();
  readonly #addresses = new Map<string, AddressState>();
  /** Sockets admitted and not yet closed, from the upgrade request on. */
  #sockets = 0;
  /** The configured cap, lowered below the open-file limit. */
  readonly connectionsMax: number;
  #budgetsExhausted = 0;

  constructor(
    private readonly settings: RealtimeSettings,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    filesLimit: number | undefined,
    private readonly events: ConnectionEvents,
  ) {
    this.connectionsMax = connectionsCap(settings.connectionsMax, filesLimit);
    if (this.connectionsMax < settings.connectionsMax) {
      log.info(`realtime sockets capped at ${this.connectionsMax} below the open-file limit of ${filesLimit}`);
    }
  }

  get size() { return this.#connections.size; }
  /** Addresses with a socket or a reply budget not yet refilled. */
  get addresses() { return this.#addresses.size; }
  /** Connections closed because their replies (or their address's) ran over the budget (since start). */
  get budgetsExhausted() { return this.#budgetsExhausted; }

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
    this.events.closed(connection);
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
      this.reply(connection, { type: 'error', code: 'malformed', message: `Messages are limited to ${this.settings.messageBytesMax} bytes.` });
      connection.socket.close(1009, 'Message too big.');
      return;
    }
    const message = readClientMessage(data, isBinary);
    if (!message) {
      this.reply(connection, { type: 'error', code: 'malformed', message: 'Send a JSON text message with op subscribe, unsubscribe, resync, ping or auth.' });
      return;
    }
    if ('channels' in message && message.channels.length > this.settings.channelsPerMessageMax) {
      this.reply(connection, { type: 'error', code: 'malformed', message: `A message may name at most ${this.settings.channelsPerMessageMax} channels.` });
      return;
    }
    if (message.op === 'ping') {
      this.reply(connection, { type: 'pong', time: this.clock.now().getTime() });
      return;
    }
    this.events.received(connection, message);
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

  /** Pings every socket and sends the heartbeat frame; one that left too many unanswered is terminated. */
  heartbeat() {
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
  }

  /**
   * Sends an answer to the client's own request if the connection's budget and its address's both
   * hold its bytes; otherwise one last error and a close (1008). The error is not charged: it is
   * small, and sent once.
   */
  reply(connection: Connection, message: ServerMessage) {
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
      this.send(connection, JSON.stringify(exhausted));
      socket.close(1008, 'Reply budget exhausted.');
      return;
    }
    budget.take(bytes);
    addressBudget.take(bytes);
    this.send(connection, text);
  }

  /** Writes one frame, unless the socket is closing or has stopped reading (then it is dropped). */
  send(connection: Connection, text: string) {
    const { socket } = connection;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > this.settings.bufferedBytesMax) {
      socket.terminate();
      return;
    }
    socket.send(text);
  }
}
