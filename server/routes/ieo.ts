// The user's IEO calls (issue 23): projects (public; the caller's application when a session token
// is sent), the published draw (public), the caller's projects and applications, apply and pay.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { IeoApplicationsQuery, IeoApplyBody, IeoIdQuery, IeoListQuery, IeoPayBody, ieoPaths } from '../../src/api/contract/ieo.ts';
import { applyIeo, drawOf, listMyApplications, listProjects, myApplication, payIeo } from '../domain/programs/ieo/ieo.ts';
import { requestLang } from '../domain/kernel/shared/names.ts';
import { resolveSession } from '../domain/kernel/sessions.ts';
import { requireSession } from '../plugins/auth.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

/** Applications and payments one user may send per minute. */
const writesPerUserPerMinute = 30;

const Lang = { lang: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })) };
const ListQuery = Type.Object({ ...IeoListQuery.properties, ...Lang }, { additionalProperties: false });
const MyQuery = Type.Object({ ...IeoApplicationsQuery.properties, ...Lang }, { additionalProperties: false });

export function ieoRoutes(app: FastifyInstance, services: Services) {
  const { db } = services;
  const now = () => services.clock.now();
  const langOf = (request: FastifyRequest) => requestLang(request.query as { lang?: string }, request.headers);
  const optionalUser = async (request: FastifyRequest): Promise<bigint | undefined> => {
    const header = request.headers['x-access-token'];
    const token = Array.isArray(header) ? header[0] : header;
    if (!token) return undefined;
    return (await resolveSession(db, services.clock, services.limits, token, request.ip))?.userId;
  };
  const limitWrites = (userId: bigint) => services.limiter.hit(`ieo-write:${userId}`, writesPerUserPerMinute, 60_000);

  app.get<{ Querystring: Static<typeof ListQuery> }>(ieoPaths.list, { schema: { querystring: ListQuery } },
    async (request) => ok(await listProjects(db, request.query, langOf(request), now(), await optionalUser(request))));

  app.get<{ Querystring: Static<typeof ListQuery> }>(ieoPaths.listMy, { schema: { querystring: ListQuery } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await listProjects(db, request.query, langOf(request), now(), session.userId, true));
  });

  app.get<{ Querystring: Static<typeof IeoIdQuery> }>(ieoPaths.draw, { schema: { querystring: IeoIdQuery } },
    async (request) => ok(await drawOf(db, BigInt(request.query.id), now())));

  app.get<{ Querystring: Static<typeof MyQuery> }>(ieoPaths.myApplications, { schema: { querystring: MyQuery } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await listMyApplications(db, session.userId, request.query, langOf(request)));
  });

  app.post<{ Body: Static<typeof IeoApplyBody> }>(ieoPaths.apply, { schema: { body: IeoApplyBody } }, async (request) => {
    const session = await requireSession(services, request);
    await limitWrites(session.userId);
    const projectId = BigInt(request.body.id);
    await applyIeo(db, session.userId, projectId, request.body.lots, now());
    return ok(await myApplication(db, session.userId, projectId, langOf(request)));
  });

  app.post<{ Body: Static<typeof IeoPayBody> }>(ieoPaths.pay, { schema: { body: IeoPayBody } }, async (request) => {
    const session = await requireSession(services, request);
    await limitWrites(session.userId);
    const projectId = BigInt(request.body.id);
    await payIeo(db, session.userId, projectId, now());
    return ok(await myApplication(db, session.userId, projectId, langOf(request)));
  });
}
