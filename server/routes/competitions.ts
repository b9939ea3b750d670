// The user's calls of issue 23 (competitions). Registered in server/app.ts.
// GET /marketing/competition/list and /detail are public (a session adds `joined` and `myEntry`);
// join, exit and mine need a session. Join is idempotent on clientOrderId.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import {
  CompetitionIdQuery, CompetitionListQuery, ExitCompetitionBody, JoinCompetitionBody, MyEntriesQuery, competitionPaths,
} from '../../src/api/contract/competitions.ts';
import {
  competitionDetail, exitCompetition, joinCompetition, listCompetitions, myEntries, myEntry,
} from '../domain/programs/competitions/competitions.ts';
import { requestLang } from '../domain/kernel/shared/names.ts';
import { resolveSession } from '../domain/kernel/sessions.ts';
import { requireSession } from '../plugins/auth.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

/** Joins and exits one user may send per minute: far above a person tapping. */
const writesPerUserPerMinute = 30;

const Lang = { lang: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })) };
const ListQuery = Type.Object({ ...CompetitionListQuery.properties, ...Lang }, { additionalProperties: false });
const DetailQuery = Type.Object({ ...CompetitionIdQuery.properties, ...Lang }, { additionalProperties: false });
const MineQuery = Type.Object({ ...MyEntriesQuery.properties, ...Lang }, { additionalProperties: false });

export function competitionRoutes(app: FastifyInstance, services: Services) {
  const { db, clock } = services;
  const langOf = (request: FastifyRequest) => requestLang(request.query as { lang?: string }, request.headers);
  const optionalUser = async (request: FastifyRequest): Promise<bigint | undefined> => {
    const header = request.headers['x-access-token'];
    const token = Array.isArray(header) ? header[0] : header;
    if (!token) return undefined;
    return (await resolveSession(db, clock, services.limits, token, request.ip))?.userId;
  };
  const limitWrites = (userId: bigint) => services.limiter.hit(`competition-write:${userId}`, writesPerUserPerMinute, 60_000);

  app.get<{ Querystring: Static<typeof ListQuery> }>(competitionPaths.list, { schema: { querystring: ListQuery } },
    async (request) => ok(await listCompetitions(db, request.query, await optionalUser(request), clock.now(), langOf(request))));

  app.get<{ Querystring: Static<typeof DetailQuery> }>(competitionPaths.detail, { schema: { querystring: DetailQuery } },
    async (request) => ok(await competitionDetail(db, BigInt(request.query.id), await optionalUser(request), clock.now(), langOf(request))));

  app.get<{ Querystring: Static<typeof MineQuery> }>(competitionPaths.mine, { schema: { querystring: MineQuery } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await myEntries(db, session.userId, request.query, clock.now(), langOf(request)));
  });

  app.post<{ Body: JoinCompetitionBody }>(competitionPaths.join, { schema: { body: JoinCompetitionBody } }, async (request) => {
    const session = await requireSession(services, request);
    await limitWrites(session.userId);
    const entry = await joinCompetition(db, clock, session.userId, BigInt(request.body.id), request.body.clientOrderId);
    return ok(await myEntry(db, session.userId, entry.id, clock.now(), langOf(request)));
  });

  app.post<{ Body: ExitCompetitionBody }>(competitionPaths.exit, { schema: { body: ExitCompetitionBody } }, async (request) => {
    const session = await requireSession(services, request);
    await limitWrites(session.userId);
    const entry = await exitCompetition(db, clock, session.userId, BigInt(request.body.id));
    return ok(await myEntry(db, session.userId, entry.id, clock.now(), langOf(request)));
  });
}
