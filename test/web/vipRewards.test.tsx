// The VIP rewards table of the VIP level page (features/invest/VipLevelPage.tsx), issue 38: a
// bonus waiting for its holding period says from when it is paid, the note gives the holding
// period, and an unverified caller is told that bonuses need basic verification, with a link to it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { configureApiClient } from '../../src/api/api.ts';
import { formatEpochMs } from '../../src/lib/time.ts';
import VipLevelPage from '../../src/features/invest/VipLevelPage.tsx';
import type { Levels } from '../../src/api/contract/levels.ts';
import type { VipRewards } from '../../src/api/contract/rewards.ts';
import { testStore } from './testStore.ts';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const ok = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 0 });

const levels: Levels = {
  levels: [
    { level: 0, name: 'Standard', minAssets: '0', creditLimit: '0', productsUnlocked: 1 },
    { level: 1, name: 'VIP 1', minAssets: '1000.000000', creditLimit: '500.000000', productsUnlocked: 2 },
    { level: 2, name: 'VIP 2', minAssets: '10000.000000', creditLimit: '2000.000000', productsUnlocked: 3 },
  ],
  my: { level: 2, highestLevel: 2, assets: '12000.000000', checkedAt: Date.UTC(2026, 5, 1) },
};
const payableAt = Date.UTC(2026, 5, 8, 4);
const rewards: VipRewards = {
  levels: [
    { level: 1, name: 'VIP 1', asset: 'USDT', bonus: '10.000000', weeklyEnvelope: '1.000000' },
    { level: 2, name: 'VIP 2', asset: 'USDT', bonus: '50.000000', weeklyEnvelope: '5.000000' },
  ],
  level: 2, highestLevel: 2,
  granted: [{ level: 1, asset: 'USDT', amount: '10.000000', time: Date.UTC(2026, 4, 20) }],
  verified: true, holdingDays: 7,
  waiting: [{ level: 2, asset: 'USDT', amount: '50.000000', payableAt }],
};

function serve(answer: VipRewards) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    const path = new URL(String(url), 'http://test').pathname.replace(/^\/api/, '');
    if (path.includes('getPublicKey')) return new Response(JSON.stringify(ok('PEM')));
    if (path === '/user/appLevels/list') return new Response(JSON.stringify(ok(levels)));
    if (path === '/marketing/vipRewards') return new Response(JSON.stringify(ok(answer)));
    return new Response(JSON.stringify({ success: false, code: 404, message: 'no', result: null }));
  }));
}

function renderPage() {
  return render(
    <Provider store={testStore('token')}>
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/vipLevel']}><VipLevelPage /></MemoryRouter>
      </I18nProvider>
    </Provider>,
  );
}

beforeEach(() => configureApiClient({ notify: vi.fn() }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the VIP rewards table', () => {
  it('shows a received bonus, when a waiting one is paid, and the holding period', async () => {
    serve(rewards);
    renderPage();
    const table = await screen.findByTestId('vip-rewards');
    expect(within(table).getByTestId('vip-bonus-state-1').textContent).toBe('Received');
    expect(within(table).getByTestId('vip-bonus-state-2').textContent).toBe(`Paid from ${formatEpochMs(payableAt, 'date')}`);
    expect(screen.getByText(/held the level for 7 days without a break/)).toBeTruthy();
    expect(screen.queryByTestId('vip-verification-needed')).toBeNull();
  });

  it('tells an unverified caller that bonuses need basic verification and links to it', async () => {
    serve({ ...rewards, granted: [], verified: false, waiting: [{ level: 1, asset: 'USDT', amount: '10.000000', payableAt }] });
    renderPage();
    const notice = await screen.findByTestId('vip-verification-needed');
    expect(notice.textContent).toContain('paid to verified accounts only');
    expect(within(notice).getByRole('link', { name: 'Verify my identity' }).getAttribute('href')).toBe('/shenfenRenzheng');
    expect(screen.getByTestId('vip-bonus-state-1').textContent).toBe('After verification');
  });
});
