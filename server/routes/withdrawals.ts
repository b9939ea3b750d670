// The user's side of withdrawals (issue 9, spec §7): payout destinations
// (/user/appUserWithdrawalInfoSet/*), the withdrawal password (/user/appUser/*WithdrawPassword)
// and withdrawal requests (/finance/appWithdrawal/*). Every call needs a session and sees only
// the session user's own records.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  AddDestinationBody, ChangeWithdrawPasswordBody, EditDestinationBody, SetWithdrawPasswordBody, WithdrawalApplyBody,
  WithdrawalListQuery, withdrawalPaths,
} from '../../src/api/contract/withdrawals.ts';
import { requireSession } from '../plugins/auth.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';
import { addDestination, editDestination, listDestinations } from '../domain/core/wallet/destinations.ts';
import { changeWithdrawPassword, setWithdrawPassword } from '../domain/core/wallet/withdrawPassword.ts';
import { applyWithdrawal, listMyWithdrawals } from '../domain/core/wallet/withdrawals.ts';

const hourMs = 3_600_000;
/** Requests and destination changes one user may make per hour: far above honest use. */
const withdrawalAppliesPerUserPerHour = 60;
const destinationChangesPerUserPerHour = 30;

export function withdrawalRoutes(app: FastifyInstance, services: Services) {
  app.post<{ Body: AddDestinationBody }>(withdrawalPaths.addDestination, { schema: { body: AddDestinationBody } },
    async (request) => {
      const session = await requireSession(services, request);
      await services.limiter.hit(`destination-change:${session.userId}`, destinationChangesPerUserPerHour, hourMs);
      return ok(await addDestination(services, session.userId, request.body));
    });

  app.post<{ Body: EditDestinationBody }>(withdrawalPaths.editDestination, { schema: { body: EditDestinationBody } },
    async (request) => {
      const session = await requireSession(services, request);
      await services.limiter.hit(`destination-change:${session.userId}`, destinationChangesPerUserPerHour, hourMs);
      const { id, ...fields } = request.body;
      return ok(await editDestination(services, session.userId, BigInt(id), fields));
    });

  app.get(withdrawalPaths.listDestinations, async (request) => {
    const session = await requireSession(services, request);
    return ok(await listDestinations(services.db, session.userId));
  });

  app.post<{ Body: Static<typeof SetWithdrawPasswordBody> }>(withdrawalPaths.setWithdrawPassword,
    { schema: { body: SetWithdrawPasswordBody } }, async (request) => {
      const session = await requireSession(services, request);
      await setWithdrawPassword(services, session.userId, request.body.password, request.body.code, request.ip);
      return ok(null);
    });

  app.post<{ Body: Static<typeof ChangeWithdrawPasswordBody> }>(withdrawalPaths.changeWithdrawPassword,
    { schema: { body: ChangeWithdrawPasswordBody } }, async (request) => {
      const session = await requireSession(services, request);
      await changeWithdrawPassword(services, session.userId, request.body.oldPassword, request.body.newPassword);
      return ok(null);
    });

  app.post<{ Body: Static<typeof WithdrawalApplyBody> }>(withdrawalPaths.apply, { schema: { body: WithdrawalApplyBody } },
    async (request) => {
      const session = await requireSession(services, request);
      await services.limiter.hit(`withdrawal-apply:${session.userId}`, withdrawalAppliesPerUserPerHour, hourMs);
      return ok(await applyWithdrawal(services, session.userId, request.body));
    });

  app.get<{ Querystring: Static<typeof WithdrawalListQuery> }>(withdrawalPaths.listMy,
    { schema: { querystring: WithdrawalListQuery } }, async (request) => {
      const session = await requireSession(services, request);
      return ok(await listMyWithdrawals(services.db, session.userId, request.query));
    });
}
