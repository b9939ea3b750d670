// Deposit and withdrawal records (issue 9): every status of spec §4 of both kinds has its label
// and tone, the operator's reason is shown in full for rejected and failed records, and the
// records and result pages render what the server sent (amounts with the currency's decimals,
// the destination masked, the proof fetched with the token) or say clearly what is missing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { api, configureApiClient } from '../../src/api/api.ts';
import type { PageOf, RechargeRecord } from '../../src/api/contract/wallet.ts';
import type { Withdrawal } from '../../src/api/contract/withdrawals.ts';
import { loggedIn, userSlice } from '../../src/entities/session/userSlice.ts';
import {
  hasReason, isUnderReview, statusesOf, statusView, StatusChip, type RecordKind,
} from '../../src/features/wallet/recordStatus.tsx';
import { destinationText, formatAmount, maskChainAddress } from '../../src/features/wallet/recordParts.tsx';
import { nextPageOf } from '../../src/features/wallet/recordsApi.ts';
import RecordsPage, { flattenPages, readRecordView } from '../../src/features/wallet/RecordsPage.tsx';
import ResultPage, { readResultParams } from '../../src/features/wallet/ResultPage.tsx';

describe('record statuses (spec §4)', () => {
  const expected: Array<[RecordKind, number, string, string, string]> = [
    ['deposit', 0, 'Under review', 'pending', 'Deposit submitted, under review'],
    ['deposit', 1, 'Arrived', 'done', 'Deposit arrived'],
    ['deposit', -1, 'Rejected', 'refused', 'Deposit rejected'],
    ['withdrawal', 0, 'Under review', 'pending', 'Withdrawal submitted, under review'],
    ['withdrawal', 2, 'Paid out', 'done', 'Withdrawal paid out'],
    ['withdrawal', -1, 'Rejected', 'refused', 'Withdrawal rejected'],
    ['withdrawal', -2, 'Failed', 'refused', 'Withdrawal failed'],
  ];

  it.each(expected)('%s status %i reads "%s" in the %s tone', (kind, status, label, tone, title) => {
    const view = statusView(kind, status);
    expect(i18n._(view.label)).toBe(label);
    expect(view.tone).toBe(tone);
    expect(i18n._(view.title)).toBe(title);
  });

  it('offers each kind exactly its own statuses', () => {
    expect([...statusesOf.deposit].sort()).toEqual([-1, 0, 1]);
    expect([...statusesOf.withdrawal].sort()).toEqual([-1, -2, 0, 2]);
    for (const kind of ['deposit', 'withdrawal'] as const) {
      for (const status of statusesOf[kind]) expect(statusView(kind, status).tone).not.toBe('unknown');
    }
  });

  it('says "Unknown status" for a status the kind never has, rather than guessing', () => {
    expect(i18n._(statusView('deposit', 2).label)).toBe('Unknown status');
    expect(statusView('deposit', 7).tone).toBe('unknown');
    expect(statusView('withdrawal', 1).tone).toBe('done');
  });

  it('carries a reason only for rejected and failed records, and polls only what is under review', () => {
    expect([-2, -1, 0, 1, 2].filter(hasReason)).toEqual([-2, -1]);
    expect([-2, -1, 0, 1, 2].filter(isUnderReview)).toEqual([0]);
  });

  it('StatusChip shows the label with its tone', () => {
    render(<I18nProvider i18n={i18n}><StatusChip kind="withdrawal" status={-2} /></I18nProvider>);
    const chip = screen.getByText('Failed');
    expect(chip.className).toContain('tone-refused');
    cleanup();
  });
});

