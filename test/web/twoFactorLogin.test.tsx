// The login page's second step (issue 11): a right password on an account with Google
// Authenticator bound is answered google_code_required; the form then asks for the 6-digit code
// (or a recovery code) and sends it with the password it kept in memory to googleSecretLogin.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { testStore } from './testStore.ts';
import { activateLocale, i18n } from '../../src/lib/i18n.ts';
import { configureApiClient } from '../../src/api/api.ts';
import { PasswordLogin } from '../../src/features/auth/PasswordLogin.tsx';
import { prepareAccountTexts } from '../../src/lib/catalogs.ts';
import LoginPage from '../../src/features/auth/LoginPage.tsx';
import { ForgotForm } from '../../src/features/auth/ForgotForm.tsx';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await activateLocale('en-us');
});

const refusal = (error: string, message: string) => ({ status: 400, body: { success: false, code: 400, message, result: { error }, timestamp: 0 } });
const success = (result: unknown) => ({ status: 200, body: { success: true, code: 200, message: '', result, timestamp: 0 } });

/** A server that asks for the code, refuses `wrong`, and accepts any other code. */
function serve(wrong: string) {
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(String(url), 'http://localhost').pathname;
    const body = typeof init?.body === 'string' && init.body.startsWith('{') ? JSON.parse(init.body) as Record<string, unknown> : {};
    calls.push({ path, body });
    let answer = success('PEM');
    if (path.endsWith('/app/login')) answer = refusal('google_code_required', 'Please enter the 6-digit code from Google Authenticator.');
    if (path.endsWith('/app/googleSecretLogin')) {
      answer = body.googleCode === wrong
        ? refusal('google_code_invalid', 'The Google Authenticator code is wrong or was already used. Please wait for the next code.')
        : success({ token: 'token-from-google-login' });
    }
    if (path.endsWith('/getMyUserInfo')) answer = success({ id: '1', account: 'someone@example.com', accountType: 'email' });
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  }));
  return calls;
}

function renderForm() {
  const store = testStore();
  render(
    <Provider store={store}>
      <I18nProvider i18n={i18n}>
        <MemoryRouter><PasswordLogin /></MemoryRouter>
      </I18nProvider>
    </Provider>,
  );
  return store;
}

async function passwordStep() {
  fireEvent.change(screen.getAllByRole('textbox')[0], { target: { value: 'someone@example.com' } });
  fireEvent.change(document.querySelector('input[type="password"]')!, { target: { value: 'Secret123pass' } });
  fireEvent.submit(document.querySelector('form')!);
  return screen.findByLabelText('Google Authenticator code', { selector: 'input' }, { timeout: 5_000 });
}

