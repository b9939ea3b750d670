// /api/admin/rewards/* (issue 23): fund the reward and prize pools (a second operator above the
// currency's threshold), see their balances, edit welfare tasks and the VIP rewards per level.
// Writes need the admin role, reads admin or finance; every write is audited in its transaction.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { ReasonBody } from '../../../src/api/contract/products.ts';
import {
  FundingBody, VipRewardBody, WelfareTaskBody, WelfareTaskUpdateBody, rewardAdminPaths,
} from '../../../src/api/contract/rewards.ts';
import { VipHolding } from '../../../src/api/contract/rewards.ts';
import { RecordId } from '../../../src/api/contract/withdrawals.ts';
import { recordAudit } from '../../domain/kernel/audit.ts';
import {
  approveRewardFunding, listRewardFundings, poolBalances, rejectRewardFunding, requestRewardFunding,
} from '../../domain/programs/rewards/fundings.ts';
import { createWelfareTask, listAdminWelfareTasks } from '../../domain/programs/rewards/welfare.ts';
import { changeSetting, type SettingChangeOutcome } from '../../domain/kernel/settingChanges.ts';
import type { Tx } from '../../db/client.ts';
import { vipRewardSpec, welfareTaskSpec } from './houseSettings.ts';
import { listVipRewardRows, setVipHoldingDays, vipHoldingDays } from '../../domain/programs/rewards/vip.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

const writers = ['admin'] as const;
const readers = ['admin', 'finance'] as const;

const IdParams = Type.Object({ id: RecordId });
const FundingsQuery = Type.Object({ all: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
const EmptyBody = Type.Object({}, { additionalProperties: false });

export function rewardAdminRoutes(app: FastifyInstance, services: Services) {
  const { db, clock } = services;

  app.get<{ Querystring: Static<typeof FundingsQuery> }>(rewardAdminPaths.fundings,
    { schema: { querystring: FundingsQuery }, preHandler: operatorOnly(readers) },
    async (request) => ok(await listRewardFundings(db, request.query.all === true)));

  app.post<{ Body: Static<typeof FundingBody> }>(rewardAdminPaths.fundings,
    { schema: { body: FundingBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) => {
        const { pool, asset, amount, competitionId } = request.body;
        const funding = await requestRewardFunding(tx, { pool, asset, amountText: amount, competitionId }, request.operator!.id, now);
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'reward.funding', targetType: 'reward_funding', targetId: funding.id, after: funding,
        }, clock);
        return funding;
      }));
    });

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof EmptyBody> }>(rewardAdminPaths.approveFunding,
    { schema: { params: IdParams, body: EmptyBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) => {
        const { before, after } = await approveRewardFunding(tx, BigInt(request.params.id), request.operator!.id, now);
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'reward.funding.approve', targetType: 'reward_funding', targetId: after.id, before, after,
        }, clock);
        return after;
      }));
    });

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof ReasonBody> }>(rewardAdminPaths.rejectFunding,
    { schema: { params: IdParams, body: ReasonBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) => {
        const { before, after } = await rejectRewardFunding(tx, BigInt(request.params.id), now);
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'reward.funding.reject', targetType: 'reward_funding', targetId: after.id,
          before, after, reason: request.body.reason.trim(),
        }, clock);
        return after;
      }));
    });

  app.get(rewardAdminPaths.pools, { preHandler: operatorOnly(readers) }, async () => ok(await poolBalances(db)));

  app.get(rewardAdminPaths.tasks, { preHandler: operatorOnly(readers) }, async () => ok(await listAdminWelfareTasks(db)));

  // A new task starts switched off; switching it on with a reward is a change a second admin approves.
  app.post<{ Body: Static<typeof WelfareTaskBody> }>(rewardAdminPaths.tasks,
    { schema: { body: WelfareTaskBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) => {
        const task = await createWelfareTask(tx, { ...request.body, enabled: false }, now);
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'welfare.task.create', targetType: 'welfare_task', targetId: task.id, after: task,
        }, clock);
        if (request.body.enabled === false) return task;
        return taskAnswer(tx, task.id, await changeSetting(tx, welfareTaskSpec(task.id, { enabled: true }), request.operator!.id, clock));
      }));
    });

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof WelfareTaskUpdateBody> }>(rewardAdminPaths.task,
    { schema: { params: IdParams, body: WelfareTaskUpdateBody }, preHandler: operatorOnly(writers) }, async (request) => {
      return ok(await db.transaction(async (tx) =>
        taskAnswer(tx, request.params.id, await changeSetting(tx, welfareTaskSpec(request.params.id, request.body), request.operator!.id, clock))));
    });

  app.get(rewardAdminPaths.vipRewards, { preHandler: operatorOnly(readers) }, async () => ok(await listVipRewardRows(db)));

  app.post<{ Body: Static<typeof VipRewardBody> }>(rewardAdminPaths.vipRewards,
    { schema: { body: VipRewardBody }, preHandler: operatorOnly(writers) }, async (request) => {
      return ok(await db.transaction(async (tx) => {
        // Lowered at once; raised only once a second admin approves (domain/kernel/settingChanges.ts).
        const outcome = await changeSetting(tx, vipRewardSpec(request.body), request.operator!.id, clock);
        if (outcome.applied) return outcome.after;
        const row = (await listVipRewardRows(tx)).find((candidate) => candidate.level === request.body.level);
        return { ...row, pendingChange: outcome.change };
      }));
    });

  // Issue 38: the days a level is held before its one-time bonus is paid (0 to 90, audited).
  app.get(rewardAdminPaths.vipHolding, { preHandler: operatorOnly(readers) }, async () => ok({ holdingDays: await vipHoldingDays(db) }));

  app.post<{ Body: Static<typeof VipHolding> }>(rewardAdminPaths.vipHolding,
    { schema: { body: VipHolding }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) => {
        const { before, after } = await setVipHoldingDays(tx, request.body.holdingDays, now);
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'vip.bonus.holding', targetType: 'system_setting', targetId: 'vip_bonus_holding_days', before, after,
        }, clock);
        return after;
      }));
    });
}

/** A task as it is now, with the change that waits for a second admin, if one does. */
async function taskAnswer(tx: Tx, id: string, outcome: SettingChangeOutcome) {
  if (outcome.applied) return outcome.after;
  const task = (await listAdminWelfareTasks(tx)).find((candidate) => candidate.id === id);
  return { ...task, pendingChange: outcome.change };
}
