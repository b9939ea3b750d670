// The back office's investment screens (issue 22) against a stubbed transport: a job runs only
// after its confirmation and shows whether it was replayed and its counts, and a refusal in the
// operator's words; a product's reserve is funded only after a valid amount and a confirmation,
// and the answer says done or waiting for a second operator; freezing an order needs a reason;
// the product form sends only the fields of the product's kind; a loan under review shows the
// borrower's context, reads the signature and the agreement with the operator's token, rejects
// only with a reason for the user and approves after a confirmation; loan settings refuse LTVs
// that do not rise; a VIP level row refuses a bad amount in place and shows the server's refusal.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { App as AntApp } from 'antd';
import { i18n } from '@lingui/core';
import type { ReactNode } from 'react';
import type { JobRun, ReserveFunding } from '../../src/api/contract/products.ts';
import type { LoanSetting } from '../../src/api/contract/loans.ts';
import { createAdminStore } from '../../src/admin/store.ts';
import { writeToken } from '../../src/admin/transport.ts';
import { toAdminLoanDetail, type AdminLoan, type AdminProduct, type AdminProductOrder } from '../../src/admin/investApi.ts';
import { JobsScreen } from '../../src/admin/pages/JobsScreen.tsx';
import { ProductsScreen, productChange } from '../../src/admin/pages/ProductsScreen.tsx';
import { LoansScreen } from '../../src/admin/pages/LoansScreen.tsx';
import { LevelsScreen } from '../../src/admin/pages/LevelsScreen.tsx';
import { productBody, type ProductFields } from '../../src/admin/pages/invest/ProductForm.tsx';
import { ltvProblem } from '../../src/admin/pages/invest/LoanSettingsTab.tsx';
import { amountProblem, compareDecimal } from '../../src/admin/pages/invest/investTexts.ts';

configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 60_000 });

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const product: AdminProduct = {
  id: '5', type: 'arbitrage', name: 'Steady 30', asset: 'USDT', payoutAsset: 'USDT', status: 'open', days: 30, dailyRate: '0.05',
  firstDayRule: 'next_day', minLevel: 0, minAmount: '100.000000', maxAmount: '10000.000000', perUserMax: '0.000000', totalCap: '0.000000',
  sold: '2500.000000', earlyRedeem: false, earlyRedeemFee: '0', coverage: '135.20', reserve: '1000.000000', owed: '37.500000',
  returnSource: 'reserve_fixed_rate',
};
const order: AdminProductOrder = {
  id: '77', productId: '5', productType: 'arbitrage', productName: 'Steady 30', clientOrderId: 'c-1', asset: 'USDT', payoutAsset: 'USDT',
  amount: '500.000000', quantity: 1, status: 'running', dailyRate: '0.05', days: 30, startsAt: Date.UTC(2026, 10, 1), endsAt: Date.UTC(2026, 11, 1),
  accumulatedIncome: '2.500000', todayIncome: '0.250000', owed: '5.000000', remainingDays: 4, createdAt: Date.UTC(2026, 10, 1), userId: '7',
  account: 'ana@example.com',
};
const loan: AdminLoan = {
  id: '31', type: 'credit', settingId: '1', clientOrderId: 'l-1', asset: 'USDT', amount: '800.000000', days: 30, dailyRate: '0.05',
  penaltyRate: '0.1', totalInterest: '12.000000', status: 'pending', interest: '0', repaid: '0', owed: '0', overdue: false,
  termsHash: 'ab'.repeat(32), signedAt: Date.UTC(2026, 10, 20), createdAt: Date.UTC(2026, 10, 20), userId: '7', userEmail: 'ana@example.com',
};
const earlier: AdminLoan = { ...loan, id: '12', status: 'rejected', rejectReason: 'Verify first.', createdAt: Date.UTC(2026, 9, 1) };
const pledgeSetting: LoanSetting = {
  id: '2', type: 'pledge', asset: 'USDT', collateralAsset: 'BTC', dailyRate: '0.03', penaltyRate: '0.1', minDays: 7, maxDays: 365,
  minAmount: '100.000000', maxAmount: '50000.000000', initialLtv: '65', marginCallLtv: '80', liquidationLtv: '90', liquidationFee: '2', enabled: true,
};
const run = (replayed: boolean): JobRun => ({
  name: 'product-accrual', day: '2026-11-27', state: 'done', replayed, result: { orders: 12, paid: '3.200000' }, operatorId: '1',
  startedAt: Date.UTC(2026, 10, 27, 1), finishedAt: Date.UTC(2026, 10, 27, 1, 1),
});

