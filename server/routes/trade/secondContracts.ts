// Second (timed) contracts (issue 10, spec §7): the sets on offer (public), buying one, the
// user's orders and the trade asset info (head). Settlement runs on the engine instance
// (domain/core/trading/secondSettlement.ts), not here.
import type { FastifyInstance } from 'fastify';
import { DemoQuery, SecondBuyBody, SecondListQuery, tradePaths } from '../../../src/api/contract/trading.ts';
import type { Static } from '@sinclair/typebox';
import { requireSession } from '../../plugins/auth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';
import type { MarketView } from '../../domain/core/market/view.ts';
import { buySecondContract, listMySecondOrders, listSecondSets, secondHead } from '../../domain/core/trading/secondContracts.ts';

const minuteMs = 60_000;
/** Purchases one user may make per minute: far above honest use. */
const buysPerUserPerMinute = 120;

export function secondContractRoutes(app: FastifyInstance, services: Services, _market: MarketView) {
  app.get(tradePaths.secondSets, async () => ok(await listSecondSets(services.db, services.clock.now().getTime())));

  app.post<{ Body: SecondBuyBody }>(tradePaths.secondBuy, { schema: { body: SecondBuyBody } }, async (request) => {
    const session = await requireSession(services, request);
    await services.limiter.hit(`second-buy:${session.userId}`, buysPerUserPerMinute, minuteMs);
    return ok(await buySecondContract(services, session.userId, request.body));
  });

  app.get<{ Querystring: SecondListQuery }>(tradePaths.secondList, { schema: { querystring: SecondListQuery } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await listMySecondOrders(services.db, session.userId, request.query));
  });

  app.get<{ Querystring: Static<typeof DemoQuery> }>(tradePaths.secondHead, { schema: { querystring: DemoQuery } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await secondHead(services.db, services.clock, session.userId, request.query.demo));
  });
}
