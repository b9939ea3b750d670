// The chat page's own realtime connection: the user channel (api/userChannel.ts), from which it
// takes the chat events (UserEvent kind 'chat'). After every (re)connection it tells the page to
// fetch what it may have missed (afterSeq).
import type { ChatEvent } from '../../api/contract/chat.ts';
import { openUserChannel } from '../../api/userChannel.ts';

export interface ChatSocketOptions {
  token: string;
  onEvent(event: ChatEvent): void;
  /** The channel is (again) subscribed: fetch what was missed. */
  onSubscribed(): void;
}

export function openChatSocket(options: ChatSocketOptions): () => void {
  return openUserChannel({
    token: options.token,
    onEvent: (event) => {
      if (event.kind === 'chat' && event.chat) options.onEvent(event.chat);
    },
    onSubscribed: () => options.onSubscribed(),
  });
}
