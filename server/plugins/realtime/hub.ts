// The realtime hub of one instance: the composition of the socket's parts, each with one job.
// connections.ts holds the sockets and every limit on what a client may make the hub do;
// market.ts the market channels and their fan-out; sessions.ts the authenticated channels'
// sessions, which userChannel.ts (a user's own events and chat) and operatorChannel.ts (the
// operators' chat) build on. The hub routes each client message to its part and runs the heartbeat.
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { ChatEventBus } from '../../domain/kernel/chatEvents.ts';
import type { UserEventBus } from '../../domain/kernel/userEvents.ts';
import type { MarketView } from '../../domain/core/market/view.ts';
import type { Clock } from '../../lib/time.ts';
import {
  Connections, openFilesLimit, type Admission, type ChannelMessage, type Connection, type ConnectionSlot,
} from './connections.ts';
import { MarketChannels } from './market.ts';
import { OperatorChannel } from './operatorChannel.ts';
import { Sessions, type Authenticate } from './sessions.ts';
import { assertRealtimeSettings, type RealtimeSettings } from './settings.ts';
import { UserChannel } from './userChannel.ts';

/**
 * The user channel and the operators' channel: how a token becomes a user (or an operator), and
 * where their events come from: trading's user events, and the chat's own bus for both.
 */
export interface RealtimeUsers {
  authenticate: Authenticate;
  events: UserEventBus;
  authenticateOperator?: Authenticate;
  chatEvents?: ChatEventBus;
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
  readonly #connections: Connections;
  readonly #market: MarketChannels;
  readonly #sessions: Sessions;
  readonly #user: UserChannel;
  readonly #operators: OperatorChannel;
  readonly #heartbeatTimer: ReturnType<typeof setInterval>;

  constructor(
    view: MarketView,
    clock: Clock,
    settings: RealtimeSettings,
    log: FastifyBaseLogger,
    filesLimit: number | undefined = openFilesLimit(),
    users?: RealtimeUsers,
  ) {
    assertRealtimeSettings(settings);
    this.#connections = new Connections(settings, clock, log, filesLimit, {
      received: (connection, message) => this.#receive(connection, message),
      closed: (connection) => this.#forget(connection),
    });
    this.#market = new MarketChannels(view, settings, this.#connections);
    this.#sessions = new Sessions(this.#connections, log);
    this.#user = new UserChannel(this.#sessions, users?.authenticate, users?.events, users?.chatEvents);
    this.#operators = new OperatorChannel(this.#sessions, users?.authenticateOperator, users?.chatEvents);
    this.#heartbeatTimer = setInterval(() => this.#heartbeat(), settings.heartbeatIntervalMs);
    this.#heartbeatTimer.unref();
  }

  /** The configured cap on sockets, lowered below the open-file limit. */
  get connectionsMax(): number {
    return this.#connections.connectionsMax;
  }

  get stats(): RealtimeStats {
    return {
      connections: this.#connections.size, addresses: this.#connections.addresses,
      updatesSkipped: this.#market.updatesSkipped, budgetsExhausted: this.#connections.budgetsExhausted,
    };
  }

  /** Whether a user holds their channel on this instance (the app is open). */
  isUserConnected(userId: bigint): boolean {
    return this.#user.isConnected(userId);
  }

  close() {
    clearInterval(this.#heartbeatTimer);
    this.#market.close();
    this.#user.close();
    this.#operators.close();
  }

  /**
   * Takes a place for a socket from `ip` before its upgrade, so sockets still shaking hands count
   * too, or says which cap refuses it. The caller releases the slot when the socket closes.
   */
  admit(ip: string): Admission {
    return this.#connections.admit(ip);
  }

  accept(socket: WebSocket, slot: ConnectionSlot) {
    this.#connections.accept(socket, slot);
  }

  #receive(connection: Connection, message: ChannelMessage) {
    switch (message.op) {
      case 'subscribe': return this.#market.subscribe(connection, message.channels);
      case 'unsubscribe': return this.#market.unsubscribe(connection, message.channels);
      case 'resync': return this.#market.resync(connection, message.channel);
      case 'auth': return void this.#sessions.authenticate(connection, message.token, message.as === 'operator' ? this.#operators : this.#user);
    }
  }

  #forget(connection: Connection) {
    this.#sessions.forget(connection);
    this.#market.forget(connection);
  }

  #heartbeat() {
    this.#connections.heartbeat();
    this.#sessions.recheck();
  }
}
