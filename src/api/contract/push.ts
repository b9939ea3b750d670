// Web Push subscriptions and price alerts on the wire (issue 21). The server's VAPID public key is
// public; a subscription is the browser's PushSubscription.toJSON() plus the categories wanted.
import { Type, type Static } from '@sinclair/typebox';
import { PushCategory } from './content.ts';
import { RecordId } from './withdrawals.ts';

export const pushPaths = {
  /** → { publicKey } (VAPID, base64url, uncompressed P-256 point). */
  publicKey: '/public/pushKey',
  subscribe: '/user/appPush/subscribe',
  unsubscribe: '/user/appPush/unsubscribe',
  /** Ours: the caller's subscriptions' categories for one endpoint ({ endpoint } → { subscribed, categories }). */
  state: '/user/appPush/state',
  /** Ours: price alerts: list (GET), create, delete ({ id }). */
  alerts: '/user/appPriceAlert/list',
  createAlert: '/user/appPriceAlert/create',
  deleteAlert: '/user/appPriceAlert/delete',
} as const;

const Base64Url = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '^[A-Za-z0-9_-]+={0,2}$' });

export const SubscribeBody = Type.Object({
  /** https only; never a private, loopback or link-local address. */
  endpoint: Type.String({ minLength: 12, maxLength: 1024 }),
  keys: Type.Object({ p256dh: Base64Url(128), auth: Base64Url(64) }, { additionalProperties: false }),
  /** Absent: every category. */
  categories: Type.Optional(Type.Array(PushCategory, { maxItems: 6, uniqueItems: true })),
}, { additionalProperties: false });
export type SubscribeBody = Static<typeof SubscribeBody>;
export const UnsubscribeBody = Type.Object({ endpoint: Type.String({ minLength: 12, maxLength: 1024 }) }, { additionalProperties: false });
export const PushState = Type.Object({ subscribed: Type.Boolean(), categories: Type.Array(PushCategory) });

export const AlertDirection = Type.Union([Type.Literal('above'), Type.Literal('below')]);
export const CreateAlertBody = Type.Object({
  symbol: Type.String({ minLength: 3, maxLength: 24, pattern: '^[A-Z0-9]{1,12}/?[A-Z0-9]{1,12}$' }),
  direction: AlertDirection,
  price: Type.String({ minLength: 1, maxLength: 40, pattern: '^[0-9]{1,18}(\\.[0-9]{1,18})?$' }),
  repeat: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });
export type CreateAlertBody = Static<typeof CreateAlertBody>;
export const DeleteAlertBody = Type.Object({ id: RecordId }, { additionalProperties: false });
export const PriceAlert = Type.Object({
  id: Type.String(),
  symbol: Type.String(),
  direction: AlertDirection,
  price: Type.String(),
  repeat: Type.Boolean(),
  active: Type.Boolean(),
  lastFiredAt: Type.Optional(Type.Integer()),
  createdAt: Type.Integer(),
});
export type PriceAlert = Static<typeof PriceAlert>;

/** What the worker receives in a push (JSON, encrypted per RFC 8291). */
export interface PushPayload {
  title: string;
  body: string;
  /** The app route a click opens. */
  route: string;
  category: string;
  tag?: string;
}
