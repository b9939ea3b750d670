// Live chat with support (issue 21): a user's conversation, its messages numbered per
// conversation, both sides' read marks. Everything is persisted first, in one transaction, and
// told to the sockets after it commits (server/domain/programs/chat/events.ts). A user has at most one open
// conversation (a unique partial index); their first message opens it. A message's sequence
// number is the conversation's `last_seq + 1`, taken by an UPDATE ... RETURNING that also locks the
// row, so two messages at once get two numbers in commit order. The app's client message id makes
// a resend harmless: a resend answers the message stored the first time.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import { chatConversations, chatMessages, uploads } from '../../../db/schema.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import { uploadUrl } from '../../../../src/api/contract/wallet.ts';
import { chatAdminPaths, type ChatHistory, type ChatMessage } from '../../../../src/api/contract/chat.ts';
import { apiPrefix } from '../../../../src/api/contract/paths.ts';

export type ConversationRow = typeof chatConversations.$inferSelect;
export type MessageRow = typeof chatMessages.$inferSelect;
export type Viewer = 'user' | 'operator';

/** The text a system message stores when the conversation is closed. */
export const closedSystemText = 'closed';
export const historyLimitDefault = 50;

/** Where a viewer reads a chat image: the owner through the upload route, an operator through the chat's. */
export function imageUrlFor(viewer: Viewer, uploadId: string): string {
  return viewer === 'user' ? uploadUrl(uploadId) : `${apiPrefix}${chatAdminPaths.file.replace(':id', uploadId)}`;
}

/** A stored message as the wire has it, for one side. */
export function toChatMessage(row: MessageRow, viewer: Viewer): ChatMessage {
  const offlineForm = row.sender === 'system' && row.clientMessageId !== null;
  return {
    conversationId: String(row.conversationId),
    seq: row.seq,
    sender: row.sender as ChatMessage['sender'],
    ...(row.clientMessageId !== null ? { clientMessageId: row.clientMessageId } : {}),
    ...(row.text !== null ? { text: row.text } : {}),
    ...(row.uploadId !== null ? { imageUrl: imageUrlFor(viewer, row.uploadId) } : {}),
    createdAt: row.createdAt.getTime(),
    ...(offlineForm ? { offlineForm: true } : {}),
    ...(row.sender === 'system' && !offlineForm && row.text === closedSystemText ? { system: 'closed' as const } : {}),
  };
}

/** The message a user sent before under this client message id (in any of their conversations). */
export async function findByClientId(db: Executor, userId: bigint, clientMessageId: string): Promise<MessageRow | undefined> {
  const [row] = await db.select({ message: chatMessages }).from(chatMessages)
    .innerJoin(chatConversations, eq(chatConversations.id, chatMessages.conversationId))
    .where(and(eq(chatConversations.userId, userId), eq(chatMessages.clientMessageId, clientMessageId))).limit(1);
  return row?.message;
}

/** Raised inside a transaction when a concurrent resend stored the same client id first: roll back, answer that one. */
export class ResendRace extends Error {}

export interface NewChatMessage {
  sender: 'user' | 'operator' | 'system';
  operatorId?: bigint;
  clientMessageId?: string;
  text?: string;
  uploadId?: string;
}

/**
 * Opens the user's conversation if none is open, numbers the message and stores it, in `tx`.
 * Answers the conversation as it is after the message and the stored message.
 */
export async function appendUserSide(tx: Tx, userId: bigint, message: NewChatMessage, now: Date) {
  const take = () => tx.update(chatConversations).set({
    lastSeq: sql`${chatConversations.lastSeq} + 1`,
    lastMessageAt: now,
    // The sender has read what they sent (and everything before it).
    ...(message.sender === 'user' ? { userReadSeq: sql`${chatConversations.lastSeq} + 1` } : {}),
  }).where(and(eq(chatConversations.userId, userId), eq(chatConversations.status, 'open'))).returning();
  // Steady state: the open conversation exists, and one UPDATE numbers the message. The first
  // message opens it (the unique partial index makes a parallel first message wait, then number).
  let [conversation] = await take();
  if (!conversation) {
    await tx.execute(sql`insert into chat_conversations (user_id, status, last_message_at, created_at)
      values (${userId}, 'open', ${now}, ${now}) on conflict (user_id) where status = 'open' do nothing`);
    [conversation] = await take();
  }
  if (!conversation) throw new Error('assertion failed: an open conversation after opening one');
  const stored = await insertMessage(tx, conversation, message, now);
  return { conversation, message: stored };
}

