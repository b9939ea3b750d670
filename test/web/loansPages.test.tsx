// The loan pages in jsdom against a stubbed server: the agreement refuses an empty signature with
// "Please sign" and sends nothing; a drawn one is uploaded once and the application carries the
// terms' hash and one client order id, kept across a retry after a refusal (translated in place);
// lending shows the credit limit before anything is typed, the exact total interest, and refuses an
// amount over the limit; the loan orders show a rejection's reason with Apply again, and an active
// loan's owed amount, repaid in full after a confirmation; the signature pad's bitmap stays within
// the sides the server takes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { i18n } from '../../src/lib/i18n.ts';
import { configureApiClient } from '../../src/api/api.ts';
import { signatureSidesMaxPx, type Loan, type LoanInfo, type LoanSetting } from '../../src/api/contract/loans.ts';
import { configureStore } from '@reduxjs/toolkit';
import { api } from '../../src/api/api.ts';
import { loggedIn, userSlice } from '../../src/entities/session/userSlice.ts';
import { marketSlice } from '../../src/entities/market/marketSlice.ts';

/** The app's slices the pages read: the api, the user (logged in) and the market (the live prices of a pledge). */
function testStore(token: string) {
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer, market: marketSlice.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  store.dispatch(loggedIn({ token }));
  return store;
}

const { confirmDialog, uploadFile } = vi.hoisted(() => ({
  confirmDialog: vi.fn(async () => true),
  uploadFile: vi.fn(async (_options: { purpose: string; token: string }) => ({ id: 'a'.repeat(32), url: '/x' })),
}));
vi.mock('../../src/components/feedback.tsx', () => ({ confirmDialog, showToast: vi.fn(), alertDialog: vi.fn() }));
vi.mock('../../src/api/uploadFile.ts', () => ({ uploadFile }));
vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const { default: LoanAgreementPage } = await import('../../src/features/loans/LoanAgreementPage.tsx');
const { default: LoanPage } = await import('../../src/features/loans/LoanPage.tsx');
const { default: LoanOrdersPage } = await import('../../src/features/loans/LoanOrdersPage.tsx');
const { SignaturePad } = await import('../../src/features/loans/SignaturePad.tsx');
await import('../../src/features/loans/loansTexts.ts');

const ok = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 0 });
const refused = (error: string, message: string, code = 409) => ({ success: false, code, message, result: { error }, timestamp: 0 });

const credit: LoanSetting = {
  id: '1', type: 'credit', asset: 'USDT', dailyRate: '0.05', penaltyRate: '0.1', minDays: 7, maxDays: 180,
  minAmount: '100.000000', maxAmount: '50000.000000', enabled: true, available: '10000.000000',
};
const pledge: LoanSetting = {
  id: '2', type: 'pledge', asset: 'USDT', collateralAsset: 'BTC', dailyRate: '0.03', penaltyRate: '0.1', minDays: 7, maxDays: 365,
  minAmount: '100.000000', maxAmount: '500000.000000', initialLtv: '65', marginCallLtv: '80', liquidationLtv: '90', liquidationFee: '2', enabled: true,
};
const info: LoanInfo = {
  kycLevel: 1, vipLevel: 0, creditLimit: '10000.000000', creditUsed: '0.000000', creditAvailable: '10000.000000', owed: [], activeLoans: 0, pendingLoans: 0,
};
const termsHash = 'f'.repeat(64);
const loan = (fields: Partial<Loan>): Loan => ({
  id: '9', type: 'credit', settingId: '1', clientOrderId: 'loan-abcdefgh', asset: 'USDT', amount: '1000.000000', days: 30, dailyRate: '0.05',
  penaltyRate: '0.1', totalInterest: '15.000000', status: 'pending', interest: '0.000000', repaid: '0.000000', owed: '0.000000',
  overdue: false, termsHash, signedAt: 1_800_000_000_000, createdAt: 1_800_000_000_000, ...fields,
});

