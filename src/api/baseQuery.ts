// The one HTTP client (spec §7–§8), as an RTK Query baseQuery:
// - every call goes to /api, times out after 60 s, carries the token in X-Access-Token;
// - POST bodies are encrypted (FormData uploads go as they are);
// - success is envelope code 200 or 0, or an array body; the call resolves with `result`;
// - code 401 sends the user to /login and returns the envelope without a toast;
// - any other code shows the message (translated by its error code when known) and rejects;
// - an HTTP-level failure shows its message and rejects, unless the message mentions 401,
//   in which case it resolves quietly with null;
// - "shows" is a toast, unless the call is `quiet`: its caller shows the failure in place (a
//   form under the field the error code concerns, a page as offline or stale data), and a toast
//   on top would say it twice and cover the button that was pressed.
import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import type { EnvelopeOf } from './contract/common.ts';
import { apiPrefix } from './contract/paths.ts';

export const requestTimeoutMs = 60_000;
export const successCodes = [200, 0] as const;
export const unauthorizedCode = 401;

export interface RequestArgs {
  url: string;
  method?: 'GET' | 'POST';
  params?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** For the route guard's user-info check: a 401 there only means "not logged in". */
  quietUnauthorized?: boolean;
  /**
   * The caller shows failures in place, so they are returned but not toasted: a form (under the
   * field `error` concerns, components/form), a background read (offline, stale data; a poll
   * would repeat the toast). A 401 still sends the user to log in.
   */
  quiet?: boolean;
}

/**
 * What a call says besides its data: `cachedAtMs` when the answer is the service worker's copy,
 * served because the network failed (sw/sw.ts stamps the copies it keeps with `cachedAtHeader`),
 * so a page can say how old what it shows is.
 */
export interface ResponseMeta { cachedAtMs?: number }
export const cachedAtHeader = 'X-Cached-At';

export type ApiError =
  | { kind: 'unauthorized'; code: 401; message: string; envelope: EnvelopeOf<unknown> | undefined }
  | {
    kind: 'api'; code: number; error?: string; message: string; retryAfterSeconds?: number;
    /** The server's own (English) message, when `message` is our translation of its code. */
    serverMessage?: string;
    /** With google_code_required from a login: the ticket its second step completes (issue 18). */
    loginTicket?: string;
  }
  | { kind: 'network'; status?: number; message: string };

export interface BaseQueryDeps {
  fetch: typeof fetch;
  getToken(): string;
  /** Encrypts a JSON body for the wire (crypto.ts plus the request time). */
  encrypt(body: unknown): Promise<string>;
  /** Drops the cached server key, e.g. after the server could not decrypt a body. */
  forgetServerKey(): void;
  notify(message: string): void;
  onUnauthorized(): void;
  /** Message for a stable error code, or undefined to use the server's. */
  translateError(error: string | undefined, details?: Record<string, unknown>): string | undefined;
  genericErrorText(): string;
  networkErrorText(): string;
  timeoutMs?: number;
}

const isEnvelope = (value: unknown): value is EnvelopeOf<unknown> =>
  typeof value === 'object' && value !== null && 'code' in value && typeof (value as { code: unknown }).code === 'number';

function buildUrl(url: string, params?: RequestArgs['params']) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) if (value !== undefined && value !== '') query.set(key, String(value));
  const search = query.toString();
  return `${apiPrefix}${url}${search ? `${url.includes('?') ? '&' : '?'}${search}` : ''}`;
}

/** The meta of an answer (none for a fresh one, so a fresh answer is just `{ data }`). */
function metaOf(response: Response): { meta?: ResponseMeta } {
  const cachedAtMs = Number(response.headers?.get(cachedAtHeader));
  return Number.isSafeInteger(cachedAtMs) && cachedAtMs > 0 ? { meta: { cachedAtMs } } : {};
}

export function createBaseQuery(deps: BaseQueryDeps): BaseQueryFn<RequestArgs | string, unknown, ApiError, object, ResponseMeta> {
  const httpFailure = (message: string, status?: number, quiet = false) => {
    // Spec §8: an HTTP failure whose message mentions 401 resolves quietly.
    if (message.includes('401')) return { data: null };
    if (!quiet) deps.notify(message);
    return { error: { kind: 'network', status, message } as ApiError };
  };

  return async (rawArgs) => {
    const args: RequestArgs = typeof rawArgs === 'string' ? { url: rawArgs } : rawArgs;
    const method = args.method ?? 'GET';
    const headers: Record<string, string> = {};
    const token = deps.getToken();
    if (token) headers['X-Access-Token'] = token;
    let body: BodyInit | undefined;
    if (method === 'POST') {
      if (typeof FormData !== 'undefined' && args.body instanceof FormData) {
        body = args.body;
      } else {
        headers['Content-Type'] = 'application/json';
        try {
          body = await deps.encrypt(args.body ?? {});
        } catch {
          // Without the server's key (offline, server down) nothing can be sent.
          return httpFailure(deps.networkErrorText(), undefined, args.quiet);
        }
      }
    } else {
      headers['Content-Type'] = 'application/json';
    }

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), deps.timeoutMs ?? requestTimeoutMs);
    let response: Response;
    try {
      response = await deps.fetch(buildUrl(args.url, args.params), { method, headers, body, signal: controller.signal });
    } catch {
      // A fetch that throws never reached an HTTP answer (offline, DNS, CORS, time-out); its
      // message is the browser's own English ("Failed to fetch"), so the user gets ours.
      clearTimeout(timer);
      return httpFailure(deps.networkErrorText(), undefined, args.quiet);
    }
    let payload: unknown;
    try {
      payload = await response.json();
    } catch {
      payload = undefined;
    } finally {
      clearTimeout(timer);
    }

    if (Array.isArray(payload)) return { data: payload, ...metaOf(response) };
    if (!isEnvelope(payload)) {
      return httpFailure(`Request failed with status code ${response.status}`, response.status, args.quiet);
    }
    if ((successCodes as readonly number[]).includes(payload.code)) return { data: payload.result, ...metaOf(response) };
    if (payload.code === unauthorizedCode) {
      if (!args.quietUnauthorized) deps.onUnauthorized();
      return { error: { kind: 'unauthorized', code: 401, message: payload.message, envelope: payload } };
    }
    const result = (payload.result ?? {}) as { error?: string; retryAfterSeconds?: number; loginTicket?: unknown };
    if (result.error === 'body_undecryptable') deps.forgetServerKey();
    const message = deps.translateError(result.error, result) ?? (payload.message || deps.genericErrorText());
    if (!args.quiet) deps.notify(message);
    return {
      error: {
        kind: 'api', code: payload.code, error: result.error, message, retryAfterSeconds: result.retryAfterSeconds,
        ...(payload.message && payload.message !== message ? { serverMessage: payload.message } : {}),
        ...(typeof result.loginTicket === 'string' ? { loginTicket: result.loginTicket } : {}),
      },
    };
  };
}
