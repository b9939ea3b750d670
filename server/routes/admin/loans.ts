// /api/admin/loans/* (issue 22). Filled by the loans work.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

export function loanAdminRoutes(_app: FastifyInstance, _services: Services) {}
