// The account ledger (issue 9): each transfer kind has its label and a withdrawal's steps theirs,
// an unknown kind shows as the server names it; the filters become the query of the list, and
// ?currency= preselects the currency; amounts are signed and coloured. By default one line per
// business event (issue 19): a withdrawal once, as a hold with its state, a contract once; the
// balance only where spot moved; Details shows the raw entries.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { api } from '../../src/api/api.ts';
import { walletPaths, type BalanceLogEntry, type BalanceLogEvent, type CurrencyInfo } from '../../src/api/contract/wallet.ts';
import { userSlice } from '../../src/entities/session/userSlice.ts';
import LedgerPage, { ledgerPageSize, ledgerQuery } from '../../src/features/wallet/LedgerPage.tsx';
import {
  entryMovedBalance, eventFigure, ledgerAccountLabel, ledgerEntryLabel, ledgerEventLabel, ledgerEventStateLabel, ledgerTypeLabel, ledgerTypes,
} from '../../src/features/wallet/ledgerTypes.ts';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

describe('ledger labels', () => {
  it('names every kind the server writes, and shows an unknown one raw', () => {
    expect(ledgerTypes.map((type) => ledgerTypeLabel(i18n, type)))
      .toEqual(['Deposit', 'Withdrawal', 'Withdrawal fee', 'Correction', 'Virtual funds']);
    expect(ledgerTypeLabel(i18n, 'swap_fill')).toBe('swap_fill');
    expect(ledgerAccountLabel(i18n, 'frozen')).toBe('Frozen');
    expect(ledgerAccountLabel(i18n, 'mystery')).toBe('mystery');
  });

  it('tells the steps of a withdrawal apart', () => {
    expect(ledgerEntryLabel(i18n, { id: 'withdrawal-hold-ab12', type: 'withdrawal', amount: '-10.500000' })).toBe('Withdrawal (frozen)');
    expect(ledgerEntryLabel(i18n, { id: 'withdrawal-hold-ab12-post', type: 'withdrawal', amount: '-10.500000' })).toBe('Withdrawal paid out');
    expect(ledgerEntryLabel(i18n, { id: 'withdrawal-hold-ab12-void', type: 'withdrawal', amount: '10.500000' })).toBe('Withdrawal returned');
    expect(ledgerEntryLabel(i18n, { id: 'recharge-7', type: 'deposit', amount: '250.000000' })).toBe('Deposit');
  });

  it('names events and their states, shows a hold neutral and unsigned, and a balance only where spot moved', () => {
    expect(ledgerEventLabel(i18n, 'contract')).toBe('Contract');
    expect(ledgerEventLabel(i18n, 'withdrawal')).toBe('Withdrawal');
    expect(ledgerEventLabel(i18n, 'something_new')).toBe('something_new');
    expect(ledgerEventStateLabel(i18n, { type: 'withdrawal', state: 'held' })).toBe('Held');
    expect(ledgerEventStateLabel(i18n, { type: 'withdrawal', state: 'released' })).toBe('Paid out');
    expect(ledgerEventStateLabel(i18n, { type: 'withdrawal', state: 'returned' })).toBe('Returned');
    expect(ledgerEventStateLabel(i18n, { type: 'contract', state: 'held' })).toBe('Margin held');
    expect(ledgerEventStateLabel(i18n, { type: 'contract', state: 'released' })).toBe('Closed');
    expect(ledgerEventStateLabel(i18n, { type: 'deposit', state: 'done' })).toBeUndefined();
    expect(eventFigure({ state: 'held', amount: '0.000000', held: '31.000000' })).toEqual({ value: '31.000000', tone: 'neutral' });
    expect(eventFigure({ state: 'released', amount: '-31.000000', held: '31.000000' })).toEqual({ value: '-31.000000', tone: 'down' });
    expect(entryMovedBalance({ account: 'spot', phase: 'pending' })).toBe(false);
    expect(entryMovedBalance({ account: 'spot', phase: 'post' })).toBe(true);
    expect(entryMovedBalance({ account: 'position_margin', phase: 'single' })).toBe(false);
  });

  it('turns the filters into the query, the range counted back from now', () => {
    const now = Date.UTC(2026, 10, 23, 12);
    expect(ledgerQuery({ type: '', currency: '', range: 'all' }, 1, now)).toEqual({ pageNo: 1, pageSize: ledgerPageSize });
    expect(ledgerQuery({ type: 'deposit', currency: 'BTC', range: '7d' }, 3, now))
      .toEqual({ pageNo: 3, pageSize: ledgerPageSize, type: 'deposit', currency: 'BTC', startTime: now - 7 * 86_400_000 });
    expect(ledgerQuery({ type: '', currency: '', range: '90d' }, 1, now).startTime).toBe(now - 90 * 86_400_000);
  });
});

