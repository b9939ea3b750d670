// The operator's IEO calls (issue 23), under /api/admin: create a project (a new token asset and a
// committed seed), list and read them, close (publish the application list), reveal (publish the
// seed and draw, then settle the applications' holds: the won lots paid, the rest released) and
// list the token (lapse unpaid winners without a hold, credit paid ones). Writes need the admin
// role, reads admin or finance; every write is audited.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { CreateIeoBody, ieoAdminPaths } from '../../../src/api/contract/ieo.ts';
import { PageQuery } from '../../../src/api/contract/wallet.ts';
import { RecordId } from '../../../src/api/contract/withdrawals.ts';
import { recordAudit } from '../../domain/kernel/audit.ts';
import {
  adminProject, adminProjectWire, closeIeo, createIeo, holdsOpen, listAdminProjects, listIeo, revealIeo, settleHolds,
} from '../../domain/programs/ieo/ieo.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

const writers = ['admin'] as const;
const readers = ['admin', 'finance'] as const;

const IdParams = Type.Object({ id: RecordId });
const ListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
const EmptyBody = Type.Object({}, { additionalProperties: false });

/** The audit's view of a project: never the secret seed before it is revealed. */
const audited = (row: { seed: string; seedRevealedAt: Date | null; list: string | null }) => ({
  ...row, seed: row.seedRevealedAt ? row.seed : undefined, list: row.list === null ? null : `${row.list.length} characters`,
});

export function ieoAdminRoutes(app: FastifyInstance, services: Services) {
  const { db, clock } = services;

  app.get<{ Querystring: Static<typeof ListQuery> }>(ieoAdminPaths.projects,
    { schema: { querystring: ListQuery }, preHandler: operatorOnly(readers) },
    async (request) => ok(await listAdminProjects(db, request.query, clock.now())));

  app.get<{ Params: Static<typeof IdParams> }>(ieoAdminPaths.project,
    { schema: { params: IdParams }, preHandler: operatorOnly(readers) },
    async (request) => ok(await adminProject(db, BigInt(request.params.id), clock.now())));

  app.post<{ Body: Static<typeof CreateIeoBody> }>(ieoAdminPaths.projects,
    { schema: { body: CreateIeoBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) => {
        const row = await createIeo(tx, request.operator!.id, request.body, now);
        const project = await adminProjectWire(tx, row, now);
        await recordAudit(tx, { operatorId: request.operator!.id, action: 'ieo.create', targetType: 'ieo_project', targetId: row.id, after: project }, clock);
        return project;
      }));
    });

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof EmptyBody> }>(ieoAdminPaths.close,
    { schema: { params: IdParams, body: EmptyBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) => {
        const [before, after] = await closeIeo(tx, BigInt(request.params.id), now);
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'ieo.close', targetType: 'ieo_project', targetId: after.id,
          before: { status: before.status }, after: { status: after.status, listHash: after.listHash },
        }, clock);
        return adminProjectWire(tx, after, now);
      }));
    });

  // The draw in one transaction, then the holds settled a batch per transaction. A second call on
  // a drawn project whose settlement stopped half-way (a crash) finishes it; otherwise it is refused.
  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof EmptyBody> }>(ieoAdminPaths.reveal,
    { schema: { params: IdParams, body: EmptyBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const id = BigInt(request.params.id);
      const operatorId = request.operator!.id;
      if (!(await holdsOpen(db, id))) {
        const now = clock.now();
        await db.transaction(async (tx) => {
          const { before, after, winners, wonLots } = await revealIeo(tx, id, now);
          await recordAudit(tx, {
            operatorId, action: 'ieo.reveal', targetType: 'ieo_project', targetId: after.id,
            before: { status: before.status }, after: { status: after.status, seed: after.seed, seedHash: after.seedHash, winners, wonLots },
          }, clock);
        });
      }
      const settled = await settleHolds(db, id, clock);
      if (settled.paid + settled.released > 0) {
        await db.transaction((tx) => recordAudit(tx, {
          operatorId, action: 'ieo.settle', targetType: 'ieo_project', targetId: id, after: settled,
        }, clock));
      }
      return ok(await adminProject(db, id, clock.now()));
    });

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof EmptyBody> }>(ieoAdminPaths.list,
    { schema: { params: IdParams, body: EmptyBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const outcome = await listIeo(db, BigInt(request.params.id), clock);
      const now = clock.now();
      const project = await adminProject(db, outcome.after.id, now);
      await db.transaction((tx) => recordAudit(tx, {
        operatorId: request.operator!.id, action: 'ieo.list', targetType: 'ieo_project', targetId: outcome.after.id,
        before: audited(outcome.before), after: { status: project.status, lapsed: outcome.lapsed, lapsedLots: outcome.lapsedLots,
          credited: outcome.credited, settled: outcome.settled, allocation: project.allocation },
      }, clock));
      return ok(project);
    });
}