function serve(answers: { apply?: unknown[]; loans?: Loan[]; repay?: unknown[] } = {}) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const parsed = new URL(String(url), 'http://test');
    const path = parsed.pathname.replace(/^\/api/, '');
    if (path.includes('getPublicKey')) return new Response(JSON.stringify(ok('PEM')));
    calls.push(`${init?.method ?? 'GET'} ${path}${init?.method === 'POST' ? ` ${String(init.body)}` : parsed.search}`);
    if (path === '/prod/appLoanSet/list') return new Response(JSON.stringify(ok([credit, pledge])));
    if (path === '/prod/appLoanOrder/myLoanInfo') return new Response(JSON.stringify(ok(info)));
    if (path === '/prod/appLoanOrder/agreement') return new Response(JSON.stringify(ok({ terms: 'LOAN AGREEMENT\n1. The lender lends...', termsHash })));
    if (path === '/prod/appLoanOrder/creditApply') return new Response(JSON.stringify(answers.apply?.shift() ?? ok(loan({}))));
    if (path === '/prod/appLoanOrder/listMy') {
      const records = answers.loans ?? [];
      return new Response(JSON.stringify(ok({ records, total: records.length, size: 10, current: 1, pages: 1 })));
    }
    if (path === '/prod/appLoanOrder/repay') return new Response(JSON.stringify(answers.repay?.shift() ?? ok(loan({ status: 'repaid' }))));
    if (path === '/market/tickers' || path.includes('ticker')) return new Response(JSON.stringify(ok([])));
    if (path === '/finance/appWallet/queryUserBalance') return new Response(JSON.stringify(ok([{ currency: 'BTC', scale: 8, available: '1.00000000', frozen: '0.00000000' }])));
    return new Response(JSON.stringify(refused('not_found', 'no', 404)));
  }));
  return calls;
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function wrap(path: string, node: ReactNode) {
  return render(
    <Provider store={testStore('token-123')}>
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>
          <Routes><Route path="*" element={node} /></Routes>
          <Where />
        </MemoryRouter>
      </I18nProvider>
    </Provider>,
  );
}

/** Draws a short stroke on the signature canvas with pointer events. */
function draw(canvas: HTMLElement) {
  fireEvent.pointerDown(canvas, { pointerId: 1, button: 0, clientX: 10, clientY: 10, pointerType: 'touch' });
  fireEvent.pointerMove(canvas, { pointerId: 1, clientX: 40, clientY: 30, pointerType: 'touch' });
  fireEvent.pointerUp(canvas, { pointerId: 1, pointerType: 'touch' });
}

describe('SignaturePad', () => {
  afterEach(() => { cleanup(); vi.unstubAllGlobals(); vi.restoreAllMocks(); });

  it('keeps its bitmap within the sides the server takes, whatever the screen density', async () => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => new Proxy({}, { get: () => () => undefined, set: () => true }) as never);
    // The widest pad the app lays out (527 × 180 CSS px) on a screen of pixel ratio 4: 2108 px unclamped.
    vi.spyOn(HTMLCanvasElement.prototype, 'getBoundingClientRect').mockReturnValue(
      { width: 527, height: 180, left: 0, top: 0, right: 527, bottom: 180, x: 0, y: 0, toJSON: () => ({}) } as DOMRect);
    vi.stubGlobal('devicePixelRatio', 4);
    render(<I18nProvider i18n={i18n}><SignaturePad label="Signature" /></I18nProvider>);
    const canvas = screen.getByRole('img', { name: 'Signature' }) as HTMLCanvasElement;
    expect(Math.max(canvas.width, canvas.height)).toBeLessThanOrEqual(signatureSidesMaxPx.long);
    expect(Math.min(canvas.width, canvas.height)).toBeLessThanOrEqual(signatureSidesMaxPx.short);
    expect(canvas.width).toBe(1600);
  });
});

