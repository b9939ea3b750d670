// /api/admin/recharges: deposit review. Finance and admin operators list requests by status, read
// the proof, and approve (the ledger credits the user, once) or reject with the reason the user
// reads. Each decision and its audit entry commit in one transaction (domain/core/wallet/deposits.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { Empty } from '../../../src/api/contract/common.ts';
import { AdminRechargeListQuery, RecordIdParams, RejectBody, walletAdminPaths } from '../../../src/api/contract/wallet.ts';
import { recordAudit } from '../../domain/kernel/audit.ts';
import { deliverMessages, type WrittenMessage } from '../../domain/kernel/messages.ts';
import { approveRecharge, listRecharges, rejectRecharge, type Decision } from '../../domain/core/wallet/deposits.ts';
import { anyUpload, uploadAnswer } from '../../domain/kernel/uploads.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

const reviewers = ['admin', 'finance'] as const;
const FileParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export function rechargeAdminRoutes(app: FastifyInstance, services: Services) {
  const decision = (request: FastifyRequest): Decision => ({
    operatorId: request.operator!.id, clock: services.clock,
    audit: (tx, entry) => recordAudit(tx, entry, services.clock),
  });

  app.get<{ Querystring: Static<typeof AdminRechargeListQuery> }>(walletAdminPaths.recharges,
    { schema: { querystring: AdminRechargeListQuery }, preHandler: operatorOnly(reviewers) },
    async (request) => ok(await listRecharges(services.db, request.query)));

  app.post<{ Params: Static<typeof RecordIdParams> }>(walletAdminPaths.rechargeApprove,
    { schema: { params: RecordIdParams, body: Empty }, preHandler: operatorOnly(reviewers) },
    async (request) => {
      const messages: WrittenMessage[] = [];
      const answer = await approveRecharge(services.db, BigInt(request.params.id), { ...decision(request), messages, balanceMoved: services.ports.balanceMoved });
      deliverMessages(services, messages);
      return ok(answer);
    });

  app.post<{ Params: Static<typeof RecordIdParams>; Body: Static<typeof RejectBody> }>(walletAdminPaths.rechargeReject,
    { schema: { params: RecordIdParams, body: RejectBody }, preHandler: operatorOnly(reviewers) },
    async (request) => {
      const messages: WrittenMessage[] = [];
      const answer = await rejectRecharge(services.db, BigInt(request.params.id), request.body.reason.trim(), { ...decision(request), messages });
      deliverMessages(services, messages);
      return ok(answer);
    });

  app.get<{ Params: Static<typeof FileParams> }>(walletAdminPaths.uploadedFile,
    { schema: { params: FileParams }, preHandler: operatorOnly(reviewers) }, async (request, reply) => {
      const answer = await uploadAnswer(services.uploads, await anyUpload(services.db, request.params.id, 'deposit_proof'));
      return reply.headers(answer.headers).send(answer.bytes);
    });
}
