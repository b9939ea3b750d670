// Sessions and devices in the security centre (issue 11): the live sessions with the current one
// marked and an End button for each other one, ending one ({ id }) or all the others after a
// confirmation, and the login history with its failed attempts and new-device marks.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { api, configureApiClient } from '../../src/api/api.ts';
import type { LoginHistoryEntry, SessionInfo } from '../../src/api/contract/security.ts';
import { SessionsSection } from '../../src/features/security/SessionsSection.tsx';

const feedback = vi.hoisted(() => ({ confirm: vi.fn(async () => true), toast: vi.fn(async () => undefined) }));
vi.mock('../../src/components/feedback.tsx', () => ({
  confirmDialog: feedback.confirm, showToast: feedback.toast, alertDialog: vi.fn(async () => undefined),
}));
vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

beforeEach(() => {
  feedback.confirm.mockReset().mockResolvedValue(true);
  feedback.toast.mockReset().mockResolvedValue(undefined);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const success = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 0 });
const hour = 3_600_000;
const session = (id: string, current: boolean, more: Partial<SessionInfo> = {}): SessionInfo => ({
  id, current, device: 'Chrome on Android', browser: 'Chrome', os: 'Android', userAgent: 'Mozilla/5.0',
  method: 'password', createdAt: Date.UTC(2026, 10, 20, 8), lastUsedAt: Date.UTC(2026, 10, 23, 8), ip: '203.0.113.7',
  createdIp: '203.0.113.7', ...more,
});
const entry = (id: string, more: Partial<LoginHistoryEntry> = {}): LoginHistoryEntry => ({
  id, method: 'password', success: true, ip: '198.51.100.4', device: 'Safari on iOS', browser: 'Safari', os: 'iOS',
  newDevice: false, createdAt: Date.UTC(2026, 10, 23, 8) - Number(id) * hour, ...more,
});

/** A server with the current session and two others, and one page of login history. */
function serve() {
  let sessions = [session('1', true), session('2', false, { device: 'Firefox on Windows', method: 'code', ip: '192.0.2.9' }),
    session('3', false, { device: 'Safari on iOS', method: 'google' })];
  const history = [entry('11', { success: false, method: 'code' }), entry('12', { newDevice: true, device: 'Edge on Windows' })];
  const calls: { path: string; method: string; body: Record<string, unknown>; search: string }[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const parsed = new URL(String(url), 'http://localhost');
    const path = parsed.pathname;
    const body = typeof init?.body === 'string' && init.body.startsWith('{') ? JSON.parse(init.body) as Record<string, unknown> : {};
    calls.push({ path, method: init?.method ?? 'GET', body, search: parsed.search });
    let result: unknown = 'PEM';
    if (path.endsWith('/user/appSession/listMy')) result = sessions;
    if (path.endsWith('/user/appSession/end')) {
      sessions = sessions.filter((item) => item.id !== body.id);
      result = null;
    }
    if (path.endsWith('/user/appSession/endOthers')) {
      const ended = sessions.filter((item) => !item.current).length;
      sessions = sessions.filter((item) => item.current);
      result = { ended };
    }
    if (path.endsWith('/user/appSession/loginHistory')) result = { records: history, total: 2, size: 20, current: 1, pages: 1 };
    return new Response(JSON.stringify(success(result)), { status: 200 });
  }));
  return calls;
}

function renderSection() {
  configureApiClient({ notify: vi.fn() });
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  render(
    <Provider store={store}>
      <I18nProvider i18n={i18n}><SessionsSection /></I18nProvider>
    </Provider>,
  );
}

