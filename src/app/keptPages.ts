// What the first screen needs of the kept-alive pages (app/KeepAlive.tsx): their registry, which
// the router fills as kept routes load, and the empty slot the router renders for them. The frame
// that draws them loads with the first kept route, before that route shows, not with the first
// screen (DESIGN §8 budget).
import type { ComponentType } from 'react';

/** The loaded page component of each kept route, by route path; the router fills it. */
export type KeptPages = Map<string, ComponentType>;

/** What the router renders in the <Outlet/> for a kept route: nothing (the page is drawn by KeepAlive). */
export function KeptRouteSlot() {
  return null;
}

type KeepAliveFrame = typeof import('./KeepAlive.tsx').KeepAlive;
let frame: KeepAliveFrame | undefined;

/** The kept pages' frame once loadKeepAliveFrame has loaded it; until then there is nothing to draw. */
export const keepAliveFrame = (): KeepAliveFrame | undefined => frame;

export async function loadKeepAliveFrame(): Promise<void> {
  frame ??= (await import('./KeepAlive.tsx')).KeepAlive;
}
