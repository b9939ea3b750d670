// The operators' side of the support chat (issue 21): the queue (open first, unassigned first,
// newest activity first; or "mine"), a conversation with the user's context beside it, assign to
// me, transfer, reply, close, read mark, typing and canned replies. Every action is audited in its
// own transaction; events go out after commit. A reply to a user whose app is not open also
// writes an internal message ("chat_reply") in the same transaction.
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { chatCannedReplies, chatConversations, chatMessages, operators, users } from '../../../db/schema.ts';
import { recordAudit } from '../../kernel/audit.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import type { Services } from '../../kernel/services.ts';
import { reviewContext } from '../../core/wallet/reviewContext.ts';
import { writeMessage, type WrittenMessage } from '../../kernel/messages.ts';
import type {
  CannedReply, ConversationDetail, ConversationSummary,
} from '../../../../src/api/contract/chat.ts';
import type { PageOf } from '../../../../src/api/contract/wallet.ts';
import {
  appendToConversation, closedSystemText, conversationById, messagesOf, toChatMessage, type ConversationRow, type HistoryQuery,
} from './conversations.ts';
import { messageEvents, toOperators, toUser } from './events.ts';

const minuteMs = 60_000;
const typingPerMinute = 30;

/** "j***@example.com", "+44 •••• 1234" or the username: enough to recognise, not to read off. */
export function maskedAccount(user: Pick<typeof users.$inferSelect, 'id' | 'email' | 'phone' | 'phoneCountryCode' | 'username'>): string {
  if (user.email) {
    const at = user.email.lastIndexOf('@');
    return at < 1 ? '***' : `${Array.from(user.email)[0]}***${user.email.slice(at)}`;
  }
  if (user.phone) {
    const digits = user.phone.replace(/\D/g, '');
    return `+${user.phoneCountryCode ?? ''} •••• ${digits.slice(-(digits.length > 6 ? 4 : 2))}`;
  }
  return user.username ?? `#${user.id}`;
}

interface ListQuery { pageNo?: number; pageSize?: number; status?: 'open' | 'closed'; mine?: boolean }

const lastText = sql<string | null>`(select coalesce(m.text, '[photo]') from chat_messages m
  where m.conversation_id = ${chatConversations.id} order by m.seq desc limit 1)`;

function summaryOf(row: ConversationRow, user: Parameters<typeof maskedAccount>[0], text: string | null): ConversationSummary {
  return {
    id: String(row.id),
    userId: String(row.userId),
    userLabel: maskedAccount(user),
    status: row.status as 'open' | 'closed',
    ...(row.assignedOperatorId !== null ? { assignedOperatorId: String(row.assignedOperatorId) } : {}),
    lastSeq: row.lastSeq,
    operatorReadSeq: row.operatorReadSeq,
    ...(text !== null ? { lastText: text.slice(0, 140) } : {}),
    lastMessageAt: row.lastMessageAt.getTime(),
  };
}

/** The queue: open before closed, unassigned before assigned, the latest activity first. */
export async function listConversations(services: Services, operatorId: bigint, query: ListQuery): Promise<PageOf<ConversationSummary>> {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 20;
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(chatConversations.status, query.status));
  if (query.mine) conditions.push(eq(chatConversations.assignedOperatorId, operatorId));
  const where = conditions.length ? and(...conditions) : undefined;
  const [{ total }] = await services.db.select({ total: count() }).from(chatConversations).where(where);
  const rows = await services.db.select({ conversation: chatConversations, user: users, text: lastText })
    .from(chatConversations).innerJoin(users, eq(users.id, chatConversations.userId)).where(where)
    .orderBy(sql`(${chatConversations.status} = 'open') desc`, sql`(${chatConversations.assignedOperatorId} is null) desc`,
      desc(chatConversations.lastMessageAt), desc(chatConversations.id))
    .limit(pageSize).offset((pageNo - 1) * pageSize);
  return {
    records: rows.map((row) => summaryOf(row.conversation, row.user, row.text)),
    total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize),
  };
}

async function summaryById(services: Services, id: bigint): Promise<{ row: ConversationRow; summary: ConversationSummary }> {
  const [found] = await services.db.select({ conversation: chatConversations, user: users, text: lastText })
    .from(chatConversations).innerJoin(users, eq(users.id, chatConversations.userId)).where(eq(chatConversations.id, id)).limit(1);
  if (!found) throw notFound('not_found', 'No such conversation.');
  return { row: found.conversation, summary: summaryOf(found.conversation, found.user, found.text) };
}

/** A conversation, its messages (the latest, or a page of them) and the user's context. */
export async function conversationDetail(services: Services, id: bigint, query: HistoryQuery): Promise<ConversationDetail> {
  const { row, summary } = await summaryById(services, id);
  const [messages, context] = await Promise.all([
    messagesOf(services.db, id, query), reviewContext(services.db, row.userId, services.clock.now()),
  ]);
  const [user] = await services.db.select().from(users).where(eq(users.id, row.userId)).limit(1);
  return {
    conversation: summary,
    messages: messages.map((message) => toChatMessage(message, 'operator')),
    userReadSeq: row.userReadSeq,
    context: { ...context, account: maskedAccount(user) },
  };
}

