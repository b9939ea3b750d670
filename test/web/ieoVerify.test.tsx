// "Verify the draw" on /ieo (features/marketing/ieo/IeoPage.tsx) against a stubbed transport: an
// honest published draw is recomputed in the page (commitment, list hash, winners) and shows
// "Verified" and the account's lots; a draw whose published winners were changed names the
// application that differs and shows no "Verified"; the amount of the lots typed is exact and is
// said to be held when applying, with the need for verification (issue 38); an application's held
// amount is shown; a refusal for want of verification says so and leads to the verification page.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { configureApiClient } from '../../src/api/api.ts';
import IeoPage, { lotsAmount } from '../../src/features/marketing/ieo/IeoPage.tsx';
import type { IeoApplication, IeoDraw, IeoProject } from '../../src/api/contract/ieo.ts';
import { drawWinners, listHashOf, listText, seedHashOf } from '../../src/api/ieoDraw.ts';
import { testStore } from './testStore.ts';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const ok = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 0 });
const seed = 'c0'.repeat(32);
const list = listText([{ id: '11', lots: 3 }, { id: '12', lots: 2 }, { id: '15', lots: 4 }]);
const winners = drawWinners(seed, list, 4);
const mine: IeoApplication = {
  id: '12', projectId: '3', name: 'Nova', token: 'NOVA', payAsset: 'USDT', lots: 2, quantity: '2000.00000000',
  wonLots: winners.find((winner) => winner.id === '12')?.won ?? 0, wonQuantity: '0', amount: '0.000000', appliedAmount: '100.000000',
  estimatedPrice: '0.050000', winningPrice: '0.050000', status: 'won', payDeadline: Date.now() + 3_600_000, createdAt: 0,
};
const project = (status: IeoProject['status'], my?: IeoApplication): IeoProject => ({
  id: '3', name: 'Nova', token: 'NOVA', tokenScale: 8, payAsset: 'USDT', estimatedPrice: '0.050000', lotSize: '1000.00000000',
  lotAmount: '50.000000', supplyLots: 4, perUserMaxLots: 5, opensAt: Date.now() - 60_000, closesAt: Date.now() + 60_000,
  payDeadline: Date.now() + 120_000, listsAt: Date.now() + 180_000, status, applicants: 3, appliedLots: 9, seedHash: seedHashOf(seed),
  seedRevealed: status === 'drawn', ...(my ? { my } : {}),
});
const draw = (published = winners): IeoDraw => ({
  id: '3', status: 'drawn', supplyLots: 4, seedHash: seedHashOf(seed), seed, list, listHash: listHashOf(list), applications: 3, totalLots: 9,
  winners: published, algorithm: 'docs/fairness.md',
});

function serve(gets: Record<string, unknown>) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    const path = new URL(String(url), 'http://test').pathname.replace(/^\/api/, '');
    if (path.includes('getPublicKey')) return new Response(JSON.stringify(ok('PEM')));
    return new Response(JSON.stringify(gets[path] ?? { success: false, code: 404, message: 'no', result: null }));
  }));
}

function renderPage() {
  return render(
    <Provider store={testStore('token')}>
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/ieo']}>
          <Routes><Route path="*" element={<IeoPage />} /></Routes>
        </MemoryRouter>
      </I18nProvider>
    </Provider>,
  );
}

const page = (records: IeoProject[]) => ok({ records, total: records.length, size: 50, current: 1, pages: 1 });

beforeEach(() => configureApiClient({ notify: vi.fn() }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Verify the draw', () => {
  it('recomputes an honest draw in the page and shows the account\'s lots', async () => {
    serve({ '/prod/appProdIoe/list': page([project('drawn', mine)]), '/prod/appProdIoe/draw': ok(draw()) });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Verify the draw' }));
    await screen.findByTestId('ieo-verified');
    expect(within(screen.getByTestId('ieo-draw-mine')).getByText(`Application 12: ${mine.wonLots} lots won`)).toBeTruthy();
    expect(screen.queryByTestId('ieo-mismatch')).toBeNull();
  });

  it('names the application whose published winning lots were changed', async () => {
    const changed = winners.map((winner, index) => (index === 0 ? { ...winner, won: winner.won === winner.lots ? winner.won - 1 : winner.won + 1 } : winner));
    serve({ '/prod/appProdIoe/list': page([project('drawn', mine)]), '/prod/appProdIoe/draw': ok(draw(changed)) });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Verify the draw' }));
    const mismatch = await screen.findByTestId('ieo-mismatch');
    expect(mismatch.textContent).toBe(`The published winning lots differ for applications ${winners[0].id}.`);
    expect(screen.queryByTestId('ieo-verified')).toBeNull();
  });

  it('shows the exact amount of the lots typed while issuing', async () => {
    expect(lotsAmount('50.000000', 3)).toBe('150.000000');
    expect(lotsAmount('0.000001', 7)).toBe('0.000007');
    serve({ '/prod/appProdIoe/list': page([project('issuing')]) });
    renderPage();
    const lots = await screen.findByTestId('ieo-lots');
    fireEvent.change(lots, { target: { value: '3' } });
    expect(screen.getByTestId('ieo-apply-amount').textContent).toBe('Held when you apply: 150.000000 USDT');
    expect(screen.getByTestId('ieo-apply-terms').textContent).toBe('Applying needs basic identity verification, one application per person. '
      + 'The cost of the lots you apply for is held from your balance until the draw; the lots you do not win are released.');
    fireEvent.change(lots, { target: { value: '6' } });
    expect(screen.getByTestId('ieo-apply-amount').textContent).toBe('Enter 1 to 5 lots.');
  });

  it('shows what an application holds until the draw', async () => {
    const applied: IeoApplication = { ...mine, status: 'applied', wonLots: 0, winningPrice: undefined, heldAmount: '100.000000' };
    serve({ '/prod/appProdIoe/list': page([project('issuing', applied)]) });
    renderPage();
    const held = await screen.findByTestId('ieo-held');
    expect(held.textContent).toMatch(/^100(\.0+)? USDT$/);
    expect(screen.getByText('Held until the draw')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
  });

  it('answers a refusal for want of verification with the reason and the way to verify', async () => {
    serve({
      '/prod/appProdIoe/list': page([project('issuing')]),
      '/prod/appOrderIoe/apply': { success: false, code: 403, message: 'Applying to a token offering needs basic identity verification.', result: { error: 'verification_required' } },
    });
    renderPage();
    fireEvent.change(await screen.findByTestId('ieo-lots'), { target: { value: '2' } });
    fireEvent.click(screen.getByTestId('ieo-apply'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('100.000000 USDT is held from your balance now, until the draw.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Applying needs basic identity verification. Verify your identity, then apply.');
    expect(within(alert).getByRole('link', { name: 'Verify your identity' }).getAttribute('href')).toBe('/shenfenRenzheng');
  });
});
