// The back office's setting changes (issue 38 point 1) against a stubbed transport: the screen lists
// the changes waiting for a second operator in words (a threshold, a product put on sale), approves
// another admin's change only after a confirmation (the POST it sends, then the list again), and
// shows the operator's own request as one a different operator must approve, with no Approve button;
// the switch shows the decided ones with who decided and why, every setting in words (JSON only
// for a setting it does not know). A guarded screen whose save is answered with `pendingChange`
// (the threshold) or with the rates unchanged (team rates) says the change waits for a second
// operator instead of "saved".
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { App as AntApp } from 'antd';
import { i18n } from '@lingui/core';
import type { ReactNode } from 'react';
import type { SettingChange } from '../../src/api/contract/settingChanges.ts';
import { createAdminStore } from '../../src/admin/store.ts';
import { writeToken } from '../../src/admin/transport.ts';
import { SettingChangesScreen } from '../../src/admin/pages/SettingChangesScreen.tsx';
import { SettingsScreen } from '../../src/admin/pages/SettingsScreen.tsx';
import { TeamScreen } from '../../src/admin/pages/marketing/TeamScreen.tsx';

configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 60_000 });

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const asked = Date.UTC(2026, 11, 7, 9, 30);
const change = (fields: Partial<SettingChange> & Pick<SettingChange, 'id' | 'setting' | 'target' | 'before' | 'after'>): SettingChange => ({
  status: 'pending', requestedBy: '2', decidedBy: null, reason: null, createdAt: asked, decidedAt: null, ...fields,
});
/** Asked by another admin (2): this operator (1) may approve it. */
const threshold = change({
  id: '7', setting: 'dual_threshold', target: 'USDT',
  // The threshold's state is its amount alone (the audit's shape); the currency is the target.
  before: { dualApprovalAbove: '10000.000000' }, after: { dualApprovalAbove: '100000.000000' },
});
/** Asked by this operator (1): a different operator must approve it. */
const product = change({
  id: '8', setting: 'product', target: '5', requestedBy: '1',
  before: { id: '5', name: 'Steady 30', asset: 'USDT', status: 'draft', minLevel: 0, maxAmount: '10000.000000', perUserMax: '0.000000', totalCap: '0.000000' },
  after: { id: '5', name: 'Steady 30', asset: 'USDT', status: 'open', minLevel: 0, maxAmount: '10000.000000', perUserMax: '0.000000', totalCap: '0.000000' },
});
const decided: SettingChange[] = [
  change({
    id: '6', setting: 'vip_reward', target: '1', status: 'applied', decidedBy: '3', decidedAt: asked + 60_000,
    before: { level: 1, name: 'VIP 1', asset: 'USDT', bonus: '10.000000', weeklyEnvelope: '1.000000' },
    after: { level: 1, name: 'VIP 1', asset: 'USDT', bonus: '500.000000', weeklyEnvelope: '1.000000' },
  }),
  change({
    id: '5', setting: 'welfare_task', target: '4', status: 'rejected', decidedBy: '1', decidedAt: asked + 120_000, reason: 'Too generous.',
    before: { id: '4', name: 'First deposit', enabled: false, rewardAsset: 'USDT', rewardAmount: '5.000000', target: 1 },
    after: { id: '4', name: 'First deposit', enabled: true, rewardAsset: 'USDT', rewardAmount: '5.000000', target: 1 },
  }),
  change({
    id: '4', setting: 'team_rates', target: '', status: 'applied', decidedBy: '3', decidedAt: asked,
    before: [{ level: 1, ratePercent: '10.0000' }, { level: 2, ratePercent: '5.0000' }],
    after: [{ level: 1, ratePercent: '20.0000' }, { level: 2, ratePercent: '5.0000' }],
  }),
  change({ id: '3', setting: 'envelope_amount', target: 'x', status: 'applied', decidedBy: '3', decidedAt: asked, before: { amount: '1' }, after: { amount: '2' } }),
];

type Call = { method: string; path: string; query: Record<string, string>; body: any };
let calls: Call[] = [];
let pending: SettingChange[] = [];
let role = 'admin';

const envelope = (result: unknown, code = 200, message = 'OK') => new Response(JSON.stringify({ success: code === 200, code, message, result, timestamp: 0 }),
  { status: 200, headers: { 'content-type': 'application/json' } });

const usdt = {
  currency: 'USDT', name: 'Tether', scale: 6, enabled: true, usdtRate: null, usdtRateTime: null,
  networks: [{ network: 'TRC20', depositEnabled: true, withdrawalEnabled: true, depositAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    depositMin: '1.000000', withdrawalMin: '10.000000', withdrawalFee: '1.000000' }],
};
const rates = [{ level: 1, ratePercent: '10.0000' }, { level: 2, ratePercent: '5.0000' }, { level: 3, ratePercent: '2.0000' }];

