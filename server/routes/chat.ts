// /api/user/appChat/*: the user's side of the support chat (issue 21; contract/chat.ts). Every
// call needs a session and reaches only the session user's own conversation: there is no
// conversation id to pass, so nobody can name another user's. Bodies are encrypted like every POST.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { Empty } from '../../src/api/contract/common.ts';
import { ChatHistoryQuery, ChatReadBody, OfflineFormBody, SendChatBody, chatPaths } from '../../src/api/contract/chat.ts';
import { requireSession } from '../plugins/auth.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';
import { userHistory } from '../domain/programs/chat/conversations.ts';
import { dutyForUser, leaveOfflineForm, sendChat, userRead, userTyping } from '../domain/programs/chat/userChat.ts';

export function chatRoutes(app: FastifyInstance, services: Services) {
  app.post<{ Body: SendChatBody }>(chatPaths.send, { schema: { body: SendChatBody } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await sendChat(services, session.userId, request.body));
  });

  app.get<{ Querystring: Static<typeof ChatHistoryQuery> }>(chatPaths.history, { schema: { querystring: ChatHistoryQuery } },
    async (request) => {
      const session = await requireSession(services, request);
      return ok(await userHistory(services.db, session.userId, request.query));
    });

  app.post<{ Body: Static<typeof ChatReadBody> }>(chatPaths.read, { schema: { body: ChatReadBody } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await userRead(services, session.userId, request.body.seq));
  });

  app.post(chatPaths.typing, { schema: { body: Empty } }, async (request) => {
    const session = await requireSession(services, request);
    await userTyping(services, session.userId);
    return ok(null);
  });

  app.get(chatPaths.duty, async (request) => {
    await requireSession(services, request);
    return ok(await dutyForUser(services));
  });

  app.post<{ Body: Static<typeof OfflineFormBody> }>(chatPaths.offlineForm, { schema: { body: OfflineFormBody } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await leaveOfflineForm(services, session.userId, request.body));
  });
}
