// The withdrawal and settlement forms (features/wallet): where each refusal of the server shows
// (under the field it concerns, the password's in the confirmation, a missing destination or
// password as a prompt with its link), and the live figures of the withdrawal page.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { activateLocale, i18n } from '../../src/lib/i18n.ts';
import { api, configureApiClient } from '../../src/api/api.ts';
import { userSlice } from '../../src/entities/session/userSlice.ts';
import { DestinationForm, shortAddress } from '../../src/features/wallet/DestinationForm.tsx';
import WithdrawPage, {
  destinationOptions, normaliseAmountText, withdrawErrorPlace,
} from '../../src/features/wallet/WithdrawPage.tsx';
import { codeContact, WithdrawPasswordForm } from '../../src/features/wallet/WithdrawPasswordForm.tsx';
import { sheetOf } from '../../src/features/wallet/SettlementInfoPage.tsx';
import type { CurrencyInfo } from '../../src/api/contract/wallet.ts';
import type { Destination } from '../../src/api/contract/withdrawals.ts';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const currencies: CurrencyInfo[] = [
  { currency: 'USDT', name: 'Tether', scale: 6, networks: [
    { network: 'ERC20', depositEnabled: true, withdrawalEnabled: true, depositMin: '10.000000', withdrawalMin: '20.000000', withdrawalFee: '5.000000' },
    { network: 'TRC20', depositEnabled: true, withdrawalEnabled: true, depositMin: '10.000000', withdrawalMin: '10.000000', withdrawalFee: '1.000000' },
  ] },
  { currency: 'BTC', name: 'Bitcoin', scale: 8, networks: [
    { network: 'BTC', depositEnabled: true, withdrawalEnabled: true, depositMin: '0.00050000', withdrawalMin: '0.00100000', withdrawalFee: '0.00020000' },
  ] },
];
const tron: Destination = {
  id: '7', type: 'chain', bankName: null, realName: null, cardNumber: null, currency: 'USDT', network: 'TRC20',
  address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', createTime: 0, updateTime: 0,
};
const card: Destination = {
  id: '8', type: 'bank', bankName: 'Demo Bank', realName: 'Ana Díaz', cardNumber: '•••• 1234', currency: null, network: null,
  address: null, createTime: 0, updateTime: 0,
};
const user = {
  id: '1', account: 'a@example.test', accountType: 'email', email: 'a@example.test', phone: null, countryCode: null,
  hasInitialPassword: false, inviteCode: 'ABCD', surname: null, firstName: null, gender: null, birthday: null, country: null,
  address: null, contactPhone: null, createTime: '2026-01-01 00:00:00', hasWithdrawPassword: true,
};

const ok = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 0 });
const refused = (error: string, message: string, extra: Record<string, unknown> = {}) =>
  ({ success: false, code: 400, message, result: { error, ...extra }, timestamp: 0 });

/** Answers each path with its envelope; records the POST bodies. */
function serve(answers: Record<string, unknown>) {
  const posted: Array<{ path: string; body: unknown }> = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(String(url), 'http://test').pathname.replace(/^\/api/, '');
    if (path.includes('getPublicKey')) return new Response(JSON.stringify(ok('PEM')));
    if (init?.method === 'POST') {
      // The request's time stamp (against replays) is not the form's.
      const { _ts: _stamp, ...body } = JSON.parse(String(init.body)) as Record<string, unknown>;
      posted.push({ path, body });
    }
    const answer = answers[path];
    return new Response(JSON.stringify(answer ?? { success: false, code: 404, message: 'no', result: null }));
  }));
  return posted;
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname}{location.search}</p>;
}

function renderWith(node: ReactNode, at = '/') {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  return render(
    <Provider store={store}>
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={[at]}>
          <Routes><Route path="*" element={<>{node}<Where /></>} /></Routes>
        </MemoryRouter>
      </I18nProvider>
    </Provider>,
  );
}

beforeEach(() => configureApiClient({ notify: vi.fn() }));
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await activateLocale('en-us');
});

