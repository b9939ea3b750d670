// Live chat with support on the wire (issue 21). A user has at most one open conversation; each
// message gets the next sequence number of its conversation; a client message id (the app's own,
// kept in its outbox) makes a resend harmless. Live delivery rides the realtime socket (the user's
// channel; operators' "chat" channel); `afterSeq` fetches what a client missed.
import { Type, type Static } from '@sinclair/typebox';
import { Page, PageQuery, UploadId, type AdminReviewContext } from './wallet.ts';
import { RecordId } from './withdrawals.ts';

export const chatPaths = {
  send: '/user/appChat/send',
  history: '/user/appChat/history',
  /** Ours: the user read up to { seq }. */
  read: '/user/appChat/read',
  /** Ours: the user is typing (rate-limited, not stored). */
  typing: '/user/appChat/typing',
  /** Ours: whether anyone is on duty, and the offline-hours form. */
  duty: '/user/appChat/duty',
  offlineForm: '/user/appChat/offlineForm',
} as const;

export const chatAdminPaths = {
  conversations: '/admin/chat/conversations',
  conversation: '/admin/chat/conversations/:id',
  reply: '/admin/chat/conversations/:id/reply',
  assign: '/admin/chat/conversations/:id/assign',
  transfer: '/admin/chat/conversations/:id/transfer',
  close: '/admin/chat/conversations/:id/close',
  read: '/admin/chat/conversations/:id/read',
  canned: '/admin/chat/canned',
  /** Operators on duty (presence of the back-office chat screen): GET lists, POST is the screen's heartbeat. */
  duty: '/admin/chat/duty',
  /** Ours: the operator is typing in a conversation (not stored). */
  typing: '/admin/chat/conversations/:id/typing',
  /** Ours: one canned reply: POST edits it; .../delete removes it. */
  cannedItem: '/admin/chat/canned/:id',
  cannedDelete: '/admin/chat/canned/:id/delete',
  /** Ours: a chat image, read with the operator's token (audited). */
  file: '/admin/chat/files/:id',
} as const;

export const SendChatBody = Type.Object({
  clientMessageId: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]{8,64}$' }),
  text: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  /** An upload with purpose "chat" (an image), made first through /sys/common/upload. */
  fileId: Type.Optional(UploadId),
}, { additionalProperties: false });
export type SendChatBody = Static<typeof SendChatBody>;

export const ChatMessage = Type.Object({
  conversationId: Type.String(),
  seq: Type.Integer(),
  sender: Type.Union([Type.Literal('user'), Type.Literal('operator'), Type.Literal('system')]),
  clientMessageId: Type.Optional(Type.String()),
  /** Plain text (never HTML). */
  text: Type.Optional(Type.String()),
  /** Path to read the image (the owner's or the operator's session). */
  imageUrl: Type.Optional(Type.String()),
  createdAt: Type.Integer(),
  /**
   * Ours: a message the user left through the offline-hours form. It is stored with the system
   * sender and the user's client message id (no other system message carries one), its text
   * "Contact: <contact>" on the first line and the message below.
   */
  offlineForm: Type.Optional(Type.Boolean()),
  /** Ours: what a system message tells ('closed': the conversation was closed). */
  system: Type.Optional(Type.Literal('closed')),
});
export type ChatMessage = Static<typeof ChatMessage>;

export const ChatHistoryQuery = Type.Object({
  /** Only messages after this sequence number (what a client missed). */
  afterSeq: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Older messages before this one (scrolling back). */
  beforeSeq: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
});
export const ChatHistory = Type.Object({
  conversationId: Type.Optional(Type.String()),
  messages: Type.Array(ChatMessage),
  /** The operator's read mark: the user's messages up to it show "read". */
  operatorReadSeq: Type.Integer(),
  lastSeq: Type.Integer(),
  status: Type.Union([Type.Literal('open'), Type.Literal('closed'), Type.Literal('none')]),
});
export type ChatHistory = Static<typeof ChatHistory>;

export const ChatReadBody = Type.Object({ seq: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });
export const ChatDuty = Type.Object({ onDuty: Type.Boolean(), hours: Type.Optional(Type.String()) });
export const OfflineFormBody = Type.Object({
  contact: Type.String({ minLength: 3, maxLength: 254 }),
  text: Type.String({ minLength: 1, maxLength: 2000 }),
  clientMessageId: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]{8,64}$' }),
}, { additionalProperties: false });

/** Realtime events (server → client) on the user's channel / the operators' chat channel. */
export interface ChatEvent {
  type: 'chat.message' | 'chat.read' | 'chat.typing' | 'chat.status';
  conversationId: string;
  message?: ChatMessage;
  seq?: number;
  status?: 'open' | 'closed';
  /** Ours: who read or is typing (chat.read, chat.typing). */
  by?: 'user' | 'operator';
  /** Ours: on the operators' channel, the conversation's user. */
  userId?: string;
}

/** Ours: the operators' realtime channel (an `auth` message with `as: 'operator'` joins it). */
export const operatorChatChannel = 'chat';

/** The operators on duty: a back-office chat screen sent its heartbeat within this window. */
export const dutyWindowMs = 60_000;
/** How often the back-office chat screen sends its heartbeat. */
export const dutyHeartbeatMs = 20_000;
/** Messages one user may send per minute (a flood beyond it is refused with 429). */
export const chatMessagesPerMinute = 20;

// ─── Operator side ───
export const ConversationsQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
  mine: Type.Optional(Type.Boolean()),
});
export const ConversationSummary = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  userLabel: Type.String(),
  status: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  assignedOperatorId: Type.Optional(Type.String()),
  lastSeq: Type.Integer(),
  operatorReadSeq: Type.Integer(),
  lastText: Type.Optional(Type.String()),
  lastMessageAt: Type.Integer(),
});
export const ConversationsPage = Page(ConversationSummary);
export const AdminReplyBody = Type.Object({ text: Type.String({ minLength: 1, maxLength: 2000 }) }, { additionalProperties: false });
export const AdminTransferBody = Type.Object({ operatorId: RecordId }, { additionalProperties: false });
export const ConversationParams = Type.Object({ id: RecordId });
export const ConversationDetailQuery = ChatHistoryQuery;
export const CannedListQuery = Type.Object({ lang: Type.Optional(Type.String({ minLength: 2, maxLength: 8 })) });
export const CannedReply = Type.Object({ id: Type.String(), lang: Type.String(), title: Type.String(), text: Type.String() });
export type CannedReply = Static<typeof CannedReply>;
export const ChatFileParams = Type.Object({ id: UploadId });
export type ConversationSummary = Static<typeof ConversationSummary>;
/** The user beside a conversation: the review context (server/domain/core/wallet/reviewContext.ts), account masked. */
export type ChatUserContext = AdminReviewContext;
export interface ConversationDetail {
  conversation: ConversationSummary;
  messages: ChatMessage[];
  userReadSeq: number;
  context: ChatUserContext;
}
export interface DutyOperator { operatorId: string; email: string; lastSeenAt: number }
export const CannedReplyBody = Type.Object({
  lang: Type.String({ minLength: 2, maxLength: 8 }), title: Type.String({ minLength: 1, maxLength: 80 }), text: Type.String({ minLength: 1, maxLength: 2000 }),
}, { additionalProperties: false });
