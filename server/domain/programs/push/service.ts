// Sending Web Push (RFC 8030) with VAPID (RFC 8292) and aes128gcm payloads (RFC 8291) through the
// `web-push` library. Every send goes through one bounded queue per app (32 at once by default),
// so a notice to every subscriber never opens more connections than that; connections are kept
// alive per push service. A 404 or 410 answer means the subscription is gone: its row is deleted.
// Other failures are counted on the row (failures; reset by a success). The connections' DNS
// lookup refuses private addresses (endpointGuard.ts) unless PUSH_ALLOW_PRIVATE_ENDPOINTS=1.
import https from 'node:https';
import { and, inArray, sql } from 'drizzle-orm';
import webpush, { WebPushError } from 'web-push';
import type { Db } from '../../../db/client.ts';
import { pushSubscriptions } from '../../../db/schema.ts';
import type { Clock } from '../../../lib/time.ts';
import type { PushCategory } from '../../../../src/api/contract/content.ts';
import type { WrittenMessage } from '../../kernel/messages.ts';
import type { PushMessage, PushOutcome, PushService, PushSettings } from '../../kernel/push.ts';
import { endpointSendable, guardedLookup } from './endpointGuard.ts';
import type { VapidKeys } from './keys.ts';
import { messageText } from './texts.ts';

export function pushSettingsFromEnv(env: NodeJS.ProcessEnv): PushSettings {
  const concurrency = Number(env.PUSH_CONCURRENCY ?? 32);
  return {
    allowPrivate: env.PUSH_ALLOW_PRIVATE_ENDPOINTS === '1',
    concurrency: Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 512 ? concurrency : 32,
    timeoutMs: 15_000,
  };
}

/** How long a push service keeps an undelivered push, and how urgently it delivers it, per category. */
const delivery: Record<PushCategory, { ttlSeconds: number; urgency: 'low' | 'normal' | 'high' }> = {
  notices: { ttlSeconds: 24 * 3600, urgency: 'normal' },
  trading: { ttlSeconds: 6 * 3600, urgency: 'high' },
  money: { ttlSeconds: 24 * 3600, urgency: 'normal' },
  chat: { ttlSeconds: 3600, urgency: 'high' },
  security: { ttlSeconds: 24 * 3600, urgency: 'high' },
  price_alerts: { ttlSeconds: 900, urgency: 'high' },
};

interface SubscriptionRow { id: bigint; endpoint: string; p256dh: string; auth: string }
/** What sending to a subscription reads of it. */
const subscriptionColumns = {
  id: pushSubscriptions.id, endpoint: pushSubscriptions.endpoint, p256dh: pushSubscriptions.p256dh, auth: pushSubscriptions.auth,
};

/** Runs at most `limit` tasks at once, in the order given. */
class Semaphore {
  #active = 0;
  readonly #waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#active += 1;
    try {
      return await task();
    } finally {
      this.#active -= 1;
      this.#waiting.shift()?.();
    }
  }
}

const pageSize = 2000;
const payloadTextMax = 1000;

export interface PushServiceOptions {
  db: Db;
  clock: Clock;
  keys: VapidKeys;
  settings: PushSettings;
  onError?: (error: unknown) => void;
}

