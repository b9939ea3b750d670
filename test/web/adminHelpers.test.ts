// The back office's own helpers: refusals worded for the operator (a login lockout with its wait),
// amounts shown with every decimal the server wrote and grouped per language (never through a
// float), and the transport: a 401 from any call ends the session, a refusal is returned in place.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '@lingui/core';
import { errorText, failureMessage } from '../../src/admin/errors.ts';
import { formatAmount } from '../../src/admin/format.ts';
import { adminBaseQuery, configureTransport, readToken, writeToken } from '../../src/admin/transport.ts';

afterEach(() => {
  i18n.loadAndActivate({ locale: 'en-us', locales: ['en-US'], messages: {} });
  vi.unstubAllGlobals();
  writeToken('');
});

describe('back-office refusals', () => {
  it('words a login lockout with its wait, in seconds or minutes', () => {
    expect(failureMessage({ kind: 'api', code: 429, error: 'too_many_attempts', message: 'x', retryAfterSeconds: 45 }))
      .toBe('Too many failed logins. Please try again in 45 seconds.');
    expect(failureMessage({ kind: 'api', code: 429, error: 'too_many_attempts', message: 'x', retryAfterSeconds: 900 }))
      .toBe('Too many failed logins. Please try again in 15 minutes.');
  });

  it('names the two-operator refusals and falls back to the server message for unknown codes', () => {
    expect(errorText('withdrawal_approved_by_you')).toMatch(/second, different operator/);
    expect(failureMessage({ kind: 'api', code: 400, error: 'withdrawal_not_approved', message: 'x' })).toMatch(/not fully approved/);
    expect(failureMessage({ kind: 'api', code: 400, error: 'something_new', message: 'Server words.' })).toBe('Server words.');
  });

  it('adds the server\'s detail to a refused form, so the operator sees which field', () => {
    expect(failureMessage({ kind: 'api', code: 400, error: 'invalid_request', message: 'x',
      serverMessage: 'Invalid request: body/dailyRate Expected string to match \'^\\d+(\\.\\d+)?$\'' }))
      .toBe('Some of the information entered is not valid. (Invalid request: body/dailyRate Expected string to match \'^\\d+(\\.\\d+)?$\')');
    expect(failureMessage({ kind: 'api', code: 400, error: 'invalid_request', message: 'x' })).toBe('Some of the information entered is not valid.');
  });
});

describe('back-office amounts', () => {
  it('keeps every decimal of the string and groups per language', () => {
    expect(formatAmount('12345.678900')).toBe('12,345.678900');
    // 2^53 + 1 is not a float: the string is shown exactly.
    expect(formatAmount('9007199254740993.000000000000000001')).toBe('9,007,199,254,740,993.000000000000000001');
    i18n.loadAndActivate({ locale: 'xi', locales: ['es-ES'], messages: {} });
    expect(formatAmount('12345.5')).toBe('12.345,5');
    expect(formatAmount(null)).toBe('—');
  });
});

describe('back-office transport', () => {
  const answer = (body: unknown) => vi.fn(async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
  const api = { signal: new AbortController().signal, abort: () => undefined, dispatch: () => undefined, getState: () => ({}), extra: undefined, endpoint: 'x', type: 'query' as const };

  it('sends the operator token and ends the session on a 401', async () => {
    writeToken('operator-token');
    const onUnauthorized = vi.fn();
    configureTransport({ onUnauthorized });
    const fetch = answer({ success: false, message: 'Your back-office session has ended.', code: 401, result: null, timestamp: 0 });
    vi.stubGlobal('fetch', fetch);
    const result = await adminBaseQuery({ url: '/admin/me' }, api, {});
    expect(result.error).toMatchObject({ kind: 'unauthorized' });
    expect(onUnauthorized).toHaveBeenCalledOnce();
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect((init.headers as Record<string, string>)['X-Access-Token']).toBe('operator-token');
    expect(readToken()).toBe('operator-token');
  });

  it('returns a quiet refusal without a toast', async () => {
    const notify = vi.fn();
    configureTransport({ notify });
    vi.stubGlobal('fetch', answer({ success: false, message: 'No.', code: 400, result: { error: 'record_already_decided' }, timestamp: 0 }));
    const result = await adminBaseQuery({ url: '/admin/recharges', quiet: true }, api, {});
    expect(result.error).toMatchObject({ kind: 'api', error: 'record_already_decided' });
    expect(failureMessage(result.error)).toMatch(/already been decided/);
    expect(notify).not.toHaveBeenCalled();
  });
});
