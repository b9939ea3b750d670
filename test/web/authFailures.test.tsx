// How the account forms show a refusal (issue 7, point 3; issue 8, point 6): under the field it
// concerns or else under the form, translated by its error code, with the wait the server names
// in the user's language, and without a toast on top (more cases in forms.test.tsx).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import { activateLocale, i18n } from '../../src/lib/i18n.ts';
import { api, configureApiClient } from '../../src/api/api.ts';
import { failureText } from '../../src/api/errorMessages.ts';
import { userSlice } from '../../src/entities/session/userSlice.ts';
import { PasswordLogin } from '../../src/features/auth/PasswordLogin.tsx';
import { prepareAccountTexts } from '../../src/lib/catalogs.ts';

// The body's encryption is tested in crypto.test.ts; here it only has to reach the stubbed fetch.
vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await activateLocale('en-us');
});

const throttled = (retryAfterSeconds: number) => ({
  kind: 'api', code: 429, error: 'too_many_attempts', message: 'translated without the wait', retryAfterSeconds,
});

describe('failureText', () => {
  it('names the wait of a password lockout in seconds, then minutes', () => {
    expect(failureText(throttled(45))).toBe('Too many wrong passwords. Please try again in 45 seconds, or reset your password.');
    expect(failureText(throttled(240))).toBe('Too many wrong passwords. Please try again in 4 minutes, or reset your password.');
  });

  it('names the wait of an address limit', () => {
    expect(failureText({ kind: 'api', code: 429, error: 'rate_limited', message: 'm', retryAfterSeconds: 3600 }))
      .toBe('Too many attempts. Please try again in 60 minutes.');
  });

  it('says the wait in the language of the page', async () => {
    await activateLocale('ko');
    expect(failureText(throttled(120))).toBe('잘못된 비밀번호를 너무 많이 입력했습니다. 2분 후에 다시 시도하거나 비밀번호를 재설정해 주세요.');
    await activateLocale('zh-cn');
    expect(failureText(throttled(60))).toBe('密码错误次数过多。请于60秒钟后重试，或重置密码。');
  });

  it('keeps the message a failure already carries when there is no wait', () => {
    expect(failureText({ kind: 'api', code: 400, error: 'credentials_invalid', message: 'The account or password is wrong.' }))
      .toBe('The account or password is wrong.');
    expect(failureText({ kind: 'network', message: 'Network error.' })).toBe('Network error.');
  });
});

describe('PasswordLogin', () => {
  function renderForm() {
    const store = configureStore({
      reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer },
      middleware: (getDefault) => getDefault().concat(api.middleware),
    });
    render(
      <Provider store={store}>
        <I18nProvider i18n={i18n}>
          <MemoryRouter><PasswordLogin /></MemoryRouter>
        </I18nProvider>
      </Provider>,
    );
  }

  function answerLoginWith(status: number, envelope: unknown) {
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      const body = String(url).includes('getPublicKey') ? { success: true, code: 200, message: '', result: 'PEM' } : envelope;
      return new Response(JSON.stringify(body), { status: String(url).includes('getPublicKey') ? 200 : status });
    }));
  }

  it("shows the server's lockout with its wait under the form, in the user's language, and no toast", async () => {
    await activateLocale('jp');
    await prepareAccountTexts();
    const notify = vi.fn();
    configureApiClient({ notify });
    answerLoginWith(429, {
      success: false, code: 429, message: 'Too many wrong passwords. Please try again in 2 minutes, or reset your password.',
      result: { error: 'too_many_attempts', retryAfterSeconds: 120 }, timestamp: 0,
    });
    renderForm();
    fireEvent.change(screen.getAllByRole('textbox')[0], { target: { value: 'someone@example.com' } });
    fireEvent.change(document.querySelector('input[type="password"]')!, { target: { value: 'Wrong1password' } });
    fireEvent.submit(document.querySelector('form')!);
    const alert = await screen.findByRole('alert', {}, { timeout: 5_000 });
    expect(alert.textContent).toBe('パスワードの誤りが多すぎます。2 分後に再度お試しいただくか、パスワードを再設定してください。');
    expect(notify).not.toHaveBeenCalled();
  });

  it('shows a wrong password under the password field, announced, without a toast', async () => {
    const notify = vi.fn();
    configureApiClient({ notify });
    answerLoginWith(400, {
      success: false, code: 400, message: 'The account or password is wrong.', result: { error: 'credentials_invalid' }, timestamp: 0,
    });
    renderForm();
    fireEvent.change(screen.getAllByRole('textbox')[0], { target: { value: 'someone@example.com' } });
    fireEvent.change(document.querySelector('input[type="password"]')!, { target: { value: 'Wrong1password' } });
    fireEvent.submit(document.querySelector('form')!);
    expect((await screen.findByRole('alert', {}, { timeout: 5_000 })).textContent).toBe('The account or password is wrong.');
    const passwordItem = document.querySelector('input[type="password"]')!.closest('.adm-form-item')!;
    expect(passwordItem.querySelector('.adm-form-item-feedback-error')?.textContent).toBe('The account or password is wrong.');
    expect(document.querySelector('.form-error')).toBeNull();
    expect(notify).not.toHaveBeenCalled();
  });
});
