// Chat events after commit (issue 21): the user's own sockets get their conversation's events on
// the user channel, the back office's sockets get every conversation's events on the operators'
// "chat" channel. Both ride the chat's own bus (kernel/chatEvents.ts, Redis across instances), so
// an operator on one instance answers a user on another. Delivery is at-most-once: a client that
// was away asks for `afterSeq` of what it has.
import type { ChatEvent } from '../../../../src/api/contract/chat.ts';
import type { Services } from '../../kernel/services.ts';
import { toChatMessage, type MessageRow } from './conversations.ts';

type Bus = Pick<Services, 'chatEvents'>;

export function toUser(services: Bus, userId: bigint, event: ChatEvent) {
  services.chatEvents.publish({ to: 'user', userId, event });
}

/** Operators see every conversation, so their copy of an event names its user. */
export function toOperators(services: Bus, userId: bigint, event: ChatEvent) {
  services.chatEvents.publish({ to: 'operators', event: { ...event, userId: String(userId) } });
}

/** A new message: both sides see it (each with its own image URL). */
export function messageEvents(services: Bus, userId: bigint, row: MessageRow) {
  const conversationId = String(row.conversationId);
  toUser(services, userId, { type: 'chat.message', conversationId, message: toChatMessage(row, 'user') });
  toOperators(services, userId, { type: 'chat.message', conversationId, message: toChatMessage(row, 'operator') });
}
