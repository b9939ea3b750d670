// The one realtime socket of the app (/api/ws, protocol in contract/market.ts). It opens when the
// first channel is wanted and closes a little after the last one is released; it reconnects
// with exponential backoff and jitter and subscribes again to every wanted channel; it checks
// each channel's `seq` and asks for a fresh snapshot (`resync`) on a gap, dropping updates until
// the snapshot comes; and it treats a socket that stays silent past the heartbeat as dead.
// Callers ask `isLive(channel)` to decide whether they still need to poll over REST.
import type { ClientMessage, ServerMessage } from './contract/market.ts';
import { heartbeatIntervalMs, realtimePath, subscriptionsPerConnectionMax } from './contract/marketConstants.ts';
import { apiPrefix } from './contract/paths.ts';

/** The part of the browser's WebSocket this client uses, so tests can pass a fake. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface ChannelMessage {
  type: 'snapshot' | 'update';
  channel: string;
  seq: number;
  data: unknown;
}
export type ChannelListener = (message: ChannelMessage) => void;

/** idle: nothing wanted; waiting: between attempts (backoff). */
export type ConnectionState = 'idle' | 'connecting' | 'open' | 'waiting';

export interface RealtimeOptions {
  url: () => string;
  createSocket: (url: string) => SocketLike;
  /** In [0, 1); injected so tests can pin the jitter. */
  random?: () => number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Silence after which the socket is probed with a ping (half) and then dropped (whole). */
  silenceLimitMs?: number;
  /** How long the socket stays open after the last channel is released. */
  idleCloseMs?: number;
  log?: (message: string, detail?: unknown) => void;
}

export const backoffBaseMs = 1_000;
export const backoffMaxMs = 30_000;
/** Two missed heartbeats plus some slack. */
export const silenceLimitMs = 2 * heartbeatIntervalMs + 5_000;
export const idleCloseMs = 10_000;
const socketOpen = 1;

interface ChannelState {
  listeners: Set<ChannelListener>;
  /** Last applied seq on the current connection; undefined until its snapshot arrives. */
  seq: number | undefined;
  /** Subscribed (or resync asked) and the snapshot has not come yet. */
  awaitingSnapshot: boolean;
  /** The server refused the channel (unknown, too many); it is not asked for again on this connection. */
  refused: boolean;
  /** A subscribe for it went out on the current connection. */
  sent: boolean;
}

/**
 * Delay before reconnection attempt number `attempt` (0-based): exponential, capped, with "equal
 * jitter" (half fixed, half random), so a server restart is not met by every client at once and
 * no client retries in a tight loop.
 */
export function backoffDelayMs(attempt: number, random: () => number, baseMs = backoffBaseMs, maxMs = backoffMaxMs): number {
  const capMs = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(capMs / 2 + random() * (capMs / 2));
}

const isServerMessage = (value: unknown): value is ServerMessage =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

