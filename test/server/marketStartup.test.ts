// A fresh instance through the real start-up wiring (startInstance, as main.ts runs it) on a
// database without market data, on a Saturday: from its very first request it answers every
// market call with data (closed markets included, with their last session's figures and when
// they reopen) and /api/public/health says ready; the live feed starts at the back-filled history's
// last close; the current day, week and month candles hold the part of their bucket before the
// start, as folds of the finer candles; a restart loads the same state back and continues the
// history over the time it was down (a few minutes, and a weekend), with no gap and no jump.
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../server/lib/config.ts';
import { sql } from 'drizzle-orm';
import { localBus } from '../../server/domain/core/market/bus.ts';
import { MarketEngine, seededSimulator, simulatorSource, type PriceSource } from '../../server/domain/core/market/engine.ts';
import { formatUnits, parsePrice, symbolByCode, symbolSpecs } from '../../server/domain/core/market/symbols.ts';
import { startInstance, type Instance } from '../../server/instance.ts';
import { tradingMs } from '../../server/domain/core/market/calendar.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import type { Candle, CandlePeriod, PriceDistribution, Ticker } from '../../src/api/contract/market.ts';
import { apiPrefix, paths } from '../../src/api/contract/paths.ts';
import { forEachDatabase } from './helpers.ts';

const saturday = Date.UTC(2026, 5, 6, 10, 30, 15);
const btc = symbolByCode.get('BTCUSDT')!;

/** A decimal of the wire as integer units (exact), for folding candles. */
const units = (text: string, precision: number) => parsePrice(text, precision);

function foldCandles(candles: Candle[], time: number, pricePrecision = btc.pricePrecision, volumePrecision = btc.volumePrecision): Candle {
  const price = (text: string) => units(text, pricePrecision);
  const high = candles.reduce((max, candle) => (price(candle.high) > price(max.high) ? candle : max)).high;
  const low = candles.reduce((min, candle) => (price(candle.low) < price(min.low) ? candle : min)).low;
  const volume = candles.reduce((sum, candle) => sum + units(candle.volume, volumePrecision), 0n);
  return { time, open: candles[0].open, high, low, close: candles.at(-1)!.close, volume: formatUnits(volume, volumePrecision) };
}

