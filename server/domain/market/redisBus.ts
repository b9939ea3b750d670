// The market bus over Redis pub/sub, for several server instances: the engine's instance publishes
// each update on one channel and every instance (the publisher included) receives it from Redis,
// so all views apply the same updates in the same order. A subscribing connection can do nothing
// else in Redis, hence two connections. Pub/sub is at-most-once: an instance cut off from Redis
// misses the updates of that moment, and the next ones (which carry whole tickers and candles)
// bring its view back up to date.
import { redisClient } from '../../lib/redisClient.ts';
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
  // Bounded waits (lib/redisClient): a hung Redis costs the engine one dropped update per tick,
  // never a tick loop stuck on a publish.
  const publisher = redisClient(url, onError);
  const subscriber = redisClient(url, onError);
  const listeners = new Set<UpdateListener>();
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    try {
      const update = decodeUpdate(text);
      for (const listener of listeners) listener(update);
    } catch (error) {
      onError(error);
    }
  });
  try {
    await subscriber.subscribe(channel);
  } catch (error) {
    publisher.disconnect();
    subscriber.disconnect();
    throw error;
  }
  return {
    async publish(update) {
      await publisher.publish(channel, encodeUpdate(update));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    },
  };
}
