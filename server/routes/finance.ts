// /api/finance/*: the logged-in user's balances and assets, account ledger, deposit address and
// deposit requests (issue 9). Every answer is scoped to the session's user; amounts are decimal
// strings. Withdrawals register their own calls (routes/withdrawals.ts).
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  BalanceLogQuery, DepositAddressQuery, RechargeApplyBody, RechargeListQuery, walletPaths, type BalanceLogEntry, type BalanceLogEvent,
} from '../../src/api/contract/wallet.ts';
import { listLedgerEntries, type EntryQuery } from '../domain/kernel/ledger/entries.ts';
import { eventKey, listLedgerEvents } from '../domain/kernel/ledger/events.ts';
import { formatAmount } from '../domain/kernel/ledger/amounts.ts';
import type { MarketView } from '../domain/core/market/view.ts';
import { userAssets, userBalance } from '../domain/core/wallet/balances.ts';
import { applyRecharge, depositAddress, listMyRecharges } from '../domain/core/wallet/deposits.ts';
import { requireSession } from '../plugins/auth.ts';
import { badRequest } from '../lib/errors.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

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

  /** The ledger query of a balance-log request: the session's user, the filters as the domain reads them. */
  const ledgerQuery = (userId: bigint, query: Static<typeof BalanceLogQuery>): EntryQuery => {
    const { pageNo, pageSize, type, currency, startTime, endTime } = query;
    if (startTime !== undefined && endTime !== undefined && startTime >= endTime) {
      throw badRequest('invalid_request', 'The start of the time range must come before its end.');
    }
    return {
      userId, pageNo, pageSize, currency, types: type === undefined ? undefined : [type],
      fromTime: startTime === undefined ? undefined : new Date(startTime),
      toTime: endTime === undefined ? undefined : new Date(endTime),
    };
  };

  app.get<{ Querystring: Static<typeof BalanceLogQuery> }>(walletPaths.balanceLog,
    { schema: { querystring: BalanceLogQuery } }, async (request) => {
      const session = await requireSession(services, request);
      const page = await listLedgerEntries(services.db, ledgerQuery(session.userId, request.query));
      return ok({
        ...page,
        records: page.records.map((entry): BalanceLogEntry => ({
          id: entry.transferId, type: entry.type, currency: entry.currency, account: entry.accountKind,
          amount: formatAmount(entry.amountAtomic, entry.scale), balanceAfter: formatAmount(entry.balanceAfterAtomic, entry.scale), phase: entry.phase,
          time: entry.time.getTime(), reference: entry.reference, remark: entry.remark,
        })),
      });
    });

  // One record per business event (issue 19): what the ledger page shows unless Details is on.
  app.get<{ Querystring: Static<typeof BalanceLogQuery> }>(walletPaths.balanceEvents,
    { schema: { querystring: BalanceLogQuery } }, async (request) => {
      const session = await requireSession(services, request);
      const page = await listLedgerEvents(services.db, ledgerQuery(session.userId, request.query));
      return ok({
        ...page,
        records: page.records.map((event): BalanceLogEvent => ({
          id: eventKey(event.reference, event.currency), reference: event.reference, type: event.type, currency: event.currency,
          state: event.state, amount: formatAmount(event.amountAtomic, event.scale), held: formatAmount(event.heldAtomic, event.scale),
          balanceAfter: event.balanceAfterAtomic === null ? null : formatAmount(event.balanceAfterAtomic, event.scale),
          startTime: event.startTime.getTime(), time: event.time.getTime(), remark: event.remark, entryCount: event.entryCount,
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