async function activeOperator(services: Services, operatorId: bigint) {
  const [row] = await services.db.select().from(operators).where(and(eq(operators.id, operatorId), eq(operators.disabled, false))).limit(1);
  if (!row) throw notFound('not_found', 'No such operator.');
  return row;
}

/** Assigns the conversation to `toOperatorId` (assign to me, or a transfer); audited. */
async function assignTo(services: Services, operatorId: bigint, id: bigint, toOperatorId: bigint, action: 'chat.assign' | 'chat.transfer') {
  if (action === 'chat.transfer') await activeOperator(services, toOperatorId);
  const now = services.clock.now();
  const row = await services.db.transaction(async (tx) => {
    const [before] = await tx.select().from(chatConversations).where(eq(chatConversations.id, id)).for('update');
    if (!before) throw notFound('not_found', 'No such conversation.');
    if (before.status !== 'open') throw badRequest('invalid_request', 'This conversation is closed.');
    const [after] = await tx.update(chatConversations).set({ assignedOperatorId: toOperatorId })
      .where(eq(chatConversations.id, id)).returning();
    await recordAudit(tx, {
      operatorId, action, targetType: 'chat_conversation', targetId: id, userId: before.userId,
      before: { assignedOperatorId: before.assignedOperatorId }, after: { assignedOperatorId: toOperatorId },
    }, { now: () => now });
    return after;
  });
  toOperators(services, row.userId, { type: 'chat.status', conversationId: String(id), status: 'open' });
  return (await summaryById(services, id)).summary;
}

export const assignToMe = (services: Services, operatorId: bigint, id: bigint) => assignTo(services, operatorId, id, operatorId, 'chat.assign');
export const transferTo = (services: Services, operatorId: bigint, id: bigint, toOperatorId: bigint) =>
  assignTo(services, operatorId, id, toOperatorId, 'chat.transfer');

/**
 * An operator's reply: numbered and stored, the conversation taken by the operator if nobody had
 * it, audited; when the user's app is not open, an internal message in the same transaction.
 */
export async function reply(services: Services, operatorId: bigint, id: bigint, text: string) {
  const trimmed = text.trim();
  if (!trimmed) throw badRequest('invalid_request', 'Write a reply.');
  const conversation = await conversationById(services.db, id);
  if (conversation.status !== 'open') throw badRequest('invalid_request', 'This conversation is closed.');
  const now = services.clock.now();
  const userOnline = services.userOnline?.(conversation.userId) ?? false;
  let written: WrittenMessage | undefined;
  const stored = await services.db.transaction(async (tx) => {
    const appended = await appendToConversation(tx, id, { sender: 'operator', operatorId, text: trimmed }, now,
      conversation.assignedOperatorId === null ? { assignedOperatorId: operatorId } : {});
    await recordAudit(tx, {
      operatorId, action: 'chat.reply', targetType: 'chat_conversation', targetId: id, userId: conversation.userId,
      after: { seq: appended.message.seq, length: trimmed.length },
    }, { now: () => now });
    if (!userOnline) {
      written = await writeMessage(tx, {
        userId: conversation.userId, kind: 'chat_reply', category: 'chat', params: { preview: trimmed.slice(0, 80) },
        route: '/chat', dedupeKey: `chat:${id}:${appended.message.seq}`,
      }, now);
    }
    return appended;
  });
  messageEvents(services, conversation.userId, stored.message);
  if (written) services.push?.deliver([written]);
  return toChatMessage(stored.message, 'operator');
}

/** Closes the conversation with a system message; audited. The user's next message opens a new one. */
export async function closeConversation(services: Services, operatorId: bigint, id: bigint) {
  const conversation = await conversationById(services.db, id);
  if (conversation.status !== 'open') throw badRequest('invalid_request', 'This conversation is closed.');
  const now = services.clock.now();
  const stored = await services.db.transaction(async (tx) => {
    const appended = await appendToConversation(tx, id, { sender: 'system', text: closedSystemText }, now, { status: 'closed', closedAt: now });
    await recordAudit(tx, {
      operatorId, action: 'chat.close', targetType: 'chat_conversation', targetId: id, userId: conversation.userId,
      before: { status: 'open' }, after: { status: 'closed', seq: appended.message.seq },
    }, { now: () => now });
    return appended;
  });
  messageEvents(services, conversation.userId, stored.message);
  const event = { type: 'chat.status' as const, conversationId: String(id), status: 'closed' as const };
  toUser(services, conversation.userId, event);
  toOperators(services, conversation.userId, event);
  return (await summaryById(services, id)).summary;
}

