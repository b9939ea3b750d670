// /api/user/appLevels/list (issue 22). Filled by the levels work.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';

export function levelRoutes(_app: FastifyInstance, _services: Services) {}