describe('the Google code step of a password login', () => {
  it('asks for the code after a right password, shows a wrong code under its field, and logs in with the right one', async () => {
    const notify = vi.fn();
    configureApiClient({ notify });
    const calls = serve('111111');
    const store = renderForm();
    const input = await passwordStep();
    // The password is no longer on the page.
    expect(document.querySelector('input[type="password"]')).toBeNull();

    fireEvent.change(input, { target: { value: '111111' } });
    fireEvent.submit(document.querySelector('form')!);
    const alert = await screen.findByRole('alert', {}, { timeout: 5_000 });
    expect(alert.textContent).toBe('The Google Authenticator code is wrong or was already used. Please wait for the next code.');

    fireEvent.change(screen.getByLabelText('Google Authenticator code', { selector: 'input' }), { target: { value: '246810' } });
    fireEvent.submit(document.querySelector('form')!);
    await waitFor(() => expect(store.getState().user.token).toBe('token-from-google-login'), { timeout: 5_000 });
    const logins = calls.filter((call) => call.path.endsWith('/app/googleSecretLogin'));
    expect(logins).toHaveLength(2);
    expect(logins[1].body).toMatchObject({ account: 'someone@example.com', password: 'Secret123pass', googleCode: '246810' });
    expect(logins[1].body).not.toHaveProperty('recoveryCode');
    expect(notify).not.toHaveBeenCalled();
  });

  it('takes a recovery code instead, and goes back to the password form', async () => {
    configureApiClient({ notify: vi.fn() });
    const calls = serve('111111');
    const store = renderForm();
    await passwordStep();
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const recovery = screen.getByLabelText('Recovery code', { selector: 'input' });
    fireEvent.change(recovery, { target: { value: 'abcde-fghjk' } });
    fireEvent.submit(document.querySelector('form')!);
    await waitFor(() => expect(store.getState().user.token).toBe('token-from-google-login'), { timeout: 5_000 });
    const login = calls.find((call) => call.path.endsWith('/app/googleSecretLogin'))!;
    expect(login.body).toMatchObject({ password: 'Secret123pass', recoveryCode: 'abcde-fghjk' });
    expect(login.body).not.toHaveProperty('googleCode');
  });

  it('is in the language of the page', async () => {
    await activateLocale('ko');
    await prepareAccountTexts();
    configureApiClient({ notify: vi.fn() });
    serve('111111');
    renderForm();
    fireEvent.change(screen.getAllByRole('textbox')[0], { target: { value: 'someone@example.com' } });
    fireEvent.change(document.querySelector('input[type="password"]')!, { target: { value: 'Secret123pass' } });
    fireEvent.submit(document.querySelector('form')!);
    await screen.findByText('Google OTP 앱을 열고 Bourse의 6자리 코드를 입력해 주세요.', {}, { timeout: 5_000 });
    expect(screen.getByRole('button', { name: '복구 코드 사용' })).toBeTruthy();
  });
});

/** Our server: any login of a bound account answers google_code_required with a ticket (issue 18). */
function serveTickets() {
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(String(url), 'http://localhost').pathname;
    const body = typeof init?.body === 'string' && init.body.startsWith('{') ? JSON.parse(init.body) as Record<string, unknown> : {};
    calls.push({ path, body });
    let answer: { status: number; body: unknown } = success('PEM');
    if (path.endsWith('/app/login')) {
      answer = { status: 400, body: { success: false, code: 400, message: 'Please enter the 6-digit code from Google Authenticator.',
        result: { error: 'google_code_required', loginTicket: 'ticket-from-password' }, timestamp: 0 } };
    }
    if (path.endsWith('/app/oidc/providers')) answer = success([]);
    if (path.endsWith('/app/loginSecondStep')) answer = success({ token: `token-for-${String(body.loginTicket)}` });
    if (path.endsWith('/getMyUserInfo')) answer = success({ id: '1', account: 'someone@example.com', accountType: 'email' });
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  }));
  return calls;
}

function renderLoginPage(entry: string) {
  const store = testStore();
  render(
    <Provider store={store}>
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={[entry]}>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/home" element={<p>Home page</p>} />
          </Routes>
        </MemoryRouter>
      </I18nProvider>
    </Provider>,
  );
  return store;
}

