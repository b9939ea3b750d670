// The market calls through the real app, with a market engine driven tick by tick on the test
// clock: tickers and prices move, candle history pages backwards with the live candle on top,
// ticks are stored with their source, bad queries get clear errors, and the health check says
// whether the market and the database answer.
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MarketEngine, seededSimulator, simulatorSource } from '../../server/domain/core/market/engine.ts';
import { symbolByCode } from '../../server/domain/core/market/symbols.ts';
import { paths } from '../../src/api/contract/paths.ts';
import { expectOk, expectRefused, forEachDatabase } from './helpers.ts';

const specs = ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'XAUUSD'].map((symbol) => symbolByCode.get(symbol)!);

forEachDatabase((server) => {
  let engine: MarketEngine;
  const tick = async (count = 1) => {
    for (let i = 0; i < count; i += 1) {
      server.clock.advance(1000);
      await engine.tickOnce(server.clock.now().getTime());
    }
  };

  describe('before the feed has produced a tick', () => {
    it('answers the ticker list with 503 market_unavailable', async () => {
      const reply = await server.get(paths.tickerList);
      // Not a user error, so not the helper for refusals: the service is briefly unavailable.
      expect(reply.status).toBe(503);
      expect(reply.body).toMatchObject({ success: false, code: 503, result: { error: 'market_unavailable' } });
      expect(reply.body.message).toMatch(/starting/);
    });

    it('answers GET /api/public/health with 503, market not ready (the database is)', async () => {
      const reply = await server.get(paths.health);
      expect(reply.status).toBe(503);
      expect(reply.body).toMatchObject({ success: false, code: 503, result: { error: 'not_ready', ready: false, market: false, database: true } });
    });
  });

  describe('with the feed running', () => {
    beforeAll(async () => {
      engine = new MarketEngine({
        db: server.db, clock: server.clock, bus: server.marketBus, source: simulatorSource(seededSimulator('routes-test'), specs),
        seed: 'routes-test', tickIntervalMs: 1000, tickRetentionMs: 3_600_000, specs,
      });
      await engine.init();
      await tick(3);
    });

    it('GET /api/trade/appSymbol/list lists the symbols with 24 h statistics, filtered by class', async () => {
      const all = expectOk(await server.get(paths.symbolList)).body.result;
      expect(all.map((ticker: { symbol: string }) => ticker.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'XAUUSD', 'EURUSD']);
      const btc = all[0];
      expect(btc).toMatchObject({ displayName: 'BTC/USDT', class: 'crypto', pricePrecision: 2, open: true });
      expect(btc.last).toMatch(/^\d+\.\d{2}$/);
      expect(Number(btc.high24h)).toBeGreaterThanOrEqual(Number(btc.low24h));
      const metals = expectOk(await server.get(paths.symbolList, { class: 'metal' })).body.result;
      expect(metals.map((ticker: { symbol: string }) => ticker.symbol)).toEqual(['XAUUSD']);
      expectRefused(await server.get(paths.symbolList, { class: 'stocks' }), 400, 'invalid_request');
    });

    it('GET /api/trade/appSymbol/price moves with the feed and names its source', async () => {
      const before = expectOk(await server.get(paths.symbolPrice, { symbol: 'BTCUSDT' })).body.result;
      await tick(5);
      const after = expectOk(await server.get(paths.symbolPrice, { symbol: 'BTCUSDT' })).body.result;
      expect(after.time).toBeGreaterThan(before.time);
      expect(after.source).toBe('simulator');
      expectRefused(await server.get(paths.symbolPrice, { symbol: 'NOPEUSDT' }), 404, 'unknown_symbol');
      expectRefused(await server.get(paths.symbolPrice, { symbol: 'btc usdt' }), 400, 'invalid_request');
    });

    it('GET /api/public/getTicketList and the distribution count every symbol once', async () => {
      const tickers = expectOk(await server.get(paths.tickerList)).body.result;
      expect(tickers).toHaveLength(specs.length);
      // Every ticker names its feed (issue 18), so the app can say "Simulated prices".
      expect(tickers.map((ticker: { source?: string }) => ticker.source)).toEqual(specs.map(() => 'simulator'));
      const distribution = expectOk(await server.get(paths.priceDistribution)).body.result;
      expect(distribution.rising + distribution.falling + distribution.flat).toBe(specs.length);
      expect(distribution.buckets.reduce((sum: number, bucket: { count: number }) => sum + bucket.count, 0)).toBe(specs.length);
    });

    it('GET /api/trade/appSymbol/kline pages backwards without overlap, the live candle last', async () => {
      const first = expectOk(await server.get(paths.kline, { symbol: 'BTCUSDT', period: '1m', limit: '100' })).body.result;
      expect(first.candles).toHaveLength(100);
      const times = first.candles.map((candle: { time: number }) => candle.time);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      const live = server.market.currentCandle('BTCUSDT', '1m')!;
      expect(first.candles.at(-1)).toEqual(live);
      const older = expectOk(await server.get(paths.kline,
        { symbol: 'BTCUSDT', period: '1m', limit: '100', endTime: String(times[0]) })).body.result;
      expect(older.candles).toHaveLength(100);
      expect(older.candles.at(-1).time).toBeLessThan(times[0]);
      expect(older.candles.at(-1).time).toBe(times[0] - 60_000);
    });

    it('GET /api/trade/appSymbol/kline refuses unknown periods, symbols and limits out of range', async () => {
      expectRefused(await server.get(paths.kline, { symbol: 'BTCUSDT', period: '2m' }), 400, 'invalid_request');
      expectRefused(await server.get(paths.kline, { symbol: 'BTCUSDT', period: '1m', limit: '0' }), 400, 'invalid_request');
      expectRefused(await server.get(paths.kline, { symbol: 'BTCUSDT', period: '1m', limit: '1001' }), 400, 'invalid_request');
      expectRefused(await server.get(paths.kline, { symbol: 'BTCUSDT', period: '1m', endTime: '-5' }), 400, 'invalid_request');
      expectRefused(await server.get(paths.kline, { symbol: 'ZZZUSDT', period: '1m' }), 404, 'unknown_symbol');
      expectRefused(await server.get(paths.kline, { symbol: 'BTCUSDT', period: '1m', extra: '1' }), 400, 'invalid_request');
    });

    it('has back-filled at least 500 candles of every period for every symbol', async () => {
      const rows = await server.query<{ symbol: string; period: string; count: number }>(
        sql`select symbol, period, count(*)::int as count from market_candles group by symbol, period`);
      expect(rows).toHaveLength(specs.length * 9);
      for (const row of rows) expect(row.count, `${row.symbol} ${row.period}`).toBeGreaterThanOrEqual(500);
    });

    it('stores every tick with its source and time, and the candles it built', async () => {
      const [{ count }] = await server.query<{ count: number }>(sql`select count(*)::int as count from market_ticks where source = 'simulator'`);
      expect(count).toBeGreaterThanOrEqual(8 * 2);
      await engine.flush();
      const live = server.market.currentCandle('ETHUSDT', '1h')!;
      const [stored] = await server.query<{ close: string }>(
        sql`select close::text as close from market_candles where symbol = 'ETHUSDT' and period = '1h' and open_time = ${new Date(live.time)}`);
      expect(stored.close.replace(/^(\d+)(\d{2})$/, '$1.$2')).toBe(live.close);
    });

    it('answers GET /api/public/health with ready while the market runs, and 503 once the database is gone', async () => {
      const reply = expectOk(await server.get(paths.health));
      expect(reply.body.result).toMatchObject({ ready: true, market: true, database: true, serverTime: server.clock.now().getTime() });
      await server.closeDatabase();
      const down = await server.get(paths.health);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ success: false, code: 503, result: { ready: false, market: true, database: false } });
    });
  });
}, { databases: 'embedded' });