export class RealtimeClient {
  readonly #options: Required<Omit<RealtimeOptions, 'log'>> & Pick<RealtimeOptions, 'log'>;
  readonly #channels = new Map<string, ChannelState>();
  readonly #changeListeners = new Set<() => void>();
  #socket: SocketLike | undefined;
  #state: ConnectionState = 'idle';
  #attempt = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  #silenceTimer: ReturnType<typeof setTimeout> | undefined;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(options: RealtimeOptions) {
    this.#options = {
      random: Math.random, backoffBaseMs, backoffMaxMs, silenceLimitMs, idleCloseMs, ...options,
    };
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Reconnection attempts since the last healthy connection. */
  get attempt(): number {
    return this.#attempt;
  }

  /** Whether `channel` is flowing: socket open, snapshot received, no gap pending. */
  isLive(channel: string): boolean {
    const state = this.#channels.get(channel);
    return this.#state === 'open' && state !== undefined && state.seq !== undefined && !state.awaitingSnapshot && !state.refused;
  }

  /** Called whenever the connection state or a channel's liveness may have changed. */
  onChange(listener: () => void): () => void {
    this.#changeListeners.add(listener);
    return () => void this.#changeListeners.delete(listener);
  }

  subscribe(channel: string, listener: ChannelListener): () => void {
    if (this.#closed) return () => undefined;
    let state = this.#channels.get(channel);
    if (!state) {
      state = { listeners: new Set(), seq: undefined, awaitingSnapshot: true, refused: false, sent: false };
      this.#channels.set(channel, state);
    }
    state.listeners.add(listener);
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    if (this.#state === 'open') this.#sendSubscriptions();
    else if (this.#state === 'idle') this.#connect();
    return () => this.#release(channel, listener);
  }

  /** Skips the backoff wait, e.g. when the browser says it is online again. */
  reconnectNow() {
    if (this.#closed || this.#state !== 'waiting') return;
    clearTimeout(this.#reconnectTimer);
    this.#attempt = 0;
    this.#connect();
  }

  /** Closes for good (tests, page unload). */
  close() {
    this.#closed = true;
    this.#channels.clear();
    this.#stop();
  }

  #release(channel: string, listener: ChannelListener) {
    const state = this.#channels.get(channel);
    if (!state || !state.listeners.delete(listener) || state.listeners.size > 0) return;
    this.#channels.delete(channel);
    if (state.sent && this.#state === 'open') this.#send({ op: 'unsubscribe', channels: [channel] });
    // Channels held back by the per-connection limit may fit now.
    if (this.#state === 'open') this.#sendSubscriptions();
    if (this.#channels.size === 0) {
      clearTimeout(this.#idleTimer);
      this.#idleTimer = setTimeout(() => {
        if (this.#channels.size === 0) this.#stop();
      }, this.#options.idleCloseMs);
    }
    this.#emitChange();
  }

  #stop() {
    clearTimeout(this.#reconnectTimer);
    clearTimeout(this.#silenceTimer);
    clearTimeout(this.#idleTimer);
    const socket = this.#socket;
    this.#detach();
    socket?.close(1000, 'done');
    this.#attempt = 0;
    this.#setState('idle');
  }

  #connect() {
    this.#setState('connecting');
    let socket: SocketLike;
    try {
      socket = this.#options.createSocket(this.#options.url());
    } catch (error) {
      this.#options.log?.('realtime: cannot open the socket', error);
      this.#scheduleReconnect();
      return;
    }
    this.#socket = socket;
    socket.onopen = () => {
      if (this.#socket !== socket) return;
      this.#setState('open');
      this.#armSilenceTimer();
      this.#sendSubscriptions();
    };
    socket.onmessage = (event) => {
      if (this.#socket === socket) this.#receive(event.data);
    };
    socket.onclose = () => {
      if (this.#socket === socket) this.#lost();
    };
    socket.onerror = () => undefined; // onclose follows and handles it
  }

  /** The connection is gone: forget per-connection state and try again after the backoff. */
  #lost() {
    this.#detach();
    clearTimeout(this.#silenceTimer);
    if (this.#closed || this.#channels.size === 0) {
      this.#attempt = 0;
      this.#setState('idle');
      return;
    }
    this.#scheduleReconnect();
  }

  #detach() {
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket) socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    for (const state of this.#channels.values()) {
      state.seq = undefined;
      state.awaitingSnapshot = true;
      state.refused = false;
      state.sent = false;
    }
  }

  #scheduleReconnect() {
    const delayMs = backoffDelayMs(this.#attempt, this.#options.random, this.#options.backoffBaseMs, this.#options.backoffMaxMs);
    this.#attempt += 1;
    this.#setState('waiting');
    clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = setTimeout(() => {
      if (!this.#closed && this.#channels.size > 0) this.#connect();
      else this.#setState('idle');
    }, delayMs);
  }

  /** Any frame proves the socket alive; half the limit in silence sends a ping, the whole limit drops it. */
  #armSilenceTimer() {
    clearTimeout(this.#silenceTimer);
    const halfMs = this.#options.silenceLimitMs / 2;
    this.#silenceTimer = setTimeout(() => {
      this.#send({ op: 'ping' });
      this.#silenceTimer = setTimeout(() => {
        this.#options.log?.('realtime: no heartbeat, reconnecting');
        const socket = this.#socket;
        // A dead link may not report its close for minutes: give up on it now.
        this.#lost();
        socket?.close(4000, 'heartbeat timeout');
      }, halfMs);
    }, halfMs);
  }

  #send(message: ClientMessage) {
    const socket = this.#socket;
    if (!socket || socket.readyState !== socketOpen) return;
    try {
      socket.send(JSON.stringify(message));
    } catch (error) {
      this.#options.log?.('realtime: send failed', error);
    }
  }

  /** Subscribes every wanted channel not yet sent on this connection, up to the server's limit. */
  #sendSubscriptions() {
    const sentCount = [...this.#channels.values()].filter((state) => state.sent).length;
    const room = subscriptionsPerConnectionMax - sentCount;
    const pending = [...this.#channels].filter(([, state]) => !state.sent && !state.refused).slice(0, Math.max(0, room));
    if (pending.length === 0) return;
    for (const [, state] of pending) {
      state.sent = true;
      state.awaitingSnapshot = true;
    }
    this.#send({ op: 'subscribe', channels: pending.map(([channel]) => channel) });
  }

  #receive(raw: unknown) {
    this.#armSilenceTimer();
    let message: unknown;
    try {
      message = JSON.parse(String(raw));
    } catch {
      this.#options.log?.('realtime: unreadable frame', raw);
      return;
    }
    if (!isServerMessage(message)) return;
    // A frame after a healthy open: the next loss starts the backoff from the beginning.
    this.#attempt = 0;
    switch (message.type) {
      case 'snapshot':
        this.#applySnapshot(message);
        break;
      case 'update':
        this.#applyUpdate(message);
        break;
      case 'error':
        this.#applyError(message);
        break;
      default:
        // heartbeat, pong, subscribed, unsubscribed: the silence timer was re-armed above.
        break;
    }
  }

  #applySnapshot(message: Extract<ServerMessage, { type: 'snapshot' }>) {
    const state = this.#channels.get(message.channel);
    if (!state || typeof message.seq !== 'number') return;
    const wasLive = this.isLive(message.channel);
    state.seq = message.seq;
    state.awaitingSnapshot = false;
    this.#deliver(state, message);
    if (!wasLive) this.#emitChange();
  }

  #applyUpdate(message: Extract<ServerMessage, { type: 'update' }>) {
    const state = this.#channels.get(message.channel);
    if (!state || typeof message.seq !== 'number') return;
    if (state.awaitingSnapshot) return; // the snapshot to come includes this update
    if (state.seq === undefined) return;
    if (message.seq <= state.seq) return; // a duplicate or an old frame
    if (message.seq === state.seq + 1) {
      state.seq = message.seq;
      this.#deliver(state, message);
      return;
    }
    // A gap: updates were lost. Ask for a fresh snapshot and ignore updates until it comes.
    state.awaitingSnapshot = true;
    this.#send({ op: 'resync', channel: message.channel });
    this.#emitChange();
  }

  #applyError(message: Extract<ServerMessage, { type: 'error' }>) {
    this.#options.log?.(`realtime: ${message.code}`, message.message);
    const state = message.channel ? this.#channels.get(message.channel) : undefined;
    if (!state || (message.code !== 'unknown_channel' && message.code !== 'too_many_subscriptions')) return;
    state.refused = true;
    state.sent = false;
    this.#emitChange();
  }

  #deliver(state: ChannelState, message: ChannelMessage) {
    const { type, channel, seq, data } = message;
    for (const listener of [...state.listeners]) {
      try {
        listener({ type, channel, seq, data });
      } catch (error) {
        this.#options.log?.(`realtime: listener of ${channel} failed`, error);
      }
    }
  }

  #setState(state: ConnectionState) {
    if (this.#state === state) return;
    this.#state = state;
    this.#emitChange();
  }

  #emitChange() {
    for (const listener of [...this.#changeListeners]) listener();
  }
}

let shared: RealtimeClient | undefined;

/** The app's one socket to `${origin}/api/ws`, created on first use. */
export function realtime(): RealtimeClient {
  if (shared) return shared;
  shared = new RealtimeClient({
    url: () => `${location.origin.replace(/^http/, 'ws')}${apiPrefix}${realtimePath}`,
    createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    log: (message, detail) => console.warn(message, detail ?? ''),
  });
  const client = shared;
  globalThis.addEventListener?.('online', () => client.reconnectNow());
  return shared;
}
