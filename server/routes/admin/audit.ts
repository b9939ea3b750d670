// /api/admin/audit: the audit trail, newest first, paged and filtered (admins only).
import type { FastifyInstance } from 'fastify';
import { adminPaths, AuditQuery } from '../../../src/api/contract/admin.ts';
import { listAudit } from '../../domain/kernel/audit.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

export function auditRoutes(app: FastifyInstance, services: Services) {
  app.get<{ Querystring: AuditQuery }>(adminPaths.audit,
    { schema: { querystring: AuditQuery }, preHandler: operatorOnly(['admin']) },
    async (request) => ok(await listAudit(services.db, request.query)));
}
