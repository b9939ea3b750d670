// The market channels of /api/ws ("tickers", "ticker.<SYMBOL>", "candle.<SYMBOL>.<PERIOD>"): a
// client subscribes, gets a snapshot of each, then the updates the market view applies. Each
// channel numbers its updates (seq) once for every connection of this instance, and each update is
// serialised and framed once and the same bytes are written to every subscriber (frames.ts), so
// fan-out costs one JSON.stringify per channel per update rather than one per socket, and one write
// per socket per update: at 5 000 sockets the writes are the fan-out, and most of a write is the
// kernel's. A socket that does not keep up misses updates instead of growing an unbounded buffer;
// the gap in seq tells its client to ask for a fresh snapshot (resync).
import { candlePeriods, type CandlePeriod } from '../../../src/api/contract/market.ts';
import type { MarketUpdate } from '../../domain/core/market/bus.ts';
import { symbolByCode } from '../../domain/core/market/symbols.ts';
import { toCandle, toTicker, type MarketView } from '../../domain/core/market/view.ts';
import type { Connection, Connections } from './connections.ts';
import { directSocket, FrameSet, textFrame, type PublishedFrame } from './frames.ts';
import { Refusals } from './refusals.ts';
import type { RealtimeSettings } from './settings.ts';

export type ChannelRoute =
  | { kind: 'tickers' }
  | { kind: 'ticker'; symbol: string }
  | { kind: 'candle'; symbol: string; period: CandlePeriod };

/** What a channel name means, or undefined when it names no channel, symbol or period. */
export function parseChannel(name: string): ChannelRoute | undefined {
  if (name === 'tickers') return { kind: 'tickers' };
  const parts = name.split('.');
  if (!symbolByCode.has(parts[1] ?? '')) return undefined;
  if (parts[0] === 'ticker' && parts.length === 2) return { kind: 'ticker', symbol: parts[1] };
  const period = candlePeriods.find((candidate) => candidate === parts[2]);
  if (parts[0] === 'candle' && parts.length === 3 && period) return { kind: 'candle', symbol: parts[1], period };
  return undefined;
}

class Channel {
  /** The seq of the last update published on this channel on this instance. */
  seq = 0;
  readonly subscribers = new Set<Subscriber>();
  constructor(readonly name: string, readonly route: ChannelRoute) {}
}

/** A connection's market side: the channels it holds, and the frames it gets in the current round. */
class Subscriber {
  readonly channels = new Set<Channel>();
  /** The update round `frames` belongs to, and the frames this connection gets in it. */
  round = 0;
  frames: FrameSet | undefined;
  constructor(readonly connection: Connection) {}
}

/** The market channels of one instance and their fan-out. */
export class MarketChannels {
  readonly #channels = new Map<string, Channel>();
  readonly #subscribers = new Map<Connection, Subscriber>();
  /** The last serialised ticker of each symbol: an unchanged ticker is not sent again. */
  readonly #tickerJson = new Map<string, string>();
  readonly #stopListening: () => void;
  #updatesSkipped = 0;
  /** Counts market updates, so a connection's frames of one update are written together. */
  #round = 0;
  /** The subscribers that get frames in the current round, in the order they first got one. */
  readonly #pending: Subscriber[] = [];
  #frameSets = new FrameSet(undefined, undefined);

  constructor(
    private readonly view: MarketView,
    private readonly settings: RealtimeSettings,
    private readonly connections: Connections,
  ) {
    this.#stopListening = view.onUpdate((update) => this.#publishUpdate(update));
  }

  /** Updates not sent because their socket's buffer was full (since start). */
  get updatesSkipped() { return this.#updatesSkipped; }

  close() {
    this.#stopListening();
  }

  /** A closed connection leaves every channel it held. */
  forget(connection: Connection) {
    const subscriber = this.#subscribers.get(connection);
    if (!subscriber) return;
    for (const channel of subscriber.channels) channel.subscribers.delete(subscriber);
    subscriber.channels.clear();
    this.#subscribers.delete(connection);
  }

  #subscriberOf(connection: Connection): Subscriber {
    let subscriber = this.#subscribers.get(connection);
    if (!subscriber) this.#subscribers.set(connection, subscriber = new Subscriber(connection));
    return subscriber;
  }

