// The realtime socket's knobs: every bound the hub keeps (sockets, messages, bytes, heartbeats),
// their defaults, and the two an operator sets through the environment. One place, so the
// modules that enforce them (connections.ts, market.ts) read the same numbers.
import { heartbeatIntervalMs, subscriptionsPerConnectionMax } from '../../../src/api/contract/market.ts';
import { defaultLimits, type Limits } from '../../lib/config.ts';

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

/** The realtime settings an operator sets through the environment (server/lib/config.ts). */
export const realtimeSettingsOf = (limits: Limits): Partial<RealtimeSettings> => ({
  connectionsMax: limits.realtimeConnectionsMax,
  connectionsPerAddressMax: limits.realtimeConnectionsPerAddressMax,
});

/**
 * Throws on a setting that is not a number. A knob read from the environment as NaN would turn a
 * cap off (`n >= NaN` is never true). Infinity is allowed: a bench whose thousands of clients
 * share one address lifts the caps so.
 */
export function assertRealtimeSettings(settings: RealtimeSettings) {
  for (const [name, value] of Object.entries(settings)) {
    if (typeof value !== 'number' || Number.isNaN(value)) throw new Error(`realtime setting ${name} must be a number, not ${value}`);
  }
}

/**
 * The largest frame the WebSocket layer accepts at all. It is well above `messageBytesMax`, so a
 * message between the two gets a readable error before the close; above it `ws` closes with 1009.
 */
export const framePayloadBytesMax = (settings: RealtimeSettings) => settings.messageBytesMax * 16;
