// The user's own realtime channel (issue 10) while a trading page is open: a socket of its own to
// /api/ws (so the first screen's shared market socket stays as small as it is), authenticated with
// the session token (op auth). Each event says what changed — a position, a second contract, a
// swap, a balance — and invalidates the data that shows it, so a take-profit that fires or a
// contract that settles appears without a refresh. It reconnects with the market socket's backoff
// and, after a reconnection, refetches everything it may have missed.
import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { api } from '../../api/api.ts';
import { backoffDelayMs, silenceLimitMs } from '../../api/realtime.ts';
import { realtimePath, userChannel, type UserEvent } from '../../api/contract/market.ts';
import { apiPrefix } from '../../api/contract/paths.ts';
import type { UserState } from '../session/userSlice.ts';

type Tag = 'Position' | 'SecondOrder' | 'Swap' | 'Balance' | 'Demo' | 'Message' | 'Unread';

/** The data an event makes stale. */
export function tagsOf(event: Pick<UserEvent, 'kind' | 'demo'>): Tag[] {
  const money: Tag[] = event.demo ? ['Demo', 'Balance'] : ['Balance'];
  switch (event.kind) {
    case 'position': return ['Position', ...money];
    case 'second': return ['SecondOrder', ...money];
    case 'swap': return ['Swap', ...money];
    // An internal message was written (a take-profit hit, a deposit credited): the bell and the list.
    case 'message': return ['Message', 'Unread'];
    // The support chat's events are the chat page's (features/chat): no trading data changed.
    case 'chat': return [];
    default: return money;
  }
}

const everything: Tag[] = ['Position', 'SecondOrder', 'Swap', 'Balance', 'Demo'];

export interface UserSocketOptions {
  token: string;
  onEvent: (event: UserEvent) => void;
  /** After a reconnection: events may have been missed. */
  onResume: () => void;
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
        if (opened > 1) options.onResume();
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
  return () => {
    stopped = true;
    clearTimeout(retry);
    clearTimeout(silence);
    socket?.close(1000, 'done');
  };
}

/** Keeps the user channel open while the calling page is mounted and a user is logged in. */
export function useUserEvents() {
  const token = useSelector((state: { user: UserState }) => state.user.token);
  const dispatch = useDispatch();
  useEffect(() => {
    if (!token || typeof WebSocket === 'undefined') return undefined;
    return openUserChannel({
      token,
      onEvent: (event) => dispatch(api.util.invalidateTags(tagsOf(event))),
      onResume: () => dispatch(api.util.invalidateTags(everything)),
    });
  }, [token, dispatch]);
}
