// /api/auth/appAuth/*: identity verification (KYC) of the logged-in user (issue 11).
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

export function kycRoutes(app: FastifyInstance, services: Services) {
  void app; void services;
}