/** The operators' read mark (never back, never past the last message); audited when it moves. */
export async function operatorRead(services: Services, operatorId: bigint, id: bigint, seq: number) {
  const now = services.clock.now();
  const result = await services.db.transaction(async (tx) => {
    const [before] = await tx.select().from(chatConversations).where(eq(chatConversations.id, id)).for('update');
    if (!before) throw notFound('not_found', 'No such conversation.');
    const next = Math.max(before.operatorReadSeq, Math.min(seq, before.lastSeq));
    if (next === before.operatorReadSeq) return { userId: before.userId, seq: next, moved: false };
    await tx.update(chatConversations).set({ operatorReadSeq: next }).where(eq(chatConversations.id, id));
    await recordAudit(tx, {
      operatorId, action: 'chat.read', targetType: 'chat_conversation', targetId: id, userId: before.userId,
      before: { operatorReadSeq: before.operatorReadSeq }, after: { operatorReadSeq: next },
    }, { now: () => now });
    return { userId: before.userId, seq: next, moved: true };
  });
  if (result.moved) {
    const event = { type: 'chat.read' as const, conversationId: String(id), seq: result.seq, by: 'operator' as const };
    toUser(services, result.userId, event);
    toOperators(services, result.userId, event);
  }
  return { operatorReadSeq: result.seq };
}

export async function operatorTyping(services: Services, operatorId: bigint, id: bigint) {
  await services.limiter.hit(`chat-operator-typing:${operatorId}`, typingPerMinute, minuteMs);
  const conversation = await conversationById(services.db, id);
  if (conversation.status !== 'open') return;
  toUser(services, conversation.userId, { type: 'chat.typing', conversationId: String(id), by: 'operator' });
}

// ─── Canned replies ───

const cannedOf = (row: typeof chatCannedReplies.$inferSelect): CannedReply =>
  ({ id: String(row.id), lang: row.lang, title: row.title, text: row.text });

export async function listCanned(services: Services, lang?: string): Promise<CannedReply[]> {
  const rows = await services.db.select().from(chatCannedReplies)
    .where(lang ? eq(chatCannedReplies.lang, lang) : undefined).orderBy(chatCannedReplies.lang, chatCannedReplies.title, chatCannedReplies.id);
  return rows.map(cannedOf);
}

interface CannedInput { lang: string; title: string; text: string }

function cleanCanned(input: CannedInput): CannedInput {
  const cleaned = { lang: input.lang.trim().toLowerCase(), title: input.title.trim(), text: input.text.trim() };
  if (!/^[a-z]{2}(-[a-z]{2})?$/.test(cleaned.lang)) throw badRequest('invalid_request', 'The language is a code such as "en" or "zh-tw".');
  if (!cleaned.title || !cleaned.text) throw badRequest('invalid_request', 'A canned reply needs a title and a text.');
  return cleaned;
}

export async function createCanned(services: Services, operatorId: bigint, input: CannedInput): Promise<CannedReply> {
  const values = cleanCanned(input);
  const now = services.clock.now();
  return services.db.transaction(async (tx) => {
    const [row] = await tx.insert(chatCannedReplies).values({ ...values, createdAt: now }).returning();
    await recordAudit(tx, { operatorId, action: 'chat.canned.create', targetType: 'chat_canned_reply', targetId: row.id, after: values }, { now: () => now });
    return cannedOf(row);
  });
}

export async function updateCanned(services: Services, operatorId: bigint, id: bigint, input: CannedInput): Promise<CannedReply> {
  const values = cleanCanned(input);
  const now = services.clock.now();
  return services.db.transaction(async (tx) => {
    const [before] = await tx.select().from(chatCannedReplies).where(eq(chatCannedReplies.id, id)).for('update');
    if (!before) throw notFound('not_found', 'No such canned reply.');
    const [row] = await tx.update(chatCannedReplies).set(values).where(eq(chatCannedReplies.id, id)).returning();
    await recordAudit(tx, {
      operatorId, action: 'chat.canned.update', targetType: 'chat_canned_reply', targetId: id, before: cannedOf(before), after: values,
    }, { now: () => now });
    return cannedOf(row);
  });
}

export async function deleteCanned(services: Services, operatorId: bigint, id: bigint) {
  const now = services.clock.now();
  await services.db.transaction(async (tx) => {
    const [before] = await tx.delete(chatCannedReplies).where(eq(chatCannedReplies.id, id)).returning();
    if (!before) throw notFound('not_found', 'No such canned reply.');
    await recordAudit(tx, { operatorId, action: 'chat.canned.delete', targetType: 'chat_canned_reply', targetId: id, before: cannedOf(before) }, { now: () => now });
  });
  return null;
}

/** A chat image an operator opens: only an upload some conversation carries; audited. */
export async function chatFileForOperator(services: Services, operatorId: bigint, uploadId: string) {
  const [message] = await services.db.select({ conversationId: chatMessages.conversationId, userId: chatConversations.userId })
    .from(chatMessages).innerJoin(chatConversations, eq(chatConversations.id, chatMessages.conversationId))
    .where(eq(chatMessages.uploadId, uploadId)).limit(1);
  if (!message) throw notFound('file_not_found', 'No such file.');
  await recordAudit(services.db, {
    operatorId, action: 'chat.file.view', targetType: 'upload', targetId: uploadId, userId: message.userId,
  }, services.clock);
  return message;
}
