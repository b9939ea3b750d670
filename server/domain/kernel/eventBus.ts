// The mechanism both realtime event buses share (a user's own events, the chat's events): in one
// process an emitter; with Redis (REDIS_URL) one pub/sub channel, so every instance hears every
// item and hands it to the sockets it holds. Pub/sub is at-most-once: each bus says what a lost
// item costs its clients. A bus is typed by its item; the Redis one takes a codec, because an item
// may hold what JSON cannot carry as is (a bigint id).
import { redisChannel } from '../../lib/redisPubSub.ts';

export type EventListener<Item> = (item: Item) => void;

export interface EventBus<Item> {
  publish(item: Item): void;
  subscribe(listener: EventListener<Item>): () => void;
  close(): Promise<void>;
}

/** How an item travels as text on Redis. */
export interface EventCodec<Item> {
  encode(item: Item): string;
  decode(text: string): Item;
}

export function localEventBus<Item>(): EventBus<Item> {
  const listeners = new Set<EventListener<Item>>();
  return {
    publish(item) {
      for (const listener of listeners) listener(item);
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

/** A bus on the Redis pub/sub `channel`, subscribed before it resolves; failures go to `onError`. */
export async function redisEventBus<Item>(url: string, channel: string, codec: EventCodec<Item>,
  onError: (error: unknown) => void): Promise<EventBus<Item>> {
  const listeners = new Set<EventListener<Item>>();
  // A listener or the decoder that throws is reported by redisChannel and costs that item only.
  const pubSub = await redisChannel(url, channel, (text) => {
    const item = codec.decode(text);
    for (const listener of listeners) listener(item);
  }, onError);
  return {
    publish(item) {
      pubSub.publish(codec.encode(item)).catch(onError);
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
