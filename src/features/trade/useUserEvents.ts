// The user's own realtime channel (api/userChannel.ts) while a trading page is open. Each event
// says what changed — a position, a second contract, a swap, a balance — and invalidates the data
// that shows it, so a take-profit that fires or a contract that settles appears without a refresh.
// After a reconnection it refetches everything it may have missed.
import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { api } from '../../api/api.ts';
import { openUserChannel } from '../../api/userChannel.ts';
import type { UserEvent } from '../../api/contract/market.ts';
import type { UserState } from '../../entities/session/userSlice.ts';

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

export { openUserChannel } from '../../api/userChannel.ts';

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
