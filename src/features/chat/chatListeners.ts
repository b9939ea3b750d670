// The chat page's work, as listeners (RTK listener middleware) on the chat slice's actions: read
// what the phone kept, then ask the server what it missed (afterSeq) on opening and on every
// (re)connection of the user channel, send the outbox in order (stopping at the first network
// failure, resumed when the network returns), keep the conversation and the outbox on the device
// after each change, raise the read mark, tell support the user types, and time support's typing
// out. The page adds them when it opens and removes them (cancelling what runs) when it closes.
import {
  addListener, isAnyOf, TaskAbortError, type Action, type ListenerEffectAPI, type ThunkDispatch, type UnknownAction, type UnsubscribeListener,
} from '@reduxjs/toolkit';
import type { ApiError } from '../../api/baseQuery.ts';
import { chatApi } from './chatApi.ts';
import { openChatSocket } from './chatSocket.ts';
import {
  channelSubscribed, chatEventReceived, chatLeft, chatOpened, draftTyped, emptyConversation, historyFailed, historyReceived,
  keptLoaded, lastSupportSeqOf, messageDelivered, messageDeferred, messageQueued, messageRefused, messageSending,
  networkReturned, olderFailed, olderReceived, olderRequested, retryAsked, supportTypingEnded, type ChatRootState,
} from './chatSlice.ts';
import { loadKept, loadOutbox, saveKept, saveOutbox, type OutboxEntry } from './chatStore.ts';

/** How long support shows as typing after its last typing event. */
export const typingShownMs = 5_000;
/** The user's typing is told at most this often. */
export const typingSentEveryMs = 4_000;
/** Earlier messages fetched per tap. */
export const olderPageSize = 30;
/** What is fetched after the last message kept (the contract's maximum). */
const missedPageSize = 200;

/** The store's dispatch as the chat sees it: thunks (RTK Query's calls) and the listener middleware's addListener. */
export type ChatDispatch = ((action: Action<typeof addListener.type>) => UnsubscribeListener)
  & ThunkDispatch<ChatRootState, unknown, UnknownAction>;
type Api = ListenerEffectAPI<ChatRootState, ChatDispatch>;

const addChatListener = addListener.withTypes<ChatRootState, ChatDispatch>();

/** A cancelled listener (the page closed) stops; any other failure is the caller's to answer. */
const rethrowCancel = (error: unknown) => {
  if (error instanceof TaskAbortError) throw error;
};
/** The other way round, where a cancellation is the normal end. */
const rethrowUnlessCancel = (error: unknown) => {
  if (!(error instanceof TaskAbortError)) throw error;
};

/** Fetches what this phone has not seen: after its last message, or the latest page. */
async function fetchMissed(api: Api) {
  const current = api.getState().chat.kept;
  const lastSeq = current.messages[current.messages.length - 1]?.seq;
  const read = (args: Parameters<typeof chatApi.endpoints.chatHistory.initiate>[0]) =>
    api.pause(api.dispatch(chatApi.endpoints.chatHistory.initiate(args, { forceRefetch: true })).unwrap());
  try {
    let history = await read(lastSeq !== undefined ? { afterSeq: lastSeq, limit: missedPageSize } : {});
    if (history.conversationId !== undefined && history.conversationId !== current.conversationId && lastSeq !== undefined) {
      // Another conversation since (the last one was closed): its latest page.
      history = await read({});
    }
    api.dispatch(historyReceived(history));
  } catch (error) {
    rethrowCancel(error);
    api.dispatch(historyFailed());
  }
}

