// The buy form of a product's detail page (features/invest/BuyForm.tsx): the exact expected
// return as the amount is typed, the refusals shown before anything is sent (and nothing sent),
// the confirmation sheet repeating the figures, one clientOrderId per confirmation reused by a
// retry, the server's refusals in the user's words, and success landing on taoliOk.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { configureApiClient } from '../../src/api/api.ts';
import ProductDetailPage from '../../src/features/invest/ProductDetailPage.tsx';
import type { Product, ProductOrder } from '../../src/api/contract/products.ts';
import { testStore } from './testStore.ts';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const product: Product = {
  id: '7', type: 'arbitrage', name: 'Steady arbitrage 30', asset: 'USDT', payoutAsset: 'USDT', status: 'open', days: 30, dailyRate: '0.05',
  firstDayRule: 'next_day', minLevel: 0, minAmount: '100.000000', maxAmount: '10000.000000', perUserMax: '0.000000', totalCap: '0.000000',
  sold: '0.000000', earlyRedeem: false, earlyRedeemFee: '0', coverage: '∞', reserve: '500.000000', owed: '0.000000', returnSource: 'reserve_fixed_rate',
};
const order: ProductOrder = {
  id: '91', productId: '7', productType: 'arbitrage', productName: product.name, clientOrderId: 'x', asset: 'USDT', payoutAsset: 'USDT',
  amount: '200.000000', quantity: 1, status: 'not_started', dailyRate: '0.05', days: 30, startsAt: 0, endsAt: 0, accumulatedIncome: '0.000000',
  todayIncome: '0.000000', owed: '3.000000', remainingDays: 30, createdAt: 0,
};
const ok = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 0 });
const refused = (error: string, message: string, code = 409) => ({ success: false, code, message, result: { error }, timestamp: 0 });
const emptyPage = { records: [], total: 0, size: 20, current: 1, pages: 0 };

/** Answers each path (a queue per path for POSTs); records the POST bodies. */
function serve(gets: Record<string, unknown>, posts: Record<string, unknown[]> = {}) {
  const posted: Array<{ path: string; body: Record<string, unknown> }> = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(String(url), 'http://test').pathname.replace(/^\/api/, '');
    if (path.includes('getPublicKey')) return new Response(JSON.stringify(ok('PEM')));
    if (init?.method === 'POST') {
      const { _ts: _stamp, ...body } = JSON.parse(String(init.body)) as Record<string, unknown>;
      posted.push({ path, body });
      const next = posts[path]?.shift();
      if (next instanceof Error) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(next ?? refused('not_found', 'no', 404)));
    }
    return new Response(JSON.stringify(gets[path] ?? { success: false, code: 404, message: 'no', result: null }));
  }));
  return posted;
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname}{location.search}</p>;
}

function renderPage() {
  return render(
    <Provider store={testStore('token')}>
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/taolilicaiDetail?id=7']}>
          <Routes><Route path="*" element={<><ProductDetailPage /><Where /></>} /></Routes>
        </MemoryRouter>
      </I18nProvider>
    </Provider>,
  );
}

const standardGets = (available = '1000.000000') => ({
  '/prod/appProductInfo/queryById': ok(product),
  '/prod/appProductOrder/listMy': ok(emptyPage),
  '/finance/appWallet/queryUserBalance': ok([{ currency: 'USDT', scale: 6, available, frozen: '0.000000' }]),
});

const amountInput = () => screen.getByLabelText('Amount (USDT)');
const type = (text: string) => fireEvent.change(amountInput(), { target: { value: text } });

