// /api/prod/appProductInfo/* and /api/prod/appProductOrder/* (issue 22). Filled by the products work.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';

export function productRoutes(_app: FastifyInstance, _services: Services) {}
