/// <reference lib="webworker" />
// Content reads offline (issue 21, DESIGN §4): notices, announcements, messages, help and articles
// network-first (fresh when the network answers; the last copy when it does not, or is slower than
// `networkTimeoutSeconds`), content images cache-first; both with expiry. Every copy kept is
// stamped with the time it was kept (X-Cached-At), which the app reads to say how old what it
// shows is. Copies are kept per session: the key carries a hash of the session token, so one
// person's messages are never shown to the next person on the same phone.
// A read that fails for want of network is queued (workbox-background-sync) and replayed when the
// network returns, filling the cache for the next visit (the open pages read again by themselves
// when the network returns: refetchOnReconnect). Only GETs of these paths are ever matched here: a POST is never queued or replayed.
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { Queue } from 'workbox-background-sync';
import type { WorkboxPlugin } from 'workbox-core';

declare const self: ServiceWorkerGlobalScope;

/** The content GETs (src/api/contract/content.ts, contentPaths, under /api); the status check is never cached. */
const contentPaths = new Set([
  '/api/sys/annountCement/vue3List', '/api/sys/annountCement/listByUser',
  '/api/content/appNotice/list', '/api/content/appNotice/queryById', '/api/content/appNotice/myList', '/api/content/appNotice/unread',
  '/api/content/appHelpInfo/list', '/api/content/appHelpInfo/queryById',
  '/api/content/appArticle/list', '/api/content/appArticle/queryById',
]);
const contentImage = /^\/api\/public\/content\/image\/[0-9a-f]{32}$/;
export const contentCacheName = 'bourse-content';
export const cachedAtHeader = 'X-Cached-At';
const queuedReadsMax = 50;

/** The cache key of a read: its URL plus a hash of the session it was made in (none signed out). */
async function keyOf(request: Request): Promise<string> {
  const token = request.headers.get('X-Access-Token');
  if (!token) return request.url;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  const session = [...digest.slice(0, 8)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  const url = new URL(request.url);
  url.searchParams.set('__session', session);
  return url.href;
}

/** A copy worth keeping (a successful envelope or array), stamped with now; null otherwise. */
async function stamped(response: Response): Promise<Response | null> {
  if (!response.ok) return null;
  const text = await response.clone().text();
  try {
    const body = JSON.parse(text) as { code?: unknown } | unknown[];
    if (!Array.isArray(body) && body.code !== 200 && body.code !== 0) return null;
  } catch {
    return null;
  }
  const headers = new Headers(response.headers);
  headers.set(cachedAtHeader, String(Date.now()));
  return new Response(text, { status: response.status, statusText: response.statusText, headers });
}

const queue = new Queue('bourse-content-reads', {
  maxRetentionTime: 24 * 60,
  async onSync({ queue: reads }) {
    const done = new Set<string>();
    let entry = await reads.shiftRequest();
    while (entry) {
      const { request } = entry;
      if (request.method === 'GET' && !done.has(request.url)) {
        try {
          const response = await fetch(request.clone());
          const copy = await stamped(response);
          if (copy) await (await caches.open(contentCacheName)).put(await keyOf(request), copy);
          done.add(request.url);
        } catch (error) {
          await reads.unshiftRequest(entry);
          throw error;
        }
      }
      entry = await reads.shiftRequest();
    }
  },
});

/** Queues a GET that failed for want of network, once per address, at most `queuedReadsMax`. */
async function queueRead(request: Request) {
  if (request.method !== 'GET') return;
  const waiting = await queue.getAll();
  if (waiting.length >= queuedReadsMax || waiting.some((entry) => entry.request.url === request.url)) return;
  await queue.pushRequest({ request });
}

const contentPlugin: WorkboxPlugin = {
  cacheKeyWillBeUsed: async ({ request }) => keyOf(request),
  cacheWillUpdate: async ({ response }) => stamped(response),
  fetchDidFail: async ({ request }) => queueRead(request.clone()),
};

export function registerContentCaching() {
  registerRoute(({ url, request }) => request.method === 'GET' && url.origin === self.location.origin && contentPaths.has(url.pathname),
    new NetworkFirst({
      cacheName: contentCacheName,
      networkTimeoutSeconds: 8,
      plugins: [contentPlugin, new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 3600 })],
    }));
  registerRoute(({ url, request }) => request.method === 'GET' && url.origin === self.location.origin && contentImage.test(url.pathname),
    new CacheFirst({
      cacheName: 'bourse-content-images',
      plugins: [new ExpirationPlugin({ maxEntries: 200, maxAgeSeconds: 30 * 24 * 3600, purgeOnQuotaError: true })],
    }));
}
