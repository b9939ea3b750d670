// The unread-message count for the badge on the My tab (app/Layout.tsx), read straight from the
// API cache of the `unread` call, which the home bell and the My page keep fresh. The tab bar is on
// the first screen, so this reads the cache by hand instead of importing the content calls.
interface CachedQuery { endpointName?: string; status?: string; data?: unknown; fulfilledTimeStamp?: number }
export interface ApiCacheState { api?: { queries?: Record<string, CachedQuery | undefined> } }

/** The newest unread-message count the cache holds, or 0. */
export function selectUnreadMessages(state: ApiCacheState): number {
  let newest: CachedQuery | undefined;
  for (const query of Object.values(state.api?.queries ?? {})) {
    if (query?.endpointName !== 'unread' || query.data === undefined) continue;
    if (!newest || (query.fulfilledTimeStamp ?? 0) > (newest.fulfilledTimeStamp ?? 0)) newest = query;
  }
  const count = (newest?.data as { messages?: unknown } | undefined)?.messages;
  return typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : 0;
}

/** The count as a badge shows it. */
export const badgeText = (count: number) => (count > 99 ? '99+' : String(count));
