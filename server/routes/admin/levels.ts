// /api/admin/levels/* (issue 22). Filled by the levels work.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

export function levelAdminRoutes(_app: FastifyInstance, _services: Services) {}
