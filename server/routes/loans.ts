// /api/prod/appLoanSet/list and /api/prod/appLoanOrder/* (issue 22). Filled by the loans work.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import type { MarketView } from '../domain/market/view.ts';

export function loanRoutes(_app: FastifyInstance, _services: Services, _market: MarketView) {}
