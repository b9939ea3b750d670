// The operators' channel ("chat" on /api/ws, issue 21): the back office's chat screen joins it
// with an operator session (`auth` with `as: "operator"`) and gets every conversation's events
// from the chat's own bus, each naming its user. An event is serialised once for all operators;
// each connection numbers it (sessions.ts).
import { operatorChatChannel } from '../../../src/api/contract/chat.ts';
import type { ChatEventBus } from '../../domain/kernel/chatEvents.ts';
import type { Connection } from './connections.ts';
import type { Authenticate, SessionChannel, Sessions } from './sessions.ts';

export class OperatorChannel implements SessionChannel {
  readonly name = operatorChatChannel;
  readonly loginAgainText = 'Please log in to the back office again.';
  readonly logLabel = 'realtime operator';
  /** The back-office connections holding the channel. */
  readonly #members = new Set<Connection>();
  readonly #unsubscribe: () => void;

  constructor(
    private readonly sessions: Sessions,
    private readonly authenticateOperator: Authenticate | undefined,
    chatEvents: ChatEventBus | undefined,
  ) {
    this.#unsubscribe = chatEvents?.subscribe((delivery) => {
      if (delivery.to === 'operators') this.#publish(JSON.stringify(delivery.event));
    }) ?? (() => {});
  }

  async authenticate(token: string) {
    return this.authenticateOperator?.(token);
  }

  join(connection: Connection) {
    this.#members.add(connection);
  }

  leave(connection: Connection) {
    this.#members.delete(connection);
  }

  close() {
    this.#unsubscribe();
  }

  #publish(data: string) {
    for (const connection of this.#members) this.sessions.deliver(connection, data);
  }
}