type Call = { method: string; path: string; query: Record<string, string>; body: any; token: string | null };
let calls: Call[] = [];
let refuse: Record<string, { error: string; message: string }> = {};
let role = 'admin';
let jobRuns = 0;
let fundingStatus: ReserveFunding['status'] = 'pending';
const created: string[] = [];
const revoked: string[] = [];

const envelope = (result: unknown, code = 200, message = 'OK') => new Response(JSON.stringify({ success: code === 200, code, message, result, timestamp: 0 }),
  { status: 200, headers: { 'content-type': 'application/json' } });
const page = (records: unknown[]) => ({ records, total: records.length, size: 20, current: 1, pages: 1 });

function serve(url: string, init?: RequestInit): Response {
  const parsed = new URL(url, 'http://localhost');
  const path = parsed.pathname;
  const method = init?.method ?? 'GET';
  const headers = new Headers(init?.headers);
  const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
  calls.push({ method, path, query: Object.fromEntries(parsed.searchParams), body, token: headers.get('x-access-token') });
  if (path.endsWith('PublicKey')) return envelope('key');
  const refusal = refuse[path];
  if (method === 'POST' && refusal) {
    delete refuse[path];
    return envelope({ error: refusal.error }, 400, refusal.message);
  }
  if (path === '/api/admin/me') return envelope({ id: '1', email: 'op@bourse.local', role });
  if (path === '/api/admin/jobs/runs') return envelope(jobRuns > 0 ? [run(false)] : []);
  if (path === '/api/admin/jobs/product-accrual/run') return envelope(run(jobRuns++ > 0));
  if (path === '/api/admin/products' && method === 'GET') return envelope(page([product]));
  if (path === '/api/admin/products/5/reserve') {
    return envelope({ id: '9', productId: '5', asset: 'USDT', amount: body.amount, status: fundingStatus, approvalsRequired: 2, approvals: [], requestedBy: '1', createdAt: 0 });
  }
  if (path === '/api/admin/products/fundings') return envelope([]);
  if (path === '/api/admin/products/orders') return envelope(page([order]));
  if (path === '/api/admin/products/orders/77/freeze') return envelope({ ...order, status: 'frozen', frozenReason: body.reason });
  if (path === '/api/admin/mining/rewards') return envelope([]);
  if (path === '/api/admin/loans' && method === 'GET') return envelope(page([loan]));
  if (path === '/api/admin/loans/31') {
    return envelope({ ...loan, kycLevel: 1, vipLevel: 2, terms: 'Loan agreement between the platform and user 7.', earlierLoans: [earlier],
      balances: [{ asset: 'USDT', kind: 'spot', amount: '150.000000' }, { asset: 'BTC', kind: 'collateral', amount: '0.00000000' }] });
  }
  if (path === '/api/admin/loans/31/signature') return new Response(new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), { status: 200 });
  if (path === '/api/admin/loans/31/agreement.pdf') return new Response(new Blob(['%PDF-1.7'], { type: 'application/pdf' }), { status: 200 });
  if (path === '/api/admin/loans/31/approve') return envelope({ ...loan, status: 'active' });
  if (path === '/api/admin/loans/31/reject') return envelope({ ...loan, status: 'rejected', rejectReason: body.reason });
  if (path === '/api/admin/loans/settings') return envelope([pledgeSetting]);
  if (path === '/api/admin/loans/settings/2') return envelope({ ...pledgeSetting, ...body });
  if (path === '/api/admin/levels') {
    return envelope([
      { level: 0, name: 'Standard', minAssets: '0.000000', creditLimit: '0.000000', productsUnlocked: 3 },
      { level: 1, name: 'VIP 1', minAssets: '1000.000000', creditLimit: '500.000000', productsUnlocked: 4 },
    ]);
  }
  if (path === '/api/admin/levels/1') return envelope({ level: 1, productsUnlocked: 4, ...body });
  return envelope(null, 404, 'Not found.');
}

