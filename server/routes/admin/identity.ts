// Back office of identity (issue 11): the KYC review queue and its photos (every view audited),
// the verification levels' limits, and user search with each user's security state.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';

export function identityAdminRoutes(api: FastifyInstance, services: Services) {
  void api; void services;
}