describe('jiedaiHetong, the loan agreement', () => {
  beforeEach(() => {
    configureApiClient({ notify: vi.fn(), getToken: () => 'token-123' });
    confirmDialog.mockClear();
    uploadFile.mockClear();
    // jsdom draws nothing: a context that accepts the calls, and a PNG of a few bytes.
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => new Proxy({}, { get: () => () => undefined, set: () => true }) as never);
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function toBlob(callback: BlobCallback) {
      callback(new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }));
    });
  });
  afterEach(() => { cleanup(); vi.unstubAllGlobals(); vi.restoreAllMocks(); });

  it('says "Please sign" for an empty canvas and sends nothing', async () => {
    const calls = serve();
    wrap('/jiedaiHetong?settingId=1&amount=1000&days=30', <LoanAgreementPage />);
    expect(await screen.findByText(/LOAN AGREEMENT/)).toBeTruthy();
    expect(screen.getByText(termsHash)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign and apply' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please sign');
    expect(confirmDialog).not.toHaveBeenCalled();
    expect(uploadFile).not.toHaveBeenCalled();
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
    // Drawn and cleared again: still empty, still refused.
    const canvas = screen.getByRole('img', { name: 'Signature' });
    draw(canvas);
    expect(canvas.getAttribute('data-empty')).toBe('false');
    expect(screen.queryByText('Please sign')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(canvas.getAttribute('data-empty')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Sign and apply' }));
    expect(await screen.findByText('Please sign')).toBeTruthy();
    expect(uploadFile).not.toHaveBeenCalled();
  });

  it('uploads a drawn signature once and keeps one client order id across a retry', async () => {
    const calls = serve({ apply: [refused('loan_over_limit', 'over'), ok(loan({ id: '41' }))] });
    wrap('/jiedaiHetong?settingId=1&amount=1000&days=30', <LoanAgreementPage />);
    // The figures as the page computes them: 1 000 × 0.05 % × 30 = 15.
    expect((await screen.findAllByText('15.00 USDT')).length).toBeGreaterThan(0);
    draw(screen.getByRole('img', { name: 'Signature' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign and apply' }));
    // Refused: said in place, in words, not as the code.
    expect(await screen.findByText('The amount is above your available credit limit.')).toBeTruthy();
    expect(confirmDialog).toHaveBeenCalledTimes(1);
    expect(uploadFile).toHaveBeenCalledTimes(1);
    expect(uploadFile.mock.calls[0][0]).toMatchObject({ purpose: 'loan_signature', token: 'token-123' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign and apply' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/jiedaiOrder?id=41'));
    expect(uploadFile).toHaveBeenCalledTimes(1);
    const posts = calls.filter((call) => call.startsWith('POST /prod/appLoanOrder/creditApply')).map((call) => JSON.parse(call.slice(call.indexOf('{'))));
    expect(posts).toHaveLength(2);
    expect(posts[0]).toMatchObject({ settingId: '1', amount: '1000', days: 30, signatureFileId: 'a'.repeat(32), termsHash });
    expect(posts[0].clientOrderId).toMatch(/^loan-/);
    expect(posts[1].clientOrderId).toBe(posts[0].clientOrderId);
  });

  it('cancelling the confirmation sends nothing', async () => {
    const calls = serve();
    confirmDialog.mockResolvedValueOnce(false);
    wrap('/jiedaiHetong?settingId=1&amount=1000&days=30', <LoanAgreementPage />);
    draw(await screen.findByRole('img', { name: 'Signature' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign and apply' }));
    await waitFor(() => expect(confirmDialog).toHaveBeenCalledTimes(1));
    expect(uploadFile).not.toHaveBeenCalled();
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
  });
});

describe('jiedai, lending', () => {
  beforeEach(() => configureApiClient({ notify: vi.fn(), getToken: () => 'token-123' }));
  afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

  it('shows the limit first, the exact interest, refuses above the limit and goes on to the agreement', async () => {
    serve();
    wrap('/jiedai', <LoanPage />);
    expect((await screen.findByTestId('loan-available')).textContent).toBe('10,000.00 USDT');
    expect(screen.getByText('Complete advanced verification to raise your limit.')).toBeTruthy();
    const amount = screen.getByLabelText('Loan amount (USDT)');
    fireEvent.change(amount, { target: { value: '10000.01' } });
    expect(screen.getByText('The amount is above your available limit.')).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Read and sign the agreement' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.change(amount, { target: { value: '1234.56' } });
    fireEvent.change(screen.getByLabelText('Days'), { target: { value: '45' } });
    // 1 234.56 × 0.05 % × 45 = 27.77760.
    expect(screen.getByTestId('loan-total-interest').textContent).toBe('27.7776 USDT');
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    expect(screen.getByTestId('where').textContent).toBe('/jiedaiHetong?settingId=1&amount=1234.56&days=45');
  });
});

describe('jiedaiOrder, the loan orders', () => {
  beforeEach(() => { configureApiClient({ notify: vi.fn(), getToken: () => 'token-123' }); confirmDialog.mockClear(); });
  afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

  it('shows a rejection with its reason and Apply again, and repays an active loan in full after a confirmation', async () => {
    const calls = serve({
      loans: [
        loan({ id: '7', status: 'rejected', rejectReason: 'Income not shown' }),
        loan({ id: '8', status: 'active', startsAt: Date.now() - 3 * 86_400_000 - 1000, dueAt: Date.now() + 27 * 86_400_000, interest: '2.000000', owed: '1002.000000' }),
      ],
    });
    wrap('/jiedaiOrder', <LoanOrdersPage />);
    const rows = await screen.findAllByTestId('loan-row');
    expect(within(rows[0]).getByText('Income not shown')).toBeTruthy();
    expect(within(rows[0]).getByTestId('loan-status').textContent).toBe('Rejected');
    expect(within(rows[1]).getByTestId('loan-owed').textContent).toBe('1,002.00 USDT');
    fireEvent.click(within(rows[1]).getByRole('button', { name: 'Repay' }));
    // Four days started: 1 000 × 0.05 % × 4 = 2.
    expect((await screen.findByTestId('loan-used-interest')).textContent).toBe('2 USDT');
    // All of it is charged already: everything owed is what the server says.
    expect(screen.getByTestId('loan-payoff').textContent).toBe('1002 USDT');
    fireEvent.click(screen.getByRole('button', { name: 'Repay all' }));
    await waitFor(() => expect(calls.some((call) => call.startsWith('POST /prod/appLoanOrder/repay'))).toBe(true));
    expect(confirmDialog).toHaveBeenCalledTimes(1);
    const body = JSON.parse(calls.find((call) => call.startsWith('POST /prod/appLoanOrder/repay'))!.replace(/^POST \S+ /, ''));
    expect(body).toMatchObject({ id: '8' });
    expect(body.amount).toBeUndefined();
    fireEvent.click(within(rows[0]).getByRole('button', { name: 'Apply again' }));
    expect(screen.getByTestId('where').textContent).toBe('/jiedai?type=credit');
  });
});
