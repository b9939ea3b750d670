// A user's Web Push subscriptions: one row per endpoint (the browser's push URL). Subscribing
// again from the same browser updates the keys and categories. An endpoint another account holds
// moves to the caller only when the caller sends the very keys it was subscribed with (the same
// browser, signed into another account): knowing someone's endpoint URL is not enough to take
// their notifications away or to send them one's own.
import { createECDH, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { pushSubscriptions } from '../../../db/schema.ts';
import { AppError, badRequest } from '../../../lib/errors.ts';
import { pushCategories, type PushCategory } from '../../../../src/api/contract/content.ts';
import type { SubscribeBody } from '../../../../src/api/contract/push.ts';
import { checkEndpoint, type EndpointPolicy } from './endpointGuard.ts';

/** Subscriptions one user may hold (browsers and devices); subscribing more drops the oldest. */
export const subscriptionsPerUserMax = 10;

/** p256dh must be an uncompressed point on P-256 and auth 16 bytes (RFC 8291 §3). */
export function checkKeys(p256dh: string, auth: string) {
  const point = Buffer.from(p256dh, 'base64url');
  const secret = Buffer.from(auth, 'base64url');
  const invalid = () => badRequest('push_keys_invalid', 'The subscription\'s keys are not valid push keys.');
  if (point.length !== 65 || point[0] !== 4 || secret.length !== 16) throw invalid();
  try {
    // computeSecret refuses a point that is not on the curve.
    const probe = createECDH('prime256v1');
    probe.generateKeys();
    probe.computeSecret(point);
  } catch {
    throw invalid();
  }
}

const sameKey = (a: string, b: string) => {
  const x = Buffer.from(a, 'base64url');
  const y = Buffer.from(b, 'base64url');
  return x.length === y.length && timingSafeEqual(x, y);
};

export async function subscribe(db: Db, userId: bigint, body: SubscribeBody, policy: EndpointPolicy, now: Date) {
  checkKeys(body.keys.p256dh, body.keys.auth);
  const endpoint = await checkEndpoint(body.endpoint, policy);
  const categories: PushCategory[] = body.categories ?? [...pushCategories];
  await db.transaction(async (tx) => {
    const [existing] = await tx.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)).for('update');
    if (existing) {
      if (existing.userId !== userId && !(sameKey(existing.p256dh, body.keys.p256dh) && sameKey(existing.auth, body.keys.auth))) {
        throw new AppError(409, 'push_endpoint_taken', 'This push subscription belongs to another account.');
      }
      await tx.update(pushSubscriptions).set({
        userId, p256dh: body.keys.p256dh, auth: body.keys.auth, categories, failures: 0,
      }).where(eq(pushSubscriptions.id, existing.id));
    } else {
      await tx.insert(pushSubscriptions).values({
        userId, endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, categories, createdAt: now,
      });
    }
    const mine = await tx.select({ id: pushSubscriptions.id }).from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId)).orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
    if (mine.length > subscriptionsPerUserMax) {
      await tx.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, mine.slice(0, mine.length - subscriptionsPerUserMax).map((row) => row.id)));
    }
  });
  return { subscribed: true, categories };
}

/** Removes the caller's own subscription of this endpoint; another account's is left alone (and not revealed). */
export async function unsubscribe(db: Db, userId: bigint, endpoint: string) {
  const normalised = normaliseEndpoint(endpoint);
  await db.delete(pushSubscriptions).where(and(
    inArray(pushSubscriptions.endpoint, [...new Set([endpoint, normalised])]), eq(pushSubscriptions.userId, userId),
  ));
  return { subscribed: false, categories: [] as PushCategory[] };
}

export async function subscriptionState(db: Db, userId: bigint, endpoint: string) {
  const [row] = await db.select({ categories: pushSubscriptions.categories }).from(pushSubscriptions).where(and(
    inArray(pushSubscriptions.endpoint, [...new Set([endpoint, normaliseEndpoint(endpoint)])]), eq(pushSubscriptions.userId, userId),
  ));
  return row ? { subscribed: true, categories: row.categories as PushCategory[] } : { subscribed: false, categories: [] as PushCategory[] };
}

export async function subscriptionCount(db: Db, userId: bigint): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  return Number(row?.n ?? 0);
}

function normaliseEndpoint(endpoint: string): string {
  try {
    return new URL(endpoint).href;
  } catch {
    return endpoint;
  }
}