describe('record helpers', () => {
  it('reads the tab and a status the tab has from the address', () => {
    expect(readRecordView(new URLSearchParams(''))).toEqual({ kind: 'deposit', status: undefined });
    expect(readRecordView(new URLSearchParams('tab=withdrawal&status=-2'))).toEqual({ kind: 'withdrawal', status: -2 });
    expect(readRecordView(new URLSearchParams('tab=deposit&status=-2'))).toEqual({ kind: 'deposit', status: undefined });
    expect(readRecordView(new URLSearchParams('tab=loans&status=1'))).toEqual({ kind: 'deposit', status: 1 });
  });

  it('reads the kind and id of a result, refusing anything else', () => {
    expect(readResultParams(new URLSearchParams('kind=withdrawal&id=42'))).toEqual({ kind: 'withdrawal', id: '42' });
    expect(readResultParams(new URLSearchParams('kind=withdrawal'))).toBeUndefined();
    expect(readResultParams(new URLSearchParams('kind=loan&id=42'))).toBeUndefined();
    expect(readResultParams(new URLSearchParams('kind=deposit&id=0x1'))).toBeUndefined();
  });

  it('keeps each record once across pages shifted by a new record, and stops after the last page', () => {
    const page = (ids: string[], current: number, pages: number): PageOf<{ id: string }> =>
      ({ records: ids.map((id) => ({ id })), total: 0, size: 2, current, pages });
    expect(flattenPages([page(['5', '4'], 1, 3), page(['4', '3'], 2, 3)]).map((row) => row.id)).toEqual(['5', '4', '3']);
    expect(nextPageOf(page(['5', '4'], 1, 3), 1)).toBe(2);
    expect(nextPageOf(page(['1'], 3, 3), 3)).toBeUndefined();
    expect(nextPageOf(page([], 1, 0), 1)).toBeUndefined();
  });

  it("formats amounts at each currency's display precision with the digits moved, in the language, and masks destinations", () => {
    expect(formatAmount('1234.500000', 'en-US', 'USDT')).toBe('1,234.50');
    expect(formatAmount('1234.500000', 'es-ES', 'USDT')).toBe('1234,50');
    expect(formatAmount('0.001000', 'en-US', 'USDT')).toBe('0.001');
    expect(formatAmount('0.00050000', 'de-DE', 'BTC')).toBe('0,00050000');
    expect(maskChainAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('TR7NHq…gjLj6t');
    expect(destinationText({ type: 'bank', bankName: 'Test Bank', realName: 'A B', cardNumber: '•••• 7890', address: null }))
      .toBe('Test Bank •••• 7890');
  });
});

const tron = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const deposit = (id: string, status: 0 | 1 | -1, extra: Partial<RechargeRecord> = {}): RechargeRecord => ({
  id, currency: 'USDT', network: 'TRC20', amount: '1250.500000', depositAddress: tron, txHash: null,
  proofFileId: `${id}`.padStart(32, '0'), proofUrl: `/api/sys/common/file/${id.padStart(32, '0')}`, status,
  reason: null, createTime: Date.UTC(2026, 10, 20, 8, 0), decideTime: null, ...extra,
});
const withdrawal = (id: string, status: 0 | 2 | -1 | -2, extra: Partial<Withdrawal> = {}): Withdrawal => ({
  id, currency: 'USDT', network: 'TRC20', amount: '20.000000', fee: '1.000000', total: '21.000000', status, reason: null,
  payoutReference: null, destination: { type: 'chain', bankName: null, realName: null, cardNumber: null, address: tron },
  createTime: Date.UTC(2026, 10, 21, 9, 0), decideTime: null, ...extra,
});
const pageOf = <T,>(records: T[], current = 1, pages = 1): PageOf<T> => ({ records, total: records.length, size: 20, current, pages });
const rejectReason = 'The transfer in your proof was sent to another address; please send it to the address shown on the deposit page.';

interface Script { deposits?: (pageNo: number) => PageOf<RechargeRecord>; withdrawals?: (pageNo: number) => PageOf<Withdrawal> }

function mount(path: string, script: Script, page: 'records' | 'result') {
  const requests: Array<{ path: string; query: string; token: string | null }> = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const parsed = new URL(String(url), 'https://bourse.test');
    const headers = new Headers(init?.headers);
    requests.push({ path: parsed.pathname, query: parsed.search, token: headers.get('X-Access-Token') });
    const reply = (result: unknown) => new Response(JSON.stringify({ success: true, code: 200, message: '', result, timestamp: 0 }));
    const pageNo = Number(parsed.searchParams.get('pageNo') ?? '1');
    if (parsed.pathname === '/api/finance/appRecharge/listMy') return reply(script.deposits?.(pageNo) ?? pageOf([]));
    if (parsed.pathname === '/api/finance/appWithdrawal/listMy') return reply(script.withdrawals?.(pageNo) ?? pageOf([]));
    if (parsed.pathname.startsWith('/api/sys/common/file/')) return new Response(new Blob(['png'], { type: 'image/png' }));
    throw new Error(`no answer scripted for ${parsed.pathname}`);
  }));
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  store.dispatch(loggedIn({ token: 'token-123' }));
  const location = { current: '' };
  function Where() {
    const here = useLocation();
    location.current = `${here.pathname}${here.search}`;
    return null;
  }
  render(
    <Provider store={store}><I18nProvider i18n={i18n}>
      <MemoryRouter initialEntries={[path]}>
        <Where />
        <Routes>
          <Route path="/chongzhitixianRecord" element={page === 'records' ? <RecordsPage /> : <p>records</p>} />
          <Route path="/chongzhitixianResult" element={<ResultPage />} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
      </MemoryRouter>
    </I18nProvider></Provider>,
  );
  return { requests, location };
}

