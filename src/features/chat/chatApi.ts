// The support chat's calls (issue 21, contract/chat.ts), injected into the one createApi. All are
// quiet: the chat page shows a failure in place (a message's retry button, the form's error).
import { api } from '../../api/api.ts';
import {
  chatPaths, type ChatHistory, type ChatMessage, type SendChatBody,
} from '../../api/contract/chat.ts';

export interface HistoryArgs { afterSeq?: number; beforeSeq?: number; limit?: number }
export interface OfflineFormArgs { contact: string; text: string; clientMessageId: string }

export const chatApi = api.injectEndpoints({
  endpoints: (build) => ({
    chatHistory: build.query<ChatHistory, HistoryArgs>({
      query: (params) => ({ url: chatPaths.history, params: { ...params }, quiet: true }),
      keepUnusedDataFor: 0,
    }),
    chatDuty: build.query<{ onDuty: boolean; hours?: string }, void>({
      query: () => ({ url: chatPaths.duty, quiet: true }),
      keepUnusedDataFor: 0,
    }),
    chatSend: build.mutation<ChatMessage, SendChatBody>({
      query: (body) => ({ url: chatPaths.send, method: 'POST', body, quiet: true }),
    }),
    chatRead: build.mutation<{ userReadSeq: number }, { seq: number }>({
      query: (body) => ({ url: chatPaths.read, method: 'POST', body, quiet: true }),
    }),
    chatTyping: build.mutation<null, void>({
      query: () => ({ url: chatPaths.typing, method: 'POST', body: {}, quiet: true }),
    }),
    chatOfflineForm: build.mutation<ChatMessage, OfflineFormArgs>({
      query: (body) => ({ url: chatPaths.offlineForm, method: 'POST', body, quiet: true }),
    }),
  }),
});
