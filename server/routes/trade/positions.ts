// Contract calls (issue 10, spec §7): the public settings and recorded ticks, and the session
// user's positions: open, change take-profit and stop-loss, close, list, read one with its
// receipt, and the summary. The work is in domain/core/trading/positions.ts.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  ClosePositionQuery, CreatePositionBody, DemoQuery, PositionListQuery, PositionQuery, TicksQuery, tradePaths, ticksPerAnswerMax,
  ticksSpanMaxMs, UpdateStopLossBody,
} from '../../../src/api/contract/trading.ts';
import { RecordId } from '../../../src/api/contract/withdrawals.ts';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../domain/kernel/services.ts';
import type { MarketView } from '../../domain/core/market/view.ts';
import { symbolByCode } from '../../domain/core/market/symbols.ts';
import { loadSymbolSettings, symbolSettingsToWire } from '../../domain/core/trading/settings.ts';
import { tickRef, ticksBetween } from '../../domain/core/market/ticks.ts';
import {
  closePosition, createPosition, listMyPositions, positionById, positionsSummary, updateLevels,
} from '../../domain/core/trading/positions.ts';
import { requireSession } from '../../plugins/auth.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { ok } from '../../lib/envelope.ts';

const minuteMs = 60_000;
/** Tick queries per address per minute: a receipt check needs a few, a scraper many. */
const tickQueriesPerIpPerMinute = 120;
/** Positions one user may open per minute: far above a person's use, a bound on a runaway script. */
const opensPerUserPerMinute = 120;

const CloseParams = Type.Object({ id: RecordId });

export function positionRoutes(app: FastifyInstance, services: Services, market: MarketView) {
  const deps = { db: services.db, clock: services.clock, userEvents: services.userEvents, competitions: services.ports.competitions };

  app.get(tradePaths.settings, async () => {
    const nowMs = services.clock.now().getTime();
    const rows = await loadSymbolSettings(services.db);
    return ok(rows.flatMap((row) => symbolSettingsToWire(row, nowMs) ?? []));
  });

  app.get<{ Querystring: TicksQuery }>(tradePaths.ticks, { schema: { querystring: TicksQuery } }, async (request) => {
    await services.limiter.hit(`trade-ticks:${request.ip}`, tickQueriesPerIpPerMinute, minuteMs);
    const { symbol, from, to } = request.query;
    if (!symbolByCode.has(symbol)) throw notFound('unknown_symbol', `There is no symbol ${symbol}.`);
    if (from > to) throw badRequest('invalid_request', 'The start of the time range must not come after its end.');
    if (to - from > ticksSpanMaxMs) {
      throw badRequest('invalid_request', `Please ask for at most ${ticksSpanMaxMs / minuteMs} minutes of ticks at a time.`);
    }
    return ok((await ticksBetween(services.db, symbol, from, to, ticksPerAnswerMax)).map(tickRef));
  });

  app.post<{ Body: CreatePositionBody }>(tradePaths.createPosition, { schema: { body: CreatePositionBody } }, async (request) => {
    const session = await requireSession(services, request);
    await services.limiter.hit(`position-open:${session.userId}`, opensPerUserPerMinute, minuteMs);
    return ok(await createPosition(deps, session.userId, request.body));
  });

  app.post<{ Body: UpdateStopLossBody }>(tradePaths.updateStopLoss, { schema: { body: UpdateStopLossBody } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await updateLevels(deps, session.userId, request.body));
  });

  app.post<{ Params: Static<typeof CloseParams>; Querystring: Static<typeof ClosePositionQuery> }>(tradePaths.closePosition,
    { schema: { params: CloseParams, querystring: ClosePositionQuery } }, async (request) => {
      const session = await requireSession(services, request);
      return ok(await closePosition(deps, session.userId, BigInt(request.params.id), request.query.demo));
    });

  app.get<{ Querystring: PositionListQuery }>(tradePaths.listPositions, { schema: { querystring: PositionListQuery } },
    async (request) => {
      const session = await requireSession(services, request);
      return ok(await listMyPositions(services.db, session.userId, request.query));
    });

  app.get<{ Querystring: Static<typeof PositionQuery> }>(tradePaths.getPosition, { schema: { querystring: PositionQuery } },
    async (request) => {
      const session = await requireSession(services, request);
      return ok(await positionById(services.db, session.userId, BigInt(request.query.id), request.query.demo));
    });

  app.get<{ Querystring: Static<typeof DemoQuery> }>(tradePaths.summary, { schema: { querystring: DemoQuery } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await positionsSummary(services.db, market, session.userId, request.query.demo, services.clock.now().getTime()));
  });
}
