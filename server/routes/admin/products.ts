// /api/admin/products/* and /api/admin/mining/* (issue 22). Filled by the products work.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

export function productAdminRoutes(_app: FastifyInstance, _services: Services) {}
