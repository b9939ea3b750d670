// /api/finance/*: the logged-in user's balances and assets, account ledger, deposit address and
// deposit requests (issue 9). Every answer is scoped to the session's user; amounts are decimal
// strings. Withdrawals register their own calls (routes/withdrawals.ts).
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  BalanceLogQuery, DepositAddressQuery, RechargeApplyBody, RechargeListQuery, walletPaths, type BalanceLogEntry,
} from '../../src/api/contract/wallet.ts';
import { listLedgerEntries } from '../domain/ledger/entries.ts';
import { formatAmount } from '../domain/ledger/amounts.ts';
import type { MarketView } from '../domain/market/view.ts';
import { userAssets, userBalance } from '../domain/wallet/balances.ts';
import { applyRecharge, depositAddress, listMyRecharges } from '../domain/wallet/deposits.ts';
import { requireSession } from '../plugins/auth.ts';
import { badRequest } from '../lib/errors.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../services.ts';

/** Deposit requests one user may file per hour: far above honest use, far below flooding reviewers. */
const rechargeAppliesPerUserPerHour = 30;

export function financeRoutes(app: FastifyInstance, services: Services, market: MarketView) {
  app.get(walletPaths.userBalance, async (request) => {
    const session = await requireSession(services, request);
    return ok(await userBalance(services.db, session.userId));
  });

  app.get(walletPaths.userAssets, async (request) => {
    const session = await requireSession(services, request);
    return ok(await userAssets(services.db, market, session.userId, services.clock.now().getTime()));
  });

  app.get<{ Querystring: Static<typeof BalanceLogQuery> }>(walletPaths.balanceLog,
    { schema: { querystring: BalanceLogQuery } }, async (request) => {
      const session = await requireSession(services, request);
      const { pageNo, pageSize, type, currency, startTime, endTime } = request.query;
      if (startTime !== undefined && endTime !== undefined && startTime >= endTime) {
        throw badRequest('invalid_request', 'The start of the time range must come before its end.');
      }
      const page = await listLedgerEntries(services.db, {
        userId: session.userId, pageNo, pageSize, currency, types: type === undefined ? undefined : [type],
        fromTime: startTime === undefined ? undefined : new Date(startTime),
        toTime: endTime === undefined ? undefined : new Date(endTime),
      });
      return ok({
        ...page,
        records: page.records.map((entry): BalanceLogEntry => ({
          id: entry.transferId, type: entry.type, currency: entry.currency, account: entry.accountKind,
          amount: formatAmount(entry.amountAtomic, entry.scale), balanceAfter: formatAmount(entry.balanceAfterAtomic, entry.scale), phase: entry.phase,
          time: entry.time.getTime(), reference: entry.reference, remark: entry.remark,
        })),
      });
    });

  app.get<{ Querystring: Static<typeof DepositAddressQuery> }>(walletPaths.depositAddress,
    { schema: { querystring: DepositAddressQuery } }, async (request) => {
      await requireSession(services, request);
      return ok(await depositAddress(services.db, request.query.currency, request.query.network));
    });

  app.post<{ Body: Static<typeof RechargeApplyBody> }>(walletPaths.rechargeApply,
    { schema: { body: RechargeApplyBody } }, async (request) => {
      const session = await requireSession(services, request);
      await services.limiter.hit(`recharge-apply:${session.userId}`, rechargeAppliesPerUserPerHour, 3_600_000);
      return ok(await applyRecharge(services.db, session.userId, request.body, services.clock.now()));
    });

  app.get<{ Querystring: Static<typeof RechargeListQuery> }>(walletPaths.rechargeListMy,
    { schema: { querystring: RechargeListQuery } }, async (request) => {
      const session = await requireSession(services, request);
      return ok(await listMyRecharges(services.db, session.userId, request.query));
    });
}
