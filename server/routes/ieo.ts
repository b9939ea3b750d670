// The user's calls of issue 23 (ieo). Registered in server/app.ts.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';

export function ieoRoutes(_app: FastifyInstance, _services: Services) {
}