const currencies: CurrencyInfo[] = [
  { currency: 'USDT', name: 'Tether USD', scale: 6, networks: [] },
  { currency: 'BTC', name: 'Bitcoin', scale: 8, networks: [] },
];
const entry = (over: Partial<BalanceLogEntry>): BalanceLogEntry => ({
  id: 'recharge-1', type: 'deposit', currency: 'USDT', account: 'spot', amount: '250.000000', balanceAfter: '250.000000',
  time: Date.UTC(2026, 10, 20, 9, 15), reference: 'recharge:1', remark: 'USDT TRC20', ...over,
});
const all: BalanceLogEntry[] = [
  entry({ id: 'withdrawal-hold-1-void', type: 'withdrawal', amount: '12.000000', balanceAfter: '250.000000', remark: 'Address mismatch', phase: 'void' }),
  entry({ id: 'withdrawal-hold-1', type: 'withdrawal', amount: '-12.000000', balanceAfter: '250.000000', remark: null, phase: 'pending' }),
  entry({ id: 'recharge-2', currency: 'BTC', amount: '0.01000000', balanceAfter: '0.01000000', remark: 'BTC BTC' }),
  entry({ id: 'grant-1', type: 'demo_grant', account: 'demo', amount: '10000.000000', balanceAfter: '10000.000000', remark: null }),
  entry({ id: 'future-1', type: 'swap_fill', amount: '-1.500000', balanceAfter: '248.500000', remark: null }),
  entry({}),
];

const time = Date.UTC(2026, 10, 20, 9, 15);
const event = (over: Partial<BalanceLogEvent>): BalanceLogEvent => ({
  id: 'recharge:1|USDT', reference: 'recharge:1', type: 'deposit', currency: 'USDT', state: 'done', amount: '250.000000', held: '0.000000',
  balanceAfter: '250.000000', startTime: time, time, remark: 'USDT TRC20', entryCount: 1, ...over,
});
const events: BalanceLogEvent[] = [
  event({ id: 'withdrawal:2|USDT', reference: 'withdrawal:2', type: 'withdrawal', state: 'returned', amount: '0.000000', held: '12.000000',
    balanceAfter: null, remark: 'Address mismatch', entryCount: 2 }),
  event({ id: 'withdrawal:1|USDT', reference: 'withdrawal:1', type: 'withdrawal', state: 'released', amount: '-31.000000', held: '31.000000',
    balanceAfter: '219.000000', remark: null, entryCount: 2 }),
  event({ id: 'position:7|USDT', reference: 'position:7', type: 'contract', state: 'held', amount: '-100.020000', held: '99.520000',
    balanceAfter: '118.980000', remark: null, entryCount: 3 }),
  event({ id: 'position:6|USDT', reference: 'position:6', type: 'contract', state: 'released', amount: '0.410000', held: '99.520000',
    balanceAfter: '219.000000', remark: null, entryCount: 6 }),
  event({ id: 'withdrawal:3|USDT', reference: 'withdrawal:3', type: 'withdrawal', state: 'held', amount: '0.000000', held: '5.000000',
    balanceAfter: null, remark: null }),
  event({ id: 'recharge:2|BTC', reference: 'recharge:2', currency: 'BTC', amount: '0.01000000', balanceAfter: '0.01000000', remark: 'BTC BTC' }),
  event({}),
];

