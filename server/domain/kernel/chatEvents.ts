// The support chat's realtime events (issue 21, its own bus since issue 33): a conversation's
// events for its user's own sockets (the "user" channel), and every conversation's events for the
// back office's sockets (the operators' "chat" channel). Chat publishes here after commit, the
// socket hub listens; with Redis (REDIS_URL) every instance hears every event, so an operator on
// one instance answers a user on another. At-most-once like any pub/sub: a client that was away
// asks for `afterSeq` of what it has. The bus is in the kernel so Services can name it; only the
// chat program publishes on it.
import type { ChatEvent } from '../../../src/api/contract/chat.ts';
import { localEventBus, redisEventBus, type EventBus, type EventCodec } from './eventBus.ts';

/** Who a chat event is for: one user's own channel, or all operators (the event names its user). */
export type ChatDelivery =
  | { to: 'user'; userId: bigint; event: ChatEvent }
  | { to: 'operators'; event: ChatEvent };

export type ChatEventBus = EventBus<ChatDelivery>;

type WireDelivery = { to: 'user'; userId: string; event: ChatEvent } | { to: 'operators'; event: ChatEvent };

const codec: EventCodec<ChatDelivery> = {
  encode: (delivery) => JSON.stringify(delivery.to === 'user' ? { ...delivery, userId: String(delivery.userId) } : delivery),
  decode: (text) => {
    const delivery = JSON.parse(text) as WireDelivery;
    return delivery.to === 'user' ? { ...delivery, userId: BigInt(delivery.userId) } : delivery;
  },
};

export function localChatEvents(): ChatEventBus {
  return localEventBus();
}

export const defaultChatEventChannel = 'bourse:chat-events';

export async function redisChatEvents(url: string, options: { channel?: string; onError?: (error: unknown) => void } = {}): Promise<ChatEventBus> {
  return redisEventBus(url, options.channel ?? defaultChatEventChannel, codec, options.onError ?? (() => {}));
}
