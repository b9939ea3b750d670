// The user's own realtime channel (issue 10): a socket of its own to /api/ws (so the first
// screen's shared market socket stays as small as it is), authenticated with the session token
// (op auth). It reconnects with the market socket's backoff (at once when the browser comes back
// online) and says each time the channel is subscribed, so a page can fetch what it may have
// missed. Trading pages (features/trade/useUserEvents.ts) and the support chat (features/chat) use it.
import { backoffDelayMs, silenceLimitMs } from './realtime.ts';
import { realtimePath, userChannel, type UserEvent } from './contract/market.ts';
import { apiPrefix } from './contract/paths.ts';

export interface UserSocketOptions {
  token: string;
  onEvent: (event: UserEvent) => void;
  /** The channel is subscribed; `again` after a reconnection, when events may have been missed. */
  onSubscribed?: (again: boolean) => void;
  /** After a reconnection only: events may have been missed. */
  onResume?: () => void;
  createSocket?: (url: string) => WebSocket;
  url?: string;
}

/** Opens and keeps the user channel until the returned function is called. */
export function openUserChannel(options: UserSocketOptions): () => void {
  const url = options.url ?? `${location.origin.replace(/^http/, 'ws')}${apiPrefix}${realtimePath}`;
  const create = options.createSocket ?? ((target: string) => new WebSocket(target));
  let socket: WebSocket | undefined;
  let attempt = 0;
  let opened = 0;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let silence: ReturnType<typeof setTimeout> | undefined;

  const armSilence = () => {
    clearTimeout(silence);
    silence = setTimeout(() => socket?.close(4000, 'heartbeat timeout'), silenceLimitMs);
  };
  const connect = () => {
    const current = create(url);
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
        opened += 1;
        options.onSubscribed?.(opened > 1);
        if (opened > 1) options.onResume?.();
      } else if (frame.type === 'update' && frame.channel === userChannel && frame.data) {
        options.onEvent(frame.data);
      } else if (frame.type === 'error' && frame.code === 'unauthorized') {
        // The session ended: the REST calls will send the user to log in; stop trying.
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
  if (typeof window !== 'undefined') window.addEventListener('online', online);
  return () => {
    stopped = true;
    if (typeof window !== 'undefined') window.removeEventListener('online', online);
    clearTimeout(retry);
    clearTimeout(silence);
    socket?.close(1000, 'done');
  };
}
