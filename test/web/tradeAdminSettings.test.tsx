// The back office's trading settings form: the symbol table loads, Edit opens the drawer with the
// symbol's settings, the form refuses what the server would (a repeated leverage, a maintenance
// rate at 1 / the largest leverage, a maximum below the minimum, too many decimals) in place and
// sends nothing, sends a good change as the contract's body, and shows a server refusal in the
// drawer. Plus the rules and the rate-as-percentage helper on their own.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure } from '@testing-library/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { App as AntApp } from 'antd';
import { i18n } from '@lingui/core';
import { createAdminStore } from '../../src/admin/store.ts';
import { writeToken } from '../../src/admin/transport.ts';
import {
  TradeSettingsScreen, maintenanceProblem, parseLeverages, ratePercent, rateProblem,
} from '../../src/admin/pages/TradeSettingsScreen.tsx';
import type { AdminSymbolSettings } from '../../src/admin/tradeApi.ts';

// antd's desktop table and drawer render slowly in jsdom.
configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 60_000 });

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const btc: AdminSymbolSettings = {
  symbol: 'BTCUSDT', enabled: true, leverages: [1, 2, 5, 10, 20, 50, 100], pricePrecision: 2, quantityPrecision: 4,
  quantityMin: '0.0001', quantityMax: '100000.0000', marginMin: '1.000000', marginMax: '1000000.000000', feeRate: '0.0005',
  maintenanceMarginRate: '0.005', spread: '13.46', open: true, contractCapable: true, simulatedFeedRealTrading: true, updateTime: 0,
};
const jpy: AdminSymbolSettings = { ...btc, symbol: 'USDJPY', enabled: false, contractCapable: false, pricePrecision: 3, quantityPrecision: 2 };

type Sent = { method: string; url: string; body: any };
let sent: Sent[] = [];
let refuseNext: { message: string; error: string } | undefined;

const envelope = (result: unknown, code = 200, message = 'OK') => new Response(JSON.stringify({ success: code === 200, code, message, result, timestamp: 0 }),
  { status: 200, headers: { 'content-type': 'application/json' } });

function serve(url: string, init?: RequestInit): Response {
  const path = new URL(url, 'http://localhost').pathname;
  const method = init?.method ?? 'GET';
  const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
  if (method === 'POST') sent.push({ method, url: path, body });
  if (path === '/api/app/getPublicKey' || path.endsWith('PublicKey')) return envelope('key');
  if (path === '/api/admin/me') return envelope({ id: '1', email: 'op@bourse.local', role: 'admin' });
  if (path === '/api/admin/trade/symbols') return envelope([btc, jpy]);
  if (path === '/api/admin/trade/symbols/BTCUSDT' && method === 'POST') {
    if (refuseNext) {
      const refusal = refuseNext;
      refuseNext = undefined;
      return envelope({ error: refusal.error, field: 'leverages' }, 400, refusal.message);
    }
    const { _ts: _ignored, ...fields } = body;
    return envelope({ ...btc, ...fields });
  }
  return envelope(null, 404, 'Not found.');
}

beforeEach(() => {
  sent = [];
  refuseNext = undefined;
  writeToken('operator-token');
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => serve(url, init)));
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false, media: query, onchange: null, addListener: () => undefined, removeListener: () => undefined,
    addEventListener: () => undefined, removeEventListener: () => undefined, dispatchEvent: () => false,
  }));
  // antd measures tabs and tables; jsdom has no layout.
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  writeToken('');
});

function renderScreen() {
  const store = createAdminStore();
  render(
    <Provider store={store}>
      <I18nProvider i18n={i18n}>
        <AntApp><TradeSettingsScreen /></AntApp>
      </I18nProvider>
    </Provider>,
  );
}

async function openDrawer() {
  renderScreen();
  const edit = await screen.findByRole('button', { name: 'Edit BTCUSDT' });
  fireEvent.click(edit);
  const drawer = await screen.findByRole('dialog');
  await waitFor(() => expect(within(drawer).getByLabelText('Leverage choices')).toHaveProperty('value', '1, 2, 5, 10, 20, 50, 100'));
  return drawer;
}

const setField = (drawer: HTMLElement, label: string | RegExp, value: string) =>
  fireEvent.change(within(drawer).getByLabelText(label), { target: { value } });

