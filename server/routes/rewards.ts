// The user's calls of issue 23 (rewards): the welfare centre (tasks, claim, daily check-in), the
// weekly red envelopes and the VIP rewards table. Registered in server/app.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { OpenEnvelopeBody, WelfareClaimBody, rewardPaths } from '../../src/api/contract/rewards.ts';
import { requestLang } from '../domain/kernel/shared/names.ts';
import { checkIn, claimWelfareTask, myWelfareTasks } from '../domain/programs/rewards/welfare.ts';
import { myEnvelopes, openEnvelope } from '../domain/programs/rewards/envelopes.ts';
import { myVipRewards } from '../domain/programs/rewards/vip.ts';
import { requireSession } from '../plugins/auth.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

/** Claims, check-ins and envelope openings one user may send per minute: far above a person tapping. */
const actionsPerUserPerMinute = 30;

const LangQuery = Type.Object({ lang: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })) }, { additionalProperties: false });
const EmptyBody = Type.Object({}, { additionalProperties: false });

export function rewardRoutes(app: FastifyInstance, services: Services) {
  const now = () => services.clock.now();
  const langOf = (request: FastifyRequest) => requestLang(request.query as { lang?: string }, request.headers);
  const limit = (userId: bigint) => services.limiter.hit(`rewards:${userId}`, actionsPerUserPerMinute, 60_000);

  app.get<{ Querystring: Static<typeof LangQuery> }>(rewardPaths.welfareTasks, { schema: { querystring: LangQuery } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await myWelfareTasks(services.db, session.userId, langOf(request), now()));
  });

  app.post<{ Body: Static<typeof WelfareClaimBody> }>(rewardPaths.welfareClaim, { schema: { body: WelfareClaimBody } }, async (request) => {
    const session = await requireSession(services, request);
    await limit(session.userId);
    return ok(await claimWelfareTask(services.db, session.userId, BigInt(request.body.taskId), now()));
  });

  app.post<{ Body: Static<typeof EmptyBody> }>(rewardPaths.welfareCheckin, { schema: { body: EmptyBody } }, async (request) => {
    const session = await requireSession(services, request);
    await limit(session.userId);
    return ok(await checkIn(services.db, session.userId, now()));
  });

  app.get(rewardPaths.myEnvelopes, async (request) => {
    const session = await requireSession(services, request);
    return ok(await myEnvelopes(services.db, session.userId, now()));
  });

  app.post<{ Body: Static<typeof OpenEnvelopeBody> }>(rewardPaths.openEnvelope, { schema: { body: OpenEnvelopeBody } }, async (request) => {
    const session = await requireSession(services, request);
    await limit(session.userId);
    return ok(await openEnvelope(services.db, session.userId, BigInt(request.body.id), now()));
  });

  app.get(rewardPaths.vipRewards, async (request) => {
    const session = await requireSession(services, request);
    return ok(await myVipRewards(services.db, session.userId));
  });
}
