// The operator's calls of issue 23 (competitions), under /api/admin. Registered in ./index.ts.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

export function competitionAdminRoutes(_api: FastifyInstance, _services: Services) {
}
