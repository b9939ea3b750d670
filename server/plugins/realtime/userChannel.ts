// A user's own channel ("user" on /api/ws): the events of their positions, contracts, swaps,
// balances and messages (trading's user-event bus) and of their support chat (the chat's own bus),
// sent to every connection of theirs on this instance. An event is serialised once for all of
// them; each connection numbers it (sessions.ts).
import { userChannel, type UserEvent } from '../../../src/api/contract/market.ts';
import type { ChatEventBus } from '../../domain/kernel/chatEvents.ts';
import type { UserEventBus } from '../../domain/kernel/userEvents.ts';
import type { Connection } from './connections.ts';
import type { Authenticate, SessionChannel, Sessions } from './sessions.ts';

export class UserChannel implements SessionChannel {
  readonly name = userChannel;
  readonly loginAgainText = 'Please log in again.';
  readonly logLabel = 'realtime';
  /** The connections holding each user's channel. */
  readonly #members = new Map<bigint, Set<Connection>>();
  readonly #unsubscribe: Array<() => void> = [];

  constructor(
    private readonly sessions: Sessions,
    private readonly authenticateUser: Authenticate | undefined,
    events: UserEventBus | undefined,
    chatEvents: ChatEventBus | undefined,
  ) {
    if (events) this.#unsubscribe.push(events.subscribe((userId, event) => this.#publish(userId, event)));
    if (chatEvents) {
      this.#unsubscribe.push(chatEvents.subscribe((delivery) => {
        if (delivery.to === 'user') this.#publish(delivery.userId, { kind: 'chat', demo: false, chat: delivery.event });
      }));
    }
  }

  async authenticate(token: string) {
    return this.authenticateUser?.(token);
  }

  join(connection: Connection, userId: bigint) {
    let held = this.#members.get(userId);
    if (!held) this.#members.set(userId, held = new Set());
    held.add(connection);
  }

  leave(connection: Connection, userId: bigint) {
    const held = this.#members.get(userId);
    held?.delete(connection);
    if (held?.size === 0) this.#members.delete(userId);
  }

  /** Whether a user holds their channel on this instance (the app is open). */
  isConnected(userId: bigint): boolean {
    return (this.#members.get(userId)?.size ?? 0) > 0;
  }

  close() {
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
  }

  /** Sends a user's event to every connection of theirs on this instance (each numbers its own). */
  #publish(userId: bigint, event: UserEvent) {
    const held = this.#members.get(userId);
    if (!held) return;
    const data = JSON.stringify(event);
    for (const connection of held) this.sessions.deliver(connection, data);
  }
}