  /** The channel of a name, created on first use; there are only as many as symbols × periods. */
  #channel(name: string): Channel | undefined {
    let channel = this.#channels.get(name);
    if (!channel) {
      const route = parseChannel(name);
      if (route) this.#channels.set(name, channel = new Channel(name, route));
    }
    return channel;
  }

  /** Subscribes the names it can; a channel already held is acknowledged again but gets no new snapshot. */
  subscribe(connection: Connection, names: string[]) {
    const subscriber = this.#subscriberOf(connection);
    const refusals = new Refusals();
    const acknowledged: Channel[] = [];
    const added: Channel[] = [];
    for (const name of new Set(names)) {
      const channel = this.#channel(name);
      if (!channel) {
        refusals.add('unknown_channel', name);
      } else if (subscriber.channels.has(channel)) {
        acknowledged.push(channel);
      } else if (subscriber.channels.size >= this.settings.subscriptionsPerConnectionMax) {
        refusals.add('too_many_subscriptions', name);
      } else {
        subscriber.channels.add(channel);
        channel.subscribers.add(subscriber);
        acknowledged.push(channel);
        added.push(channel);
      }
    }
    this.#refuse(connection, refusals);
    if (acknowledged.length === 0) return;
    this.connections.reply(connection, { type: 'subscribed', channels: acknowledged.map((channel) => channel.name) });
    for (const channel of added) this.#snapshot(connection, channel);
  }

  unsubscribe(connection: Connection, names: string[]) {
    const subscriber = this.#subscribers.get(connection);
    const refusals = new Refusals();
    const removed: string[] = [];
    for (const name of new Set(names)) {
      const channel = this.#channel(name);
      if (!channel) {
        refusals.add('unknown_channel', name);
      } else if (!subscriber?.channels.delete(channel)) {
        refusals.add('not_subscribed', name);
      } else {
        channel.subscribers.delete(subscriber);
        removed.push(name);
      }
    }
    this.#refuse(connection, refusals);
    if (removed.length > 0) this.connections.reply(connection, { type: 'unsubscribed', channels: removed });
  }

  /** A resync costs a snapshot: it is paid from the reply budget like any other answer. */
  resync(connection: Connection, name: string) {
    const channel = this.#channel(name);
    const refusals = new Refusals();
    if (!channel) refusals.add('unknown_channel', name);
    else if (!this.#subscribers.get(connection)?.channels.has(channel)) refusals.add('not_subscribed', name);
    this.#refuse(connection, refusals);
    if (channel && refusals.total === 0) this.#snapshot(connection, channel);
  }

  #refuse(connection: Connection, refusals: Refusals) {
    const error = refusals.error(this.settings);
    if (error) this.connections.reply(connection, error);
  }

  /** The channel's whole state as of its current seq: the next update carries seq + 1. */
  #snapshot(connection: Connection, channel: Channel) {
    // Closed halfway through a subscribe (its budget ran out): the rest is not worth building.
    if (connection.socket.readyState !== connection.socket.OPEN) return;
    const { route } = channel;
    const data = route.kind === 'tickers' ? this.view.tickers()
      : route.kind === 'ticker' ? this.view.ticker(route.symbol) ?? null
        : this.view.currentCandle(route.symbol, route.period) ?? null;
    this.connections.reply(connection, { type: 'snapshot', channel: channel.name, seq: channel.seq, data });
  }

  #publishUpdate(update: MarketUpdate) {
    this.#round += 1;
    this.#frameSets = new FrameSet(undefined, undefined);
    try {
      this.#publishChannels(update);
    } finally {
      this.#flush();
    }
  }

  #publishChannels(update: MarketUpdate) {
    const changedTickers: string[] = [];
    for (const state of update.tickers) {
      const spec = symbolByCode.get(state.symbol);
      if (!spec) continue;
      const json = JSON.stringify(toTicker(spec, state));
      if (this.#tickerJson.get(state.symbol) === json) continue;
      this.#tickerJson.set(state.symbol, json);
      changedTickers.push(json);
      this.#publish(`ticker.${state.symbol}`, () => json);
    }
    // The list carries only the tickers that changed; the client merges them by symbol.
    if (changedTickers.length > 0) this.#publish('tickers', () => `[${changedTickers.join(',')}]`);
    for (const candle of update.candles) {
      const spec = symbolByCode.get(candle.symbol);
      if (spec) this.#publish(`candle.${candle.symbol}.${candle.period}`, () => JSON.stringify(toCandle(spec, candle)));
    }
  }

  /** Numbers the update, frames it once and adds it to the frames of every subscriber that keeps up. */
  #publish(name: string, data: () => string) {
    const channel = this.#channels.get(name);
    if (!channel || channel.subscribers.size === 0) return;
    channel.seq += 1;
    // Channel names are checked against the symbol and period lists, so they need no escaping.
    const text = Buffer.from(`{"type":"update","channel":"${name}","seq":${channel.seq},"data":${data()}}`);
    const frame: PublishedFrame = { text, framed: textFrame(text) };
    const round = this.#round;
    for (const subscriber of channel.subscribers) {
      const { socket } = subscriber.connection;
      if (socket.readyState !== socket.OPEN) continue;
      // Nothing of this round is written yet, so this is what the socket had left from before.
      const buffered = socket.bufferedAmount;
      if (buffered > this.settings.bufferedBytesMax) {
        socket.terminate();
      } else if (buffered > this.settings.updateBufferedBytesMax) {
        this.#updatesSkipped += 1;
      } else if (subscriber.round === round) {
        subscriber.frames = subscriber.frames!.with(frame);
      } else {
        subscriber.round = round;
        subscriber.frames = this.#frameSets.with(frame);
        this.#pending.push(subscriber);
      }
    }
  }

  /**
   * Writes each subscriber's frames of this update in one write, in the order the subscribers
   * first got a frame. A socket `ws` is still writing to gets them through `ws`, frame by frame.
   */
  #flush() {
    const pending = this.#pending;
    for (let index = 0; index < pending.length; index += 1) {
      const subscriber = pending[index];
      const { frames } = subscriber;
      const { socket } = subscriber.connection;
      subscriber.frames = undefined;
      if (!frames || socket.readyState !== socket.OPEN) continue;
      const raw = directSocket(socket);
      if (raw) {
        raw.write(frames.joined);
      } else {
        for (const frame of frames.frames) socket.send(frame.text, { binary: false });
      }
    }
    pending.length = 0;
  }
}