beforeEach(() => configureApiClient({ notify: vi.fn() }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the buy form of a product', () => {
  it('shows the exact expected return as the amount is typed, and the honesty line', async () => {
    serve(standardGets());
    renderPage();
    await screen.findByLabelText('Amount (USDT)');
    expect(screen.getAllByText('A fixed rate paid by the platform from its reserve; not a trading result.').length).toBeGreaterThan(0);
    type('333.333333');
    // 333.333333 × 0.05 % × 30 = 4.99999999… → 4.999999 (rounded down, exact).
    await waitFor(() => expect(screen.getByTestId('buy-expected').querySelector('.amount')?.getAttribute('data-amount')).toBe('4.999999'));
    expect(screen.getByTestId('buy-daily').querySelector('.amount')?.getAttribute('data-amount')).toBe('0.166666');
    expect(screen.getByTestId('buy-total').querySelector('.amount')?.getAttribute('data-amount')).toBe('338.333332');
  });

  it('refuses below the minimum, above the maximum, above the balance and with too many decimals, sending nothing', async () => {
    const posted = serve(standardGets('500.000000'));
    renderPage();
    await screen.findByLabelText('Amount (USDT)');
    await waitFor(() => expect(screen.getByText(/^Available/).textContent).toContain('500'));
    type('50');
    fireEvent.click(screen.getByRole('button', { name: 'Buy' }));
    expect(await screen.findByText('The minimum purchase is 100.00 USDT.')).toBeTruthy();
    type('20000');
    fireEvent.click(screen.getByRole('button', { name: 'Buy' }));
    expect(await screen.findByText('The maximum purchase is 10,000.00 USDT.')).toBeTruthy();
    // The balance shows as it is typed, without pressing Buy.
    type('600');
    expect(await screen.findByText('Your available USDT does not cover this amount.')).toBeTruthy();
    type('1.1234567');
    expect(await screen.findByText('The amount has too many decimal places for this currency.')).toBeTruthy();
    type('0');
    fireEvent.click(screen.getByRole('button', { name: 'Buy' }));
    expect(await screen.findByText('The amount must be greater than zero.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posted).toEqual([]);
  });

  it('confirms, retries a lost answer with the same clientOrderId, shows a refusal in words, and lands on taoliOk', async () => {
    const posted = serve(standardGets(), {
      '/prod/appProductOrder/debitBuy': [
        new Error('offline'),
        refused('product_sold_out', 'Sold out'),
        ok(order),
      ],
    });
    renderPage();
    await screen.findByLabelText('Amount (USDT)');
    await waitFor(() => expect(screen.getByText(/^Available/).textContent).toContain('1,000'));
    type('200');
    fireEvent.click(screen.getByRole('button', { name: 'Buy' }));
    const sheet = await screen.findByRole('dialog');
    expect(within(sheet).getByTestId('confirm-expected').querySelector('.amount')?.getAttribute('data-amount')).toBe('3.000000');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Confirm purchase' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(await within(sheet).findByRole('alert')).toBeTruthy();
    fireEvent.click(within(sheet).getByRole('button', { name: 'Confirm purchase' }));
    expect(await within(sheet).findByText("Sold out: the product's reserve cannot cover the return of this amount.")).toBeTruthy();
    fireEvent.click(within(sheet).getByRole('button', { name: 'Confirm purchase' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/taoliOk?id=91'));
    expect(posted).toHaveLength(3);
    expect(posted[0]!.body).toMatchObject({ productId: '7', amount: '200.000000' });
    expect(new Set(posted.map((post) => post.body.clientOrderId)).size).toBe(1);
    expect(String(posted[0]!.body.clientOrderId)).toMatch(/^[A-Za-z0-9_.:-]{8,64}$/);
  });

  it('makes a new clientOrderId for a new confirmation', async () => {
    const posted = serve(standardGets(), { '/prod/appProductOrder/debitBuy': [refused('product_level_required', 'Level'), ok(order)] });
    renderPage();
    await screen.findByLabelText('Amount (USDT)');
    await waitFor(() => expect(screen.getByText(/^Available/).textContent).toContain('1,000'));
    type('200');
    fireEvent.click(screen.getByRole('button', { name: 'Buy' }));
    let sheet = await screen.findByRole('dialog');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Confirm purchase' }));
    expect(await within(sheet).findByText('This product needs a higher VIP level.')).toBeTruthy();
    expect(within(sheet).getByRole('link', { name: 'See VIP levels' }).getAttribute('href')).toBe('/vipLevel');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Buy' }));
    sheet = await screen.findByRole('dialog');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Confirm purchase' }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[0]!.body.clientOrderId).not.toBe(posted[1]!.body.clientOrderId);
  });
});
