// Personal data (issue 8, point 3): an emptied field is a change that is saved (as `clear`), the
// birthday is held to the ages the server accepts with the error under the field, and a refusal
// of the server shows under the form, not in a toast.
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import { DateTime } from 'luxon';
import { i18n } from '../../src/lib/i18n.ts';
import { api, configureApiClient } from '../../src/api/api.ts';
import { birthdayRange, type UserInfo } from '../../src/api/contract/accounts.ts';
import { paths } from '../../src/api/contract/paths.ts';
import { userSlice } from '../../src/entities/session/userSlice.ts';
import PersonalDataPage, { changedFields } from '../../src/features/profile/PersonalDataPage.tsx';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const user: UserInfo = {
  id: '7', account: 'minji@example.com', accountType: 'email', email: 'minji@example.com', phone: null, countryCode: null,
  hasInitialPassword: false, inviteCode: 'ABCD2345', surname: 'Kim', firstName: 'Minji', gender: 'female',
  birthday: '1990-05-17', country: 'KR', address: '1 Main Street', contactPhone: null, createTime: '2026-06-01 12:00:00',
};

describe('changedFields', () => {
  const values = { surname: 'Kim', firstName: 'Minji', gender: 'female', birthday: '1990-05-17', country: 'KR', address: '1 Main Street' };

  it('is empty when nothing changed, spaces around a value included', () => {
    expect(changedFields(values, user)).toEqual({});
    expect(changedFields({ ...values, surname: ' Kim ' }, user)).toEqual({});
  });

  it('sets what changed and clears what was emptied, whether to "" or to nothing', () => {
    expect(changedFields({ ...values, surname: '', address: undefined, birthday: undefined, firstName: 'Min-ji' }, user))
      .toEqual({ firstName: 'Min-ji', clear: ['surname', 'birthday', 'address'] });
    expect(changedFields({ ...values, surname: '   ' }, user)).toEqual({ clear: ['surname'] });
  });

  it('does not clear a field that was empty already', () => {
    expect(changedFields({ ...values, contactPhone: '' }, user)).toEqual({});
  });
});

describe('PersonalDataPage', () => {
  let updates: unknown[];
  let notify: Mock<(message: string) => void>;

  function renderPage(stored: UserInfo, update: (body: Record<string, unknown>) => { status: number; envelope: unknown }) {
    vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(String(url), 'https://bourse.test').pathname.replace(/^\/api/, '');
      const reply = (status: number, envelope: unknown) => new Response(JSON.stringify(envelope), { status });
      if (path === paths.publicKey) return reply(200, { success: true, code: 200, message: '', result: 'PEM', timestamp: 0 });
      if (path === paths.myUserInfo) return reply(200, { success: true, code: 200, message: '', result: stored, timestamp: 0 });
      if (path === paths.updatePersonalData) {
        const body = JSON.parse(String(init!.body)) as Record<string, unknown>;
        updates.push(body);
        const answer = update(body);
        return reply(answer.status, answer.envelope);
      }
      throw new Error(`no answer scripted for ${path}`);
    }));
    const store = configureStore({
      reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer },
      middleware: (getDefault) => getDefault().concat(api.middleware),
    });
    render(<Provider store={store}><I18nProvider i18n={i18n}><MemoryRouter><PersonalDataPage /></MemoryRouter></I18nProvider></Provider>);
  }

  const errorsUnder = (element: Element) =>
    [...element.closest('.adm-form-item')!.querySelectorAll('.adm-form-item-feedback-error')].map((line) => line.textContent);

  beforeEach(() => {
    updates = [];
    notify = vi.fn<(message: string) => void>();
    configureApiClient({ notify });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('saves an emptied surname as a field to clear', async () => {
    renderPage(user, (body) => ({ status: 200, envelope: { success: true, code: 200, message: '', timestamp: 0,
      result: { ...user, surname: null, ...body, clear: undefined } } }));
    const surname = await screen.findByPlaceholderText('Surname');
    fireEvent.change(surname, { target: { value: '' } });
    fireEvent.submit(document.querySelector('form')!);
    await waitFor(() => expect(updates).toEqual([{ clear: ['surname'], _ts: expect.any(Number) }]));
  });

  it('clears the birthday and the country with their clear buttons', async () => {
    renderPage(user, () => ({ status: 200, envelope: { success: true, code: 200, message: '', timestamp: 0, result: user } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Clear birthday' }));
    fireEvent.click(screen.getByRole('button', { name: 'Clear country' }));
    expect(screen.getByRole('button', { name: 'Birthday' }).textContent).toBe('Choose a date');
    fireEvent.submit(document.querySelector('form')!);
    await waitFor(() => expect(updates).toEqual([{ clear: ['birthday', 'country'], _ts: expect.any(Number) }]));
  });

  it('refuses a stored birthday under 18 under the field, and sends nothing', async () => {
    const tooYoung = DateTime.local().minus({ years: 17 }).toFormat('yyyy-MM-dd');
    expect(tooYoung > birthdayRange(DateTime.local().toFormat('yyyy-MM-dd')).latest).toBe(true);
    renderPage({ ...user, birthday: tooYoung }, () => { throw new Error('must not be sent'); });
    const birthday = await screen.findByRole('button', { name: `Birthday ${tooYoung}` });
    fireEvent.change(screen.getByPlaceholderText('Address'), { target: { value: '2 Side Road' } });
    fireEvent.submit(document.querySelector('form')!);
    await waitFor(() => expect(errorsUnder(birthday)).toEqual(['You must be 18 to 120 years old.']));
    expect(updates).toEqual([]);
  });

  it('shows a refusal of the server under the form, without a toast', async () => {
    renderPage(user, () => ({ status: 400, envelope: { success: false, code: 400, message: 'Invalid request', timestamp: 0,
      result: { error: 'invalid_request' } } }));
    fireEvent.change(await screen.findByPlaceholderText('Address'), { target: { value: '2 Side Road' } });
    fireEvent.submit(document.querySelector('form')!);
    await waitFor(() => expect(document.querySelector('.form-error')?.textContent).toBe('Some of the information entered is not valid.'));
    expect(notify).not.toHaveBeenCalled();
  });
});
