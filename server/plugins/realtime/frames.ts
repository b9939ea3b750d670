// Market updates as WebSocket bytes, built once and written as is: each update is one unmasked
// text frame, and the frames one update sends to a socket are joined once per distinct set of
// channels (a trie keyed by frame), so 5 000 sockets holding the same channels share one buffer
// and get one write each. A socket `ws` is still writing to goes through `ws`, so nothing overtakes.
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/** One channel update: its text, and the same as a whole unmasked WebSocket text frame. */
export interface PublishedFrame {
  readonly text: Buffer;
  readonly framed: Buffer;
}

/**
 * The frames one update sends to the sockets that hold the same channels: a path in a trie keyed
 * by frame, so sockets with the same subscriptions share one joined buffer (built at most once
 * per update) instead of each allocating its own.
 */
export class FrameSet {
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
export function directSocket(socket: WebSocket): Socket | undefined {
  const { _socket: raw, _sender: sender } = socket as unknown as WsInternals;
  if (!raw || !sender || sender._state !== 0 || (sender._queue?.length ?? 0) > 0) return undefined;
  return raw;
}
