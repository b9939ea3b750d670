// Market calls (spec §7): symbols, last price, the ticker list, the distribution, candle history.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { KlineQuery, SymbolListQuery, SymbolQuery } from '../../src/api/contract/market.ts';
import { paths } from '../../src/api/contract/paths.ts';
import { symbolByCode } from '../domain/core/market/symbols.ts';
import type { MarketView } from '../domain/core/market/view.ts';
import { AppError, notFound } from '../lib/errors.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';
import { healthRoute } from './public.ts';

const unknownSymbol = (symbol: string) => notFound('unknown_symbol', `There is no symbol ${symbol}.`);
const notReady = () => new AppError(503, 'market_unavailable', 'Market data is starting, please try again in a moment.');

export function marketRoutes(app: FastifyInstance, services: Services, view: MarketView) {
  const requireReady = () => {
    if (!view.ready) throw notReady();
  };
  healthRoute(app, services, view);

  app.get<{ Querystring: Static<typeof SymbolListQuery> }>(paths.symbolList, { schema: { querystring: SymbolListQuery } },
    async (request) => {
      requireReady();
      return ok(view.tickers(request.query.class));
    });

  app.get<{ Querystring: Static<typeof SymbolQuery> }>(paths.symbolPrice, { schema: { querystring: SymbolQuery } },
    async (request) => {
      requireReady();
      const price = view.lastPrice(request.query.symbol);
      if (!price) throw unknownSymbol(request.query.symbol);
      return ok(price);
    });

  app.get(paths.tickerList, async () => {
    requireReady();
    return ok(view.tickers());
  });

  app.get(paths.priceDistribution, async () => {
    requireReady();
    return ok(view.distribution(services.clock.now().getTime()));
  });

  app.get<{ Querystring: Static<typeof KlineQuery> }>(paths.kline, { schema: { querystring: KlineQuery } }, async (request) => {
    const { symbol, period, endTime, limit = 300 } = request.query;
    if (!symbolByCode.has(symbol)) throw unknownSymbol(symbol);
    const endTimeMs = endTime ?? services.clock.now().getTime() + 1;
    return ok({ symbol, period, candles: await view.candles(symbol, period, endTimeMs, limit) });
  });
}