function serve(url: string, init?: RequestInit): Response {
  const parsed = new URL(url, 'http://localhost');
  const path = parsed.pathname;
  const method = init?.method ?? 'GET';
  const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
  calls.push({ method, path, query: Object.fromEntries(parsed.searchParams), body });
  if (path.endsWith('PublicKey')) return envelope('key');
  if (path === '/api/admin/me') return envelope({ id: '1', email: 'op@bourse.local', role });
  if (path === '/api/admin/settingChanges') return envelope(parsed.searchParams.get('all') === 'true' ? [...pending, ...decided] : pending);
  const approve = /^\/api\/admin\/settingChanges\/(\d+)\/approve$/.exec(path);
  if (approve && method === 'POST') {
    const done = pending.find((item) => item.id === approve[1])!;
    pending = pending.filter((item) => item !== done);
    return envelope({ ...done, status: 'applied', decidedBy: '1', decidedAt: asked + 1 });
  }
  if (path === '/api/admin/settings/currencies') return envelope([usdt]);
  if (path === '/api/admin/settings/currencies/USDT') return envelope(usdt);
  if (path === '/api/admin/withdrawals/settings' && method === 'GET') return envelope([{ currency: 'USDT', dualApprovalAbove: '10000.000000' }]);
  if (path === '/api/admin/withdrawals/settings/USDT') {
    // A raise: the threshold as it is, and the request that waits.
    return envelope({ currency: 'USDT', dualApprovalAbove: '10000.000000', pendingChange: { ...threshold, requestedBy: '1' } });
  }
  if (path === '/api/admin/team/rates') return envelope(rates);
  if (path === '/api/admin/team/commissions') return envelope({ records: [], total: 0, size: 20, current: 1, pages: 0 });
  return envelope(null, 404, 'Not found.');
}

beforeEach(() => {
  calls = [];
  pending = [threshold, product];
  role = 'admin';
  writeToken('operator-token');
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => serve(url, init)));
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false, media: query, onchange: null, addListener: () => undefined, removeListener: () => undefined,
    addEventListener: () => undefined, removeEventListener: () => undefined, dispatchEvent: () => false,
  }));
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
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
const listCalls = () => calls.filter((call) => call.method === 'GET' && call.path === '/api/admin/settingChanges');

/** The open dialog with this title, once it shows (plain selectors: role queries are slow on antd's trees). */
const dialogTitled = (title: string) => waitFor(() => {
  const dialog = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].find((item) => within(item).queryAllByText(title).length > 0);
  if (!dialog) throw new Error(`no dialog titled ${title}`);
  return dialog;
});
/** The button in `container` whose text or aria-label is `name`. */
function buttonIn(container: HTMLElement, name: string): HTMLButtonElement {
  const found = [...container.querySelectorAll('button')].filter((item) => item.getAttribute('aria-label') === name
    || (!item.getAttribute('aria-label') && item.textContent?.trim() === name));
  if (found.length !== 1) throw new Error(`${found.length} buttons named ${name}`);
  return found[0];
}
const rowOf = (id: string) => waitFor(() => {
  const row = document.querySelector<HTMLElement>(`[data-testid="setting-changes-table"] tr[data-row-key="${id}"]`);
  if (!row) throw new Error(`no row ${id}`);
  return row;
});