describe('RecordsPage', () => {
  beforeEach(() => {
    configureApiClient({ notify: vi.fn(), getToken: () => 'token-123' });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:proof'), revokeObjectURL: vi.fn() }));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists deposits of every status with the reason in full and the proof fetched with the token', async () => {
    const { requests } = mount('/chongzhitixianRecord', {
      deposits: () => pageOf([
        deposit('3', 0),
        deposit('2', -1, { reason: rejectReason, decideTime: Date.UTC(2026, 10, 20, 9, 0) }),
        deposit('1', 1, { decideTime: Date.UTC(2026, 10, 20, 10, 0), txHash: 'ab'.repeat(32) }),
      ]),
    }, 'records');
    const list = await screen.findByRole('list', { name: 'Deposits' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('data-record-id'))).toEqual(['3', '2', '1']);
    expect(within(rows[0]).getByText('Under review')).toBeTruthy();
    expect(within(rows[1]).getByText('Rejected')).toBeTruthy();
    expect(within(rows[1]).getByText(rejectReason)).toBeTruthy();
    expect(within(rows[1]).getByText('Why the deposit was rejected')).toBeTruthy();
    expect(within(rows[2]).getByText('Arrived')).toBeTruthy();
    expect(within(rows[2]).queryByText(/Why/)).toBeNull();
    expect(within(rows[0]).getByText('1,250.50 USDT')).toBeTruthy();
    expect(within(rows[2]).getByRole('button', { name: 'Copy the transaction hash' })).toBeTruthy();
    await waitFor(() => expect(rows[0].querySelector('img.proof-image')?.getAttribute('src')).toBe('blob:proof'));
    const proofRequests = requests.filter((request) => request.path.startsWith('/api/sys/common/file/'));
    expect(proofRequests).toHaveLength(3);
    expect(proofRequests.every((request) => request.token === 'token-123')).toBe(true);
    expect(requests.find((request) => request.path.endsWith('appRecharge/listMy'))?.query).toContain('pageSize=20');
  });

  it('shows withdrawals with fee, total, the masked destination, the payout reference and the failure reason', async () => {
    const { location } = mount('/chongzhitixianRecord', {
      withdrawals: () => pageOf([
        withdrawal('9', -2, { reason: 'The receiving address refused the transfer.', decideTime: Date.UTC(2026, 10, 22) }),
        withdrawal('8', 2, { payoutReference: 'PAYOUT-REF-8812', decideTime: Date.UTC(2026, 10, 21, 12) }),
        withdrawal('7', 0, { destination: { type: 'bank', bankName: 'Test Bank', realName: 'A B', cardNumber: '•••• 7890', address: null } }),
      ]),
    }, 'records');
    fireEvent.click(await screen.findByRole('tab', { name: 'Withdrawals' }));
    expect(location.current).toBe('/chongzhitixianRecord?tab=withdrawal');
    const list = await screen.findByRole('list', { name: 'Withdrawals' });
    const rows = within(list).getAllByRole('listitem');
    expect(within(rows[0]).getByText('Failed')).toBeTruthy();
    expect(within(rows[0]).getByText('The receiving address refused the transfer.')).toBeTruthy();
    expect(within(rows[0]).getByText('Why the payout failed')).toBeTruthy();
    expect(within(rows[0]).getByText('21.00 USDT')).toBeTruthy();
    expect(within(rows[0]).getByText('1.00 USDT')).toBeTruthy();
    expect(within(rows[0]).getByText('TR7NHq…gjLj6t')).toBeTruthy();
    expect(within(rows[1]).getByText('Paid out')).toBeTruthy();
    expect(within(rows[1]).getByText('PAYOUT-REF-8812')).toBeTruthy();
    expect(within(rows[1]).getByRole('button', { name: 'Copy the payout reference' })).toBeTruthy();
    expect(within(rows[2]).getByText('Test Bank •••• 7890')).toBeTruthy();
    expect(rows[0].querySelector('.proof-thumb')).toBeNull();
  });

  it('filters by status through the address and asks the server for that status only', async () => {
    const { requests, location } = mount('/chongzhitixianRecord?tab=deposit', { deposits: () => pageOf([]) }, 'records');
    fireEvent.click(await screen.findByRole('button', { name: 'Rejected' }));
    expect(location.current).toBe('/chongzhitixianRecord?tab=deposit&status=-1');
    await screen.findByText('No records with this status.');
    expect(requests.some((request) => request.query.includes('status=-1'))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    expect(location.current).toBe('/chongzhitixianRecord?tab=deposit');
  });

  it('shows a failed load in place with a retry, without a toast on top', async () => {
    const notify = vi.fn();
    configureApiClient({ notify, getToken: () => 'token-123' });
    let failing = true;
    mount('/chongzhitixianRecord?tab=withdrawal', {
      withdrawals: () => {
        if (failing) throw new Error('offline');
        return pageOf([withdrawal('1', 0)]);
      },
    }, 'records');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The records could not be loaded.');
    expect(alert.textContent).toContain('Network error');
    expect(notify).not.toHaveBeenCalled();
    failing = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Under review', { selector: '.status-chip' })).toBeTruthy();
  });

  it('offers a deposit when there is none yet', async () => {
    const { location } = mount('/chongzhitixianRecord', { deposits: () => pageOf([]) }, 'records');
    await screen.findByText('You have made no deposits yet.');
    fireEvent.click(screen.getByRole('button', { name: 'Deposit' }));
    expect(location.current).toBe('/chongzhi');
  });
});

describe('ResultPage', () => {
  beforeEach(() => {
    configureApiClient({ notify: vi.fn(), getToken: () => 'token-123' });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:proof'), revokeObjectURL: vi.fn() }));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('finds a withdrawal on a later page and shows its rejection with the reason', async () => {
    const { requests } = mount('/chongzhitixianResult?kind=withdrawal&id=4', {
      withdrawals: (pageNo) => (pageNo === 1
        ? pageOf([withdrawal('6', 0), withdrawal('5', 0)], 1, 3)
        : pageOf([withdrawal('4', -1, { reason: 'Please bind an address in your own name.', decideTime: Date.UTC(2026, 10, 22) })], 2, 3)),
    }, 'result');
    expect(await screen.findByRole('heading', { name: 'Withdrawal rejected' })).toBeTruthy();
    expect(screen.getByText('Please bind an address in your own name.')).toBeTruthy();
    expect(screen.getByText('The amount and the fee are back in your available balance.')).toBeTruthy();
    expect(requests.filter((request) => request.path.endsWith('appWithdrawal/listMy')).map((request) => request.query))
      .toEqual([expect.stringContaining('pageNo=1'), expect.stringContaining('pageNo=2')]);
  });

  it('shows a deposit under review with what happens next, and leads to its records', async () => {
    const { location } = mount('/chongzhitixianResult?kind=deposit&id=3', { deposits: () => pageOf([deposit('3', 0)]) }, 'result');
    expect(await screen.findByRole('heading', { name: 'Deposit submitted, under review' })).toBeTruthy();
    expect(screen.getByText(/An operator checks your deposit/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'View records' }));
    expect(location.current).toBe('/chongzhitixianRecord?tab=deposit');
  });

  it('says a request is not found after the newest pages', async () => {
    mount('/chongzhitixianResult?kind=deposit&id=99', { deposits: (pageNo) => pageOf([deposit(String(10 - pageNo), 1)], pageNo, 5) }, 'result');
    expect(await screen.findByRole('heading', { name: 'This request was not found' })).toBeTruthy();
  });

  it('says the link names no request, and still offers the way on', async () => {
    const { location } = mount('/chongzhitixianResult?kind=deposit', {}, 'result');
    expect(await screen.findByRole('heading', { name: 'This result cannot be shown' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back to asset centre' }));
    expect(location.current).toBe('/zichanCenter');
  });
});
