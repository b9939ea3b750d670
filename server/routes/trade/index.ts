// The trade calls (issue 10, spec §7): contracts, second contracts, flash swap and demo funds,
// each in a module of its own. Every call but the public settings needs a session and sees only
// the session user's records.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/kernel/services.ts';
import type { MarketView } from '../../domain/core/market/view.ts';
import { positionRoutes } from './positions.ts';
import { secondContractRoutes } from './secondContracts.ts';
import { swapRoutes } from './swap.ts';
import { demoRoutes } from './demo.ts';

export function tradeRoutes(app: FastifyInstance, services: Services, market: MarketView) {
  positionRoutes(app, services, market);
  secondContractRoutes(app, services, market);
  swapRoutes(app, services, market);
  demoRoutes(app, services, market);
}
