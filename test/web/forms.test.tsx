// Server refusals under the field they concern (issue 8, point 6): each account form maps the
// envelope's `result.error` to one of its fields through components/form, shows what concerns no
// field under itself, and never toasts. Also the password eye, "code sent to …" and the masks.
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import { activateLocale, i18n } from '../../src/lib/i18n.ts';
import { api, configureApiClient } from '../../src/api/api.ts';
import { paths } from '../../src/api/contract/paths.ts';
import { userSlice } from '../../src/entities/session/userSlice.ts';
import { PasswordLogin } from '../../src/features/auth/PasswordLogin.tsx';
import { RegisterForm } from '../../src/features/auth/RegisterForm.tsx';
import { ChangePasswordPopup } from '../../src/features/profile/ChangePasswordPopup.tsx';
import { PasswordInput } from '../../src/components/form/PasswordInput.tsx';
import { maskEmail, maskPhone } from '../../src/lib/maskAddress.ts';

// The body's encryption is tested in crypto.test.ts; here the "sealed" body is the JSON itself.
vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

interface Sent { path: string; query: URLSearchParams; body: Record<string, unknown> | undefined }

const refusal = (status: number, error: string, extra: Record<string, unknown> = {}) => ({
  status, envelope: { success: false, code: status, message: `server text for ${error}`, result: { error, ...extra }, timestamp: 0 },
});
const success = (result: unknown) => ({ status: 200, envelope: { success: true, code: 200, message: 'OK', result, timestamp: 0 } });

let sent: Sent[];
let notify: Mock<(message: string) => void>;

/** Answers each API path with the scripted answer (or throws, as fetch does offline). */
function answer(routes: Record<string, ReturnType<typeof success> | 'offline'>) {
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const address = new URL(String(url), 'https://bourse.test');
    const path = address.pathname.replace(/^\/api/, '');
    if (path === paths.publicKey) return new Response(JSON.stringify(success('PEM').envelope));
    sent.push({ path, query: address.searchParams, body: init?.body ? JSON.parse(String(init.body)) as Record<string, unknown> : undefined });
    const route = routes[path];
    if (route === 'offline') throw new TypeError('Failed to fetch');
    if (!route) throw new Error(`no answer scripted for ${path}`);
    return new Response(JSON.stringify(route.envelope), { status: route.status });
  }));
}

function renderWithStore(node: ReactNode) {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  return render(
    <Provider store={store}>
      <I18nProvider i18n={i18n}><MemoryRouter>{node}</MemoryRouter></I18nProvider>
    </Provider>,
  );
}

const type = (element: Element, value: string) => fireEvent.change(element, { target: { value } });
const input = (placeholder: string) => screen.getByPlaceholderText(placeholder, { exact: true });
/** The error lines antd-mobile shows under the form item holding `element`. */
const errorsUnder = (element: Element) =>
  [...element.closest('.adm-form-item')!.querySelectorAll('.adm-form-item-feedback-error')].map((line) => line.textContent);
/** The refusal shown under the whole form (not the announcement of a field's error). */
const formError = () => document.querySelector('.form-error')?.textContent;
const submit = () => fireEvent.submit(document.querySelector('form')!);

beforeEach(() => {
  sent = [];
  notify = vi.fn<(message: string) => void>();
  configureApiClient({ notify });
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  await activateLocale('en-us');
});