describe('where a withdrawal refusal goes', () => {
  const api400 = (error: string) => ({ kind: 'api', code: 400, error, message: error });
  it('puts each code in its place', () => {
    expect(withdrawErrorPlace(api400('withdraw_password_invalid'))).toBe('password');
    expect(withdrawErrorPlace(api400('withdraw_password_same_as_login'))).toBe('password');
    expect(withdrawErrorPlace({ kind: 'api', code: 429, error: 'too_many_attempts', message: 'm', retryAfterSeconds: 60 })).toBe('password');
    expect(withdrawErrorPlace(api400('balance_insufficient'))).toBe('amount');
    expect(withdrawErrorPlace(api400('amount_below_minimum'))).toBe('amount');
    expect(withdrawErrorPlace(api400('amount_too_many_decimals'))).toBe('amount');
    expect(withdrawErrorPlace(api400('destination_required'))).toBe('destination');
    expect(withdrawErrorPlace(api400('withdraw_password_required'))).toBe('setup-password');
    expect(withdrawErrorPlace(api400('internal_error'))).toBe('form');
    expect(withdrawErrorPlace({ kind: 'network', message: 'offline' })).toBe('form');
  });
});

describe('helpers', () => {
  it('reads a decimal comma as the point', () => {
    expect(normaliseAmountText('12,5')).toBe('12.5');
    expect(normaliseAmountText(' 1 000 ')).toBe('1000');
    expect(normaliseAmountText('1,000.5')).toBe('1,000.5');
  });
  it('offers a currency its own addresses, then bank cards, usable where the currency pays out on that network', () => {
    const btcAddress = { ...tron, id: '9', currency: 'BTC', network: 'BTC', address: 'bc1qexample' };
    const usdt = destinationOptions(currencies[0], [card, btcAddress, tron]);
    expect(usdt.map((option) => [option.destination.id, option.usable])).toEqual([['7', true], ['8', false]]);
    expect(destinationOptions(currencies[1], [card, btcAddress, tron]).map((option) => option.destination.id)).toEqual(['9', '8']);
  });
  it('shortens an address on one line and reads the sheet from the address bar', () => {
    expect(shortAddress('TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7')).toBe('TLa2f6…5wYjU7');
    expect(sheetOf(new URLSearchParams('add=bank'), [])).toEqual({ kind: 'add', type: 'bank', currency: undefined });
    expect(sheetOf(new URLSearchParams('panel=password'), [])).toEqual({ kind: 'password' });
    expect(sheetOf(new URLSearchParams('edit=7'), [tron])).toEqual({ kind: 'edit', destination: tron });
    expect(sheetOf(new URLSearchParams('edit=99'), [tron])).toBeUndefined();
  });
  it('sends the code to the account\'s own address', () => {
    expect(codeContact({ email: 'jane@example.com', phone: null, countryCode: null })).toMatchObject({ channel: 'email', shown: 'j***@example.com' });
    expect(codeContact({ email: null, phone: '5551234567', countryCode: '1' })).toMatchObject({ channel: 'sms', shown: '+1 •••• 4567' });
    expect(codeContact({ email: null, phone: null, countryCode: null })).toBeUndefined();
  });
});

describe('DestinationForm', () => {
  it("shows the server's wrong-network refusal under the address, and sends the chain body", async () => {
    const posted = serve({
      '/user/appUserWithdrawalInfoSet/addAccount': refused('address_wrong_network', 'This address belongs to another network.'),
    });
    const done = vi.fn();
    renderWith(<DestinationForm currencies={currencies} initialType="chain" initialCurrency="USDT" onDone={done} />);
    fireEvent.click(screen.getByText('TRC20'));
    fireEvent.change(screen.getByPlaceholderText('Enter or paste the address'), { target: { value: ' 0x000000000000000000000000000000000000dEaD ' } });
    fireEvent.submit(document.querySelector('form')!);
    await waitFor(() => expect(document.querySelector('.adm-form-item-feedback-error')?.textContent)
      .toBe('This address belongs to another network. Please choose the network it was made for.'), { timeout: 5_000 });
    const addressItem = screen.getByPlaceholderText('Enter or paste the address').closest('.adm-form-item')!;
    expect(addressItem.querySelector('.adm-form-item-feedback-error')).not.toBeNull();
    expect(posted).toEqual([{ path: '/user/appUserWithdrawalInfoSet/addAccount',
      body: { type: 'chain', currency: 'USDT', network: 'TRC20', address: '0x000000000000000000000000000000000000dEaD' } }]);
    expect(done).not.toHaveBeenCalled();
  });

  it('shows an invalid card number under the card field', async () => {
    serve({ '/user/appUserWithdrawalInfoSet/addAccount': refused('card_number_invalid', 'bad card') });
    renderWith(<DestinationForm currencies={currencies} initialType="bank" onDone={vi.fn()} />);
    fireEvent.change(screen.getByPlaceholderText('Bank name'), { target: { value: 'Demo Bank' } });
    fireEvent.change(screen.getByPlaceholderText('Name as on the account'), { target: { value: 'Ana' } });
    fireEvent.change(screen.getByPlaceholderText('Card number or IBAN'), { target: { value: 'ABCDEFGHIJ' } });
    fireEvent.submit(document.querySelector('form')!);
    await waitFor(() => {
      const item = screen.getByPlaceholderText('Card number or IBAN').closest('.adm-form-item')!;
      expect(item.querySelector('.adm-form-item-feedback-error')?.textContent).toBe('This card or account number is not valid.');
    }, { timeout: 5_000 });
  });
});

