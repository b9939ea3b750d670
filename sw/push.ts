/// <reference lib="webworker" />
// The worker's Web Push handlers (issue 21): a push shows a notification with the payload's title
// and body (the server's JSON: { title, body, route, category, tag?, kind?, params? }, decrypted
// by the browser); a click focuses an open window of the app and takes it to the notification's
// route, or opens the app there. A route is a path of this app ("/kline?symbol=BTCUSDT", the hash
// router's path: the window goes to /#/kline?symbol=BTCUSDT); anything else opens home.
declare const self: ServiceWorkerGlobalScope;

interface PushData {
  title?: unknown;
  body?: unknown;
  route?: unknown;
  tag?: unknown;
  category?: unknown;
}

const appName = 'Bourse';

/** A path inside this app ("/kline?symbol=BTCUSDT"), never another origin or a scheme. */
export function safeRoute(route: unknown): string {
  if (typeof route === 'string' && route.startsWith('/#/')) route = route.slice(2);
  if (typeof route !== 'string' || !route.startsWith('/') || route.startsWith('//') || route.includes('\\')) return '/home';
  try {
    const url = new URL(route, self.location.origin);
    if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return '/home';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/home';
  }
}

function readPush(event: PushEvent): PushData {
  if (!event.data) return {};
  try {
    const parsed = event.data.json() as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed as PushData : { body: String(parsed) };
  } catch {
    return { body: event.data.text() };
  }
}

self.addEventListener('push', (event) => {
  const data = readPush(event);
  const title = typeof data.title === 'string' && data.title ? data.title.slice(0, 200) : appName;
  const body = typeof data.body === 'string' ? data.body.slice(0, 1000) : '';
  const tag = typeof data.tag === 'string' && data.tag ? data.tag.slice(0, 64) : undefined;
  event.waitUntil(self.registration.showNotification(title, {
    body,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    ...(tag ? { tag } : {}),
    data: { route: safeRoute(data.route), category: typeof data.category === 'string' ? data.category : undefined },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const route = safeRoute((event.notification.data as { route?: unknown } | null)?.route);
  const target = `${self.location.origin}/#${route}`;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const sameOrigin = windows.filter((client) => new URL(client.url).origin === self.location.origin
      && !/^\/(admin|pc)\.html/.test(new URL(client.url).pathname));
    const client = sameOrigin.find((candidate) => candidate.focused) ?? sameOrigin.find((candidate) => candidate.visibilityState === 'visible') ?? sameOrigin[0];
    if (client) {
      const focused = await client.focus().catch(() => client);
      if (new URL(focused.url).href === target) return;
      // navigate() works on windows this worker controls; any other opens a new one.
      const navigated = await focused.navigate(target).catch(() => null);
      if (navigated) return;
    }
    await self.clients.openWindow(target);
  })());
});
