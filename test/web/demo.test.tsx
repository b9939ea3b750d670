// Demo trading (issue 10): the page says it is demo above everything, asks a visitor to log in,
// shows the virtual balance, resets it only after a confirmation (a refusal such as open demo
// positions is said in place and nothing else happens), and gives both trading screens `demo`.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { api, configureApiClient } from '../../src/api/api.ts';
import { loggedIn, userSlice } from '../../src/entities/session/userSlice.ts';
import DemoTradingPage from '../../src/features/trade/DemoTradingPage.tsx';

const { confirmDialog } = vi.hoisted(() => ({ confirmDialog: vi.fn(async () => true) }));
vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));
vi.mock('../../src/components/feedback.tsx', () => ({ confirmDialog, showToast: vi.fn(), alertDialog: vi.fn() }));
vi.mock('../../src/features/trade/contract/ContractTrading.tsx', () => ({
  default: ({ demo }: { demo?: boolean }) => <p>contracts demo={String(demo)}</p>,
}));
vi.mock('../../src/features/trade/options/OptionsTrading.tsx', () => ({
  default: ({ demo }: { demo?: boolean }) => <p>options demo={String(demo)}</p>,
}));

const ok = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 0 });
const account = { balance: '99000.000000', inUse: '1000.000000', openPositions: 0, openOrders: 0 };

function serve(resetAnswer: unknown, demoAccount = account) {
  const posts: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(String(url), 'http://test').pathname.replace(/^\/api/, '');
    if (path.includes('getPublicKey')) return new Response(JSON.stringify(ok('PEM')));
    if (init?.method === 'POST') posts.push(path);
    if (path === '/trade/appDemo/account') return new Response(JSON.stringify(ok(demoAccount)));
    if (path === '/trade/appDemo/reset') return new Response(JSON.stringify(resetAnswer));
    return new Response(JSON.stringify({ success: false, code: 404, message: 'no', result: null }));
  }));
  return posts;
}

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function mount(token: string) {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  if (token) store.dispatch(loggedIn({ token }));
  render(<Provider store={store}><I18nProvider i18n={i18n}><MemoryRouter initialEntries={['/demotrading']}>
    <DemoTradingPage /><Where /></MemoryRouter></I18nProvider></Provider>);
  return store;
}

describe('DemoTradingPage', () => {
  beforeEach(() => { configureApiClient({ notify: vi.fn(), getToken: () => 'token-123' }); confirmDialog.mockClear(); });
  afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

  it('asks a visitor to log in and remembers to come back', () => {
    serve(ok(account));
    const store = mount('');
    expect(screen.getByText('Demo — virtual funds')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByTestId('where').textContent).toBe('/login');
    expect(store.getState().user.redirectTo).toBe('/demotrading');
  });

  it('shows the virtual balance and switches between contracts and options, both in demo', async () => {
    serve(ok(account));
    mount('token-123');
    expect((await screen.findByTestId('demo-balance')).textContent).toBe('99,000.00 USDT');
    expect(screen.getByText('contracts demo=true')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Options' }));
    expect(screen.getByText('options demo=true')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Options' }).getAttribute('aria-selected')).toBe('true');
  });

  it.each([
    ['a position', { ...account, openPositions: 1 }], ['an option order', { ...account, openOrders: 2 }],
  ])('says before asking that a reset waits while %s is open, and offers none', async (_what, open) => {
    const posts = serve(ok(account), open);
    mount('token-123');
    await screen.findByTestId('demo-balance');
    const button = screen.getByRole('button', { name: 'Reset virtual funds' });
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('demo-reset-blocked').textContent)
      .toBe('Close your demo positions and wait for your demo contracts to settle before resetting.');
    expect(button.getAttribute('aria-describedby')).toBe('demo-reset-blocked');
    fireEvent.click(button);
    expect(confirmDialog).not.toHaveBeenCalled();
    expect(posts).toEqual([]);
  });

  it('resets only after the confirmation, and says in place why a reset is refused (a position opened meanwhile)', async () => {
    const posts = serve({ success: false, code: 409, message: 'x', result: { error: 'demo_positions_open' }, timestamp: 0 });
    mount('token-123');
    await screen.findByTestId('demo-balance');
    confirmDialog.mockResolvedValueOnce(false);
    fireEvent.click(screen.getByRole('button', { name: 'Reset virtual funds' }));
    await waitFor(() => expect(confirmDialog).toHaveBeenCalledTimes(1));
    expect(posts).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Reset virtual funds' }));
    expect((await screen.findByRole('alert')).textContent)
      .toBe('Close your demo positions and wait for your demo contracts to settle before resetting.');
    expect(posts).toEqual(['/trade/appDemo/reset']);
  });
});
