import type { FastifyInstance } from 'fastify';
import { paths } from '../../src/api/contract/paths.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../services.ts';

export function publicRoutes(app: FastifyInstance, services: Services, publicKeyPem: string) {
  app.get(paths.serverTime, async () => ok({ serverTime: services.clock.now().getTime(), version: services.version }));
  app.get(paths.publicKey, async () => ok(publicKeyPem));
}