describe('DestinationForm on an account with Google Authenticator bound', () => {
  it('asks for the code when the server does, and saves with it', async () => {
    const posted = serve({});
    let answered = 0;
    const fetchStub = vi.mocked(fetch);
    const serveOnce = fetchStub.getMockImplementation()!;
    fetchStub.mockImplementation(async (url, init) => {
      const path = new URL(String(url), 'http://test').pathname.replace(/^\/api/, '');
      if (path === '/user/appUserWithdrawalInfoSet/addAccount') {
        await serveOnce(url, init);
        answered += 1;
        return new Response(JSON.stringify(answered === 1
          ? refused('google_code_required', 'Please enter the 6-digit code from Google Authenticator.')
          : ok({ ...card, id: '9' })));
      }
      return serveOnce(url, init);
    });
    const done = vi.fn();
    renderWith(<DestinationForm currencies={currencies} initialType="bank" onDone={done} />);
    fireEvent.change(screen.getByPlaceholderText('Bank name'), { target: { value: 'Demo Bank' } });
    fireEvent.change(screen.getByPlaceholderText('Name as on the account'), { target: { value: 'Ana' } });
    fireEvent.change(screen.getByPlaceholderText('Card number or IBAN'), { target: { value: '6222021234567890' } });
    fireEvent.submit(document.querySelector('form')!);
    const code = await screen.findByLabelText('Google Authenticator code', { selector: 'input' }, { timeout: 5_000 });
    expect(done).not.toHaveBeenCalled();
    fireEvent.change(code, { target: { value: '246810' } });
    fireEvent.submit(document.querySelector('form')!);
    await waitFor(() => expect(done).toHaveBeenCalled(), { timeout: 5_000 });
    expect(posted).toHaveLength(2);
    expect(posted[0].body).not.toHaveProperty('googleCode');
    expect(posted[1].body).toMatchObject({ type: 'bank', cardNumber: '6222021234567890', googleCode: '246810' });
  });
});

describe('WithdrawPasswordForm', () => {
  it('shows the refusal of a withdrawal password equal to the login password under the new password (issue 19)', async () => {
    serve({ '/user/appUser/changeWithdrawPassword': refused('withdraw_password_same_as_login', 'Same as the login password.') });
    const done = vi.fn();
    renderWith(<WithdrawPasswordForm user={user as never} onDone={done} />);
    const [oldPassword, newPassword, confirm] = await screen.findAllByPlaceholderText(/password/i);
    fireEvent.change(oldPassword, { target: { value: 'Withdraw2026' } });
    fireEvent.change(newPassword, { target: { value: 'Login2026abc' } });
    fireEvent.change(confirm, { target: { value: 'Login2026abc' } });
    fireEvent.submit(document.querySelector('form')!);
    await waitFor(() => expect(newPassword.closest('.adm-form-item')!.querySelector('.adm-form-item-feedback-error')?.textContent)
      .toBe('The withdrawal password must differ from your login password.'), { timeout: 5_000 });
    expect(done).not.toHaveBeenCalled();
  });
});

