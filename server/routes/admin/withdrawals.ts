// /api/admin/withdrawals: the review queue and the four decisions (approve, reject, paid, failed)
// for finance and admin operators, and the two-operator threshold per currency (set by admins;
// it governs deposits too, under its first path and name).
// Each decision is audited in its own transaction (domain/core/wallet/withdrawals.ts) and shows on the
// user's record with its outcome and reason.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { Empty } from '../../../src/api/contract/common.ts';
import {
  AdminPaidBody, AdminReasonBody, AdminWithdrawalParams, WithdrawalListQuery, WithdrawalSettingBody, WithdrawalSettingParams,
  withdrawalAdminPaths,
} from '../../../src/api/contract/withdrawals.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';
import { deliverMessages, type WrittenMessage } from '../../domain/kernel/messages.ts';
import { decideWithdrawal, listWithdrawals, type Decision } from '../../domain/core/wallet/withdrawals.ts';
import { listDualApprovalThresholds } from '../../domain/core/wallet/approvals.ts';
import { changeSetting } from '../../domain/kernel/settingChanges.ts';
import { dualThresholdSpec } from './houseSettings.ts';

type Params = Static<typeof AdminWithdrawalParams>;

export function withdrawalAdminRoutes(app: FastifyInstance, services: Services) {
  const reviewers = operatorOnly(['admin', 'finance']);
  const decide = async (request: { operator?: { id: bigint }; params: Params }, decision: Decision) => {
    const messages: WrittenMessage[] = [];
    const answer = await decideWithdrawal(services.db, services.clock, request.operator!.id, BigInt(request.params.id), decision, messages, services.ports.balanceMoved);
    // The user's message (paid, rejected, failed) goes out once the decision committed.
    deliverMessages(services, messages);
    return answer;
  };

  app.get<{ Querystring: Static<typeof WithdrawalListQuery> }>(withdrawalAdminPaths.list,
    { preHandler: reviewers, schema: { querystring: WithdrawalListQuery } },
    async (request) => ok(await listWithdrawals(services.db, request.query)));

  app.post<{ Params: Params }>(withdrawalAdminPaths.approve,
    { preHandler: reviewers, schema: { params: AdminWithdrawalParams, body: Empty } },
    async (request) => ok(await decide(request, { action: 'approve' })));

  app.post<{ Params: Params; Body: Static<typeof AdminReasonBody> }>(withdrawalAdminPaths.reject,
    { preHandler: reviewers, schema: { params: AdminWithdrawalParams, body: AdminReasonBody } },
    async (request) => ok(await decide(request, { action: 'reject', reason: request.body.reason.trim() })));

  app.post<{ Params: Params; Body: Static<typeof AdminPaidBody> }>(withdrawalAdminPaths.paid,
    { preHandler: reviewers, schema: { params: AdminWithdrawalParams, body: AdminPaidBody } },
    async (request) => ok(await decide(request, { action: 'paid', reference: request.body.reference.trim() })));

  app.post<{ Params: Params; Body: Static<typeof AdminReasonBody> }>(withdrawalAdminPaths.failed,
    { preHandler: reviewers, schema: { params: AdminWithdrawalParams, body: AdminReasonBody } },
    async (request) => ok(await decide(request, { action: 'failed', reason: request.body.reason.trim() })));

  app.get(withdrawalAdminPaths.settings, { preHandler: reviewers },
    async () => ok(await listDualApprovalThresholds(services.db)));

  app.post<{ Params: Static<typeof WithdrawalSettingParams>; Body: Static<typeof WithdrawalSettingBody> }>(withdrawalAdminPaths.setting,
    { preHandler: operatorOnly(['admin']), schema: { params: WithdrawalSettingParams, body: WithdrawalSettingBody } },
    async (request) => ok(await services.db.transaction(async (tx) => {
      // Lowered at once; raised only once a second admin approves (domain/kernel/settingChanges.ts).
      const outcome = await changeSetting(tx, dualThresholdSpec(request.params.currency, request.body), request.operator!.id, services.clock);
      const now = (await listDualApprovalThresholds(tx)).find((row) => row.currency === request.params.currency);
      return outcome.applied ? now : { ...now, pendingChange: outcome.change };
    })));
}
