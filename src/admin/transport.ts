// The back office's half of the wire contract: the same encrypted POST bodies (api/crypto.ts) and
// the same envelope handling (api/baseQuery.ts) as the phone app, but none of its runtime (its
// store, its toasts, its texts), so the phone bundle and this one share only the contract.
import { createBaseQuery } from '../api/baseQuery.ts';
import { encryptBody, importServerKey } from '../api/crypto.ts';
import { apiPrefix, paths, requestTimeField } from '../api/contract/paths.ts';
import { learnServerTime, serverNow } from '../api/serverClock.ts';
import { readSession, writeSession } from '../lib/storage.ts';
import { errorText, genericErrorText, networkErrorText } from './errors.ts';

/**
 * The operator's token lives for this tab only (sessionStorage, through lib/storage.ts), never in
 * localStorage; logging out leaves the key empty.
 */
export const tokenKey = 'bourse.admin.token';

export const readToken = (): string => readSession(tokenKey) ?? '';

export const writeToken = (token: string) => writeSession(tokenKey, token);

const hooks = {
  notify: (message: string): void => console.warn(message),
  onUnauthorized: (): void => undefined,
};

export function configureTransport(more: Partial<typeof hooks>) {
  Object.assign(hooks, more);
}

let serverKey: Promise<CryptoKey> | undefined;

const getServerKey = () => {
  serverKey ??= (async () => {
    const response = await fetch(`${apiPrefix}${paths.publicKey}`);
    const envelope = (await response.json()) as { code: number; result: string };
    if (envelope.code !== 200) throw new Error('The server key is unavailable.');
    return importServerKey(envelope.result);
  })().catch((error: unknown) => {
    serverKey = undefined;
    throw error;
  });
  return serverKey;
};

/** Learns the server's clock once, so encrypted bodies carry its time, not this computer's. */
export async function syncServerClock(): Promise<void> {
  try {
    const sentAt = Date.now();
    const response = await fetch(`${apiPrefix}${paths.serverTime}`);
    const envelope = (await response.json()) as { code: number; result: { serverTime: number } };
    if (envelope.code === 200) learnServerTime(envelope.result.serverTime, sentAt, Date.now());
  } catch {
    // Offline: the local clock is the best guess; the login form reports the failure.
  }
}

export async function encryptForServer(body: unknown): Promise<string> {
  return encryptBody({ ...(body as Record<string, unknown>), [requestTimeField]: serverNow() }, await getServerKey());
}

export const adminBaseQuery = createBaseQuery({
  fetch: (...args) => fetch(...args),
  getToken: readToken,
  encrypt: encryptForServer,
  forgetServerKey: () => {
    serverKey = undefined;
  },
  notify: (message) => hooks.notify(message),
  onUnauthorized: () => hooks.onUnauthorized(),
  translateError: errorText,
  genericErrorText,
  networkErrorText,
});

/** An upload (a deposit proof) read with the operator's token, as a blob URL for an <img>. */
export async function fetchProof(url: string): Promise<{ objectUrl: string; type: string }> {
  const response = await fetch(url, { headers: { 'X-Access-Token': readToken() } });
  if (response.status === 401) hooks.onUnauthorized();
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const blob = await response.blob();
  return { objectUrl: URL.createObjectURL(blob), type: blob.type };
}