describe('PasswordLogin', () => {
  async function refusedWith(answerWith: ReturnType<typeof refusal> | 'offline') {
    answer({ [paths.login]: answerWith });
    renderWithStore(<PasswordLogin />);
    type(input('E-mail, mobile or account'), 'someone@example.com');
    type(input('Password'), 'Wrong1password');
    submit();
    await waitFor(() => expect(sent.map((request) => request.path)).toContain(paths.login));
  }

  it('shows a wrong password under the password field, announces it, and does not toast', async () => {
    await refusedWith(refusal(400, 'credentials_invalid'));
    await waitFor(() => expect(errorsUnder(input('Password'))).toEqual(['The account or password is wrong.']));
    expect(errorsUnder(input('E-mail, mobile or account'))).toEqual([]);
    expect(formError()).toBeUndefined();
    expect(screen.getByRole('alert').textContent).toBe('The account or password is wrong.');
    expect(notify).not.toHaveBeenCalled();
  });

  it('drops the server\'s error from the field once the password is typed again', async () => {
    await refusedWith(refusal(400, 'credentials_invalid'));
    await waitFor(() => expect(errorsUnder(input('Password'))).toHaveLength(1));
    type(input('Password'), 'Another1password');
    await waitFor(() => expect(errorsUnder(input('Password'))).toEqual([]));
  });

  it('shows a failure of the network under the form, not under a field', async () => {
    await refusedWith('offline');
    await waitFor(() => expect(formError()).toBe('Network error. Please check your connection and try again.'));
    expect(errorsUnder(input('Password'))).toEqual([]);
    expect(notify).not.toHaveBeenCalled();
  });

  it('says it in the language of the page', async () => {
    await activateLocale('ko');
    const { prepareAccountTexts } = await import('../../src/lib/catalogs.ts');
    await prepareAccountTexts();
    answer({ [paths.login]: refusal(400, 'credentials_invalid') });
    renderWithStore(<PasswordLogin />);
    type(document.querySelector('input[autocomplete="username"]')!, 'someone@example.com');
    const password = document.querySelector('input[autocomplete="current-password"]')!;
    type(password, 'Wrong1password');
    submit();
    await waitFor(() => expect(errorsUnder(password)).toEqual(['계정 또는 비밀번호가 올바르지 않습니다.']));
  });
});

