// The user's calls of issue 23 (team): /api/marketing/myTeam and its income statements, the
// invitation short link (made once, resolved and counted by /api/set/appShortLink/use or opened
// as /api/s/:code), and binding an inviter later for an account made without a code.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { BindInviterBody, ShortLinkCode, ShortLinkQuery, TeamIncomeQuery, teamPaths } from '../../src/api/contract/team.ts';
import { bindInviter, incomeStatements, myShortLink, myTeam, useShortLink } from '../domain/programs/team/team.ts';
import { requireSession } from '../plugins/auth.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

/** Binding attempts per user per hour: a person types a code a few times, a script guessing codes is stopped. */
const bindsPerUserPerHour = 10;
/** Short link look-ups per address per minute. */
const shortLinkUsesPerIpPerMinute = 60;

const RedirectParams = Type.Object({ code: ShortLinkCode });

export function teamRoutes(app: FastifyInstance, services: Services) {
  const { db, clock, publicOrigin } = services;

  app.get(teamPaths.myTeam, async (request) => {
    const session = await requireSession(services, request);
    return ok(await myTeam(db, session.userId, publicOrigin, clock.now()));
  });

  app.get<{ Querystring: Static<typeof TeamIncomeQuery> }>(teamPaths.income, { schema: { querystring: TeamIncomeQuery } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await incomeStatements(db, session.userId, request.query.pageNo ?? 1, request.query.pageSize ?? 10));
  });

  app.get(teamPaths.myShortLink, async (request) => {
    const session = await requireSession(services, request);
    return ok(await myShortLink(db, session.userId, publicOrigin, clock.now()));
  });

  app.post<{ Body: Static<typeof BindInviterBody> }>(teamPaths.bindInviter, { schema: { body: BindInviterBody } }, async (request) => {
    const session = await requireSession(services, request);
    await services.limiter.hit(`team-bind:${session.userId}`, bindsPerUserPerHour, 3_600_000);
    await bindInviter(db, session.userId, request.body.inviteCode, clock.now());
    return ok(await myTeam(db, session.userId, publicOrigin, clock.now()));
  });

  app.get<{ Querystring: Static<typeof ShortLinkQuery> }>(teamPaths.useShortLink, { schema: { querystring: ShortLinkQuery } }, async (request) => {
    await services.limiter.hit(`short-link-ip:${request.ip}`, shortLinkUsesPerIpPerMinute, 60_000);
    return ok(await useShortLink(db, request.query.code, publicOrigin, clock.now()));
  });

  // The shared address: counts the visit and opens the app at the target (the register form with the code).
  app.get<{ Params: Static<typeof RedirectParams> }>(teamPaths.shortRedirect, { schema: { params: RedirectParams } }, async (request, reply) => {
    await services.limiter.hit(`short-link-ip:${request.ip}`, shortLinkUsesPerIpPerMinute, 60_000);
    const used = await useShortLink(db, request.params.code, publicOrigin, clock.now());
    return reply.redirect(`/#${used.target}`, 302);
  });
}
