// The back office's identity screens against a stubbed transport: the KYC queue asks for pending
// applications first, the drawer shows every field and both photos read with the operator's token
// (their object URLs released on close), a rejection sends the reason; the levels form refuses a
// bad amount in place and sends an empty limit as null; user search runs on submit only and shows
// the security state; the operator's authenticator rotation sends the ticket with both codes and
// shows a refusal in the operator's words.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure } from '@testing-library/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { App as AntApp } from 'antd';
import { i18n } from '@lingui/core';
import type { ReactNode } from 'react';
import type { AdminKycApplication, AdminUserSecurity, KycLevel } from '../../src/api/contract/identity.ts';
import { createAdminStore } from '../../src/admin/store.ts';
import { writeToken } from '../../src/admin/transport.ts';
import { KycScreen } from '../../src/admin/pages/KycScreen.tsx';
import { UsersScreen } from '../../src/admin/pages/UsersScreen.tsx';
import { OperatorSecurityScreen } from '../../src/admin/pages/OperatorSecurityScreen.tsx';

configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 60_000 });

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const application: AdminKycApplication = {
  id: '41', userId: '7', account: 'ana@example.com', level: 1, status: 'pending',
  details: { surname: 'Lopez', firstName: 'Ana', idType: 'passport', idNumber: 'X1234567' },
  hasFront: true, hasBack: true, createdAt: Date.UTC(2026, 5, 1, 4),
};
const levels: KycLevel[] = [
  { level: 0, withdrawDailyLimit: '1000.000000', loanLimit: '0.000000', productsOpen: false },
  { level: 1, withdrawDailyLimit: '50000.000000', loanLimit: '1000.000000', productsOpen: true },
  { level: 2, loanLimit: '10000.000000', productsOpen: true },
];
const found: AdminUserSecurity = {
  userId: '7', account: 'ana@example.com', createdAt: Date.UTC(2026, 4, 1), kycLevel: 1, kycPending: true, googleBound: true,
  recoveryCodesLeft: 8, passkeys: 2, wallets: ['0xabababababababababababababababababababab'], oidcProviders: ['google'], activeSessions: 3,
  lastLoginAt: Date.UTC(2026, 5, 1, 3), lastLoginIp: '192.0.2.9', failedLogins24h: 4,
};

type Call = { method: string; path: string; query: Record<string, string>; body: any; token: string | null };
let calls: Call[] = [];
let refuseNext: { error: string; message: string } | undefined;
let role = 'admin';
const created: string[] = [];
const revoked: string[] = [];

const envelope = (result: unknown, code = 200, message = 'OK') => new Response(JSON.stringify({ success: code === 200, code, message, result, timestamp: 0 }),
  { status: 200, headers: { 'content-type': 'application/json' } });

function serve(url: string, init?: RequestInit): Response {
  const parsed = new URL(url, 'http://localhost');
  const path = parsed.pathname;
  const method = init?.method ?? 'GET';
  const headers = new Headers(init?.headers);
  const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
  calls.push({ method, path, query: Object.fromEntries(parsed.searchParams), body, token: headers.get('x-access-token') });
  if (path.endsWith('PublicKey')) return envelope('key');
  if (method === 'POST' && refuseNext) {
    const refusal = refuseNext;
    refuseNext = undefined;
    return envelope({ error: refusal.error }, 400, refusal.message);
  }
  if (path === '/api/admin/me') return envelope({ id: '1', email: 'op@bourse.local', role });
  if (path === '/api/admin/kyc') return envelope({ records: [application], total: 1, size: 20, current: 1, pages: 1 });
  if (/^\/api\/admin\/kyc\/41\/photo\/(front|back)$/.test(path)) {
    return new Response(new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), { status: 200 });
  }
  if (path === '/api/admin/kyc/41/reject') return envelope({ ...application, status: 'rejected', reason: body.reason });
  if (path === '/api/admin/kyc-levels') return envelope(levels);
  if (path === '/api/admin/kyc-levels/1') return envelope({ level: 1, ...body });
  if (path === '/api/admin/users') return envelope({ records: [found], total: 1, size: 20, current: 1, pages: 1 });
  if (path === '/api/admin/me/totp') {
    return envelope({ secret: 'JBSWY3DPEHPK3PXPNEWSECRET2345678', otpauthUri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXPNEWSECRET2345678', ticket: 'sealed-ticket-value-0123456789', expiresAt: Date.UTC(2026, 5, 1, 4, 10) });
  }
  if (path === '/api/admin/me/totp/confirm') return envelope({ sessionsEnded: 2 });
  if (path === '/api/admin/users/7/google-auth/reset') return envelope({ sessionsEnded: 3 });
  return envelope(null, 404, 'Not found.');
}

beforeEach(() => {
  calls = [];
  refuseNext = undefined;
  role = 'admin';
  created.length = 0;
  revoked.length = 0;
  writeToken('operator-token');
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => serve(url, init)));
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false, media: query, onchange: null, addListener: () => undefined, removeListener: () => undefined,
    addEventListener: () => undefined, removeEventListener: () => undefined, dispatchEvent: () => false,
  }));
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
  URL.createObjectURL = (() => {
    const url = `blob:photo-${created.length + 1}`;
    created.push(url);
    return url;
  }) as typeof URL.createObjectURL;
  URL.revokeObjectURL = ((url: string) => { revoked.push(url); }) as typeof URL.revokeObjectURL;
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  writeToken('');
});

