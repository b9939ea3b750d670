// The user's calls of issue 23 (team). Registered in server/app.ts.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';

export function teamRoutes(_app: FastifyInstance, _services: Services) {
}
