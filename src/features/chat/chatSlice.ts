// The support chat's state machine (issue 21; out of the page, issue 33): the conversation as this
// phone knows it, the outbox, and where the page stands. Every happening is an action — the page
// opened or left, the phone's copy read, an answer or a refusal of the server, an event of the
// socket, a tap of the user — and the reducers are pure. The work those actions start (the
// device's copy, the calls, the socket, the timers) lives in the listeners (chatListeners.ts).
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ChatEvent, ChatHistory, ChatMessage } from '../../api/contract/chat.ts';
import type { UserState } from '../../entities/session/userSlice.ts';
import { mergeMessages, newClientMessageId, type KeptConversation, type OutboxEntry } from './chatStore.ts';

export const emptyConversation: KeptConversation = { status: 'none', messages: [], operatorReadSeq: 0 };

/**
 * 'closed': no chat page open. 'loading': the page opened and the phone's copy is being read.
 * 'ready': the copy is shown and the server asked (and asked again on every reconnection).
 */
export type ChatPhase = 'closed' | 'loading' | 'ready';

export interface ChatState {
  phase: ChatPhase;
  /** Whose conversation this is: the signed-in user when the page opened. */
  userId: string;
  kept: KeptConversation;
  outbox: OutboxEntry[];
  /** The last read of the server failed: the page shows what the phone kept, with a note. */
  loadFailed: boolean;
  supportTyping: boolean;
  /** Scrolling back reached the conversation's first message. */
  olderDone: boolean;
  loadingOlder: boolean;
  /** A message of the user's reached the server from this page: the first one on this device offers push. */
  deliveredHere: boolean;
}

export const initialChatState: ChatState = {
  phase: 'closed', userId: '', kept: emptyConversation, outbox: [],
  loadFailed: false, supportTyping: false, olderDone: false, loadingOlder: false, deliveredHere: false,
};

/** The state the chat's selectors and listeners read: the chat slice beside the signed-in user. */
export interface ChatRootState { chat: ChatState; user: UserState }

/**
 * Messages merged into the conversation: a message of another conversation starts it afresh; the
 * status follows the newest message unless the server said it; the read mark only goes up.
 */
export function withMessages(current: KeptConversation, messages: ChatMessage[], status?: KeptConversation['status'],
  operatorReadSeq?: number): KeptConversation {
  const last = messages[messages.length - 1];
  const switched = last !== undefined && current.conversationId !== undefined && last.conversationId !== current.conversationId;
  return {
    conversationId: last?.conversationId ?? current.conversationId,
    status: status ?? (last ? (last.system === 'closed' ? 'closed' : 'open') : current.status),
    messages: mergeMessages(switched ? [] : current.messages, messages),
    operatorReadSeq: Math.max(switched ? 0 : current.operatorReadSeq, operatorReadSeq ?? 0),
  };
}

/** Messages the server stored leave the outbox (a resend answered the stored one). */
function withoutStored(outbox: OutboxEntry[], messages: ChatMessage[]): OutboxEntry[] {
  const stored = new Set(messages.map((message) => message.clientMessageId).filter(Boolean));
  if (stored.size === 0 || !outbox.some((entry) => stored.has(entry.clientMessageId))) return outbox;
  return outbox.filter((entry) => !stored.has(entry.clientMessageId));
}

const receive = (state: ChatState, messages: ChatMessage[], status?: KeptConversation['status'], operatorReadSeq?: number) => {
  state.kept = withMessages(state.kept, messages, status, operatorReadSeq);
  state.outbox = withoutStored(state.outbox, messages);
};

const changeEntry = (state: ChatState, clientMessageId: string, change: Partial<OutboxEntry>) => {
  state.outbox = state.outbox.map((entry) => (entry.clientMessageId === clientMessageId ? { ...entry, ...change } : entry));
};

