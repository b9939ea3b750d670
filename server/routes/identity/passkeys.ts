// Passkeys (WebAuthn): registration, list, removal and login (issue 11).
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

export function passkeyRoutes(app: FastifyInstance, services: Services) {
  void app; void services;
}
