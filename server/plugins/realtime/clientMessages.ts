// What a client may send on the socket, read from a raw WebSocket message: subscribe, unsubscribe,
// resync, ping and auth, or nothing (binary, not JSON, or malformed). Channel names are checked by
// the channel that owns them (market.ts); tokens only for their length here.
import type { RawData } from 'ws';
import type { AuthMessage, ClientMessage } from '../../../src/api/contract/market.ts';

/** Tokens are opaque and short; anything longer is not one. */
const authTokenLengthMax = 200;

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

/** A client message of a known shape, or undefined (binary, not JSON, or malformed). */
export function readClientMessage(data: RawData, isBinary: boolean): ClientMessage | AuthMessage | undefined {
  if (isBinary) return undefined;
  try {
    return parseClientMessage(JSON.parse(textOf(data)));
  } catch {
    return undefined;
  }
}

export function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((total, part) => total + part.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}
