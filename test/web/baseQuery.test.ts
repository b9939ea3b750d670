// The one HTTP client (spec §7–§8), driven through its injected dependencies: a fake `fetch`
// records what would go on the wire and answers with a scripted Response, and `notify` stands
// for the toast the user sees.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBaseQuery, requestTimeoutMs, type BaseQueryDeps, type RequestArgs } from '../../src/api/baseQuery.ts';
import { genericErrorText, networkErrorText, translateError } from '../../src/api/errorMessages.ts';
// The account calls register their codes' messages (authApi.ts imports this); the test uses one.
import '../../src/entities/session/accountErrorTexts.ts';

const texts = {
  generic: 'Something went wrong (generic).',
  network: 'No connection (network).',
};

interface SentRequest { url: string; init: RequestInit }

function envelope(code: number, result: unknown, message = '') {
  return { success: code === 200 || code === 0, message, code, result, timestamp: 1_767_312_000_000 };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A client whose fetch answers with `answer` and records every request. */
function client(answer: (request: SentRequest) => Response | Promise<Response>, overrides: Partial<BaseQueryDeps> = {}) {
  const sent: SentRequest[] = [];
  const deps = {
    fetch: vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      const request = { url: String(url), init: init ?? {} };
      sent.push(request);
      return answer(request);
    }),
    getToken: vi.fn(() => ''),
    encrypt: vi.fn(async (body: unknown) => `sealed(${JSON.stringify(body)})`),
    forgetServerKey: vi.fn(),
    notify: vi.fn(),
    onUnauthorized: vi.fn(),
    translateError: vi.fn((error: string | undefined) => (error === 'code_invalid' ? 'The code is wrong (translated).' : undefined)),
    genericErrorText: () => texts.generic,
    networkErrorText: () => texts.network,
    ...overrides,
  } satisfies BaseQueryDeps;
  const baseQuery = createBaseQuery(deps);
  const call = (args: RequestArgs | string) => Promise.resolve(baseQuery(args, {} as never, {}));
  return { deps, sent, call };
}

const headersOf = (request: SentRequest) => new Headers(request.init.headers);

afterEach(() => {
  vi.useRealTimers();
});

