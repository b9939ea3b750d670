// The market bus over Redis pub/sub, for several server instances: the engine's instance publishes
// each update on one channel and every instance (the publisher included) receives it from Redis,
// so all views apply the same updates in the same order. A subscribing connection can do nothing
// else in Redis, hence two connections. Pub/sub is at-most-once: an instance cut off from Redis
// misses the updates of that moment, and the next ones (which carry whole tickers and candles)
// bring its view back up to date.
import { redisChannel } from '../../lib/redisPubSub.ts';
import { decodeUpdate, encodeUpdate, type MarketBus, type UpdateListener } from './bus.ts';

export const defaultMarketChannel = 'bourse:market';

export interface RedisBusOptions {
  /** The pub/sub channel; instances that share it see the same market. */
  channel?: string;
  onError?: (error: unknown) => void;
}

/** Connects both connections and subscribes before resolving, so no published update is missed after it. */
export async function redisBus(url: string, options: RedisBusOptions = {}): Promise<MarketBus> {
  const channel = options.channel ?? defaultMarketChannel;
  const onError = options.onError ?? (() => {});
  const listeners = new Set<UpdateListener>();
  const pubSub = await redisChannel(url, channel, (text) => {
    const update = decodeUpdate(text);
    for (const listener of listeners) listener(update);
  }, onError);
  return {
    async publish(update) {
      await pubSub.publish(encodeUpdate(update));
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
