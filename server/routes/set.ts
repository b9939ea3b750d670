import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import { paths } from '../../src/api/contract/paths.ts';
import { GetKeyByParamQuery } from '../../src/api/contract/system.ts';
import { RateQuery, walletPaths, type CurrencyRate } from '../../src/api/contract/wallet.ts';
import { systemSettings } from '../db/schema.ts';
import type { MarketView } from '../domain/core/market/view.ts';
import { currencyList, loadCurrency, rateOf, rateText } from '../domain/core/wallet/currencies.ts';
import { AppError, notFound } from '../lib/errors.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

export function setRoutes(app: FastifyInstance, services: Services, market: MarketView) {
  app.get<{ Querystring: Static<typeof GetKeyByParamQuery> }>(paths.settingByKey,
    { schema: { querystring: GetKeyByParamQuery } }, async (request) => {
      const [row] = await services.db.select().from(systemSettings)
        .where(eq(systemSettings.key, request.query.key)).limit(1);
      if (!row) throw notFound('not_found', 'No such setting.');
      return ok(row.value);
    });

  // The wallet's currencies (issue 9): public, so the deposit page can show them before login.
  app.get(walletPaths.currencyList, async () => ok(await currencyList(services.db)));

  app.get<{ Querystring: Static<typeof RateQuery> }>(walletPaths.rateByCurrency,
    { schema: { querystring: RateQuery } }, async (request) => {
      const currency = await loadCurrency(services.db, request.query.currency);
      if (!currency || !currency.enabled) throw notFound('currency_unknown', `The currency ${request.query.currency} is not offered.`);
      const rate = rateOf(currency, market, services.clock.now().getTime());
      if (!rate) throw new AppError(503, 'market_unavailable', `No rate for ${currency.code} is available at the moment.`);
      const answer: CurrencyRate = { currency: currency.code, rate: rateText(rate), source: rate.source, time: rate.timeMs };
      return ok(answer);
    });
}