describe('symbol settings drawer', () => {
  it('says no setting sets a price or an outcome, and marks a symbol contracts cannot run on as not available', async () => {
    renderScreen();
    expect(await screen.findByTestId('trade-settings-help')).toHaveProperty('textContent', expect.stringMatching(/no setting here that sets a price or decides an outcome/));
    await screen.findByRole('button', { name: 'Edit USDJPY' });
    expect(screen.getAllByText('Not available')).toHaveLength(1);
  });

  it('refuses a repeated leverage and a maintenance rate at 1 / the largest leverage in place, sending nothing', async () => {
    const drawer = await openDrawer();
    setField(drawer, 'Leverage choices', '1, 5, 5');
    setField(drawer, /^Maintenance margin rate/, '0.01');
    fireEvent.click(screen.getByTestId('symbol-save'));
    expect(await within(drawer).findByText('Each leverage may be offered only once.')).toBeTruthy();
    setField(drawer, 'Leverage choices', '1, 5, 100');
    fireEvent.click(screen.getByTestId('symbol-save'));
    expect(await within(drawer).findByText('Must be below 1 / 100 (the largest leverage offered) and at most 0.5.')).toBeTruthy();
    setField(drawer, 'Minimum quantity', '0.00001');
    setField(drawer, 'Maximum margin (USDT)', '0.5');
    fireEvent.click(screen.getByTestId('symbol-save'));
    expect(await within(drawer).findByText('At most 4 decimals.')).toBeTruthy();
    expect(await within(drawer).findByText('The maximum cannot be below the minimum.')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('sends a good change as the contract body and closes; a server refusal shows in the drawer', async () => {
    const drawer = await openDrawer();
    setField(drawer, 'Leverage choices', '25, 1, 3');
    setField(drawer, /^Fee rate/, '0.0008');
    expect(await within(drawer).findByText('0.08 %')).toBeTruthy();
    // Issue 18: the operator closes real trading on this symbol's simulated prices.
    const simulatedFeed = within(drawer).getByRole('switch', { name: 'Real trading on simulated prices' });
    expect(simulatedFeed.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(simulatedFeed);
    refuseNext = { error: 'trade_settings_invalid', message: 'Each leverage may be offered only once.' };
    fireEvent.click(screen.getByTestId('symbol-save'));
    expect(await within(drawer).findByTestId('symbol-error')).toHaveProperty('textContent', 'Each leverage may be offered only once.');
    fireEvent.click(screen.getByTestId('symbol-save'));
    await waitFor(() => expect(screen.queryByTestId('symbol-save')).toBeNull());
    expect(sent).toHaveLength(2);
    const { _ts: _ignored, ...body } = sent[1].body;
    expect(sent[1].url).toBe('/api/admin/trade/symbols/BTCUSDT');
    expect(body).toEqual({
      enabled: true, leverages: [25, 1, 3], quantityMin: '0.0001', quantityMax: '100000.0000', marginMin: '1.000000',
      marginMax: '1000000.000000', feeRate: '0.0008', maintenanceMarginRate: '0.005', spread: '13.46', simulatedFeedRealTrading: false,
    });
  });
});

describe('the rules the form shares with the server', () => {
  it('parses leverage lists and refuses repeats, zero, and more than 1000', () => {
    expect(parseLeverages('1, 5 10,20')).toEqual([1, 5, 10, 20]);
    expect(parseLeverages('1, 1')).toBe('leverages_repeated');
    expect(parseLeverages('0, 5')).toBe('leverages_range');
    expect(parseLeverages('1001')).toBe('leverages_range');
    expect(parseLeverages('1.5')).toBe('leverages_format');
    expect(parseLeverages('')).toBe('leverages_format');
  });

  it('checks rates exactly (ppm) and shows them as percentages', () => {
    expect(rateProblem('0.1', 100_000)).toBeUndefined();
    expect(rateProblem('0.100001', 100_000)).toBe('fee_too_high');
    expect(rateProblem('5%', 100_000)).toBe('rate_format');
    expect(maintenanceProblem('0.0099', [1, 100])).toBeUndefined();
    expect(maintenanceProblem('0.01', [1, 100])).toBe('maintenance_too_high');
    expect(maintenanceProblem('0.6', [1])).toBe('maintenance_too_high');
    expect(ratePercent('0.0005')).toBe('0.05 %');
    expect(ratePercent('0.1')).toBe('10 %');
    expect(ratePercent('1.25')).toBe('125 %');
    expect(ratePercent('x')).toBe('');
  });
});
