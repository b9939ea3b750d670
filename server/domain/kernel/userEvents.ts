// Events for one user's own realtime channel ("user" on /api/ws, issue 10): a position opened,
// changed or closed, a second contract bought or settled, a swap, a balance change. They carry
// what changed, not the data: the app refetches what it shows. In one process the bus is an
// emitter; with Redis (REDIS_URL) every instance gets every event and sends it to the sockets of
// that user it holds. Pub/sub is at-most-once: a missed event costs a refetch on the next one (the
// app also refetches on reconnect).
import type { UserEvent } from '../../../src/api/contract/market.ts';
import { redisChannel } from '../../lib/redisPubSub.ts';

export type UserEventListener = (userId: bigint, event: UserEvent) => void;

export interface UserEventBus {
  publish(userId: bigint, event: UserEvent): void;
  subscribe(listener: UserEventListener): () => void;
  close(): Promise<void>;
}

export function localUserEvents(): UserEventBus {
  const listeners = new Set<UserEventListener>();
  return {
    publish(userId, event) {
      for (const listener of listeners) listener(userId, event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}

export const defaultUserEventChannel = 'bourse:user-events';

export async function redisUserEvents(url: string, options: { channel?: string; onError?: (error: unknown) => void } = {}): Promise<UserEventBus> {
  const channel = options.channel ?? defaultUserEventChannel;
  const onError = options.onError ?? (() => {});
  const listeners = new Set<UserEventListener>();
  const pubSub = await redisChannel(url, channel, (text) => {
    const { userId, event } = JSON.parse(text) as { userId: string; event: UserEvent };
    for (const listener of listeners) listener(BigInt(userId), event);
  }, onError);
  return {
    publish(userId, event) {
      pubSub.publish(JSON.stringify({ userId: String(userId), event })).catch(onError);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await pubSub.close();
    },
  };
}
