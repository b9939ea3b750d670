// Events for one user's own realtime channel ("user" on /api/ws, issue 10): a position opened,
// changed or closed, a second contract bought or settled, a swap, a balance change. They carry
// what changed, not the data: the app refetches what it shows. In one process the bus is an
// emitter; with Redis (REDIS_URL) every instance gets every event and sends it to the sockets of
// that user it holds (kernel/eventBus.ts). Pub/sub is at-most-once: a missed event costs a refetch
// on the next one (the app also refetches on reconnect). Chat has a bus of its own (chatEvents.ts).
import type { UserEvent } from '../../../src/api/contract/market.ts';
import { localEventBus, redisEventBus, type EventBus, type EventCodec } from './eventBus.ts';

export type UserEventListener = (userId: bigint, event: UserEvent) => void;

export interface UserEventBus {
  publish(userId: bigint, event: UserEvent): void;
  subscribe(listener: UserEventListener): () => void;
  close(): Promise<void>;
}

interface Addressed { userId: bigint; event: UserEvent }

const codec: EventCodec<Addressed> = {
  encode: ({ userId, event }) => JSON.stringify({ userId: String(userId), event }),
  decode: (text) => {
    const { userId, event } = JSON.parse(text) as { userId: string; event: UserEvent };
    return { userId: BigInt(userId), event };
  },
};

/** The user-event shape (a user id and an event) over a bus of addressed items. */
function userEventsOver(bus: EventBus<Addressed>): UserEventBus {
  return {
    publish: (userId, event) => bus.publish({ userId, event }),
    subscribe: (listener) => bus.subscribe(({ userId, event }) => listener(userId, event)),
    close: () => bus.close(),
  };
}

export function localUserEvents(): UserEventBus {
  return userEventsOver(localEventBus());
}

export const defaultUserEventChannel = 'bourse:user-events';

export async function redisUserEvents(url: string, options: { channel?: string; onError?: (error: unknown) => void } = {}): Promise<UserEventBus> {
  const bus = await redisEventBus(url, options.channel ?? defaultUserEventChannel, codec, options.onError ?? (() => {}));
  return userEventsOver(bus);
}
