// The browser's side of Web Push: whether this browser can take notifications at all, what the
// user allowed, and the PushSubscription of the app's service worker. Permission is asked only
// from a tap (enable), never on load.
export type PushSupport = 'supported' | 'unsupported' | 'ios-not-installed';

/** An iPhone or iPad (iPadOS reports a Mac with touch). */
export function isAppleMobile(userAgent = navigator.userAgent, touchPoints = navigator.maxTouchPoints ?? 0): boolean {
  return /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && touchPoints > 1);
}

/** Whether the app runs from the home screen (installed), where iOS delivers push. */
export function isStandalone(): boolean {
  return globalThis.matchMedia?.('(display-mode: standalone)').matches === true
    || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

export function pushSupport(): PushSupport {
  const hasApis = 'serviceWorker' in navigator && 'PushManager' in globalThis && 'Notification' in globalThis;
  if (isAppleMobile() && !isStandalone()) return 'ios-not-installed';
  return hasApis ? 'supported' : 'unsupported';
}

export function permission(): NotificationPermission {
  return 'Notification' in globalThis ? Notification.permission : 'denied';
}

/** base64url → the bytes the browser's applicationServerKey takes. */
export function keyBytes(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64Url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64Url.length / 4) * 4, '=');
  const text = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

const sameKey = (a: ArrayBuffer | null | undefined, b: Uint8Array) => {
  if (!a || a.byteLength !== b.byteLength) return false;
  const view = new Uint8Array(a);
  return view.every((byte, index) => byte === b[index]);
};

/** The worker's registration, once it is active (undefined when the app has no worker). */
async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!('serviceWorker' in navigator)) return undefined;
  const current = await navigator.serviceWorker.getRegistration();
  if (!current) return undefined;
  return navigator.serviceWorker.ready;
}

/** This browser's subscription, if it has one; never waits for a worker still installing (it has none then). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!('serviceWorker' in navigator)) return null;
  const current = await navigator.serviceWorker.getRegistration();
  return current ? current.pushManager.getSubscription() : null;
}

/** The subscription as the server takes it. */
export function subscriptionBody(subscription: PushSubscription) {
  const json = subscription.toJSON() as { endpoint?: string; keys?: { p256dh?: string; auth?: string } };
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) throw new Error('The browser gave an incomplete push subscription.');
  return { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } };
}

export type EnableResult = { ok: true; subscription: PushSubscription } | { ok: false; reason: 'denied' | 'unsupported' | 'no-worker' };

/**
 * Asks for permission (only here, from the user's tap) and subscribes with the server's key; a
 * subscription made with another key (the server's keys changed) is replaced.
 */
export async function enablePush(publicKey: string): Promise<EnableResult> {
  if (pushSupport() !== 'supported') return { ok: false, reason: 'unsupported' };
  const granted = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (granted !== 'granted') return { ok: false, reason: 'denied' };
  const worker = await registration();
  if (!worker) return { ok: false, reason: 'no-worker' };
  const key = keyBytes(publicKey);
  let subscription = await worker.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  return { ok: true, subscription };
}
