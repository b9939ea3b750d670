/// <reference lib="webworker" />
// The service worker (DESIGN §4): precaches the shell with a navigation fallback (never for
// /api/), caches locale catalogs cache-first and the market lists stale-while-revalidate, and
// activates a new version only when the user asks (SKIP_WAITING from the "new version — reload"
// prompt). POSTs are never cached or replayed.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
// Web Push: the push and notificationclick handlers.
import './push.ts';
import { registerContentCaching } from './contentCache.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), {
  // The desktop pages are apps of their own: the phone app must not answer for them.
  denylist: [/^\/api\//, /^\/pc\.html/, /^\/admin\.html/],
}));

registerRoute(({ url, request }) => request.method === 'GET' && /\/assets\/locale-[^/]+\.js$/.test(url.pathname),
  new CacheFirst({
    cacheName: 'bourse-locales',
    plugins: [new ExpirationPlugin({ maxEntries: 20, maxAgeSeconds: 90 * 24 * 3600 })],
  }));

// The market lists (spec §7 paths): shown at once from the cache, refreshed behind it, and still
// there offline. Only GETs match; the app polls or streams live prices on top, and shows the age
// of what it has when it is offline.
const marketListPaths = new Set(['/api/public/getTicketList', '/api/trade/appSymbol/list', '/api/trade/api/getPriceDistribution']);
registerRoute(({ url, request }) => request.method === 'GET' && url.origin === self.location.origin && marketListPaths.has(url.pathname),
  new StaleWhileRevalidate({
    cacheName: 'bourse-market-lists',
    plugins: [new ExpirationPlugin({ maxEntries: 16, maxAgeSeconds: 7 * 24 * 3600 })],
  }));

// Notices, announcements, messages, help and articles (issue 21): network-first, kept per session,
// reads that failed offline replayed when the network returns (sw/contentCache.ts).
registerContentCaching();

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | undefined)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
