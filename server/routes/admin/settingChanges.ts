// /api/admin/settingChanges (issue 38 point 1): the changes to settings that decide what the house
// pays, waiting for a second operator — listed, approved (applied then, by a different operator
// than the admin who asked) or rejected with a reason. Each decision is audited in its transaction.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { ReasonBody } from '../../../src/api/contract/products.ts';
import { settingChangePaths } from '../../../src/api/contract/settingChanges.ts';
import { RecordId } from '../../../src/api/contract/withdrawals.ts';
import { approveSettingChange, listSettingChanges, rejectSettingChange } from '../../domain/kernel/settingChanges.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';
import { houseSettingSpecs } from './houseSettings.ts';

const IdParams = Type.Object({ id: RecordId });
const ListQuery = Type.Object({ all: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
const EmptyBody = Type.Object({}, { additionalProperties: false });

export function settingChangeAdminRoutes(app: FastifyInstance, services: Services) {
  const { db, clock } = services;

  app.get<{ Querystring: Static<typeof ListQuery> }>(settingChangePaths.list,
    { schema: { querystring: ListQuery }, preHandler: operatorOnly(['admin', 'finance']) },
    async (request) => ok(await listSettingChanges(db, { all: request.query.all === true })));

  // The second operator may be an admin or a finance operator (both answer for the house's money);
  // only admins ask for changes, on the settings' own calls.
  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof EmptyBody> }>(settingChangePaths.approve,
    { schema: { params: IdParams, body: EmptyBody }, preHandler: operatorOnly(['admin', 'finance']) },
    async (request) => ok(await db.transaction((tx) => approveSettingChange(tx, BigInt(request.params.id), request.operator!.id, houseSettingSpecs, clock))));

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof ReasonBody> }>(settingChangePaths.reject,
    { schema: { params: IdParams, body: ReasonBody }, preHandler: operatorOnly(['admin', 'finance']) },
    async (request) => ok(await db.transaction((tx) =>
      rejectSettingChange(tx, BigInt(request.params.id), request.operator!.id, request.body.reason.trim(), clock))));
}
