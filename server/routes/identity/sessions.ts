// The user's sessions and devices, ending them, and the login history (issue 11).
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

export function sessionRoutes(app: FastifyInstance, services: Services) {
  void app; void services;
}
