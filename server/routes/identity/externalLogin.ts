// Sign-In with Ethereum and OpenID Connect logins and links (issue 11).
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

export function externalLoginRoutes(app: FastifyInstance, services: Services) {
  void app; void services;
}