/** Numbers and stores a message in a known open conversation (operator side), in `tx`. */
export async function appendToConversation(tx: Tx, conversationId: bigint, message: NewChatMessage, now: Date,
  extra: Partial<Pick<ConversationRow, 'assignedOperatorId' | 'status' | 'closedAt'>> = {}) {
  const [conversation] = await tx.update(chatConversations).set({
    lastSeq: sql`${chatConversations.lastSeq} + 1`,
    lastMessageAt: now,
    ...(message.sender === 'operator' ? { operatorReadSeq: sql`${chatConversations.lastSeq} + 1` } : {}),
    ...extra,
  }).where(and(eq(chatConversations.id, conversationId), eq(chatConversations.status, 'open'))).returning();
  if (!conversation) throw badRequest('invalid_request', 'This conversation is closed.');
  const stored = await insertMessage(tx, conversation, message, now);
  return { conversation, message: stored };
}

async function insertMessage(tx: Tx, conversation: ConversationRow, message: NewChatMessage, now: Date): Promise<MessageRow> {
  const rows = await tx.insert(chatMessages).values({
    conversationId: conversation.id,
    seq: conversation.lastSeq,
    sender: message.sender,
    operatorId: message.operatorId ?? null,
    clientMessageId: message.clientMessageId ?? null,
    text: message.text ?? null,
    uploadId: message.uploadId ?? null,
    createdAt: now,
  }).onConflictDoNothing({ target: [chatMessages.conversationId, chatMessages.clientMessageId] }).returning();
  if (rows.length === 0) throw new ResendRace();
  return rows[0];
}

/** The user's current conversation: the open one, else the latest closed one. */
export async function currentConversation(db: Executor, userId: bigint): Promise<ConversationRow | undefined> {
  const [row] = await db.select().from(chatConversations).where(eq(chatConversations.userId, userId))
    .orderBy(sql`(${chatConversations.status} = 'open') desc`, desc(chatConversations.id)).limit(1);
  return row;
}

export interface HistoryQuery { afterSeq?: number; beforeSeq?: number; limit?: number }

/** Messages of a conversation: after a seq (oldest first), before a seq, or the latest; always oldest first. */
export async function messagesOf(db: Executor, conversationId: bigint, query: HistoryQuery): Promise<MessageRow[]> {
  const limit = query.limit ?? historyLimitDefault;
  if (query.afterSeq !== undefined) {
    return db.select().from(chatMessages)
      .where(and(eq(chatMessages.conversationId, conversationId), sql`${chatMessages.seq} > ${query.afterSeq}`,
        ...(query.beforeSeq !== undefined ? [sql`${chatMessages.seq} < ${query.beforeSeq}`] : [])))
      .orderBy(chatMessages.seq).limit(limit);
  }
  const rows = await db.select().from(chatMessages)
    .where(and(eq(chatMessages.conversationId, conversationId),
      ...(query.beforeSeq !== undefined ? [sql`${chatMessages.seq} < ${query.beforeSeq}`] : [])))
    .orderBy(desc(chatMessages.seq)).limit(limit);
  return rows.reverse();
}

export async function userHistory(db: Db, userId: bigint, query: HistoryQuery): Promise<ChatHistory> {
  const conversation = await currentConversation(db, userId);
  if (!conversation) return { messages: [], operatorReadSeq: 0, lastSeq: 0, status: 'none' };
  const rows = await messagesOf(db, conversation.id, query);
  return {
    conversationId: String(conversation.id),
    messages: rows.map((row) => toChatMessage(row, 'user')),
    operatorReadSeq: conversation.operatorReadSeq,
    lastSeq: conversation.lastSeq,
    status: conversation.status as 'open' | 'closed',
  };
}

/** An upload of the user's made for the chat; another user's (or a missing) id is not found. */
export async function chatUpload(db: Executor, userId: bigint, uploadId: string) {
  const [row] = await db.select().from(uploads).where(and(eq(uploads.id, uploadId), eq(uploads.ownerUserId, userId))).limit(1);
  if (!row) throw notFound('file_not_found', 'No such file.');
  if (row.purpose !== 'chat' || !row.contentType.startsWith('image/')) {
    throw badRequest('file_type_unsupported', 'Send a photo uploaded for the chat.');
  }
  return row;
}

/** The conversation by id, or not found. */
export async function conversationById(db: Executor, id: bigint): Promise<ConversationRow> {
  const [row] = await db.select().from(chatConversations).where(eq(chatConversations.id, id)).limit(1);
  if (!row) throw notFound('not_found', 'No such conversation.');
  return row;
}