forEachDatabase((server) => {
  let instance: Instance;
  /** Starts an instance on the suite's database and clock, as main.ts does (a restart is another start). */
  let start: () => Promise<Instance>;
  /** The prices the live feed was started from, as the engine handed them over. */
  const feedStart = new Map<string, bigint>();

  const get = async (pathUnderApi: string, query: Record<string, string> = {}) => {
    const reply = await instance.app.inject({ method: 'GET', url: `${apiPrefix}${pathUnderApi}`, query });
    return { status: reply.statusCode, body: JSON.parse(reply.body) };
  };
  const kline = async (symbol: string, period: CandlePeriod, limit: number, endTime?: number): Promise<Candle[]> => {
    const reply = await get(paths.kline, { symbol, period, limit: String(limit), ...(endTime === undefined ? {} : { endTime: String(endTime) }) });
    expect(reply.status).toBe(200);
    return reply.body.result.candles;
  };
  /** The 1m candles opening at or after `fromMs`, oldest first, paged backwards from now. */
  const minutesSince = async (symbol: string, fromMs: number): Promise<Candle[]> => {
    let candles = await kline(symbol, '1m', 1000);
    while (candles.length > 0 && candles[0].time > fromMs) {
      const older = await kline(symbol, '1m', 1000, candles[0].time);
      if (older.length === 0) break;
      candles = [...older, ...candles];
    }
    return candles.filter((candle) => candle.time >= fromMs);
  };

  beforeAll(async () => {
    server.clock.advance(saturday - server.clock.now().getTime());
    const base = loadConfig({ DATA_DIR: server.dataDir });
    // The engine's own timer never fires here: the test ticks it.
    const config = { ...base, webRoot: path.join(server.dataDir, 'no-web'), market: { ...base.market, tickIntervalMs: 3_600_000 } };
    const simulator = simulatorSource(seededSimulator(config.market.seed));
    const source: PriceSource = {
      name: simulator.name,
      async init(lastPrices, startTimeMs) {
        for (const [symbol, price] of lastPrices) feedStart.set(symbol, price);
        await simulator.init(lastPrices, startTimeMs);
      },
      ticksAt: (timeMs) => simulator.ticksAt(timeMs),
    };
    const keys = createKeys();
    start = () => startInstance({ config, database: server.database, keys, clock: server.clock, logger: false, priceSource: () => source });
    instance = await start();
  }, 120_000);

  afterAll(async () => {
    await instance?.close();
  });

  it('answers the market calls with data from its first request, closed markets included, and says it is healthy', async () => {
    const tickers = await get(paths.tickerList);
    expect(tickers.status).toBe(200);
    const list = tickers.body.result as Ticker[];
    expect(list.map((ticker) => ticker.symbol)).toEqual(symbolSpecs.map((spec) => spec.symbol));
    expect(list.find((ticker) => ticker.symbol === 'BTCUSDT')).toMatchObject({ open: true });
    expect(list.find((ticker) => ticker.symbol === 'EURUSD')).toMatchObject({ open: false });
    expect(list.find((ticker) => ticker.symbol === 'XAUUSD')).toMatchObject({ open: false });
    for (const ticker of list) expect(Number(ticker.volume24h), ticker.symbol).toBeGreaterThan(0);

    const symbols = await get(paths.symbolList, { class: 'forex' });
    expect(symbols.status).toBe(200);
    expect(symbols.body.result).toHaveLength(6);
    const price = await get(paths.symbolPrice, { symbol: 'EURUSD' });
    expect(price.status).toBe(200);
    expect(price.body.result.price).toBe(list.find((ticker) => ticker.symbol === 'EURUSD')!.last);
    // The closed markets are left out of the distribution and counted apart.
    const distribution = await get(paths.priceDistribution);
    expect(distribution.status).toBe(200);
    const { rising, falling, flat, closed, buckets } = distribution.body.result as PriceDistribution;
    const crypto = symbolSpecs.filter((spec) => spec.class === 'crypto').length;
    expect({ counted: rising + falling + flat, closed }).toEqual({ counted: crypto, closed: symbolSpecs.length - crypto });
    expect(buckets.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(crypto);

    const health = await get(paths.health);
    expect(health).toMatchObject({ status: 200, body: { success: true, code: 200, result: { ready: true, market: true, database: true } } });
    // The current candles are there from the start, for the realtime snapshots too.
    expect(instance.market.currentCandle('BTCUSDT', '1M')).toBeDefined();
    expect(instance.market.currentCandle('EURUSD', '1m')).toBeDefined();
  });

  it('gives a closed market its last session\'s figures, the 24 h of trading up to Friday\'s close, and says when it reopens', async () => {
    const fridayClose = Date.UTC(2026, 5, 5, 22);
    const sundayReopen = Date.UTC(2026, 5, 7, 22);
    const list = (await get(paths.tickerList)).body.result as Ticker[];
    for (const ticker of list) {
      if (ticker.class === 'crypto') expect(ticker, ticker.symbol).not.toHaveProperty('reopensAt');
      else expect(ticker, ticker.symbol).toMatchObject({ open: false, reopensAt: sundayReopen });
    }
    for (const symbol of ['EURUSD', 'XAUUSD']) {
      const spec = symbolByCode.get(symbol)!;
      const ticker = list.find((item) => item.symbol === symbol)!;
      const session = (await minutesSince(symbol, fridayClose - 86_400_000)).filter((candle) => candle.time < fridayClose);
      // Every minute of the last session, Thursday 22:00 to Friday 21:59, and none after the close.
      expect(session).toHaveLength(1440);
      expect(session[0].time).toBe(fridayClose - 86_400_000);
      expect(session.at(-1)!.time).toBe(fridayClose - 60_000);
      const price = (text: string) => units(text, spec.pricePrecision);
      const day = foldCandles(session, session[0].time, spec.pricePrecision, spec.volumePrecision);
      expect({ open: ticker.open24h, high: ticker.high24h, low: ticker.low24h, last: ticker.last, volume: ticker.volume24h })
        .toEqual({ open: day.open, high: day.high, low: day.low, last: day.close, volume: day.volume });
      expect(price(ticker.high24h)).toBeGreaterThan(price(ticker.low24h));
      expect(ticker.change24h).toBe(formatUnits(price(ticker.last) - price(ticker.open24h), spec.pricePrecision));
      expect(ticker.time).toBeLessThanOrEqual(fridayClose);
    }
  });

  it('starts the live feed at the last close of the history, in every period', async () => {
    for (const spec of symbolSpecs) {
      const last = formatUnits(feedStart.get(spec.symbol)!, spec.pricePrecision);
      expect((await get(paths.symbolPrice, { symbol: spec.symbol })).body.result.price, spec.symbol).toBe(last);
      for (const period of ['1m', '1h', '1d', '1M'] as const) {
        expect((await kline(spec.symbol, period, 1))[0].close, `${spec.symbol} ${period}`).toBe(last);
      }
    }
    // The first tick carries on inside the current minute, which the history opened: no jump.
    const before = (await kline('BTCUSDT', '1m', 1))[0];
    server.clock.advance(1000);
    await instance.engine!.tickOnce(server.clock.now().getTime());
    const after = (await kline('BTCUSDT', '1m', 1))[0];
    expect(after.time).toBe(before.time);
    expect(after.open).toBe(before.open);
    expect(units(after.volume, btc.volumePrecision)).toBeGreaterThan(units(before.volume, btc.volumePrecision));
    const move = Number(after.close) / Number(before.close) - 1;
    expect(Math.abs(move)).toBeLessThan(0.005);
  });

  it('holds in the current day, week and month the part before the start, as folds of the finer candles', async () => {
    const [today] = await kline('BTCUSDT', '1d', 1);
    expect(today.time).toBe(Date.UTC(2026, 5, 6));
    const minutes = (await kline('BTCUSDT', '1m', 1000)).filter((candle) => candle.time >= today.time);
    expect(minutes[0].time).toBe(today.time);
    expect(minutes.length).toBe(10 * 60 + 31);
    expect(today).toEqual(foldCandles(minutes, today.time));

    // The day so far trades its share of the 24 h volume (10.5 of 24 hours), not just a few ticks.
    const ticker = ((await get(paths.tickerList)).body.result as Ticker[]).find((item) => item.symbol === 'BTCUSDT')!;
    const share = Number(today.volume) / Number(ticker.volume24h);
    expect(share).toBeGreaterThan(0.3);
    expect(share).toBeLessThan(0.6);

    const days = await kline('BTCUSDT', '1d', 40);
    const [week] = await kline('BTCUSDT', '1w', 1);
    expect(week.time).toBe(Date.UTC(2026, 5, 1));
    expect(week).toEqual(foldCandles(days.filter((day) => day.time >= week.time), week.time));
    const [month] = await kline('BTCUSDT', '1M', 1);
    expect(month.time).toBe(Date.UTC(2026, 5, 1));
    expect(month).toEqual(foldCandles(days.filter((day) => day.time >= month.time), month.time));
  });

  it('loads the same state from the database on a restart, without back-filling again', async () => {
    const engine = instance.engine!;
    await engine.flush();
    const candlesStored = async () => (await server.query<{ count: number }>(sql`select count(*)::int as count from market_candles`))[0].count;
    const before = await candlesStored();
    const restarted = new MarketEngine({
      db: server.db, clock: server.clock, bus: localBus(), source: simulatorSource(seededSimulator('restart')), seed: 'another seed',
      tickIntervalMs: 1000, tickRetentionMs: 3_600_000,
    });
    await restarted.init();
    const nowMs = server.clock.now().getTime();
    expect(restarted.tickers(nowMs)).toEqual(engine.tickers(nowMs));
    expect(await candlesStored()).toBe(before);
  });

  /**
   * The 1m candles of `symbol` from `fromMs` on have no gap: each opens a minute of trading after
   * the one before; those the restart made (opening after `stoppedAtMs` up to `restartedAtMs`) open
   * at the close of the one before, as the path runs on (live minutes open at their first tick);
   * and each current candle of the longer `periods` is the fold of the 1m candles inside it.
   */
  const expectSeamless = async (symbol: string, fromMs: number, stoppedAtMs: number, restartedAtMs: number, periods: CandlePeriod[]) => {
    const spec = symbolByCode.get(symbol)!;
    const minutes = await minutesSince(symbol, fromMs);
    const problems: string[] = [];
    minutes.forEach((candle, i) => {
      const at = new Date(candle.time).toISOString();
      const price = (text: string) => units(text, spec.pricePrecision);
      if (price(candle.high) < price(candle.open) || price(candle.high) < price(candle.close)) problems.push(`${at}: high`);
      if (price(candle.low) > price(candle.open) || price(candle.low) > price(candle.close)) problems.push(`${at}: low`);
      if (i === 0) return;
      const previous = minutes[i - 1];
      if (tradingMs(spec.class, previous.time, candle.time) !== 60_000) problems.push(`${at}: follows ${new Date(previous.time).toISOString()}`);
      const filled = candle.time > stoppedAtMs && candle.time <= restartedAtMs;
      if (filled && candle.open !== previous.close) problems.push(`${at}: opens at ${candle.open}, the minute before closed at ${previous.close}`);
    });
    expect(problems, symbol).toEqual([]);
    for (const period of periods) {
      const [current] = await kline(symbol, period, 1);
      const inside = await minutesSince(symbol, current.time);
      // The 1m candles cover the period from its start (a closed market has none while closed).
      expect(tradingMs(spec.class, current.time, inside[0].time), `${symbol} ${period}`).toBe(0);
      expect(current, `${symbol} ${period}`).toEqual(foldCandles(inside, current.time, spec.pricePrecision, spec.volumePrecision));
    }
    return minutes;
  };

  it('continues the history over the minutes it was down when restarted: every minute there, no gap, no jump', async () => {
    for (let i = 0; i < 3; i += 1) {
      server.clock.advance(20_000);
      await instance.engine!.tickOnce(server.clock.now().getTime());
    }
    const stoppedAt = server.clock.now().getTime();
    const [lastLive] = await kline('BTCUSDT', '1m', 1);
    await instance.close();
    // Down for 3 min 25 s: the rest of the stopping minute, two whole minutes and part of a fourth.
    server.clock.advance(205_000);
    instance = await start();
    const nowMs = server.clock.now().getTime();

    for (const symbol of ['BTCUSDT', 'ETHUSDT', 'DOGEUSDT']) {
      const minutes = await expectSeamless(symbol, stoppedAt - 10 * 60_000, stoppedAt, nowMs, ['5m', '15m', '1h', '4h', '1d']);
      expect(minutes.at(-1)!.time, symbol).toBe(Math.floor(nowMs / 60_000) * 60_000);
      // The live feed starts where the continued path ends.
      expect(formatUnits(feedStart.get(symbol)!, symbolByCode.get(symbol)!.pricePrecision), symbol).toBe(minutes.at(-1)!.close);
    }
    // The minute the instance stopped in is carried on, not replaced.
    const resumed = (await minutesSince('BTCUSDT', lastLive.time))[0];
    expect(resumed.open).toBe(lastLive.open);
    expect(units(resumed.volume, btc.volumePrecision)).toBeGreaterThan(units(lastLive.volume, btc.volumePrecision));
    // A market closed all along has nothing to continue.
    const [friday] = await kline('EURUSD', '1m', 1);
    expect(friday.time).toBe(Date.UTC(2026, 5, 5, 21, 59));

    const before = (await kline('BTCUSDT', '1m', 1))[0];
    server.clock.advance(1000);
    await instance.engine!.tickOnce(server.clock.now().getTime());
    const after = (await kline('BTCUSDT', '1m', 1))[0];
    expect({ time: after.time, open: after.open }).toEqual({ time: before.time, open: before.open });
  });

  it('continues over a weekend: forex reopens on Sunday where it closed on Friday, with the 24 h reaching back into Friday', async () => {
    await instance.close();
    // Down from Saturday morning until ten minutes after the Sunday reopening.
    const sundayReopen = Date.UTC(2026, 5, 7, 22);
    const stoppedAt = server.clock.now().getTime();
    server.clock.advance(sundayReopen + 10 * 60_000 + 30_000 - stoppedAt);
    instance = await start();
    const nowMs = server.clock.now().getTime();

    const minutes = await expectSeamless('EURUSD', Date.UTC(2026, 5, 5, 21, 50), Date.UTC(2026, 5, 5, 21, 50), nowMs, ['1h', '1d']);
    expect(minutes.map((candle) => new Date(candle.time).toISOString().slice(0, 16)).slice(8, 12))
      .toEqual(['2026-06-05T21:58', '2026-06-05T21:59', '2026-06-07T22:00', '2026-06-07T22:01']);
    await expectSeamless('BTCUSDT', stoppedAt - 10 * 60_000, stoppedAt, nowMs, ['1h', '4h', '1d']);

    const list = (await get(paths.tickerList)).body.result as Ticker[];
    const euro = list.find((ticker) => ticker.symbol === 'EURUSD')!;
    expect(euro.open).toBe(true);
    expect(euro).not.toHaveProperty('reopensAt');
    // The last 24 h of trading: Friday from 22:11 on, and Sunday's first eleven minutes.
    const window = (await minutesSince('EURUSD', Date.UTC(2026, 5, 4, 22, 11))).filter((candle) => candle.time < sundayReopen + 11 * 60_000);
    expect(window).toHaveLength(1440);
    const spec = symbolByCode.get('EURUSD')!;
    const day = foldCandles(window, window[0].time, spec.pricePrecision, spec.volumePrecision);
    expect({ open: euro.open24h, high: euro.high24h, low: euro.low24h, volume: euro.volume24h })
      .toEqual({ open: day.open, high: day.high, low: day.low, volume: day.volume });
    const distribution = (await get(paths.priceDistribution)).body.result as PriceDistribution;
    expect(distribution.closed).toBe(0);
  });
}, { databases: 'embedded' });