function renderWith(children: ReactNode) {
  render(
    <Provider store={createAdminStore()}>
      <I18nProvider i18n={i18n}><AntApp>{children}</AntApp></I18nProvider>
    </Provider>,
  );
}

const posts = () => calls.filter((call) => call.method === 'POST').map(({ path, body }) => {
  const { _ts: _ignored, ...fields } = body ?? {};
  return { path, body: fields };
});

describe('KYC review queue', () => {
  it('lists pending applications first and shows every field and both photos side by side, read with the operator token', async () => {
    renderWith(<KycScreen />);
    await screen.findByText('Lopez Ana');
    expect(calls.find((call) => call.path === '/api/admin/kyc')?.query).toMatchObject({ status: 'pending', pageNo: '1' });
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    const drawer = await screen.findByRole('dialog');
    const details = within(drawer).getByTestId('kyc-details');
    for (const text of ['Lopez', 'Ana', 'Passport', 'X1234567', 'ana@example.com']) expect(within(details).getAllByText(new RegExp(text)).length).toBeGreaterThan(0);
    const photos = within(drawer).getByTestId('kyc-photos');
    expect(await within(photos).findByTestId('kyc-photo-front')).toHaveProperty('alt', 'Front of the document');
    expect(await within(photos).findByTestId('kyc-photo-back')).toHaveProperty('alt', 'Back of the document');
    const photoCalls = calls.filter((call) => call.path.includes('/photo/'));
    expect(photoCalls.map((call) => call.path).sort()).toEqual(['/api/admin/kyc/41/photo/back', '/api/admin/kyc/41/photo/front']);
    expect(photoCalls.every((call) => call.token === 'operator-token')).toBe(true);
    expect(revoked).toEqual([]);
    fireEvent.click(within(drawer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(revoked.sort()).toEqual([...created].sort()));
    expect(created).toHaveLength(2);
  });

  it('rejects with the reason the operator writes, and refuses an empty reason in place', async () => {
    renderWith(<KycScreen />);
    await screen.findByText('Lopez Ana');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    fireEvent.click(await screen.findByTestId('kyc-reject'));
    await screen.findByText('Reject this verification');
    const modal = (await screen.findAllByRole('dialog')).find((dialog) => within(dialog).queryByText('Reject this verification'))!;
    fireEvent.click(within(modal).getByRole('button', { name: 'Reject' }));
    expect(await within(modal).findByText('This field is required.')).toBeTruthy();
    expect(posts()).toEqual([]);
    fireEvent.change(within(modal).getByLabelText('Reason (the user reads it)'), { target: { value: '  The photo of the back is blurred.  ' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(posts()).toEqual([{ path: '/api/admin/kyc/41/reject', body: { reason: 'The photo of the back is blurred.' } }]));
  });
});

describe('verification levels', () => {
  it('refuses a bad amount in place, then sends an empty daily limit as no limit', async () => {
    renderWith(<KycScreen />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Verification levels' }));
    fireEvent.click(await screen.findByTestId('level-edit-1'));
    const modal = await screen.findByRole('dialog');
    await waitFor(() => expect(within(modal).getByTestId('level-loan-limit')).toHaveProperty('value', '1000.000000'));
    fireEvent.change(within(modal).getByTestId('level-loan-limit'), { target: { value: '1e5' } });
    fireEvent.change(within(modal).getByTestId('level-withdraw-limit'), { target: { value: '1.1234567' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(await within(modal).findByText('Enter a plain decimal number, such as 12.5.')).toBeTruthy();
    expect(await within(modal).findByText('At most 6 decimals.')).toBeTruthy();
    expect(posts()).toEqual([]);
    fireEvent.change(within(modal).getByTestId('level-loan-limit'), { target: { value: '2500' } });
    fireEvent.change(within(modal).getByTestId('level-withdraw-limit'), { target: { value: '' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(posts()).toEqual([
      { path: '/api/admin/kyc-levels/1', body: { withdrawDailyLimit: null, loanLimit: '2500', productsOpen: true } },
    ]));
  });

  it('shows the server refusal in the operator language', async () => {
    renderWith(<KycScreen />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Verification levels' }));
    fireEvent.click(await screen.findByTestId('level-edit-1'));
    const modal = await screen.findByRole('dialog');
    await waitFor(() => expect(within(modal).getByTestId('level-loan-limit')).toHaveProperty('value', '1000.000000'));
    refuseNext = { error: 'kyc_settings_invalid', message: 'Level 2 may not unlock less than level 1.' };
    fireEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(await within(modal).findByTestId('level-error')).toHaveProperty('textContent',
      'These limits are not valid: amounts are plain USDT amounts, and a higher level may not unlock less than a lower one.');
  });
});

describe('user search', () => {
  it('searches on submit only and shows the security state', async () => {
    renderWith(<UsersScreen />);
    const box = within(await screen.findByTestId('user-search')).getByRole('searchbox');
    fireEvent.change(box, { target: { value: '  ana@ex ' } });
    expect(calls.filter((call) => call.path === '/api/admin/users')).toEqual([]);
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    const table = await screen.findByTestId('users-table');
    await within(table).findByText('ana@example.com');
    expect(calls.filter((call) => call.path === '/api/admin/users').map((call) => call.query.q)).toEqual(['ana@ex']);
    expect(within(table).getByTestId('user-kyc').dataset.level).toBe('1');
    for (const text of ['Basic', 'Under review', 'Bound', 'Recovery codes left: 8', 'Passkeys: 2', 'google', '192.0.2.9', '4']) {
      expect(within(table).getAllByText(text).length).toBeGreaterThan(0);
    }
  });
});

describe('removing a lost authenticator', () => {
  async function searchAna() {
    renderWith(<UsersScreen />);
    const box = within(await screen.findByTestId('user-search')).getByRole('searchbox');
    fireEvent.change(box, { target: { value: 'ana' } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    return screen.findByTestId('users-table');
  }

  it('asks an admin for a reason and their own code, refuses short ones in place, then sends both', async () => {
    const table = await searchAna();
    fireEvent.click(await within(table).findByTestId('reset-google'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Remove Google Authenticator of ana@example.com')).toBeTruthy();
    const ok = within(dialog).getByRole('button', { name: /Remove/ });
    fireEvent.click(ok);
    await within(dialog).findByText('This field is required.');
    await within(dialog).findByText('Enter the 6-digit code.');
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Reason/ }), { target: { value: 'lost' } });
    fireEvent.change(within(dialog).getByTestId('reason-code'), { target: { value: '12345' } });
    fireEvent.click(ok);
    await waitFor(() => expect(within(dialog).queryByText('This field is required.')).toBeNull());
    expect(posts().filter(({ path }) => path.includes('google-auth'))).toEqual([]);

    refuseNext = { error: 'operator_totp_current_invalid', message: 'The code of your current authenticator is wrong or was used already.' };
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Reason/ }), { target: { value: 'Lost phone; identity checked by video call' } });
    fireEvent.change(within(dialog).getByTestId('reason-code'), { target: { value: '123456' } });
    fireEvent.click(ok);
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('reason-code'), { target: { value: '654321' } });
    fireEvent.click(ok);
    await screen.findByText('Google Authenticator removed. Sessions ended: 3. The user was told.');
    expect(posts().filter(({ path }) => path.includes('google-auth'))).toEqual([
      { path: '/api/admin/users/7/google-auth/reset', body: { reason: 'Lost phone; identity checked by video call', operatorCode: '123456' } },
      { path: '/api/admin/users/7/google-auth/reset', body: { reason: 'Lost phone; identity checked by video call', operatorCode: '654321' } },
    ]);
  });

  it('is not offered to an operator who is not an admin', async () => {
    role = 'operator';
    const table = await searchAna();
    await within(table).findByText('Recovery codes left: 8');
    expect(within(table).queryByTestId('reset-google')).toBeNull();
  });
});

describe('operator authenticator', () => {
  it('shows the new secret, sends the ticket with both codes, and says a refusal in the operator words', async () => {
    renderWith(<OperatorSecurityScreen />);
    fireEvent.click(await screen.findByTestId('totp-start'));
    expect(await screen.findByTestId('totp-secret')).toHaveProperty('textContent', expect.stringContaining('JBSWY3DPEHPK3PXPNEWSECRET2345678'));
    fireEvent.change(screen.getByTestId('totp-new-code'), { target: { value: '12345' } });
    fireEvent.change(screen.getByTestId('totp-current-code'), { target: { value: '654321' } });
    fireEvent.click(screen.getByTestId('totp-confirm'));
    expect(await screen.findAllByText('Enter the 6-digit code.')).toHaveLength(1);
    expect(posts().filter((post) => post.path.endsWith('/confirm'))).toEqual([]);
    fireEvent.change(screen.getByTestId('totp-new-code'), { target: { value: '123456' } });
    refuseNext = { error: 'operator_totp_current_invalid', message: 'wrong' };
    fireEvent.click(screen.getByTestId('totp-confirm'));
    expect(await screen.findByTestId('totp-error')).toHaveProperty('textContent',
      'The code from your current secret is wrong or was used already. Wait for the next code.');
    fireEvent.click(screen.getByTestId('totp-confirm'));
    expect(await screen.findByTestId('totp-done')).toHaveProperty('textContent', expect.stringContaining('Other sessions ended: 2.'));
    expect(posts().filter((post) => post.path.endsWith('/confirm'))).toEqual([
      { path: '/api/admin/me/totp/confirm', body: { ticket: 'sealed-ticket-value-0123456789', code: '123456', currentCode: '654321' } },
      { path: '/api/admin/me/totp/confirm', body: { ticket: 'sealed-ticket-value-0123456789', code: '123456', currentCode: '654321' } },
    ]);
    expect(screen.queryByTestId('totp-secret')).toBeNull();
  });
});