describe('LedgerPage', () => {
  let queries: URLSearchParams[];
  let paths: string[];

  beforeEach(() => {
    queries = [];
    paths = [];
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      const parsed = new URL(String(url), 'https://bourse.test');
      const path = parsed.pathname.replace(/^\/api/, '');
      const reply = (result: unknown) => new Response(JSON.stringify({ success: true, code: 200, message: '', result, timestamp: 0 }));
      if (path === walletPaths.currencyList) return reply(currencies);
      if (path === walletPaths.balanceEvents) {
        const query = parsed.searchParams;
        queries.push(query);
        paths.push(path);
        const records = events.filter((row) => (!query.get('currency') || row.currency === query.get('currency'))
          && (!query.get('type') || row.type === query.get('type')));
        return reply({ records, total: records.length, size: ledgerPageSize, current: 1, pages: 1 });
      }
      if (path === walletPaths.balanceLog) {
        paths.push(path);
        const query = parsed.searchParams;
        queries.push(query);
        if (query.get('type') === 'correction') {
          // Two pages: the second repeats the last entry of the first (a new entry pushed it down).
          const page = Number(query.get('pageNo'));
          const records = page === 1 ? [entry({ id: 'fix-1', type: 'correction' }), entry({ id: 'fix-2', type: 'correction' })]
            : [entry({ id: 'fix-2', type: 'correction' }), entry({ id: 'fix-3', type: 'correction', amount: '-3.000000' })];
          return reply({ records, total: 3, size: 2, current: page, pages: 2 });
        }
        const records = all.filter((row) => (!query.get('currency') || row.currency === query.get('currency'))
          && (!query.get('type') || row.type === query.get('type')));
        return reply({ records, total: records.length, size: ledgerPageSize, current: 1, pages: 1 });
      }
      throw new Error(`no answer scripted for ${path}`);
    }));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  function renderPage(url = '/zhangbianRecord') {
    const store = configureStore({
      reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer },
      middleware: (getDefault) => getDefault().concat(api.middleware),
    });
    render(<Provider store={store}><I18nProvider i18n={i18n}><MemoryRouter initialEntries={[url]}><LedgerPage /></MemoryRouter></I18nProvider></Provider>);
  }

  /** Details on: the raw entries. */
  async function showDetails() {
    await screen.findAllByTestId('ledger-event');
    fireEvent.click(screen.getByTestId('ledger-details'));
    return screen.findAllByTestId('ledger-row');
  }

  it('shows one line per business event: a withdrawal once with its state, a hold neutral, the balance only where spot moved', async () => {
    renderPage();
    expect(screen.getByTestId('ledger-skeleton')).toBeTruthy();
    const rows = await screen.findAllByTestId('ledger-event');
    expect(screen.queryAllByTestId('ledger-row')).toEqual([]);
    expect(paths).toEqual([walletPaths.balanceEvents]);
    expect(rows.map((row) => row.querySelector('strong')!.textContent))
      .toEqual(['Withdrawal', 'Withdrawal', 'Contract', 'Contract', 'Withdrawal', 'Deposit', 'Deposit']);
    expect(rows.map((row) => row.querySelector('[data-testid="ledger-event-state"]')?.textContent ?? null))
      .toEqual(['Returned', 'Paid out', 'Margin held', 'Closed', 'Held', null, null]);
    const amounts = screen.getAllByTestId('ledger-amount');
    expect(amounts.map((amount) => amount.textContent))
      .toEqual(['12.00', '-31.00', '99.52', '+0.41', '5.00', '+0.01000000', '+250.00']);
    expect(amounts.map((amount) => amount.className.replace('ledger-amount ', '')))
      .toEqual(['neutral', 'down', 'neutral', 'up', 'neutral', 'up', 'up']);
    expect(rows.map((row) => row.querySelector('[data-testid="ledger-balance"]')?.textContent ?? null))
      .toEqual([null, 'Balance 219.00', 'Balance 118.98', 'Balance 219.00', null, 'Balance 0.01000000', 'Balance 250.00']);
    expect(rows[0].textContent).toContain('Address mismatch');
    expect(screen.getByTestId('ledger-details').getAttribute('aria-pressed')).toBe('false');
  });

  it('with Details, lists every raw entry with its label, signed amount, account and remark; a balance only where spot moved', async () => {
    renderPage();
    const rows = await showDetails();
    expect(screen.getByTestId('ledger-details').getAttribute('aria-pressed')).toBe('true');
    expect(paths.at(-1)).toBe(walletPaths.balanceLog);
    expect(rows.map((row) => row.querySelector('strong')!.textContent))
      .toEqual(['Withdrawal returned', 'Withdrawal (frozen)', 'Deposit', 'Virtual funds', 'swap_fill', 'Deposit']);
    const amounts = screen.getAllByTestId('ledger-amount');
    expect(amounts.map((amount) => amount.textContent))
      .toEqual(['+12.00', '-12.00', '+0.01000000', '+10,000.00', '-1.50', '+250.00']);
    expect(amounts.map((amount) => amount.className.replace('ledger-amount ', ''))).toEqual(['up', 'down', 'up', 'up', 'down', 'up']);
    expect(rows[0].textContent).toContain('Address mismatch');
    // A reservation and its return leave the balance as it was: no balance on them.
    expect(rows[0].textContent).not.toContain('Balance');
    expect(rows[1].textContent).not.toContain('Balance');
    expect(rows[2].textContent).toContain('Balance 0.01000000');
    expect(rows[3].textContent).toContain('Virtual');
    expect(rows[2].textContent).not.toContain('Frozen');
    expect(queries.at(-1)!.get('pageNo')).toBe('1');
    expect(queries.at(-1)!.has('currency')).toBe(false);
    expect(queries.at(-1)!.has('type')).toBe(false);
    expect(queries.at(-1)!.has('startTime')).toBe(false);
  });

  it('opens on the currency of ?currency= and asks for that currency only', async () => {
    renderPage('/zhangbianRecord?currency=BTC');
    const rows = await screen.findAllByTestId('ledger-event');
    expect(rows).toHaveLength(1);
    expect(screen.getByTestId('ledger-filter-currency').textContent).toBe('BTC');
    expect(queries.every((query) => query.get('currency') === 'BTC')).toBe(true);
  });

  it('filters by type and by time, and shows the empty state when nothing matches', async () => {
    renderPage();
    await screen.findAllByTestId('ledger-event');
    fireEvent.click(screen.getByTestId('ledger-filter-type'));
    fireEvent.click(await screen.findByText('Withdrawal', { selector: '.adm-list-item-content-main' }));
    await waitFor(() => expect(screen.getAllByTestId('ledger-event')).toHaveLength(3));
    expect(queries.at(-1)!.get('type')).toBe('withdrawal');
    expect(screen.getByTestId('ledger-filter-type').textContent).toBe('Withdrawal');

    const before = Date.now();
    fireEvent.click(screen.getByTestId('ledger-filter-range'));
    fireEvent.click(await screen.findByText('Last 30 days', { selector: '.adm-list-item-content-main' }));
    await waitFor(() => expect(queries.at(-1)!.get('startTime')).not.toBeNull());
    const start = Number(queries.at(-1)!.get('startTime'));
    expect(start).toBeGreaterThanOrEqual(before - 30 * 86_400_000);
    expect(start).toBeLessThanOrEqual(Date.now() - 30 * 86_400_000);
    expect(queries.at(-1)!.get('type')).toBe('withdrawal');

    fireEvent.click(screen.getByTestId('ledger-filter-currency'));
    fireEvent.click(await screen.findByText('BTC', { selector: '.adm-list-item-content-main' }));
    expect(await screen.findByTestId('ledger-empty')).toBeTruthy();
    expect(screen.getByText('Nothing matches these filters.')).toBeTruthy();
  });

  it('loads the next page as the list scrolls to its end, once per entry', async () => {
    // jsdom lays nothing out: InfiniteScroll asks whether its element is shown (offsetParent).
    vi.spyOn(HTMLElement.prototype, 'offsetParent', 'get').mockReturnValue(document.body);
    renderPage();
    await showDetails();
    fireEvent.click(screen.getByTestId('ledger-filter-type'));
    fireEvent.click(await screen.findByText('Correction', { selector: '.adm-list-item-content-main' }));
    await waitFor(() => expect(screen.getAllByTestId('ledger-amount').map((amount) => amount.textContent))
      .toEqual(['+250.00', '+250.00', '-3.00']));
    expect(await screen.findByText('No more records')).toBeTruthy();
    expect(queries.filter((query) => query.get('type') === 'correction').map((query) => query.get('pageNo'))).toEqual(['1', '2']);
  });
});
