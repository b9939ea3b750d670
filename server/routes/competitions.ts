// The user's calls of issue 23 (competitions). Registered in server/app.ts.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';

export function competitionRoutes(_app: FastifyInstance, _services: Services) {
}