describe('sessions and devices', () => {
  it('lists the sessions with this device marked and an End button for each other one only', async () => {
    serve();
    renderSection();
    const current = await screen.findByTestId('session-1', {}, { timeout: 5_000 });
    expect(within(current).getByText('This device')).toBeTruthy();
    expect(within(current).queryByRole('button')).toBeNull();
    const other = screen.getByTestId('session-2');
    expect(within(other).queryByText('This device')).toBeNull();
    expect(within(other).getByText('IP address: 192.0.2.9')).toBeTruthy();
    expect(within(other).getByText(/^Logged in with Verification code on /)).toBeTruthy();
    // A password with an authenticator app's code does not read as a Google sign-in (issue 19 #11).
    expect(within(screen.getByTestId('session-3')).getByText(/^Logged in with Password \+ authenticator app on /)).toBeTruthy();
    expect(screen.queryByText(/Google/)).toBeNull();
    expect(within(other).getByRole('button', { name: 'End the session on Firefox on Windows' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'End all other sessions' })).toBeTruthy();
  });

  it('ends one session with its id after confirming, and refreshes the list', async () => {
    const calls = serve();
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'End the session on Firefox on Windows' }, { timeout: 5_000 }));
    await waitFor(() => expect(screen.queryByTestId('session-2')).toBeNull(), { timeout: 5_000 });
    expect(feedback.confirm).toHaveBeenCalledTimes(1);
    const ends = calls.filter((call) => call.path.endsWith('/user/appSession/end'));
    expect(ends).toHaveLength(1);
    expect(ends[0].method).toBe('POST');
    expect(ends[0].body).toMatchObject({ id: '2' });
    expect(screen.getByTestId('session-3')).toBeTruthy();
    expect(feedback.toast).toHaveBeenCalledWith('Session ended');
  });

  it('does not end a session when the confirmation is cancelled', async () => {
    const calls = serve();
    feedback.confirm.mockResolvedValue(false);
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'End the session on Firefox on Windows' }, { timeout: 5_000 }));
    await waitFor(() => expect(feedback.confirm).toHaveBeenCalledTimes(1));
    expect(calls.some((call) => call.path.endsWith('/user/appSession/end'))).toBe(false);
    expect(screen.getByTestId('session-2')).toBeTruthy();
  });

  it('ends all other sessions after confirming and says how many ended', async () => {
    const calls = serve();
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'End all other sessions' }, { timeout: 5_000 }));
    expect(await screen.findByText('Sessions ended: 2', {}, { timeout: 5_000 })).toBeTruthy();
    expect(calls.filter((call) => call.path.endsWith('/user/appSession/endOthers'))).toHaveLength(1);
    await waitFor(() => expect(screen.queryByTestId('session-2')).toBeNull(), { timeout: 5_000 });
    expect(screen.queryByTestId('session-3')).toBeNull();
    expect(screen.getByTestId('session-1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'End all other sessions' })).toBeNull();
  });

  it('says when the sessions could not be loaded, and loads them again on Retry', async () => {
    serve();
    const served = vi.mocked(fetch);
    const working = served.getMockImplementation()!;
    let refused = false;
    served.mockImplementation(async (url, init) => {
      if (!refused && String(url).includes('/user/appSession/listMy')) {
        refused = true;
        return new Response(JSON.stringify({ success: false, code: 500, message: 'Busy', result: null, timestamp: 0 }), { status: 500 });
      }
      return working(url, init);
    });
    renderSection();
    const alert = await screen.findByText(/The sessions could not be loaded\./, {}, { timeout: 5_000 });
    expect(alert).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Retry' })[0]);
    expect(await screen.findByTestId('session-1', {}, { timeout: 5_000 })).toBeTruthy();
  });

  it('shows the login history with a failed attempt and a new device', async () => {
    const calls = serve();
    renderSection();
    const failed = await screen.findByTestId('login-11', {}, { timeout: 5_000 });
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).queryByText('New device')).toBeNull();
    const fresh = screen.getByTestId('login-12');
    expect(within(fresh).getByText('Succeeded')).toBeTruthy();
    expect(within(fresh).getByText('New device')).toBeTruthy();
    expect(within(fresh).getByText('Edge on Windows')).toBeTruthy();
    expect(within(fresh).getByText('IP address: 198.51.100.4')).toBeTruthy();
    const history = calls.find((call) => call.path.endsWith('/user/appSession/loginHistory'))!;
    expect(history.search).toContain('pageNo=1');
  });
});