export const chatSlice = createSlice({
  name: 'chat',
  initialState: initialChatState,
  reducers: {
    /** The chat page opened for this user: what the phone kept is read next. */
    chatOpened: (_state, action: PayloadAction<{ userId: string }>) => ({ ...initialChatState, phase: 'loading', userId: action.payload.userId }),
    /** The chat page closed: nothing is shown, the phone's copy stays for the next visit. */
    chatLeft: () => initialChatState,
    /** The phone's copy was read (nothing, when there is none or the device's storage failed). */
    keptLoaded(state, action: PayloadAction<{ kept: KeptConversation; outbox: OutboxEntry[] }>) {
      if (state.phase !== 'loading') return;
      state.phase = 'ready';
      state.kept = action.payload.kept;
      state.outbox = action.payload.outbox;
    },
    /** What the server has that the phone had not seen (or, for another conversation, its latest page). */
    historyReceived(state, action: PayloadAction<ChatHistory>) {
      const history = action.payload;
      if (history.status === 'none') state.kept = emptyConversation;
      else receive(state, history.messages, history.status, history.operatorReadSeq);
      state.loadFailed = false;
    },
    historyFailed(state) {
      state.loadFailed = true;
    },
    /** An event of the user's channel (chat.message, chat.read, chat.typing, chat.status). */
    chatEventReceived(state, { payload: event }: PayloadAction<ChatEvent>) {
      if (event.type === 'chat.message' && event.message) {
        receive(state, [event.message]);
        if (event.message.sender === 'operator') state.supportTyping = false;
      } else if (event.type === 'chat.read' && event.by === 'operator' && event.seq !== undefined) {
        if (state.kept.conversationId === event.conversationId) {
          state.kept = { ...state.kept, operatorReadSeq: Math.max(state.kept.operatorReadSeq, event.seq) };
        }
      } else if (event.type === 'chat.typing' && event.by === 'operator') {
        state.supportTyping = true;
      } else if (event.type === 'chat.status' && event.status) {
        if (state.kept.conversationId === event.conversationId) state.kept = { ...state.kept, status: event.status };
      }
    },
    /** Support's typing went quiet (chatListeners.ts: a while after its last typing event). */
    supportTypingEnded(state) {
      state.supportTyping = false;
    },
    /** The channel is (again) subscribed: what was missed is fetched, then the outbox sent. */
    channelSubscribed: () => undefined,
    /** The browser is online again: the outbox is sent. */
    networkReturned: () => undefined,
    /** The user typed in the composer: support is told, at most every few seconds. */
    draftTyped: () => undefined,
    /** The user sent a text or a photo (its upload's id): it waits in the outbox with a client message id. */
    messageQueued: {
      reducer(state, action: PayloadAction<OutboxEntry>) {
        state.outbox = [...state.outbox, action.payload];
      },
      prepare: (entry: Pick<OutboxEntry, 'text' | 'fileId'>) => ({
        payload: { ...entry, clientMessageId: newClientMessageId(), createdAt: Date.now(), state: 'pending' as const },
      }),
    },
    messageSending(state, action: PayloadAction<string>) {
      changeEntry(state, action.payload, { state: 'sending' });
    },
    /** The server stored the message: it leaves the outbox for the conversation. */
    messageDelivered(state, action: PayloadAction<{ clientMessageId: string; message: ChatMessage }>) {
      receive(state, [action.payload.message]);
      state.outbox = state.outbox.filter((entry) => entry.clientMessageId !== action.payload.clientMessageId);
      state.deliveredHere = true;
    },
    /** The server refused the message (a typed API error): it waits for the user's retry or delete. */
    messageRefused(state, action: PayloadAction<{ clientMessageId: string; error?: string }>) {
      changeEntry(state, action.payload.clientMessageId, { state: 'failed', error: action.payload.error });
    },
    /** The network failed: the message waits for the next connection. */
    messageDeferred(state, action: PayloadAction<string>) {
      changeEntry(state, action.payload, { state: 'pending' });
    },
    retryAsked(state, action: PayloadAction<string>) {
      changeEntry(state, action.payload, { state: 'pending', error: undefined });
    },
    discardAsked(state, action: PayloadAction<string>) {
      state.outbox = state.outbox.filter((entry) => entry.clientMessageId !== action.payload);
    },
    /** The user asked for earlier messages (there are some to ask before). */
    olderRequested(state) {
      if (state.kept.messages.length > 0) state.loadingOlder = true;
    },
    olderReceived(state, action: PayloadAction<{ messages: ChatMessage[]; done: boolean }>) {
      if (action.payload.done) state.olderDone = true;
      receive(state, action.payload.messages);
      state.loadingOlder = false;
    },
    olderFailed(state) {
      state.loadFailed = true;
      state.loadingOlder = false;
    },
    /** A message left through the offline-hours form (stored by the server). */
    offlineFormSent(state, action: PayloadAction<ChatMessage>) {
      receive(state, [action.payload]);
      state.deliveredHere = true;
    },
  },
});

export const {
  chatOpened, chatLeft, keptLoaded, historyReceived, historyFailed, chatEventReceived, supportTypingEnded, channelSubscribed,
  networkReturned, draftTyped, messageQueued, messageSending, messageDelivered, messageRefused, messageDeferred, retryAsked,
  discardAsked, olderRequested, olderReceived, olderFailed, offlineFormSent,
} = chatSlice.actions;

export const selectChat = (state: ChatRootState) => state.chat;
/** The newest message from support (or the system): the read mark goes up to it. */
export const lastSupportSeqOf = (kept: KeptConversation) => [...kept.messages].reverse().find((message) => message.sender !== 'user')?.seq ?? 0;
