// The chat page's own realtime connection: the user channel of /api/ws (op auth with the session
// token), from which it takes the chat events (UserEvent kind 'chat'). It reconnects with backoff
// and, after every (re)connection, tells the page to fetch what it may have missed (afterSeq).
import type { ChatEvent } from '../../api/contract/chat.ts';
import { realtimePath, userChannel, type UserEvent } from '../../api/contract/market.ts';
import { apiPrefix } from '../../api/contract/paths.ts';
import { backoffDelayMs, silenceLimitMs } from '../../api/realtime.ts';

export interface ChatSocketOptions {
  token: string;
  onEvent(event: ChatEvent): void;
  /** The channel is (again) subscribed: fetch what was missed. */
  onSubscribed(): void;
}

export function openChatSocket(options: ChatSocketOptions): () => void {
  const url = `${location.origin.replace(/^http/, 'ws')}${apiPrefix}${realtimePath}`;
  let socket: WebSocket | undefined;
  let attempt = 0;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let silence: ReturnType<typeof setTimeout> | undefined;
  const armSilence = () => {
    clearTimeout(silence);
    silence = setTimeout(() => socket?.close(4000, 'heartbeat timeout'), silenceLimitMs);
  };
  const connect = () => {
    const current = new WebSocket(url);
    socket = current;
    current.onopen = () => {
      armSilence();
      current.send(JSON.stringify({ op: 'auth', token: options.token }));
    };
    current.onmessage = (message) => {
      armSilence();
      let frame: { type?: string; channel?: string; data?: UserEvent; code?: string; channels?: string[] };
      try {
        frame = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (frame.type === 'subscribed' && frame.channels?.includes(userChannel)) {
        attempt = 0;
        options.onSubscribed();
      } else if (frame.type === 'update' && frame.channel === userChannel && frame.data?.kind === 'chat' && frame.data.chat) {
        options.onEvent(frame.data.chat);
      } else if (frame.type === 'error' && frame.code === 'unauthorized') {
        stopped = true;
        current.close(1000, 'unauthorized');
      }
    };
    current.onclose = () => {
      clearTimeout(silence);
      if (stopped || socket !== current) return;
      retry = setTimeout(connect, backoffDelayMs(attempt, Math.random));
      attempt += 1;
    };
  };
  connect();
  // Back online: do not wait for the backoff.
  const online = () => {
    if (stopped || socket?.readyState === WebSocket.OPEN || socket?.readyState === WebSocket.CONNECTING) return;
    clearTimeout(retry);
    attempt = 0;
    connect();
  };
  window.addEventListener('online', online);
  return () => {
    stopped = true;
    window.removeEventListener('online', online);
    clearTimeout(retry);
    clearTimeout(silence);
    socket?.close(1000, 'done');
  };
}
