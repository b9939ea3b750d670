// The market bus over Redis pub/sub, for several server instances. The engine's instance publishes
// each update on one channel and then hands it to its own listeners; every other instance receives
// it from Redis, and the publisher drops its own message when Redis echoes it back (each
// message names the instance that sent it). So the leader's sockets keep their prices while Redis
// is down, and no update is applied twice while it is up. A subscribing connection can do nothing
// else in Redis, hence two connections. Pub/sub is at-most-once: an instance cut off from Redis
// misses the updates of that moment, and the next ones (which carry whole tickers and candles)
// bring its view back up to date. The bus says whether it is connected, for the health answer.
import { randomBytes } from 'node:crypto';
import { redisChannel } from '../../../lib/redisPubSub.ts';
import { decodeUpdate, encodeUpdate, type MarketBus, type MarketUpdate, type UpdateListener } from './bus.ts';

export const defaultMarketChannel = 'bourse:market';

/** How often the bus asks Redis on both connections whether it still answers (a hung Redis keeps its sockets open). */
export const defaultProbeIntervalMs = 5_000;

export interface RedisBusOptions {
  /** The pub/sub channel; instances that share it see the same market. */
  channel?: string;
  onError?: (error: unknown) => void;
  /** Pace of the liveness probe; tests shorten it. */
  probeIntervalMs?: number;
}

/** What travels on the channel: the sending instance and the update (bigints as `123n` strings). */
export function encodeBusMessage(origin: string, update: MarketUpdate): string {
  return `{"origin":${JSON.stringify(origin)},"update":${encodeUpdate(update)}}`;
}

export function decodeBusMessage(text: string): { origin: string | undefined; update: MarketUpdate } {
  const parsed = decodeUpdate(text) as unknown as { origin?: unknown; update?: MarketUpdate };
  // A bare update (an instance of an earlier version, during a rolling upgrade) has no origin.
  if (typeof parsed.origin !== 'string' || parsed.update === undefined) return { origin: undefined, update: parsed as unknown as MarketUpdate };
  return { origin: parsed.origin, update: parsed.update };
}

/** Connects both connections and subscribes before resolving, so no published update is missed after it. */
export async function redisBus(url: string, options: RedisBusOptions = {}): Promise<MarketBus> {
  const channel = options.channel ?? defaultMarketChannel;
  const onError = options.onError ?? (() => {});
  const instanceId = randomBytes(12).toString('hex');
  const listeners = new Set<UpdateListener>();
  const deliver = (update: MarketUpdate) => {
    for (const listener of listeners) listener(update);
  };
  // A hung Redis keeps its connections "ready" and only an unanswered command shows it: the bus is
  // down while the last command that finished (a publish or a probe) failed.
  let lastCommandFailed = false;
  const commandDone = () => { lastCommandFailed = false; };
  const commandFailed = (error: unknown) => {
    lastCommandFailed = true;
    onError(error);
  };
  const pubSub = await redisChannel(url, channel, (text) => {
    const { origin, update } = decodeBusMessage(text);
    if (origin === instanceId) return;
    deliver(update);
  }, onError);
  const probe = () => {
    if (!pubSub.ready) return;
    pubSub.ping().then(commandDone, commandFailed);
  };
  const probeTimer = setInterval(probe, options.probeIntervalMs ?? defaultProbeIntervalMs);
  probeTimer.unref();
  return {
    async publish(update) {
      // Sent before this instance's own fan-out (issue 20): writing a tick to thousands of sockets
      // takes tens of milliseconds, and the other instances start theirs at the same time instead of
      // after it. A connection that is down would queue the message and deliver it late, after newer
      // ones could have been missed: skip it; the followers catch up with the next update after Redis
      // is back. Not awaited: a hung Redis costs the command timeout, and the engine must not wait
      // that long per tick, nor its own sockets at all. ioredis sends one connection's commands in
      // order, so the followers still see them in order.
      if (pubSub.ready) pubSub.publish(encodeBusMessage(instanceId, update)).then(commandDone, commandFailed);
      deliver(update);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get connected() {
      return pubSub.ready && !lastCommandFailed;
    },
    async close() {
      clearInterval(probeTimer);
      listeners.clear();
      await pubSub.close();
    },
  };
}
