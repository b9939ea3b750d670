// /api/admin/chat/*: the operators' side of the support chat (issue 21; contract/chat.ts) for
// every operator role. Each action is audited by the domain (server/domain/programs/chat/operatorChat.ts).
// The chat screen's heartbeat (POST duty) is what puts an operator on duty.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { Empty } from '../../../src/api/contract/common.ts';
import {
  AdminReplyBody, AdminTransferBody, CannedListQuery, CannedReplyBody, ChatFileParams, ChatReadBody, ConversationDetailQuery,
  ConversationParams, ConversationsQuery, chatAdminPaths,
} from '../../../src/api/contract/chat.ts';
import { operatorRoles } from '../../../src/api/contract/admin.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';
import {
  assignToMe, chatFileForOperator, closeConversation, conversationDetail, createCanned, deleteCanned, listCanned, listConversations,
  operatorRead, operatorTyping, reply, transferTo, updateCanned,
} from '../../domain/programs/chat/operatorChat.ts';
import { dutyHeartbeat, operatorsOnDuty } from '../../domain/programs/chat/duty.ts';
import { anyUpload, uploadAnswer } from '../../domain/kernel/uploads.ts';

type Params = Static<typeof ConversationParams>;

export function chatAdminRoutes(app: FastifyInstance, services: Services) {
  const operators = operatorOnly(operatorRoles);
  const me = (request: { operator?: { id: bigint } }) => request.operator!.id;
  const idOf = (request: { params: Params }) => BigInt(request.params.id);

  app.get<{ Querystring: Static<typeof ConversationsQuery> }>(chatAdminPaths.conversations,
    { preHandler: operators, schema: { querystring: ConversationsQuery } },
    async (request) => ok(await listConversations(services, me(request), request.query)));

  app.get<{ Params: Params; Querystring: Static<typeof ConversationDetailQuery> }>(chatAdminPaths.conversation,
    { preHandler: operators, schema: { params: ConversationParams, querystring: ConversationDetailQuery } },
    async (request) => ok(await conversationDetail(services, idOf(request), request.query)));

  app.post<{ Params: Params; Body: Static<typeof AdminReplyBody> }>(chatAdminPaths.reply,
    { preHandler: operators, schema: { params: ConversationParams, body: AdminReplyBody } },
    async (request) => ok(await reply(services, me(request), idOf(request), request.body.text)));

  app.post<{ Params: Params }>(chatAdminPaths.assign, { preHandler: operators, schema: { params: ConversationParams, body: Empty } },
    async (request) => ok(await assignToMe(services, me(request), idOf(request))));

  app.post<{ Params: Params; Body: Static<typeof AdminTransferBody> }>(chatAdminPaths.transfer,
    { preHandler: operators, schema: { params: ConversationParams, body: AdminTransferBody } },
    async (request) => ok(await transferTo(services, me(request), idOf(request), BigInt(request.body.operatorId))));

  app.post<{ Params: Params }>(chatAdminPaths.close, { preHandler: operators, schema: { params: ConversationParams, body: Empty } },
    async (request) => ok(await closeConversation(services, me(request), idOf(request))));

  app.post<{ Params: Params; Body: Static<typeof ChatReadBody> }>(chatAdminPaths.read,
    { preHandler: operators, schema: { params: ConversationParams, body: ChatReadBody } },
    async (request) => ok(await operatorRead(services, me(request), idOf(request), request.body.seq)));

  app.post<{ Params: Params }>(chatAdminPaths.typing, { preHandler: operators, schema: { params: ConversationParams, body: Empty } },
    async (request) => {
      await operatorTyping(services, me(request), idOf(request));
      return ok(null);
    });

  app.get<{ Querystring: Static<typeof CannedListQuery> }>(chatAdminPaths.canned,
    { preHandler: operators, schema: { querystring: CannedListQuery } },
    async (request) => ok(await listCanned(services, request.query.lang)));

  app.post<{ Body: Static<typeof CannedReplyBody> }>(chatAdminPaths.canned, { preHandler: operators, schema: { body: CannedReplyBody } },
    async (request) => ok(await createCanned(services, me(request), request.body)));

  app.post<{ Params: Params; Body: Static<typeof CannedReplyBody> }>(chatAdminPaths.cannedItem,
    { preHandler: operators, schema: { params: ConversationParams, body: CannedReplyBody } },
    async (request) => ok(await updateCanned(services, me(request), idOf(request), request.body)));

  app.post<{ Params: Params }>(chatAdminPaths.cannedDelete, { preHandler: operators, schema: { params: ConversationParams, body: Empty } },
    async (request) => ok(await deleteCanned(services, me(request), idOf(request))));

  app.get(chatAdminPaths.duty, { preHandler: operators }, async () => ok(await operatorsOnDuty(services)));

  app.post(chatAdminPaths.duty, { preHandler: operators, schema: { body: Empty } }, async (request) => {
    await dutyHeartbeat(services, me(request));
    return ok(await operatorsOnDuty(services));
  });

  app.get<{ Params: Static<typeof ChatFileParams> }>(chatAdminPaths.file,
    { preHandler: operators, schema: { params: ChatFileParams } }, async (request, answer) => {
      await chatFileForOperator(services, me(request), request.params.id);
      const file = await uploadAnswer(services.uploads, await anyUpload(services.db, request.params.id, 'chat'));
      return answer.headers(file.headers).send(file.bytes);
    });
}