beforeEach(() => {
  calls = [];
  refuse = {};
  role = 'admin';
  jobRuns = 0;
  fundingStatus = 'pending';
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
    const url = `blob:file-${created.length + 1}`;
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

/** The open dialog with this title (a confirmation or a modal), once it shows. Plain selectors, not role queries: those are slow on antd's trees. */
const confirmDialog = (title: string) => waitFor(() => {
  const dialog = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].find((item) => within(item).queryAllByText(title).length > 0);
  if (!dialog) throw new Error(`no dialog titled ${title}`);
  return dialog;
});
const findDialog = () => waitFor(() => {
  const dialog = document.querySelector<HTMLElement>('[role="dialog"]');
  if (!dialog) throw new Error('no dialog');
  return dialog;
});
/** The button in `container` whose text or aria-label is `name`. */
function buttonIn(container: HTMLElement, name: string): HTMLButtonElement {
  const found = [...container.querySelectorAll('button')].filter((item) => item.getAttribute('aria-label') === name
    || (!item.getAttribute('aria-label') && item.textContent?.trim() === name));
  if (found.length !== 1) throw new Error(`${found.length} buttons named ${name}`);
  return found[0];
}
const findButton = (name: string) => waitFor(() => buttonIn(document.body, name));

describe('scheduled jobs', () => {
  it('runs a job only after the confirmation, shows the counts, then a second run the same day as replayed', async () => {
    renderWith(<JobsScreen />);
    const button = await screen.findByRole('button', { name: 'Run product-accrual now' });
    await waitFor(() => expect(button).toHaveProperty('disabled', false));
    fireEvent.click(button);
    const confirm = await confirmDialog('Run product-accrual now?');
    expect(posts()).toEqual([]);
    fireEvent.click(buttonIn(confirm, 'Run now'));
    const outcome = await screen.findByTestId('job-outcome-product-accrual');
    expect(within(outcome).getByText('Ran for 2026-11-27')).toBeTruthy();
    expect(within(outcome).getByText('orders: 12')).toBeTruthy();
    expect(within(outcome).getByText('paid: 3.200000')).toBeTruthy();
    expect(posts()).toEqual([{ path: '/api/admin/jobs/product-accrual/run', body: {} }]);
    fireEvent.click(buttonIn(document.body, 'Run product-accrual now'));
    fireEvent.click(buttonIn(await confirmDialog('Run product-accrual now?'), 'Run now'));
    expect(await screen.findByText('Already ran today (2026-11-27): this is that run')).toBeTruthy();
    // The runs list was refreshed after the run.
    expect(within(screen.getByTestId('job-runs-table')).getAllByText('product-accrual').length).toBeGreaterThan(0);
  });

  it("shows a refusal in the operator's words, and a finance operator cannot run a job", async () => {
    refuse['/api/admin/jobs/loan-accrual/run'] = { error: 'job_running', message: 'running' };
    renderWith(<JobsScreen />);
    const button = await findButton('Run loan-accrual now');
    await waitFor(() => expect(button).toHaveProperty('disabled', false));
    fireEvent.click(button);
    fireEvent.click(buttonIn(await confirmDialog('Run loan-accrual now?'), 'Run now'));
    expect(await screen.findByText('This job is running now. Wait for it to finish and refresh.')).toBeTruthy();
    cleanup();
    role = 'finance';
    renderWith(<JobsScreen />);
    expect(await screen.findByText('Only administrators can run a job.')).toBeTruthy();
    expect(buttonIn(document.body, 'Run vip-levels now')).toHaveProperty('disabled', true);
  });
});

describe('products', () => {
  it('lists the figures with the coverage, and funds the reserve only after a valid amount and a confirmation', async () => {
    renderWith(<ProductsScreen />);
    const table = await screen.findByTestId('products-table');
    await within(table).findByText('Steady 30');
    expect(within(table).getByTestId('coverage').textContent).toBe('135.20 %');
    expect(within(table).getByText('1,000.000000 USDT')).toBeTruthy();
    // The server's product query takes the kind and the page only (it refuses other fields).
    expect(Object.keys(calls.find((call) => call.path === '/api/admin/products')!.query).sort()).toEqual(['pageNo', 'pageSize']);
    fireEvent.click(await findButton('Fund reserve of Steady 30'));
    const modal = await confirmDialog('Fund the reserve of Steady 30');
    fireEvent.change(within(modal).getByTestId('fund-amount'), { target: { value: '1e6' } });
    fireEvent.click(buttonIn(modal, 'Fund reserve'));
    expect(await within(modal).findByText('Enter a plain decimal number, such as 12.5.')).toBeTruthy();
    expect(posts()).toEqual([]);
    fireEvent.change(within(modal).getByTestId('fund-amount'), { target: { value: '50000' } });
    fireEvent.click(buttonIn(modal, 'Fund reserve'));
    const confirm = await confirmDialog('Fund the reserve?');
    expect(posts()).toEqual([]);
    fireEvent.click(buttonIn(confirm, 'Fund reserve'));
    expect((await screen.findByTestId('fund-outcome')).textContent)
      .toContain('Funding of 50,000 USDT for Steady 30 recorded: waiting for a second operator.');
    expect(posts()).toEqual([{ path: '/api/admin/products/5/reserve', body: { amount: '50000' } }]);
  });

  it('shows the refusal of a funding in place', async () => {
    refuse['/api/admin/products/5/reserve'] = { error: 'product_not_found', message: 'gone' };
    renderWith(<ProductsScreen />);
    fireEvent.click(await findButton('Fund reserve of Steady 30'));
    const modal = await confirmDialog('Fund the reserve of Steady 30');
    fireEvent.change(within(modal).getByTestId('fund-amount'), { target: { value: '10' } });
    fireEvent.click(buttonIn(modal, 'Fund reserve'));
    fireEvent.click(buttonIn(await confirmDialog('Fund the reserve?'), 'Fund reserve'));
    expect((await within(modal).findByTestId('fund-error')).textContent).toContain('This product no longer exists.');
    expect(screen.queryByTestId('fund-outcome')).toBeNull();
  });

  it('freezes an order only with a reason the user reads', async () => {
    renderWith(<ProductsScreen />);
    fireEvent.click(await findButton('Orders of Steady 30'));
    await waitFor(() => expect(calls.some((call) => call.path === '/api/admin/products/orders' && call.query.productId === '5')).toBe(true));
    fireEvent.click(await findButton('Freeze order 77'));
    const modal = await confirmDialog('Freeze this order');
    fireEvent.click(buttonIn(modal, 'Freeze'));
    expect(await within(modal).findByText('This field is required.')).toBeTruthy();
    expect(posts()).toEqual([]);
    fireEvent.change(within(modal).getByLabelText('Reason (the user reads it)'), { target: { value: ' Source of funds under review. ' } });
    fireEvent.click(buttonIn(modal, 'Freeze'));
    await waitFor(() => expect(posts()).toEqual([{ path: '/api/admin/products/orders/77/freeze', body: { reason: 'Source of funds under review.' } }]));
  });

  it('sends only the fields of the kind, and only what an edit changed', () => {
    const base: ProductFields = {
      type: 'bond', name: ' Green bond ', asset: 'usdt', days: 90, dailyRate: '0.04', minAmount: '100', maxAmount: '5000', perUserMax: '',
      totalCap: ' ', target: '100000', closesAt: '2026-12-31T12:00', firstDayRule: 'full', earlyRedeem: true, earlyRedeemFee: '1',
      manufacturer: 'x', unitPrice: '9', status: 'open', minLevel: 1,
    };
    expect(productBody(base)).toEqual({
      type: 'bond', name: 'Green bond', asset: 'USDT', days: 90, minAmount: '100', maxAmount: '5000', minLevel: 1, status: 'open',
      dailyRate: '0.04', target: '100000', closesAt: new Date('2026-12-31T12:00').getTime(),
    });
    const mining = productBody({ ...base, type: 'mining', payoutAsset: 'btc', hashrateThs: '200', powerW: 3500 });
    expect(mining).toMatchObject({ type: 'mining', payoutAsset: 'BTC', unitPrice: '9', machine: { manufacturer: 'x', hashrateThs: '200', powerW: 3500 } });
    expect(mining).not.toHaveProperty('dailyRate');
    expect(mining).not.toHaveProperty('target');
    expect(productBody({ ...base, type: 'quant' })).toMatchObject({ firstDayRule: 'full', earlyRedeem: true, earlyRedeemFee: '1', dailyRate: '0.04' });
    expect(productChange(product, { status: 'open', minLevel: 0, maxAmount: '10000', perUserMax: '0', totalCap: '' })).toEqual({});
    expect(productChange(product, { status: 'closed', minLevel: 2, maxAmount: '20000', perUserMax: '0', totalCap: '' }))
      .toEqual({ status: 'closed', minLevel: 2, maxAmount: '20000' });
  });
});

describe('loans', () => {
  it("reviews a pending application: the user's context, the signature and the agreement read with the operator token, reject needs a reason", async () => {
    renderWith(<LoansScreen />);
    await screen.findByText('800.000000 USDT');
    expect(calls.find((call) => call.path === '/api/admin/loans')?.query).toMatchObject({ status: 'pending', pageNo: '1' });
    fireEvent.click(buttonIn(document.body, 'Review'));
    const drawer = await findDialog();
    const context = await within(drawer).findByTestId('loan-context');
    expect(within(context).getByText(/USDT 150\.000000/)).toBeTruthy();
    expect(within(context).queryByText(/BTC/)).toBeNull();
    expect(within(context).getByText('Loan agreement between the platform and user 7.', { exact: false })).toBeTruthy();
    expect(within(context).getByText('Verify first.')).toBeTruthy();
    expect(within(drawer).getByTestId('loan-terms-hash').textContent).toBe('ab'.repeat(32));
    expect(await within(drawer).findByTestId('loan-signature')).toHaveProperty('alt', "The user's signature");
    const link = within(drawer).getByText('Agreement (PDF)');
    expect(link.tagName).toBe('A');
    fireEvent.click(link);
    await waitFor(() => expect(calls.some((call) => call.path === '/api/admin/loans/31/agreement.pdf')).toBe(true));
    const fileCalls = calls.filter((call) => call.path.endsWith('/signature') || call.path.endsWith('/agreement.pdf'));
    expect(fileCalls.every((call) => call.token === 'operator-token')).toBe(true);
    fireEvent.click(buttonIn(drawer, 'Reject'));
    const modal = await confirmDialog('Reject this application');
    fireEvent.click(buttonIn(modal, 'Reject'));
    expect(await within(modal).findByText('This field is required.')).toBeTruthy();
    expect(posts()).toEqual([]);
    fireEvent.change(within(modal).getByLabelText('Reason for the user'), { target: { value: 'Your income proof is missing.' } });
    fireEvent.click(buttonIn(modal, 'Reject'));
    await waitFor(() => expect(posts()).toEqual([{ path: '/api/admin/loans/31/reject', body: { reason: 'Your income proof is missing.' } }]));
    await waitFor(() => expect(revoked.length).toBe(created.length));
  });

  it("approves only after the confirmation, and shows a refusal in the operator's words", async () => {
    refuse['/api/admin/loans/31/approve'] = { error: 'loan_decided', message: 'decided' };
    renderWith(<LoansScreen />);
    await screen.findByText('800.000000 USDT');
    fireEvent.click(buttonIn(document.body, 'Review'));
    const drawer = await findDialog();
    await within(drawer).findByTestId('loan-figures');
    fireEvent.click(buttonIn(drawer, 'Approve'));
    const confirm = await confirmDialog('Approve this loan?');
    expect(posts()).toEqual([]);
    fireEvent.click(buttonIn(confirm, 'Approve'));
    expect((await within(drawer).findByTestId('loan-decision-error')).textContent)
      .toContain('This application has already been decided by another operator.');
    expect(posts()).toEqual([{ path: '/api/admin/loans/31/approve', body: {} }]);
  });

  it('refuses loan-to-values that do not rise before sending', async () => {
    renderWith(<LoansScreen />);
    fireEvent.click(await screen.findByText('Loan settings'));
    fireEvent.click(await findButton('Edit'));
    const drawer = await findDialog();
    await waitFor(() => expect(within(drawer).getByTestId('ltv-initial')).toHaveProperty('value', '65'));
    fireEvent.change(within(drawer).getByTestId('ltv-margin-call'), { target: { value: '95' } });
    fireEvent.click(within(drawer).getByTestId('loan-setting-save'));
    expect((await within(drawer).findAllByText('The loan-to-values must rise: initial below margin call below liquidation, all below 100.')).length)
      .toBeGreaterThan(0);
    expect(posts()).toEqual([]);
    fireEvent.change(within(drawer).getByTestId('ltv-margin-call'), { target: { value: '75' } });
    fireEvent.click(within(drawer).getByTestId('loan-setting-save'));
    await waitFor(() => expect(posts()).toEqual([{ path: '/api/admin/loans/settings/2', body: {
      enabled: true, dailyRate: '0.03', penaltyRate: '0.1', minDays: 7, maxDays: 365, minAmount: '100.000000', maxAmount: '50000.000000',
      initialLtv: '65', marginCallLtv: '75', liquidationLtv: '90', liquidationFee: '2',
    } }]));
  });

  it('reads the user context wherever the server puts it', () => {
    const nested = toAdminLoanDetail({ ...loan, userEmail: undefined, user: { email: 'b@example.com', kycLevel: 2, vipLevel: 0,
      balances: { USDT: '5' }, loans: [loan, earlier] } } as never);
    expect(nested.userEmail).toBe('b@example.com');
    expect(nested.context).toEqual({ email: 'b@example.com', kycLevel: 2, vipLevel: 0, balances: [{ currency: 'USDT', amount: '5' }],
      earlierLoans: [earlier], terms: undefined });
    expect(toAdminLoanDetail({ ...loan } as never).context).toEqual({
      email: 'ana@example.com', kycLevel: undefined, vipLevel: undefined, balances: [], earlierLoans: [], terms: undefined,
    });
    expect(ltvProblem('65', '80', '90')).toBeUndefined();
    expect(ltvProblem('65', '90', '80')).toBe('ltv_order');
    expect(ltvProblem('65', '80', '100')).toBe('ltv_order');
    expect(compareDecimal('10.5', '10.50')).toBe(0);
    expect(compareDecimal('9.99', '10')).toBe(-1);
    expect(amountProblem('0', { zeroAllowed: true })).toBeUndefined();
    expect(amountProblem('0')).toBe('amount_positive');
  });
});

describe('VIP levels', () => {
  it('refuses a bad threshold in place, saves a row, and shows the refusal of the server in the row', async () => {
    renderWith(<LevelsScreen />);
    const threshold = await screen.findByTestId('level-minAssets-1');
    await waitFor(() => expect(threshold).toHaveProperty('value', '1000.000000'));
    fireEvent.change(threshold, { target: { value: '1,000' } });
    fireEvent.click(buttonIn(document.body, 'Save level 1'));
    expect(await screen.findByText('Enter a plain decimal number, such as 12.5.')).toBeTruthy();
    expect(posts()).toEqual([]);
    fireEvent.change(threshold, { target: { value: '2000' } });
    refuse['/api/admin/levels/1'] = { error: 'invalid_request', message: 'not increasing' };
    fireEvent.click(buttonIn(document.body, 'Save level 1'));
    expect((await screen.findByTestId('level-error-1')).textContent).toContain('Some of the information entered is not valid.');
    fireEvent.click(buttonIn(document.body, 'Save level 1'));
    await waitFor(() => expect(posts()).toHaveLength(2));
    expect(posts()[1]).toEqual({ path: '/api/admin/levels/1', body: { name: 'VIP 1', minAssets: '2000', creditLimit: '500.000000' } });
    expect(await screen.findByText('Level 1 saved.')).toBeTruthy();
  });
});
