// A fresh instance through the real start-up wiring (startInstance, as main.ts runs it) on a
// database without market data, on a Saturday: from its very first request it answers every
// market call with data (closed markets included) and /api/public/health says ready; the live feed
// starts at the back-filled history's last close; the current day, week and month candles hold
// the part of their bucket before the start, as folds of the finer candles; a restart loads the
// same state back.
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { sql } from 'drizzle-orm';
import { localBus } from '../../server/domain/market/bus.ts';
import { MarketEngine, simulatorSource, type PriceSource } from '../../server/domain/market/engine.ts';
import { formatUnits, parsePrice, symbolByCode, symbolSpecs } from '../../server/domain/market/symbols.ts';
import { startInstance, type Instance } from '../../server/instance.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import type { Candle, CandlePeriod, Ticker } from '../../src/api/contract/market.ts';
import { apiPrefix, paths } from '../../src/api/contract/paths.ts';
import { forEachDatabase } from './helpers.ts';

const saturday = Date.UTC(2026, 5, 6, 10, 30, 15);
const btc = symbolByCode.get('BTCUSDT')!;

/** A decimal of the wire as integer units (exact), for folding candles. */
const units = (text: string, precision: number) => parsePrice(text, precision);

function foldCandles(candles: Candle[], time: number): Candle {
  const price = (text: string) => units(text, btc.pricePrecision);
  const high = candles.reduce((max, candle) => (price(candle.high) > price(max.high) ? candle : max)).high;
  const low = candles.reduce((min, candle) => (price(candle.low) < price(min.low) ? candle : min)).low;
  const volume = candles.reduce((sum, candle) => sum + units(candle.volume, btc.volumePrecision), 0n);
  return { time, open: candles[0].open, high, low, close: candles.at(-1)!.close, volume: formatUnits(volume, btc.volumePrecision) };
}

forEachDatabase((server) => {
  let instance: Instance;
  /** The prices the live feed was started from, as the engine handed them over. */
  const feedStart = new Map<string, bigint>();

  const get = async (pathUnderApi: string, query: Record<string, string> = {}) => {
    const reply = await instance.app.inject({ method: 'GET', url: `${apiPrefix}${pathUnderApi}`, query });
    return { status: reply.statusCode, body: JSON.parse(reply.body) };
  };
  const kline = async (symbol: string, period: CandlePeriod, limit: number): Promise<Candle[]> => {
    const reply = await get(paths.kline, { symbol, period, limit: String(limit) });
    expect(reply.status).toBe(200);
    return reply.body.result.candles;
  };

  beforeAll(async () => {
    server.clock.advance(saturday - server.clock.now().getTime());
    const base = loadConfig({ DATA_DIR: server.dataDir });
    // The engine's own timer never fires here: the test ticks it.
    const config = { ...base, webRoot: path.join(server.dataDir, 'no-web'), market: { ...base.market, tickIntervalMs: 3_600_000 } };
    const simulator = simulatorSource(config.market.seed);
    const source: PriceSource = {
      name: simulator.name,
      async init(lastPrices, startTimeMs) {
        for (const [symbol, price] of lastPrices) feedStart.set(symbol, price);
        await simulator.init(lastPrices, startTimeMs);
      },
      ticksAt: (timeMs) => simulator.ticksAt(timeMs),
    };
    instance = await startInstance({
      config, database: server.database, keys: createKeys(), clock: server.clock, logger: false, priceSource: () => source,
    });
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
    const distribution = await get(paths.priceDistribution);
    expect(distribution.status).toBe(200);
    expect(distribution.body.result.rising + distribution.body.result.falling + distribution.body.result.flat).toBe(symbolSpecs.length);

    const health = await get(paths.health);
    expect(health).toMatchObject({ status: 200, body: { success: true, code: 200, result: { ready: true, market: true, database: true } } });
    // The current candles are there from the start, for the realtime snapshots too.
    expect(instance.market.currentCandle('BTCUSDT', '1M')).toBeDefined();
    expect(instance.market.currentCandle('EURUSD', '1m')).toBeDefined();
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
      db: server.db, clock: server.clock, bus: localBus(), source: simulatorSource('restart'), seed: 'another seed',
      tickIntervalMs: 1000, tickRetentionMs: 3_600_000,
    });
    await restarted.init();
    const nowMs = server.clock.now().getTime();
    expect(restarted.tickers(nowMs)).toEqual(engine.tickers(nowMs));
    expect(await candlesStored()).toBe(before);
  });
});