describe('WithdrawPage', () => {
  const base = {
    '/set/appCurrencySet/getCurrencyList': ok(currencies),
    '/finance/appWallet/queryUserBalance': ok([{ currency: 'USDT', scale: 6, available: '100.000000', frozen: '0.000000' }]),
    '/user/appUserWithdrawalInfoSet/listMy': ok([tron, card]),
    '/user/appUser/getMyUserInfo': ok(user),
  };

  it('shows the fee, the total and the arrival live; All leaves room for the fee', async () => {
    serve(base);
    renderWith(<WithdrawPage />, '/tixian?currency=USDT');
    const input = await screen.findByLabelText('Amount', { selector: 'input' }, { timeout: 5_000 });
    expect(screen.getByTestId('withdraw-fee').textContent).toBe('1.00 USDT');
    fireEvent.change(input, { target: { value: '10' } });
    await waitFor(() => expect(screen.getByTestId('withdraw-total').textContent).toBe('11.00 USDT'));
    expect(screen.getByTestId('withdraw-arrival').textContent).toBe('10.00 USDT');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw all that is available' }));
    await waitFor(() => expect((input as HTMLInputElement).value).toBe('99'));
    expect(screen.getByTestId('withdraw-total').textContent).toBe('100.00 USDT');
    // The bank card cannot take USDT: no BANK network.
    expect(screen.getByRole('radio', { name: /Demo Bank/ })).toHaveProperty('disabled', true);
  });

  it('refuses above the balance under the amount before sending', async () => {
    const posted = serve(base);
    renderWith(<WithdrawPage />, '/tixian?currency=USDT');
    const input = await screen.findByLabelText('Amount', { selector: 'input' }, { timeout: 5_000 });
    fireEvent.change(input, { target: { value: '99.5' } });
    fireEvent.submit(input.closest('form')!);
    await waitFor(() => expect(input.closest('.adm-form-item')!.querySelector('.adm-form-item-feedback-error')?.textContent)
      .toBe('The balance does not cover 100.50 USDT (the amount and the fee).'));
    expect(posted).toEqual([]);
  });

  it('flags an amount above the balance as it is typed, and clears it when the amount fits (issue 19)', async () => {
    const posted = serve(base);
    renderWith(<WithdrawPage />, '/tixian?currency=USDT');
    const input = await screen.findByLabelText('Amount', { selector: 'input' }, { timeout: 5_000 });
    const feedback = () => input.closest('.adm-form-item')!.querySelector('.adm-form-item-feedback-error')?.textContent ?? '';
    // Below the minimum while typing is not flagged: "5" may become "50".
    fireEvent.change(input, { target: { value: '5' } });
    fireEvent.change(input, { target: { value: '995' } });
    await waitFor(() => expect(feedback()).toBe('The balance does not cover 996.00 USDT (the amount and the fee).'));
    fireEvent.change(input, { target: { value: '99' } });
    await waitFor(() => expect(feedback()).toBe(''));
    fireEvent.change(input, { target: { value: '5' } });
    await waitFor(() => expect(screen.getByTestId('withdraw-total').textContent).toBe('6.00 USDT'));
    expect(feedback()).toBe('');
    expect(posted).toEqual([]);
  });

  it('asks for the password in the confirmation and shows a wrong one there; the right one opens the result', async () => {
    let attempts = 0;
    const posted = serve(base);
    type Fetch = (url: string, init?: RequestInit) => Promise<Response>;
    const fetchStub = globalThis.fetch as unknown as ReturnType<typeof vi.fn<Fetch>>;
    const inner = fetchStub.getMockImplementation()!;
    fetchStub.mockImplementation(async (url: string, init?: RequestInit) => {
      if (String(url).includes('/finance/appWithdrawal/apply')) {
        await inner(url, init);
        attempts += 1;
        return new Response(JSON.stringify(attempts === 1 ? refused('withdraw_password_invalid', 'wrong')
          : ok({ id: '42', currency: 'USDT', network: 'TRC20', amount: '10.000000', fee: '1.000000', total: '11.000000', status: 0 })));
      }
      return inner(url, init);
    });
    renderWith(<WithdrawPage />, '/tixian?currency=USDT');
    const input = await screen.findByLabelText('Amount', { selector: 'input' }, { timeout: 5_000 });
    fireEvent.change(input, { target: { value: '10' } });
    fireEvent.submit(input.closest('form')!);
    const password = await screen.findByPlaceholderText('Withdrawal password', {}, { timeout: 5_000 });
    expect(screen.getByTestId('confirm-total').textContent).toBe('11.00 USDT');
    fireEvent.change(password, { target: { value: 'Wrong1pass' } });
    fireEvent.submit(password.closest('form')!);
    await waitFor(() => expect(password.closest('.adm-form-item')!.querySelector('.adm-form-item-feedback-error')?.textContent)
      .toBe('The withdrawal password is wrong.'), { timeout: 5_000 });
    fireEvent.change(password, { target: { value: 'Right1pass' } });
    fireEvent.submit(password.closest('form')!);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/chongzhitixianResult?kind=withdrawal&id=42'), { timeout: 5_000 });
    expect(posted.map((entry) => entry.body)).toEqual([
      { currency: 'USDT', amount: '10.000000', withdrawalInfoId: '7', withdrawPassword: 'Wrong1pass' },
      { currency: 'USDT', amount: '10.000000', withdrawalInfoId: '7', withdrawPassword: 'Right1pass' },
    ]);
  });

  it('shows the lockout after too many wrong passwords with its wait, under the password', async () => {
    serve({ ...base, '/finance/appWithdrawal/apply': { success: false, code: 429, message: 'Too many wrong passwords.',
      result: { error: 'too_many_attempts', retryAfterSeconds: 120 }, timestamp: 0 } });
    renderWith(<WithdrawPage />, '/tixian?currency=USDT');
    const input = await screen.findByLabelText('Amount', { selector: 'input' }, { timeout: 5_000 });
    fireEvent.change(input, { target: { value: '10' } });
    fireEvent.submit(input.closest('form')!);
    const password = await screen.findByPlaceholderText('Withdrawal password', {}, { timeout: 5_000 });
    fireEvent.change(password, { target: { value: 'Guess1pass' } });
    fireEvent.submit(password.closest('form')!);
    await waitFor(() => expect(password.closest('.adm-form-item')!.querySelector('.adm-form-item-feedback-error')?.textContent)
      .toBe('Too many wrong passwords. Please try again in 2 minutes, or reset your password.'), { timeout: 5_000 });
    expect(screen.getByTestId('where').textContent).toBe('/tixian?currency=USDT');
  });

  it('puts a balance refusal from the server under the amount and closes the confirmation', async () => {
    serve({ ...base, '/finance/appWithdrawal/apply': refused('balance_insufficient', 'x') });
    renderWith(<WithdrawPage />, '/tixian?currency=USDT');
    const input = await screen.findByLabelText('Amount', { selector: 'input' }, { timeout: 5_000 });
    fireEvent.change(input, { target: { value: '10' } });
    fireEvent.submit(input.closest('form')!);
    const password = await screen.findByPlaceholderText('Withdrawal password', {}, { timeout: 5_000 });
    fireEvent.change(password, { target: { value: 'Right1pass' } });
    fireEvent.submit(password.closest('form')!);
    await waitFor(() => expect(input.closest('.adm-form-item')!.querySelector('.adm-form-item-feedback-error')?.textContent)
      .toBe('The balance does not cover the amount and the fee.'), { timeout: 5_000 });
    await waitFor(() => expect(screen.queryByPlaceholderText('Withdrawal password')).toBeNull());
  });

  it('without a destination or a password, says so and links to settlement info', async () => {
    serve({ ...base, '/user/appUserWithdrawalInfoSet/listMy': ok([]), '/user/appUser/getMyUserInfo': ok({ ...user, hasWithdrawPassword: false }) });
    renderWith(<WithdrawPage />, '/tixian');
    const bind = await screen.findByRole('link', { name: 'Bind a USDT address' }, { timeout: 5_000 });
    expect(bind.getAttribute('href')).toBe('/jiesuanInfo?add=chain&currency=USDT');
    expect(screen.getByRole('link', { name: 'Set withdrawal password' }).getAttribute('href')).toBe('/jiesuanInfo?panel=password');
    expect(screen.getByRole('button', { name: 'Withdraw' })).toHaveProperty('disabled', true);
  });
});
