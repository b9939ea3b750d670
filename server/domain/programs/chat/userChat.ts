// The user's side of the support chat (issue 21): send (text and/or a photo), history, read mark,
// typing, whether anyone is on duty and the offline-hours form. Each write is one transaction,
// its events told after commit.
import { and, eq, sql } from 'drizzle-orm';
import { chatConversations } from '../../../db/schema.ts';
import { badRequest } from '../../../lib/errors.ts';
import type { Services } from '../../kernel/services.ts';
import {
  chatMessagesPerMinute, type ChatMessage, type OfflineFormBody, type SendChatBody,
} from '../../../../src/api/contract/chat.ts';
import type { Static } from '@sinclair/typebox';
import {
  appendUserSide, chatUpload, currentConversation, findByClientId, ResendRace, toChatMessage, type NewChatMessage,
} from './conversations.ts';
import { messageEvents, toOperators } from './events.ts';
import { operatorsOnDuty } from './duty.ts';

const minuteMs = 60_000;
/** Typing notices one user may send per minute (the app sends one every few seconds while typing). */
const typingPerMinute = 30;
/** Offline forms one user may leave per hour. */
const offlineFormsPerHour = 5;

/** Stores a user's message (or answers the one a parallel resend stored first) and tells both sides. */
async function storeUserMessage(services: Services, userId: bigint, message: NewChatMessage & { clientMessageId: string }): Promise<ChatMessage> {
  // The caller looked the client message id up first; a resend racing this one is caught below.
  const now = services.clock.now();
  let stored;
  try {
    stored = await services.db.transaction((tx) => appendUserSide(tx, userId, message, now));
  } catch (error) {
    if (!(error instanceof ResendRace)) throw error;
    // A resend in parallel stored it first: this transaction rolled back (its seq unused).
    const won = await findByClientId(services.db, userId, message.clientMessageId);
    if (!won) throw error;
    return toChatMessage(won, 'user');
  }
  messageEvents(services, userId, stored.message);
  return toChatMessage(stored.message, 'user');
}

export async function sendChat(services: Services, userId: bigint, body: SendChatBody): Promise<ChatMessage> {
  const text = body.text?.trim();
  if (!text && !body.fileId) throw badRequest('invalid_request', 'Write a message or attach a photo.');
  // A resend of a stored message is answered before the flood limit: the outbox may resend a
  // whole queue after a reconnection, and a repeat stores nothing.
  const before = await findByClientId(services.db, userId, body.clientMessageId);
  if (before) return toChatMessage(before, 'user');
  await services.limiter.hit(`chat-send:${userId}`, chatMessagesPerMinute, minuteMs);
  if (body.fileId) await chatUpload(services.db, userId, body.fileId);
  return storeUserMessage(services, userId, {
    sender: 'user', clientMessageId: body.clientMessageId, ...(text ? { text } : {}), ...(body.fileId ? { uploadId: body.fileId } : {}),
  });
}

/**
 * The offline-hours form: stored in the conversation as a system message that carries the user's
 * client message id (no other system message has one), its text "Contact: <contact>" and the
 * message below, so the operators find it in the queue when they come back.
 */
export async function leaveOfflineForm(services: Services, userId: bigint, body: Static<typeof OfflineFormBody>): Promise<ChatMessage> {
  const contact = body.contact.trim();
  const text = body.text.trim();
  if (contact.length < 3 || !text) throw badRequest('invalid_request', 'Leave a way to reach you and a message.');
  const before = await findByClientId(services.db, userId, body.clientMessageId);
  if (before) return toChatMessage(before, 'user');
  await services.limiter.hit(`chat-offline-form:${userId}`, offlineFormsPerHour, 60 * minuteMs);
  return storeUserMessage(services, userId, {
    sender: 'system', clientMessageId: body.clientMessageId, text: `Contact: ${contact}\n${text}`.slice(0, 2000),
  });
}

/** The user read up to `seq` of their current conversation (never back, never past its last message). */
export async function userRead(services: Services, userId: bigint, seq: number) {
  const conversation = await currentConversation(services.db, userId);
  if (!conversation) return { userReadSeq: 0 };
  const [row] = await services.db.update(chatConversations)
    .set({ userReadSeq: sql`greatest(${chatConversations.userReadSeq}, least(${seq}, ${chatConversations.lastSeq}))` })
    .where(and(eq(chatConversations.id, conversation.id), eq(chatConversations.userId, userId)))
    .returning({ userReadSeq: chatConversations.userReadSeq });
  if (row.userReadSeq > conversation.userReadSeq) {
    toOperators(services, userId, { type: 'chat.read', conversationId: String(conversation.id), seq: row.userReadSeq, by: 'user' });
  }
  return { userReadSeq: row.userReadSeq };
}

/** The user is typing: told to the operators, not stored. */
export async function userTyping(services: Services, userId: bigint) {
  await services.limiter.hit(`chat-typing:${userId}`, typingPerMinute, minuteMs);
  const conversation = await currentConversation(services.db, userId);
  if (conversation?.status !== 'open') return;
  toOperators(services, userId, { type: 'chat.typing', conversationId: String(conversation.id), by: 'user' });
}

/** Whether anyone answers now: an operator's chat screen sent its heartbeat within the duty window. */
export async function dutyForUser(services: Services) {
  const onDuty = (await operatorsOnDuty(services)).length > 0;
  return { onDuty };
}