describe('RegisterForm', () => {
  async function fillAndSubmit(routes: Parameters<typeof answer>[0]) {
    answer(routes);
    renderWithStore(<RegisterForm onLogin={() => undefined} />);
    type(input('E-mail'), 'taken@example.com');
    type(input('Verification code'), '123456');
    type(input('Password'), 'Secret123pass');
    type(input('Password again'), 'Secret123pass');
    type(input('Invitation code (optional)'), 'ABCD1234');
    fireEvent.click(screen.getByRole('checkbox', { name: 'I have read and accept the user agreement' }));
    submit();
    await waitFor(() => expect(sent.map((request) => request.path)).toContain(paths.register));
  }

  it.each([
    { error: 'account_exists', field: 'E-mail', message: 'Account already exists, please log in with your password.' },
    { error: 'code_invalid', field: 'Verification code', message: 'The verification code is wrong. Please check it or request a new one.' },
    { error: 'code_expired', field: 'Verification code', message: 'The verification code has expired. Please request a new one.' },
    { error: 'password_weak', field: 'Password', message: 'The password must be 8–64 characters with at least one letter and one digit.' },
    { error: 'invite_code_invalid', field: 'Invitation code (optional)', message: 'The invitation code does not exist.' },
  ])('shows $error under the field "$field", alone, without a toast', async ({ error, field, message }) => {
    await fillAndSubmit({ [paths.register]: refusal(400, error) });
    await waitFor(() => expect(errorsUnder(input(field))).toEqual([message]));
    for (const other of ['E-mail', 'Verification code', 'Password', 'Invitation code (optional)'].filter((name) => name !== field)) {
      expect(errorsUnder(input(other)), other).toEqual([]);
    }
    expect(formError()).toBeUndefined();
    expect(notify).not.toHaveBeenCalled();
  });

  it('keeps a refusal on a field without rules only until that field changes', async () => {
    await fillAndSubmit({ [paths.register]: refusal(400, 'invite_code_invalid') });
    await waitFor(() => expect(errorsUnder(input('Invitation code (optional)'))).toHaveLength(1));
    type(input('Invitation code (optional)'), 'WXYZ9876');
    await waitFor(() => expect(errorsUnder(input('Invitation code (optional)'))).toEqual([]));
  });

  it('shows an address limit with its wait under the form', async () => {
    await fillAndSubmit({ [paths.register]: refusal(429, 'rate_limited', { retryAfterSeconds: 600 }) });
    await waitFor(() => expect(formError()).toBe('Too many attempts. Please try again in 10 minutes.'));
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('Send code', () => {
  function renderRegister(routes: Parameters<typeof answer>[0]) {
    answer(routes);
    renderWithStore(<RegisterForm onLogin={() => undefined} />);
    type(input('E-mail'), 'jane.doe@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
  }

  it('says where the code went, masked, under the code field', async () => {
    renderRegister({ [paths.emailCaptcha]: success({ resendAfterSeconds: 60, expiresInSeconds: 600 }) });
    expect((await screen.findByRole('status')).textContent).toBe('Code sent to j***@example.com');
    expect(sent[0].query.get('email')).toBe('jane.doe@example.com');
    expect(await screen.findByRole('button', { name: 'Resend in 60s' })).toBeDefined();
    // Another address: the note was about a code for the first one.
    type(input('E-mail'), 'someone.else@example.com');
    await waitFor(() => expect(screen.queryByText(/Code sent to/)).toBeNull());
    type(input('E-mail'), 'jane.doe@example.com');
    expect((await screen.findByRole('status')).textContent).toBe('Code sent to j***@example.com');
  });

  it('shows a send too soon under the code field and counts down the wait the server names', async () => {
    renderRegister({ [paths.emailCaptcha]: refusal(429, 'code_send_too_soon', { retryAfterSeconds: 37 }) });
    await waitFor(() => expect(errorsUnder(input('Verification code'))).toEqual(['Please wait before requesting another code.']));
    expect(await screen.findByRole('button', { name: 'Resend in 37s' })).toBeDefined();
    expect(screen.queryByText(/Code sent to/)).toBeNull();
    expect(notify).not.toHaveBeenCalled();
  });

  it('shows a failure of the network under the code field, and the button can be pressed again', async () => {
    renderRegister({ [paths.emailCaptcha]: 'offline' });
    await waitFor(() => expect(errorsUnder(input('Verification code')))
      .toEqual(['Network error. Please check your connection and try again.']));
    expect((screen.getByRole('button', { name: 'Send code' }) as HTMLButtonElement).disabled).toBe(false);
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('ChangePasswordPopup', () => {
  async function refusedWith(error: string) {
    answer({ [paths.changePassword]: refusal(400, error) });
    renderWithStore(<ChangePasswordPopup visible onClose={() => undefined} onChanged={() => undefined} />);
    type(input('Current password'), 'Wrong1password');
    type(input('New password'), 'Renewed2password');
    type(input('Password again'), 'Renewed2password');
    submit();
    await waitFor(() => expect(sent.map((request) => request.path)).toContain(paths.changePassword));
  }

  it('shows a wrong current password under that field', async () => {
    await refusedWith('credentials_invalid');
    await waitFor(() => expect(errorsUnder(input('Current password'))).toEqual(['The account or password is wrong.']));
    expect(notify).not.toHaveBeenCalled();
  });

  it('shows an unchanged password under the new password', async () => {
    await refusedWith('password_unchanged');
    await waitFor(() => expect(errorsUnder(input('New password'))).toEqual(['The new password must differ from the current one.']));
  });
});

describe('PasswordInput', () => {
  it('shows and hides what was typed with a toggle button named "Show password"', async () => {
    renderWithStore(<PasswordInput placeholder="Password" />);
    const field = input('Password') as HTMLInputElement;
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(field.type).toBe('password');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await act(async () => fireEvent.click(toggle));
    expect(field.type).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    await act(async () => fireEvent.click(toggle));
    expect(field.type).toBe('password');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
  });
});

describe('maskEmail and maskPhone', () => {
  it('keep the first character and the domain of an e-mail', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j***@example.com');
    expect(maskEmail(' Ünal@posta.com.tr ')).toBe('Ü***@posta.com.tr');
    expect(maskEmail('a@b.co')).toBe('a***@b.co');
    expect(maskEmail('not-an-address')).toBe('***');
  });

  it('keep the calling code and the last four digits of a phone number, two of a short one', () => {
    expect(maskPhone('44', '7700 900123')).toBe('+44 •••• 0123');
    expect(maskPhone('82', '01012345678')).toBe('+82 •••• 5678');
    expect(maskPhone('354', '12345')).toBe('+354 •••• 45');
  });
});
