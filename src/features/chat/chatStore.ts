// What the chat keeps on the phone, in the device's storage (lib/storage.ts openDeviceStore:
// IndexedDB, or memory for this page when IndexedDB fails), per signed-in user: the
// conversation's messages as last seen (so history shows at once after a reload, and offline) and
// the OUTBOX: messages written and not yet stored by the server, each with its client message id.
// The page sends the outbox in order when it opens and whenever the network returns; a resend is
// harmless (the server answers the stored message). The service worker never sends these.
import type { ChatMessage } from '../../api/contract/chat.ts';
import { openDeviceStore } from '../../lib/storage.ts';

export interface OutboxEntry {
  clientMessageId: string;
  text?: string;
  fileId?: string;
  /** An object URL of the photo while this page lives (not kept across reloads). */
  previewUrl?: string;
  createdAt: number;
  /** 'pending': waiting for the network; 'failed': the server refused it (retry button). */
  state: 'pending' | 'sending' | 'failed';
  error?: string;
}

export interface KeptConversation {
  conversationId?: string;
  status: 'open' | 'closed' | 'none';
  messages: ChatMessage[];
  operatorReadSeq: number;
}

const store = openDeviceStore('bourse-chat', 'kept');
const historyKey = (userId: string) => `history:${userId}`;
const outboxKey = (userId: string) => `outbox:${userId}`;
/** Messages kept on the phone: the newest of them (older ones are fetched when scrolled back to). */
export const keptMessagesMax = 200;

export async function loadKept(userId: string): Promise<KeptConversation | undefined> {
  return store.get<KeptConversation>(historyKey(userId));
}

export async function saveKept(userId: string, kept: KeptConversation) {
  await store.set(historyKey(userId), { ...kept, messages: kept.messages.slice(-keptMessagesMax) });
}

export async function loadOutbox(userId: string): Promise<OutboxEntry[]> {
  const entries = await store.get<OutboxEntry[]>(outboxKey(userId));
  // A send cut short by a reload is pending again; previews do not survive a reload.
  return (entries ?? []).map(({ previewUrl: _previewUrl, ...entry }) => ({ ...entry, state: entry.state === 'sending' ? 'pending' : entry.state }));
}

export async function saveOutbox(userId: string, entries: OutboxEntry[]) {
  if (entries.length === 0) await store.del(outboxKey(userId));
  else await store.set(outboxKey(userId), entries.map(({ previewUrl: _previewUrl, ...entry }) => entry));
}

/** A client message id: random, URL-safe, as the contract's pattern asks. */
export function newClientMessageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `m${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** Merges messages by seq (a message of another conversation replaces the list), oldest first. */
export function mergeMessages(current: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return current;
  const conversationId = incoming[incoming.length - 1].conversationId;
  const bySeq = new Map<number, ChatMessage>();
  for (const message of current) if (message.conversationId === conversationId) bySeq.set(message.seq, message);
  for (const message of incoming) if (message.conversationId === conversationId) bySeq.set(message.seq, message);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}
