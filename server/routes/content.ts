// Notices, announcements, internal messages, the help centre, news and the status check (issue 21,
// spec §7). Notices, help, news, content images and the status are public; a caller who sends a
// live session token also gets its read marks and the announcements meant for it. Announcements
// for the caller, internal messages and unread counts need a session; read marks are encrypted
// POSTs like every other POST.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import {
  ContentByIdQuery, ContentListQuery, MyMessagesQuery, ReadAnnouncementBody, ReadMessagesBody, contentPaths,
  type ContentKind,
} from '../../src/api/contract/content.ts';
import {
  contentById, listContent, listMyMessages, markContentRead, markMessagesRead, unreadCounts,
} from '../domain/programs/content/content.ts';
import { contentImageAnswer } from '../domain/programs/content/images.ts';
import { currentStatus } from '../domain/programs/content/status.ts';
import { resolveSession } from '../domain/kernel/sessions.ts';
import { requireSession } from '../plugins/auth.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

/**
 * Help searches one address may run per minute (each is an ILIKE over every text): far above a
 * person typing, while plain lists and items, which read by index, are not limited.
 */
const searchesPerIpPerMinute = 120;
/** Read marks one user may set per minute. */
const readsPerUserPerMinute = 240;
/** How many notices the home scroller gets. */
const homeNoticesMax = 10;

const ImageParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
type ListQuery = Static<typeof ContentListQuery>;
type ByIdQuery = Static<typeof ContentByIdQuery>;

export function contentRoutes(app: FastifyInstance, services: Services) {
  /** The caller's user id when it sent a live session token; anonymous otherwise (public calls). */
  const optionalUser = async (request: FastifyRequest): Promise<bigint | undefined> => {
    const header = request.headers['x-access-token'];
    const token = Array.isArray(header) ? header[0] : header;
    if (!token) return undefined;
    return (await resolveSession(services.db, services.clock, services.limits, token, request.ip))?.userId;
  };
  const searchLimit = (request: FastifyRequest) => services.limiter.hit(`content-search:${request.ip}`, searchesPerIpPerMinute, 60_000);

  const list = (kind: ContentKind) => async (request: FastifyRequest<{ Querystring: ListQuery }>) => {
    const { lang, q, category, pageNo, pageSize } = request.query;
    if (q && q.trim() !== '') await searchLimit(request);
    return ok(await listContent(services.db, services.clock.now(), {
      kind, lang, q, category, pageNo, pageSize, userId: await optionalUser(request),
    }));
  };
  const byId = (kinds: readonly ContentKind[]) => async (request: FastifyRequest<{ Querystring: ByIdQuery }>) =>
    ok(await contentById(services.db, services.clock.now(), BigInt(request.query.id), kinds, {
      lang: request.query.lang, userId: await optionalUser(request),
    }));

  app.get<{ Querystring: ListQuery }>(contentPaths.homeNotices, { schema: { querystring: ContentListQuery } }, async (request) => {
    const page = await listContent(services.db, services.clock.now(), {
      kind: 'notice', lang: request.query.lang, pageSize: homeNoticesMax, userId: await optionalUser(request),
    });
    return ok(page.records);
  });

  app.get<{ Querystring: ListQuery }>(contentPaths.notices, { schema: { querystring: ContentListQuery } }, list('notice'));
  // One notice (public) or announcement (for a caller it is meant for) with its body: an id the
  // caller's audience does not take in answers not found, as a missing one does (issue 38 #12).
  app.get<{ Querystring: ByIdQuery }>(contentPaths.noticeById, { schema: { querystring: ContentByIdQuery } },
    byId(['notice', 'announcement']));
  app.get<{ Querystring: ListQuery }>(contentPaths.helpList, { schema: { querystring: ContentListQuery } }, list('help'));
  app.get<{ Querystring: ByIdQuery }>(contentPaths.helpById, { schema: { querystring: ContentByIdQuery } }, byId(['help']));
  app.get<{ Querystring: ListQuery }>(contentPaths.articles, { schema: { querystring: ContentListQuery } }, list('article'));
  // One article by id; notices and announcements too, as the app asked for them here before
  // noticeById was served (an older app still does).
  app.get<{ Querystring: ByIdQuery }>(contentPaths.articleById, { schema: { querystring: ContentByIdQuery } },
    byId(['article', 'notice', 'announcement']));

  app.get<{ Querystring: ListQuery }>(contentPaths.myAnnouncements, { schema: { querystring: ContentListQuery } }, async (request) => {
    const session = await requireSession(services, request);
    const { lang, pageNo, pageSize } = request.query;
    return ok(await listContent(services.db, services.clock.now(), { kind: 'announcement', lang, pageNo, pageSize, userId: session.userId }));
  });

  app.post<{ Body: Static<typeof ReadAnnouncementBody> }>(contentPaths.readAnnouncement, { schema: { body: ReadAnnouncementBody } },
    async (request) => {
      const session = await requireSession(services, request);
      await services.limiter.hit(`content-read:${session.userId}`, readsPerUserPerMinute, 60_000);
      return ok(await markContentRead(services.db, services.clock.now(), session.userId, BigInt(request.body.id)));
    });

  app.get<{ Querystring: Static<typeof MyMessagesQuery> }>(contentPaths.myMessages, { schema: { querystring: MyMessagesQuery } },
    async (request) => {
      const session = await requireSession(services, request);
      return ok(await listMyMessages(services.db, session.userId, request.query));
    });

  app.post<{ Body: Static<typeof ReadMessagesBody> }>(contentPaths.readMessages, { schema: { body: ReadMessagesBody } },
    async (request) => {
      const session = await requireSession(services, request);
      await services.limiter.hit(`content-read:${session.userId}`, readsPerUserPerMinute, 60_000);
      const target = 'id' in request.body ? { id: BigInt(request.body.id) } : { all: true as const };
      return ok(await markMessagesRead(services.db, services.clock.now(), session.userId, target));
    });

  app.get(contentPaths.unread, async (request) => {
    const session = await requireSession(services, request);
    return ok(await unreadCounts(services.db, services.clock.now(), session.userId));
  });

  app.get<{ Params: Static<typeof ImageParams> }>(contentPaths.image, { schema: { params: ImageParams } }, async (request, reply) => {
    const answer = await contentImageAnswer(services.db, services.uploads, request.params.id);
    return reply.headers(answer.headers).send(answer.bytes);
  });

  app.get(contentPaths.status, async () => ok(await currentStatus(services.db, services.clock.now())));
}