describe('the setting changes screen', () => {
  it("lists two pending changes in words, approves another admin's after a confirmation, and shows the operator's own as not theirs to approve", async () => {
    renderWith(<SettingChangesScreen />);
    const thresholdRow = await rowOf('7');
    expect(thresholdRow.textContent).toContain('Two-operator threshold');
    expect(within(thresholdRow).getByTestId('setting-change-summary').textContent).toBe('10,000.000000 → 100,000.000000 USDT');
    expect(thresholdRow.textContent).toContain('Operator #2');
    const productRow = await rowOf('8');
    expect(productRow.textContent).toContain('Steady 30 (#5)');
    expect(within(productRow).getByTestId('setting-change-summary').textContent).toBe('Status: Draft → On sale');
    // The operator's own request: named as theirs, a different operator must approve it, no Approve button.
    await waitFor(() => expect(within(productRow).getByTestId('setting-change-mine').textContent)
      .toBe('You asked for this: a different operator must approve it.'));
    expect(productRow.textContent).toContain('You');
    expect([...productRow.querySelectorAll('button')].map((button) => button.textContent?.trim())).toEqual(['Withdraw']);
    expect(listCalls()[0].query).toEqual({});

    fireEvent.click(buttonIn(thresholdRow, 'Approve'));
    const confirm = await dialogTitled('Approve this change?');
    expect(within(confirm).getByTestId('setting-change-summary').textContent).toBe('10,000.000000 → 100,000.000000 USDT');
    expect(posts()).toEqual([]);
    fireEvent.click(buttonIn(confirm, 'Approve'));
    await waitFor(() => expect(posts()).toEqual([{ path: '/api/admin/settingChanges/7/approve', body: {} }]));
    expect(await screen.findByText('Change approved: it applies now.')).toBeTruthy();
    // The list is read again: the approved change is gone, the operator's own still waits.
    await waitFor(() => expect(document.querySelector('[data-testid="setting-changes-table"] tr[data-row-key="7"]')).toBeNull());
    expect(listCalls().length).toBeGreaterThan(1);
    expect(document.querySelector('[data-testid="setting-changes-table"] tr[data-row-key="8"]')).not.toBeNull();
  });

  it('lets a finance operator be the second approver', async () => {
    role = 'finance';
    renderWith(<SettingChangesScreen />);
    const row = await rowOf('7');
    await waitFor(() => expect(buttonIn(row, 'Approve')).toBeTruthy());
    expect(buttonIn(row, 'Reject')).toBeTruthy();
  });

  it('shows the decided changes too, with who decided and why, every setting in words', async () => {
    renderWith(<SettingChangesScreen />);
    await rowOf('7');
    fireEvent.click(screen.getByTestId('setting-changes-all'));
    const vip = await rowOf('6');
    await waitFor(() => expect(listCalls().some((call) => call.query.all === 'true')).toBe(true));
    expect(vip.textContent).toContain('VIP 1');
    expect(within(vip).getByTestId('setting-change-summary').textContent).toBe('Bonus: 10.000000 → 500.000000 USDT');
    expect(vip.textContent).toContain('Approved and applied');
    expect(vip.textContent).toContain('Operator #3');
    const task = await rowOf('5');
    expect(within(task).getByTestId('setting-change-summary').textContent).toBe('Switched: Off → On');
    expect(task.textContent).toContain('Rejected');
    expect(task.textContent).toContain('Too generous.');
    const team = await rowOf('4');
    expect(team.textContent).toContain('Team commission rates');
    expect(within(team).getByTestId('setting-change-summary').textContent).toBe('Level 1: 10.0000 % → 20.0000 %');
    const unknown = await rowOf('3');
    expect(within(unknown).getByTestId('setting-change-summary').textContent).toBe('{"amount":"1"} → {"amount":"2"}');
    // Decided changes have no buttons.
    expect(vip.querySelectorAll('button').length).toBe(0);
  });
});

describe('a guarded setting saved as a request', () => {
  it('says a raised threshold waits for a second operator instead of "saved"', async () => {
    renderWith(<SettingsScreen />);
    const row = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('tr[data-row-key="USDT"]');
      if (!found?.textContent?.includes('10,000.000000')) throw new Error('no USDT row yet');
      return found;
    });
    fireEvent.click(buttonIn(row, 'Edit'));
    const modal = await dialogTitled('Currency USDT');
    const input = await waitFor(() => {
      const found = within(modal).getByLabelText('Two operators must approve withdrawals above') as HTMLInputElement;
      if (found.value !== '10000.000000') throw new Error('not filled yet');
      return found;
    });
    fireEvent.change(input, { target: { value: '100000' } });
    fireEvent.click(buttonIn(modal, 'Save'));
    expect((await screen.findByTestId('saved-as-request')).textContent).toBe('Saved as a request: a second operator must approve it in Setting changes.');
    expect(posts().map((post) => post.path)).toEqual(['/api/admin/settings/currencies/USDT', '/api/admin/withdrawals/settings/USDT']);
    expect(posts()[1].body).toEqual({ dualApprovalAbove: '100000' });
    expect(screen.queryByText('Settings saved.')).toBeNull();
  });

  it('says raised team rates wait when the answer is the rates unchanged', async () => {
    renderWith(<TeamScreen />);
    const input = await waitFor(() => {
      const found = screen.getByLabelText('Rate of level 1 in percent') as HTMLInputElement;
      if (found.value !== '10.0000') throw new Error('not filled yet');
      return found;
    });
    fireEvent.change(input, { target: { value: '20' } });
    fireEvent.click(await waitFor(() => buttonIn(document.body, 'Save rates')));
    expect(await screen.findByTestId('saved-as-request')).toBeTruthy();
    expect(posts()[0].body.rates).toEqual([{ level: 1, ratePercent: '20' }, { level: 2, ratePercent: '5.0000' }, { level: 3, ratePercent: '2.0000' }]);
    expect(screen.queryByText('Rates saved.')).toBeNull();
  });
});
