// Demo funds (issue 10): the user's virtual USDT, opened with the first call, and their reset
// (refused while a demo position runs or a demo second contract is open). Real balances are
// never touched: everything here is in the demo ledger (domain/core/trading/demo.ts).
import type { FastifyInstance } from 'fastify';
import { tradePaths } from '../../../src/api/contract/trading.ts';
import { Empty } from '../../../src/api/contract/common.ts';
import { requireSession } from '../../plugins/auth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';
import type { MarketView } from '../../domain/core/market/view.ts';
import { demoAccount, resetDemo } from '../../domain/core/trading/demo.ts';

const hourMs = 3_600_000;
/** Resets one user may make per hour: far above honest use. */
const demoResetsPerUserPerHour = 60;

export function demoRoutes(app: FastifyInstance, services: Services, _market: MarketView) {
  app.get(tradePaths.demoAccount, async (request) => {
    const session = await requireSession(services, request);
    return ok(await demoAccount(services.db, services.clock, session.userId));
  });

  app.post(tradePaths.demoReset, { schema: { body: Empty } }, async (request) => {
    const session = await requireSession(services, request);
    await services.limiter.hit(`demo-reset:${session.userId}`, demoResetsPerUserPerHour, hourMs);
    const account = await resetDemo(services.db, services.clock, session.userId);
    services.userEvents.publish(session.userId, { kind: 'balance', demo: true });
    return ok(account);
  });
}