export function createPushService(options: PushServiceOptions): PushService {
  const { db, clock, keys, settings } = options;
  const semaphore = new Semaphore(settings.concurrency);
  const agent = new https.Agent({
    keepAlive: true, maxSockets: settings.concurrency, maxTotalSockets: settings.concurrency * 4,
    ...(settings.allowPrivate ? {} : { lookup: guardedLookup() as unknown as typeof import('node:dns').lookup }),
  });
  const pending = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    pending.add(promise);
    void promise.finally(() => pending.delete(promise)).catch(() => {});
    return promise;
  };

  // The VAPID JWT (RFC 8292) depends only on the push service's origin and its expiry, and signing
  // it (with web-push's key conversion) costs more than encrypting a payload: one per origin is
  // made and reused for 11 of its 12 hours. Its expiry is real time, whatever the app's clock.
  const vapidHeaders = new Map<string, { authorization: string; renewAtMs: number }>();
  const authorizationFor = (endpoint: string): string => {
    const audience = new URL(endpoint).origin;
    const nowMs = Date.now();
    const cached = vapidHeaders.get(audience);
    if (cached && cached.renewAtMs > nowMs) return cached.authorization;
    const expiresAtSeconds = Math.floor(nowMs / 1000) + 12 * 3600;
    const made = webpush.getVapidHeaders(audience, keys.subject, keys.publicKey, keys.privateKey, 'aes128gcm', expiresAtSeconds);
    if (vapidHeaders.size > 1000) vapidHeaders.clear();
    vapidHeaders.set(audience, { authorization: made.Authorization, renewAtMs: nowMs + 11 * 3600_000 });
    return made.Authorization;
  };

  async function sendOne(row: SubscriptionRow, body: string, category: PushCategory): Promise<'sent' | 'gone' | 'failed'> {
    if (!endpointSendable(row.endpoint, settings.allowPrivate)) return 'failed';
    try {
      await webpush.sendNotification({ endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }, body, {
        headers: { Authorization: authorizationFor(row.endpoint) },
        TTL: delivery[category].ttlSeconds, urgency: delivery[category].urgency, contentEncoding: 'aes128gcm',
        timeout: settings.timeoutMs, agent,
      });
      return 'sent';
    } catch (error) {
      if (error instanceof WebPushError && (error.statusCode === 404 || error.statusCode === 410)) return 'gone';
      return 'failed';
    }
  }

  /** Sends one payload to the rows, then records the outcome on them in three statements. */
  async function sendTo(rows: SubscriptionRow[], payload: PushMessage): Promise<PushOutcome> {
    const body = JSON.stringify({
      ...payload, title: payload.title.slice(0, 200), body: payload.body.slice(0, payloadTextMax),
    });
    const results = await Promise.all(rows.map((row) => semaphore.run(() => sendOne(row, body, payload.category as PushCategory))));
    const ids = { sent: [] as bigint[], gone: [] as bigint[], failed: [] as bigint[] };
    results.forEach((result, index) => ids[result].push(rows[index].id));
    const now = clock.now();
    if (ids.sent.length > 0) {
      await db.update(pushSubscriptions).set({ lastSentAt: now, failures: 0 }).where(inArray(pushSubscriptions.id, ids.sent));
    }
    if (ids.gone.length > 0) await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, ids.gone));
    if (ids.failed.length > 0) {
      await db.update(pushSubscriptions).set({ failures: sql`${pushSubscriptions.failures} + 1` })
        .where(inArray(pushSubscriptions.id, ids.failed));
    }
    return { sent: ids.sent.length, removed: ids.gone.length, failed: ids.failed.length };
  }

  /** Pages through the matching subscriptions by id and sends to each page. */
  async function fanOut(category: PushCategory, payload: PushMessage, userIds?: readonly bigint[]): Promise<PushOutcome> {
    const total: PushOutcome = { sent: 0, removed: 0, failed: 0 };
    if (userIds && userIds.length === 0) return total;
    let afterId = 0n;
    for (;;) {
      const rows = await db.select(subscriptionColumns).from(pushSubscriptions).where(and(
        sql`${pushSubscriptions.id} > ${afterId}`,
        sql`${pushSubscriptions.categories} @> ${JSON.stringify([category])}::jsonb`,
        userIds ? inArray(pushSubscriptions.userId, [...userIds]) : undefined,
      )).orderBy(pushSubscriptions.id).limit(pageSize);
      if (rows.length === 0) break;
      const outcome = await sendTo(rows, { ...payload, category });
      total.sent += outcome.sent;
      total.removed += outcome.removed;
      total.failed += outcome.failed;
      if (rows.length < pageSize) break;
      afterId = rows[rows.length - 1].id;
    }
    return total;
  }

  /**
   * A burst of internal messages (10 000 settlements at once, say): the subscriptions of every user
   * concerned are read in one statement per 5 000 users, not one per message, and each message is
   * sent to its user's subscriptions of its category. Most users have none: then nothing more runs.
   */
  async function pushMessages(messages: readonly WrittenMessage[]) {
    const userIds = [...new Set(messages.map((message) => message.userId))];
    const byUser = new Map<bigint, Array<SubscriptionRow & { categories: unknown }>>();
    for (let i = 0; i < userIds.length; i += 5000) {
      const rows = await db.select({ ...subscriptionColumns, userId: pushSubscriptions.userId, categories: pushSubscriptions.categories })
        .from(pushSubscriptions).where(inArray(pushSubscriptions.userId, userIds.slice(i, i + 5000))).orderBy(pushSubscriptions.id);
      for (const row of rows) {
        const list = byUser.get(row.userId);
        if (list) list.push(row);
        else byUser.set(row.userId, [row]);
      }
    }
    if (byUser.size === 0) return;
    await Promise.all(messages.map(async (message) => {
      const rows = (byUser.get(message.userId) ?? [])
        .filter((row) => Array.isArray(row.categories) && row.categories.includes(message.category));
      if (rows.length === 0) return;
      const { title, body } = messageText(message.kind, message.params ?? {});
      await sendTo(rows, {
        title, body, route: message.route ?? '/messages', category: message.category, tag: `message-${message.id}`,
        kind: message.kind, params: message.params ?? {},
      });
    }));
  }

  return {
    publicKey: keys.publicKey,
    settings,
    toUser: (userId, category, payload) => track(fanOut(category, payload, [userId])),
    toCategory: (category, payload, audience) => {
      // A large audience is sent in slices, so no statement carries tens of thousands of ids.
      if (audience && audience.length > 5000) {
        return track((async () => {
          const total: PushOutcome = { sent: 0, removed: 0, failed: 0 };
          for (let i = 0; i < audience.length; i += 5000) {
            const part = await fanOut(category, payload, audience.slice(i, i + 5000));
            total.sent += part.sent;
            total.removed += part.removed;
            total.failed += part.failed;
          }
          return total;
        })());
      }
      return track(fanOut(category, payload, audience));
    },
    deliver(messages: readonly WrittenMessage[]) {
      if (messages.length === 0) return;
      track(pushMessages(messages)).catch((error: unknown) => options.onError?.(error));
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    close() {
      agent.destroy();
    },
  };
}