describe('the second step of every login (a ticket)', () => {
  it('takes a password login of a bound account to the two-step page, without the login tabs, and completes it with the ticket', async () => {
    configureApiClient({ notify: vi.fn() });
    const calls = serveTickets();
    const store = renderLoginPage('/login');
    fireEvent.change(screen.getAllByRole('textbox')[0], { target: { value: 'someone@example.com' } });
    fireEvent.change(document.querySelector('input[type="password"]')!, { target: { value: 'Secret123pass' } });
    fireEvent.submit(document.querySelector('form')!);
    await screen.findByRole('heading', { name: 'Two-step verification' }, { timeout: 5_000 });
    expect(screen.queryByRole('tab', { name: 'E-mail code' })).toBeNull();
    expect(document.querySelector('input[type="password"]')).toBeNull();
    fireEvent.change(screen.getByLabelText('Google Authenticator code', { selector: 'input' }), { target: { value: '246810' } });
    fireEvent.submit(document.querySelector('form')!);
    await waitFor(() => expect(store.getState().user.token).toBe('token-for-ticket-from-password'), { timeout: 5_000 });
    const step = calls.find((call) => call.path.endsWith('/app/loginSecondStep'))!;
    expect(step.body).toMatchObject({ loginTicket: 'ticket-from-password', googleCode: '246810' });
    expect(step.body).not.toHaveProperty('password');
    await screen.findByText('Home page', {}, { timeout: 5_000 });
  });

  it('asks for the code when an OpenID login lands with a ticket, and goes back to the login forms', async () => {
    configureApiClient({ notify: vi.fn() });
    serveTickets();
    renderLoginPage('/login?loginTicket=ticket-from-oidc');
    await screen.findByRole('heading', { name: 'Two-step verification' }, { timeout: 5_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByRole('tab', { name: 'E-mail code' }, { timeout: 5_000 });
  });
});

describe('the second step without a ticket, on the login page', () => {
  it('replaces the login tabs with the two-step heading, sends the kept password with the code, and Back returns to the tabs', async () => {
    configureApiClient({ notify: vi.fn() });
    const calls = serve('111111');
    const fetchWithProviders = globalThis.fetch;
    vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => (String(url).includes('/app/oidc/providers')
      ? new Response(JSON.stringify(success([]).body), { status: 200 })
      : fetchWithProviders(url, init))));
    renderLoginPage('/login');
    expect(screen.getByRole('tab', { name: 'E-mail code' })).toBeTruthy();
    await passwordStep();
    expect(screen.getByRole('heading', { name: 'Two-step verification' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Password' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'E-mail code' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Phone code' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByRole('tab', { name: 'E-mail code' }, { timeout: 5_000 });
    expect(screen.getByRole('heading', { name: 'Log in' })).toBeTruthy();

    await passwordStep();
    fireEvent.change(screen.getByLabelText('Google Authenticator code', { selector: 'input' }), { target: { value: '246810' } });
    fireEvent.submit(document.querySelector('form')!);
    await screen.findByText('Home page', {}, { timeout: 5_000 });
    const login = calls.filter((call) => call.path.endsWith('/app/googleSecretLogin')).at(-1)!;
    expect(login.body).toMatchObject({ account: 'someone@example.com', password: 'Secret123pass', googleCode: '246810' });
  });
});

describe('the password reset of a bound account', () => {
  it('shows the Google code field when the server asks for it, and resets with the code', async () => {
    configureApiClient({ notify: vi.fn() });
    const calls: Record<string, unknown>[] = [];
    vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(String(url), 'http://localhost').pathname;
      const body = typeof init?.body === 'string' && init.body.startsWith('{') ? JSON.parse(init.body) as Record<string, unknown> : {};
      let answer = success('PEM');
      if (path.endsWith('/app/resetPassword')) {
        calls.push(body);
        answer = body.googleCode ? success(null) : refusal('google_code_required', 'Please enter the 6-digit code from Google Authenticator.');
      }
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }));
    const done = vi.fn();
    const store = testStore();
    render(
      <Provider store={store}>
        <I18nProvider i18n={i18n}><MemoryRouter><ForgotForm onDone={done} /></MemoryRouter></I18nProvider>
      </Provider>,
    );
    fireEvent.change(screen.getByPlaceholderText('E-mail'), { target: { value: 'someone@example.com' } });
    fireEvent.change(screen.getByPlaceholderText('Verification code'), { target: { value: '123456' } });
    fireEvent.change(screen.getByPlaceholderText('New password'), { target: { value: 'Another2027pass' } });
    fireEvent.change(screen.getByPlaceholderText('Password again'), { target: { value: 'Another2027pass' } });
    fireEvent.submit(document.querySelector('form')!);
    const input = await screen.findByLabelText('Google Authenticator code', { selector: 'input' }, { timeout: 5_000 });
    expect(done).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '246810' } });
    fireEvent.submit(document.querySelector('form')!);
    await waitFor(() => expect(done).toHaveBeenCalled(), { timeout: 5_000 });
    expect(calls).toHaveLength(2);
    expect(calls[0]).not.toHaveProperty('googleCode');
    expect(calls[1]).toMatchObject({ account: 'someone@example.com', code: '123456', googleCode: '246810' });
  });
});
