// The flash swap's calls (issue 10, spec §7 appFlashExchangeLog): the swappable currencies with the
// fee, spread and quote lifetime; a quote (rate-limited per user); its execution; the user's swaps.
// All need a session; swaps move real money only (domain/core/trading/swap.ts).
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { SwapBody, SwapListQuery, SwapQuoteQuery, tradePaths } from '../../../src/api/contract/trading.ts';
import { requireSession } from '../../plugins/auth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';
import type { MarketView } from '../../domain/core/market/view.ts';
import { executeSwap, listMySwaps, quoteSwap, swapCurrencies, swapQuotesPerUserPerMinute } from '../../domain/core/trading/swap.ts';

export function swapRoutes(app: FastifyInstance, services: Services, _market: MarketView) {
  app.get(tradePaths.swapCurrencies, async (request) => {
    await requireSession(services, request);
    return ok(await swapCurrencies(services.db));
  });

  app.get<{ Querystring: SwapQuoteQuery }>(tradePaths.swapQuote, { schema: { querystring: SwapQuoteQuery } }, async (request) => {
    const session = await requireSession(services, request);
    await services.limiter.hit(`swap-quote:${session.userId}`, swapQuotesPerUserPerMinute, 60_000);
    return ok(await quoteSwap(services.db, services.clock, session.userId, request.query));
  });

  app.post<{ Body: SwapBody }>(tradePaths.swap, { schema: { body: SwapBody } }, async (request) => {
    const session = await requireSession(services, request);
    const record = await executeSwap(services.db, services.clock, session.userId, request.body.quoteId);
    services.userEvents.publish(session.userId, { kind: 'swap', demo: false, id: record.id });
    services.userEvents.publish(session.userId, { kind: 'balance', demo: false });
    return ok(record);
  });

  app.get<{ Querystring: Static<typeof SwapListQuery> }>(tradePaths.swapList, { schema: { querystring: SwapListQuery } },
    async (request) => {
      const session = await requireSession(services, request);
      return ok(await listMySwaps(services.db, session.userId, request.query));
    });
}
