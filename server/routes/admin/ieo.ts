// The operator's calls of issue 23 (ieo), under /api/admin. Registered in ./index.ts.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

export function ieoAdminRoutes(_api: FastifyInstance, _services: Services) {
}
