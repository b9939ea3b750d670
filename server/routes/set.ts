import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import { paths } from '../../src/api/contract/paths.ts';
import { GetKeyByParamQuery } from '../../src/api/contract/system.ts';
import { systemSettings } from '../db/schema.ts';
import { notFound } from '../lib/errors.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../services.ts';

export function setRoutes(app: FastifyInstance, services: Services) {
  app.get<{ Querystring: Static<typeof GetKeyByParamQuery> }>(paths.settingByKey,
    { schema: { querystring: GetKeyByParamQuery } }, async (request) => {
      const [row] = await services.db.select().from(systemSettings)
        .where(eq(systemSettings.key, request.query.key)).limit(1);
      if (!row) throw notFound('not_found', 'No such setting.');
      return ok(row.value);
    });
}
