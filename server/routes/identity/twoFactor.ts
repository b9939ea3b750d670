// Google Authenticator: key, binding, unbinding, state, and the Google-code login (issue 11).
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

export function twoFactorRoutes(app: FastifyInstance, services: Services) {
  void app; void services;
}
