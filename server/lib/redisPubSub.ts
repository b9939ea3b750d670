// One Redis pub/sub channel as the instances share it: a publishing connection and a subscribing
// one (a subscribed connection can do nothing else in Redis), subscribed before this resolves so no
// message published after it is missed. Pub/sub is at-most-once; the callers say what a lost
// message costs them. Used by the market bus and the user events.
import { redisClient } from './redisClient.ts';

export interface RedisChannel {
  publish(text: string): Promise<void>;
  /** Whether both connections are up right now (a cut or refused connection is not). */
  readonly ready: boolean;
  /** Asks Redis on both connections; rejects when either does not answer within the command timeout. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function redisChannel(url: string, channel: string, onMessage: (text: string) => void,
  onError: (error: unknown) => void): Promise<RedisChannel> {
  // Bounded waits (lib/redisClient): a hung Redis costs a dropped message, never a stuck caller.
  const publisher = redisClient(url, onError);
  // ioredis would resubscribe by itself after a reconnection, but without catching a failure: a
  // Redis that hangs right then would time the SUBSCRIBE out as an unhandled rejection, which ends
  // the process. So this resubscribes itself, on every reconnection, and reports a failure.
  const subscriber = redisClient(url, onError, { autoResubscribe: false });
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    try {
      onMessage(text);
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
  subscriber.on('ready', () => {
    subscriber.subscribe(channel).catch(onError);
  });
  return {
    async publish(text) {
      await publisher.publish(channel, text);
    },
    get ready() {
      return publisher.status === 'ready' && subscriber.status === 'ready';
    },
    async ping() {
      await Promise.all([publisher.ping(), subscriber.ping()]);
    },
    async close() {
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    },
  };
}