/** The listeners of one open chat page; `flushing` keeps the outbox to one sender at a time. */
function chatListeners() {
  let flushing = false;
  let typingSentAtMs = 0;
  let readSent = 0;
  let readConversation: string | undefined;

  /** Sends the outbox in order; stops at the first network failure (the next 'online' resumes it). */
  async function flush(api: Api) {
    if (flushing || !api.getState().user.token) return;
    flushing = true;
    try {
      for (;;) {
        const entry = api.getState().chat.outbox.find((candidate) => candidate.state === 'pending');
        if (!entry) break;
        if (!await send(api, entry)) break;
      }
    } catch (error) {
      // The page closed mid-send: the entry stays in the device's outbox and goes at the next visit.
      rethrowUnlessCancel(error);
    } finally {
      flushing = false;
    }
  }

  /** One message to the server: false when the network failed (the rest waits). */
  async function send(api: Api, entry: OutboxEntry): Promise<boolean> {
    const { clientMessageId } = entry;
    api.dispatch(messageSending(clientMessageId));
    try {
      const message = await api.pause(api.dispatch(chatApi.endpoints.chatSend.initiate({
        clientMessageId, ...(entry.text ? { text: entry.text } : {}), ...(entry.fileId ? { fileId: entry.fileId } : {}),
      })).unwrap());
      api.dispatch(messageDelivered({ clientMessageId, message }));
      return true;
    } catch (caught) {
      rethrowCancel(caught);
      const error = caught as ApiError;
      if (error.kind !== 'api') {
        api.dispatch(messageDeferred(clientMessageId));
        return false;
      }
      api.dispatch(messageRefused({ clientMessageId, error: error.message }));
      return true;
    }
  }

  return [
    // What the phone kept, the live channel, then what the server has and the outbox.
    addChatListener({
      actionCreator: chatOpened,
      effect: async ({ payload: { userId } }, api) => {
        const [kept, outbox] = await api.pause(Promise.all([loadKept(userId), loadOutbox(userId)])
          // The device's copy unreadable: the conversation comes from the server alone.
          .catch((error: unknown) => {
            console.warn('[chat] the conversation kept on this device could not be read', error);
            return [undefined, []] as const;
          }));
        api.dispatch(keptLoaded({ kept: kept ?? emptyConversation, outbox: [...outbox] }));
        const token = api.getState().user.token;
        const live = typeof WebSocket !== 'undefined';
        const close = live
          ? openChatSocket({ token, onEvent: (event) => api.dispatch(chatEventReceived(event)), onSubscribed: () => api.dispatch(channelSubscribed()) })
          : () => undefined;
        const online = () => api.dispatch(networkReturned());
        if (live) window.addEventListener('online', online);
        try {
          await fetchMissed(api);
          void flush(api);
          await api.take(chatLeft.match);
        } finally {
          close();
          if (live) window.removeEventListener('online', online);
        }
      },
    }),
    // Every (re)connection fetches what was missed, then sends the outbox.
    addChatListener({
      actionCreator: channelSubscribed,
      effect: async (_action, api) => {
        await fetchMissed(api);
        await flush(api);
      },
    }),
    addChatListener({
      matcher: isAnyOf(messageQueued, retryAsked, networkReturned),
      effect: (_action, api) => flush(api),
    }),
    // Support shows as typing until a while after its last typing event (a newer one restarts the wait).
    addChatListener({
      predicate: (action) => chatEventReceived.match(action) && action.payload.type === 'chat.typing' && action.payload.by === 'operator',
      effect: async (_action, api) => {
        api.cancelActiveListeners();
        await api.delay(typingShownMs);
        api.dispatch(supportTypingEnded());
      },
    }),
    addChatListener({
      actionCreator: draftTyped,
      effect: (_action, api) => {
        const nowMs = Date.now();
        if (api.getState().chat.kept.status !== 'open' || nowMs - typingSentAtMs <= typingSentEveryMs || !navigator.onLine) return;
        typingSentAtMs = nowMs;
        void api.dispatch(chatApi.endpoints.chatTyping.initiate());
      },
    }),
    addChatListener({
      actionCreator: olderRequested,
      effect: async (_action, api) => {
        const first = api.getState().chat.kept.messages[0];
        if (!first) return;
        try {
          const older = await api.pause(api.dispatch(chatApi.endpoints.chatHistory.initiate(
            { beforeSeq: first.seq, limit: olderPageSize }, { forceRefetch: true })).unwrap());
          api.dispatch(olderReceived({ messages: older.messages, done: older.messages.length < olderPageSize }));
        } catch (error) {
          rethrowCancel(error);
          api.dispatch(olderFailed());
        }
      },
    }),
    // The conversation and the outbox on the device after each change (not the copy just read back).
    addChatListener({
      predicate: (_action, current, previous) => current.chat.phase === 'ready' && previous.chat.phase === 'ready'
        && (current.chat.kept !== previous.chat.kept || current.chat.outbox !== previous.chat.outbox),
      effect: (_action, api) => {
        const before = api.getOriginalState().chat;
        const { userId, kept, outbox } = api.getState().chat;
        if (kept !== before.kept) void saveKept(userId, kept);
        if (outbox !== before.outbox) void saveOutbox(userId, outbox);
      },
    }),
    // Support's messages on screen are read: the read mark goes up to the last one (a new conversation numbers from 1 again).
    addChatListener({
      predicate: (_action, current, previous) => current.chat !== previous.chat,
      effect: (_action, api) => {
        const { phase, kept } = api.getState().chat;
        if (kept.conversationId !== readConversation) {
          readConversation = kept.conversationId;
          readSent = 0;
        }
        const lastSupportSeq = lastSupportSeqOf(kept);
        if (phase !== 'ready' || lastSupportSeq <= readSent || document.visibilityState !== 'visible') return;
        readSent = lastSupportSeq;
        void api.dispatch(chatApi.endpoints.chatRead.initiate({ seq: lastSupportSeq }));
      },
    }),
  ];
}

/**
 * Opens the chat for this user: adds the listeners to the store's listener middleware and says
 * the page opened. The answer closes it: the page left, the listeners removed, what runs cancelled.
 */
export function openChat(dispatch: ChatDispatch, userId: string): () => void {
  const unsubscribes = chatListeners().map((listener) => dispatch(listener));
  dispatch(chatOpened({ userId }));
  return () => {
    dispatch(chatLeft());
    for (const unsubscribe of unsubscribes) unsubscribe({ cancelActive: true });
  };
}
