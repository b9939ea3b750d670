// /api/admin/jobs (issue 22): an operator (admin role) runs a scheduled job now — product-accrual,
// product-maturity, loan-accrual, vip-levels — once per UTC day (a second run answers the first,
// replayed), and sees the runs. Every run asked for is audited with its outcome.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { productAdminPaths } from '../../../src/api/contract/products.ts';
import { recordAudit } from '../../domain/kernel/audit.ts';
import { listJobRuns, runJob } from '../../domain/kernel/jobs.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

const JobParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z-]+$' }) });
const NoBody = Type.Optional(Type.Object({}, { additionalProperties: false }));

export function jobAdminRoutes(app: FastifyInstance, services: Services) {
  app.post<{ Params: Static<typeof JobParams> }>(productAdminPaths.runJob,
    { schema: { params: JobParams, body: NoBody }, preHandler: operatorOnly(['admin']) }, async (request) => {
      const operatorId = request.operator!.id;
      const run = await runJob(services, request.params.name, operatorId);
      await recordAudit(services.db, {
        operatorId, action: 'job.run', targetType: 'job', targetId: `${run.name}:${run.day}`, after: run,
      }, services.clock);
      return ok(run);
    });

  app.get(productAdminPaths.jobRuns, { preHandler: operatorOnly(['admin', 'finance']) }, async () => ok(await listJobRuns(services.db)));
}
