// What the user channel and the operators' channel share: a connection joins one of them with an
// `auth` message carrying a session token, holds at most one at a time (a new auth leaves the
// old), is closed after too many failed attempts, and is checked again every few minutes so a
// logout or an expiry ends its channel. Each connection numbers the events of the channel it holds
// with one seq of its own. The channels (userChannel.ts, operatorChannel.ts) say how a token
// becomes an id and which connections an event is for; this module keeps the sessions.
import type { FastifyBaseLogger } from 'fastify';
import type { Connection, Connections } from './connections.ts';

/** Resolves a session token to its user (or operator), or undefined when it names no live session. */
export type Authenticate = (token: string) => Promise<bigint | undefined>;

/** Auth messages one connection may send; a client that keeps failing is closed. */
export const authAttemptsMax = 5;
/** How often an authenticated connection's session is checked again (a logout or expiry ends its user channel). */
export const authRecheckIntervalMs = 5 * 60_000;

/** A channel a connection joins with a session token. */
export interface SessionChannel {
  /** The channel's name on the wire. */
  readonly name: string;
  /** The error's text when the token names no live session, or no longer does. */
  readonly loginAgainText: string;
  /** How the log names it ("realtime", "realtime operator"). */
  readonly logLabel: string;
  authenticate: Authenticate;
  join(connection: Connection, id: bigint): void;
  leave(connection: Connection, id: bigint): void;
}

/** The session a connection holds: which channel, as whom, with which token, checked when. */
interface Held {
  readonly channel: SessionChannel;
  readonly id: bigint;
  readonly token: string;
  checkedMs: number;
}

class SessionState {
  attempts = 0;
  /** The seq of the last event sent to this connection on the channel it holds (or held). */
  seq = 0;
  held: Held | undefined;
}

export class Sessions {
  readonly #states = new Map<Connection, SessionState>();

  constructor(private readonly connections: Connections, private readonly log: FastifyBaseLogger) {}

  /**
   * Joins the connection to `channel` once the token names a live session; a wrong token gets an
   * `unauthorized` error, and a connection that keeps sending them is closed.
   */
  async authenticate(connection: Connection, token: string, channel: SessionChannel) {
    let state = this.#states.get(connection);
    if (!state) this.#states.set(connection, state = new SessionState());
    state.attempts += 1;
    if (state.attempts > authAttemptsMax) {
      connection.socket.close(1008, 'Too many authentication attempts.');
      return;
    }
    let id: bigint | undefined;
    try {
      id = await channel.authenticate(token);
    } catch (error) {
      this.log.error({ err: error }, `${channel.logLabel} authentication failed`);
    }
    if (connection.socket.readyState !== connection.socket.OPEN) return;
    this.#leave(connection, state);
    if (id === undefined) {
      this.#refuse(connection, channel);
      return;
    }
    state.held = { channel, id, token, checkedMs: performance.now() };
    state.attempts = 0;
    channel.join(connection, id);
    this.connections.reply(connection, { type: 'subscribed', channels: [channel.name] });
  }

  /** Numbers an event of the channel the connection holds and sends it (no budget: the server sends it unasked). */
  deliver(connection: Connection, data: string) {
    const state = this.#states.get(connection);
    if (!state?.held) return;
    state.seq += 1;
    this.connections.send(connection, `{"type":"update","channel":"${state.held.channel.name}","seq":${state.seq},"data":${data}}`);
  }

  /** A closed connection leaves its channel. */
  forget(connection: Connection) {
    const state = this.#states.get(connection);
    if (state) this.#leave(connection, state);
    this.#states.delete(connection);
  }

  /** A session that ended (logout, expiry) ends the channel of the connections it opened. */
  recheck() {
    const nowMs = performance.now();
    for (const [connection, state] of this.#states) {
      const { held } = state;
      if (!held || nowMs - held.checkedMs < authRecheckIntervalMs) continue;
      held.checkedMs = nowMs;
      void held.channel.authenticate(held.token).then((current) => {
        // A connection that left or authenticated again since is not this session's any more.
        if (current === held.id || state.held !== held) return;
        this.#leave(connection, state);
        this.#refuse(connection, held.channel);
      }).catch((error: unknown) => this.log.error({ err: error }, `${held.channel.logLabel} session check failed`));
    }
  }

  #leave(connection: Connection, state: SessionState) {
    const { held } = state;
    if (!held) return;
    state.held = undefined;
    held.channel.leave(connection, held.id);
  }

  #refuse(connection: Connection, channel: SessionChannel) {
    this.connections.reply(connection, { type: 'error', code: 'unauthorized', message: channel.loginAgainText, channel: channel.name });
  }
}