describe('createBaseQuery: success', () => {
  it('resolves with the result of an envelope with code 200', async () => {
    const { call, deps } = client(() => json(envelope(200, { id: 'u1', name: 'Ada' })));
    expect(await call('/user/appUser/getMyUserInfo')).toEqual({ data: { id: 'u1', name: 'Ada' } });
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('resolves with the result of an envelope with code 0', async () => {
    const { call, deps } = client(() => json(envelope(0, ['BTC', 'ETH'])));
    expect(await call('/trade/appSymbol/list')).toEqual({ data: ['BTC', 'ETH'] });
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('resolves with the body itself when the body is an array', async () => {
    const { call, deps } = client(() => json([{ symbol: 'BTC' }, { symbol: 'ETH' }]));
    expect(await call('/public/getTicketList')).toEqual({ data: [{ symbol: 'BTC' }, { symbol: 'ETH' }] });
    expect(deps.notify).not.toHaveBeenCalled();
  });
});

describe('createBaseQuery: code 401', () => {
  it('sends the user to log in without a toast and returns the envelope as an unauthorized error', async () => {
    const answer = envelope(401, { error: 'unauthorized' }, 'Please log in again.');
    const { call, deps } = client(() => json(answer, 401));
    const result = await call('/finance/appWallet/queryUserBalance');
    expect(deps.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(deps.notify).not.toHaveBeenCalled();
    expect(result).toEqual({
      error: { kind: 'unauthorized', code: 401, message: 'Please log in again.', envelope: answer },
    });
  });

  it('treats an envelope 401 inside an HTTP 200 the same way', async () => {
    const { call, deps } = client(() => json(envelope(401, null, 'Please log in.')));
    const result = await call('/finance/appWallet/queryUserBalance');
    expect(deps.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(result.error).toMatchObject({ kind: 'unauthorized', code: 401 });
  });

  it('does not send the user to log in when the call asks for a quiet 401 (the route guard)', async () => {
    const { call, deps } = client(() => json(envelope(401, null, 'Please log in.'), 401));
    const result = await call({ url: '/user/appUser/getMyUserInfo', quietUnauthorized: true });
    expect(deps.onUnauthorized).not.toHaveBeenCalled();
    expect(deps.notify).not.toHaveBeenCalled();
    expect(result.error).toMatchObject({ kind: 'unauthorized', code: 401 });
  });
});

describe('createBaseQuery: other envelope codes', () => {
  it('shows the translated message when the error code is known, and rejects', async () => {
    const { call, deps } = client(() => json(envelope(400, { error: 'code_invalid' }, 'Invalid code'), 400));
    const result = await call({ url: '/app/emailLogin', method: 'POST', body: { code: '123456' } });
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith('The code is wrong (translated).');
    expect(result).toEqual({
      error: { kind: 'api', code: 400, error: 'code_invalid', message: 'The code is wrong (translated).', retryAfterSeconds: undefined,
        serverMessage: 'Invalid code' },
    });
  });

  it('shows the envelope message when the error code has no translation', async () => {
    const { call, deps } = client(() => json(envelope(500, { error: 'something_new' }, 'The market is closed.'), 500));
    const result = await call('/trade/appSymbol/price');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith('The market is closed.');
    expect(result.error).toMatchObject({ kind: 'api', code: 500, error: 'something_new', message: 'The market is closed.' });
  });

  it('shows the envelope message when the result carries no error code at all', async () => {
    const { call, deps } = client(() => json(envelope(500, null, 'Insufficient balance')));
    const result = await call('/finance/appWithdrawal/listMy');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith('Insufficient balance');
    expect(result.error).toMatchObject({ kind: 'api', code: 500, message: 'Insufficient balance' });
  });

  it('shows the generic text when neither a translation nor an envelope message exists', async () => {
    const { call, deps } = client(() => json(envelope(500, {}, '')));
    const result = await call('/finance/appWithdrawal/listMy');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(texts.generic);
    expect(result.error).toMatchObject({ kind: 'api', code: 500, message: texts.generic });
  });

  it('carries the wait time of a rate-limited answer', async () => {
    const { call } = client(() => json(envelope(429, { error: 'rate_limited', retryAfterSeconds: 42 }, 'Slow down'), 429));
    const result = await call('/app/getEmailCaptcha');
    expect(result.error).toMatchObject({ kind: 'api', code: 429, error: 'rate_limited', retryAfterSeconds: 42 });
  });

  it('drops the cached server key when the server could not decrypt the body', async () => {
    const { call, deps } = client(() => json(envelope(400, { error: 'body_undecryptable' }, 'Cannot decrypt'), 400));
    await call({ url: '/app/login', method: 'POST', body: { username: 'ada' } });
    expect(deps.forgetServerKey).toHaveBeenCalledTimes(1);
    expect(deps.notify).toHaveBeenCalledTimes(1);
  });

  it('keeps the server key for any other error', async () => {
    const { call, deps } = client(() => json(envelope(400, { error: 'credentials_invalid' }, 'Wrong password'), 400));
    await call({ url: '/app/login', method: 'POST', body: { username: 'ada' } });
    expect(deps.forgetServerKey).not.toHaveBeenCalled();
  });

  it('shows the real translated text of the app for a known code (spec §8 message)', async () => {
    const { call, deps } = client(() => json(envelope(409, { error: 'account_exists' }, 'Account exists'), 409), {
      translateError, genericErrorText, networkErrorText,
    });
    await call({ url: '/app/register', method: 'POST', body: {} });
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith('Account already exists, please log in with your password.');
  });
});

describe('createBaseQuery: HTTP and network failures', () => {
  it('shows "Request failed with status code 502" for a non-JSON error page, and rejects', async () => {
    const { call, deps } = client(() => new Response('<html><body>Bad Gateway</body></html>', {
      status: 502, headers: { 'content-type': 'text/html' },
    }));
    const result = await call('/trade/appSymbol/price');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith('Request failed with status code 502');
    expect(result).toEqual({ error: { kind: 'network', status: 502, message: 'Request failed with status code 502' } });
  });

  it('treats a JSON body that is not an envelope as an HTTP failure', async () => {
    const { call, deps } = client(() => json({ hello: 'world' }, 503));
    const result = await call('/trade/appSymbol/price');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith('Request failed with status code 503');
    expect(result.error).toMatchObject({ kind: 'network', status: 503 });
  });

  it('resolves quietly with null and no toast when the HTTP failure mentions 401', async () => {
    const { call, deps } = client(() => new Response('Unauthorized', { status: 401 }));
    const result = await call('/user/appUser/getMyUserInfo');
    expect(result).toEqual({ data: null });
    expect(deps.notify).not.toHaveBeenCalled();
    expect(deps.onUnauthorized).not.toHaveBeenCalled();
  });

  it('shows the network text when fetch itself throws, and rejects', async () => {
    const { call, deps } = client(() => {
      throw new TypeError('Failed to fetch');
    });
    const result = await call('/trade/appSymbol/price');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(texts.network);
    expect(result).toEqual({ error: { kind: 'network', status: undefined, message: texts.network } });
  });

  it('shows the network text when fetch rejects with something that is not an Error', async () => {
    const { call, deps } = client(() => Promise.reject('offline'));
    const result = await call('/trade/appSymbol/price');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(texts.network);
    expect(result.error).toMatchObject({ kind: 'network', message: texts.network });
  });
});

describe('createBaseQuery: quiet background reads', () => {
  it('returns a network failure without a toast', async () => {
    const { call, deps } = client(() => Promise.reject(new TypeError('Failed to fetch')));
    const result = await call({ url: '/public/getTicketList', quiet: true });
    expect(deps.notify).not.toHaveBeenCalled();
    expect(result.error).toMatchObject({ kind: 'network', message: texts.network });
  });

  it('returns an HTTP failure and an envelope error without a toast', async () => {
    const unavailable = client(() => json(envelope(503, { error: 'market_unavailable' }, 'Market data is starting.'), 503));
    expect((await unavailable.call({ url: '/public/getTicketList', quiet: true })).error)
      .toMatchObject({ kind: 'api', code: 503, message: 'Market data is starting.' });
    expect(unavailable.deps.notify).not.toHaveBeenCalled();
    const broken = client(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    expect((await broken.call({ url: '/public/getTicketList', quiet: true })).error).toMatchObject({ kind: 'network', status: 502 });
    expect(broken.deps.notify).not.toHaveBeenCalled();
  });

  it('still sends the user to log in on a 401', async () => {
    const { call, deps } = client(() => json(envelope(401, null, 'Please log in.')));
    await call({ url: '/user/appUser/getMyUserInfo', quiet: true });
    expect(deps.onUnauthorized).toHaveBeenCalledOnce();
  });
});

describe('createBaseQuery: quiet forms, which show a refusal under the field it concerns', () => {
  it('returns the error code, the translated message and the wait without a toast', async () => {
    const { call, deps } = client(() => json(envelope(400, { error: 'code_invalid' }, 'Invalid code'), 400));
    const result = await call({ url: '/app/register', method: 'POST', body: { code: '000000' }, quiet: true });
    expect(deps.notify).not.toHaveBeenCalled();
    expect(result.error).toEqual({
      kind: 'api', code: 400, error: 'code_invalid', message: 'The code is wrong (translated).', retryAfterSeconds: undefined,
      serverMessage: 'Invalid code',
    });
    const throttled = client(() => json(envelope(429, { error: 'code_send_too_soon', retryAfterSeconds: 37 }, 'Wait'), 429));
    expect((await throttled.call({ url: '/app/getEmailCaptcha', quiet: true })).error)
      .toMatchObject({ kind: 'api', error: 'code_send_too_soon', retryAfterSeconds: 37 });
    expect(throttled.deps.notify).not.toHaveBeenCalled();
  });

  it('still drops the server key when the server could not decrypt the body', async () => {
    const { call, deps } = client(() => json(envelope(400, { error: 'body_undecryptable' }, 'Cannot decrypt'), 400));
    await call({ url: '/app/login', method: 'POST', body: { username: 'ada' }, quiet: true });
    expect(deps.forgetServerKey).toHaveBeenCalledTimes(1);
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('returns the network text for the form to show when the body cannot be sealed or sent', async () => {
    const unsealed = client(() => json(envelope(200, null)), {
      encrypt: vi.fn(async () => {
        throw new Error('The server key is unavailable.');
      }),
    });
    expect((await unsealed.call({ url: '/app/login', method: 'POST', body: {}, quiet: true })).error)
      .toEqual({ kind: 'network', status: undefined, message: texts.network });
    expect(unsealed.deps.notify).not.toHaveBeenCalled();
    const offline = client(() => Promise.reject(new TypeError('Failed to fetch')));
    expect((await offline.call({ url: '/app/login', method: 'POST', body: {}, quiet: true })).error)
      .toMatchObject({ kind: 'network', message: texts.network });
    expect(offline.deps.notify).not.toHaveBeenCalled();
  });

  it('toasts the same refusal for a call that does not show it itself', async () => {
    const { call, deps } = client(() => json(envelope(400, { error: 'code_invalid' }, 'Invalid code'), 400));
    await call({ url: '/app/register', method: 'POST', body: { code: '000000' } });
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith('The code is wrong (translated).');
  });
});

/** A fetch that never answers on its own and rejects the way fetch does once aborted. */
const hangUntilAborted = (request: SentRequest) => new Promise<Response>((_, reject) => {
  const signal = request.init.signal!;
  signal.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
});

describe('createBaseQuery: time-out', () => {
  it('aborts a request that takes longer than the time-out and shows the network text', async () => {
    const { call, deps, sent } = client(hangUntilAborted, { timeoutMs: 20 });
    const result = await call('/trade/appSymbol/price');
    expect(sent[0].init.signal?.aborted).toBe(true);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(texts.network);
    expect(result.error).toMatchObject({ kind: 'network', message: texts.network });
  });

  it('waits the full 60 s by default before giving up', async () => {
    vi.useFakeTimers();
    const { call, sent } = client(hangUntilAborted);
    const pending = call('/trade/appSymbol/price');
    await vi.advanceTimersByTimeAsync(requestTimeoutMs - 1);
    expect(sent[0].init.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent[0].init.signal?.aborted).toBe(true);
    expect((await pending).error).toMatchObject({ kind: 'network' });
    expect(requestTimeoutMs).toBe(60_000);
  });

  it('does not abort a request that answered in time', async () => {
    vi.useFakeTimers();
    const { call, sent } = client(() => json(envelope(200, 'ok')));
    expect(await call('/public/getServerTime')).toEqual({ data: 'ok' });
    await vi.advanceTimersByTimeAsync(requestTimeoutMs * 2);
    expect(sent[0].init.signal?.aborted).toBe(false);
  });
});

describe('createBaseQuery: what goes on the wire', () => {
  it('sends a GET without a body, under /api, with its params in the query string', async () => {
    const { call, sent, deps } = client(() => json(envelope(200, [])));
    await call({ url: '/app/checkAccount', params: { account: 'ada@example.com', type: 2, exact: true, skip: undefined, empty: '' } });
    expect(sent).toHaveLength(1);
    const url = new URL(sent[0].url, 'https://bourse.test');
    expect(url.pathname).toBe('/api/app/checkAccount');
    expect(Object.fromEntries(url.searchParams)).toEqual({ account: 'ada@example.com', type: '2', exact: 'true' });
    expect(sent[0].init.method).toBe('GET');
    expect(sent[0].init.body).toBeUndefined();
    expect(headersOf(sent[0]).get('content-type')).toBe('application/json');
    expect(deps.encrypt).not.toHaveBeenCalled();
  });

  it('takes a bare string as a GET of that path', async () => {
    const { call, sent } = client(() => json(envelope(200, null)));
    await call('/public/getServerTime');
    expect(sent[0].url).toBe('/api/public/getServerTime');
    expect(sent[0].init.method).toBe('GET');
  });

  it('appends params to a path that already has a query', async () => {
    const { call, sent } = client(() => json(envelope(200, null)));
    await call({ url: '/prod/appProductInfo/queryById?id=7', params: { lang: 'en-us' } });
    expect(sent[0].url).toBe('/api/prod/appProductInfo/queryById?id=7&lang=en-us');
  });

  it('encrypts a POST body and sends it as JSON content', async () => {
    const { call, sent, deps } = client(() => json(envelope(200, { token: 't-1' })));
    const body = { username: 'ada', password: 'secret-1' };
    expect(await call({ url: '/app/login', method: 'POST', body })).toEqual({ data: { token: 't-1' } });
    expect(deps.encrypt).toHaveBeenCalledExactlyOnceWith(body);
    expect(sent[0].url).toBe('/api/app/login');
    expect(sent[0].init.method).toBe('POST');
    expect(sent[0].init.body).toBe(`sealed(${JSON.stringify(body)})`);
    expect(headersOf(sent[0]).get('content-type')).toBe('application/json');
  });

  it('encrypts an empty object for a POST without a body', async () => {
    const { call, deps } = client(() => json(envelope(200, null)));
    await call({ url: '/trade/appTradePositions/close/9', method: 'POST' });
    expect(deps.encrypt).toHaveBeenCalledExactlyOnceWith({});
  });

  it('sends an upload (FormData) as it is, unencrypted, leaving the content type to the browser', async () => {
    const { call, sent, deps } = client(() => json(envelope(200, { url: '/files/proof.png' })));
    const form = new FormData();
    form.append('file', new Blob(['png-bytes'], { type: 'image/png' }), 'proof.png');
    form.append('biz', 'recharge');
    await call({ url: '/sys/common/upload', method: 'POST', body: form });
    expect(deps.encrypt).not.toHaveBeenCalled();
    expect(sent[0].init.body).toBe(form);
    expect(headersOf(sent[0]).has('content-type')).toBe(false);
  });

  it('carries the token in X-Access-Token when there is one', async () => {
    const { call, sent } = client(() => json(envelope(200, null)), { getToken: () => 'token-abc' });
    await call('/user/appUser/getMyUserInfo');
    await call({ url: '/app/login', method: 'POST', body: {} });
    for (const request of sent) expect(headersOf(request).get('X-Access-Token')).toBe('token-abc');
  });

  it('sends no X-Access-Token header when logged out', async () => {
    const { call, sent } = client(() => json(envelope(200, null)), { getToken: () => '' });
    await call('/home');
    expect(headersOf(sent[0]).has('X-Access-Token')).toBe(false);
  });

  it('sends nothing and shows the network text when the body cannot be encrypted', async () => {
    const { call, sent, deps } = client(() => json(envelope(200, null)), {
      encrypt: vi.fn(async () => {
        throw new Error('The server key is unavailable.');
      }),
    });
    const result = await call({ url: '/app/login', method: 'POST', body: { username: 'ada' } });
    expect(sent).toHaveLength(0);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith(texts.network);
    expect(result.error).toMatchObject({ kind: 'network', message: texts.network });
  });
});
