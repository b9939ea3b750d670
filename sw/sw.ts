/// <reference lib="webworker" />
// The service worker (DESIGN §4): precaches the shell with a navigation fallback (never for
// /api/), caches locale catalogs cache-first, and activates a new version only when the user
// asks (SKIP_WAITING from the "new version — reload" prompt). POSTs are never cached or replayed.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), {
  denylist: [/^\/api\//, /^\/pc\.html/],
}));

registerRoute(({ url, request }) => request.method === 'GET' && /\/assets\/locale-[^/]+\.js$/.test(url.pathname),
  new CacheFirst({
    cacheName: 'bourse-locales',
    plugins: [new ExpirationPlugin({ maxEntries: 20, maxAgeSeconds: 90 * 24 * 3600 })],
  }));

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | undefined)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
