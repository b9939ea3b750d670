// The one createApi of the app. Features inject their endpoints (STYLE §1). What the API layer
// needs from the app (token, toasts, the way to /login) is plugged in at start through
// `configureApiClient`, so this layer imports nothing from the features.
import { createApi } from '@reduxjs/toolkit/query/react';
import { createBaseQuery } from './baseQuery.ts';
import { apiPrefix, paths, requestTimeField } from './contract/paths.ts';
import { genericErrorText, networkErrorText, translateError } from './errorMessages.ts';
import { serverNow } from './serverClock.ts';

const runtime = {
  getToken: (): string => '',
  notify: (message: string): void => console.warn(message),
  onUnauthorized: (): void => undefined,
};

export function configureApiClient(hooks: Partial<typeof runtime>) {
  Object.assign(runtime, hooks);
}

let serverKey: Promise<CryptoKey> | undefined;

async function fetchServerKey(): Promise<CryptoKey> {
  const response = await fetch(`${apiPrefix}${paths.publicKey}`);
  const envelope = (await response.json()) as { code: number; result: string };
  if (envelope.code !== 200) throw new Error('The server key is unavailable.');
  const { importServerKey } = await import('./crypto.ts');
  return importServerKey(envelope.result);
}

const getServerKey = () => {
  serverKey ??= fetchServerKey().catch((error: unknown) => {
    serverKey = undefined;
    throw error;
  });
  return serverKey;
};

export async function encryptForServer(body: unknown): Promise<string> {
  const payload = { ...(body as Record<string, unknown>), [requestTimeField]: serverNow() };
  // The cipher code loads with the first POST, not with the first screen.
  const [{ encryptBody }, key] = await Promise.all([import('./crypto.ts'), getServerKey()]);
  return encryptBody(payload, key);
}

export const baseQuery = createBaseQuery({
  fetch: (...args) => fetch(...args),
  getToken: () => runtime.getToken(),
  encrypt: encryptForServer,
  forgetServerKey: () => {
    serverKey = undefined;
  },
  notify: (message) => runtime.notify(message),
  onUnauthorized: () => runtime.onUnauthorized(),
  translateError,
  genericErrorText,
  networkErrorText,
});

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  // Every query on screen asks again when the network comes back (the store's setupListeners
  // reports it), so a page that failed offline recovers without its Retry button.
  refetchOnReconnect: true,
  tagTypes: ['User', 'Setting', 'Balance', 'Recharge', 'Withdrawal', 'Destination', 'TradeSetting', 'Position', 'SecondOrder', 'Swap', 'Demo', 'Kyc', 'TwoFactor', 'LinkedLogin', 'Passkey', 'Session',
    // Issue 21: notices and articles, the user's announcements and messages, their unread counts.
    'Content', 'Announcement', 'Message', 'Unread'],
  endpoints: () => ({}),
});
