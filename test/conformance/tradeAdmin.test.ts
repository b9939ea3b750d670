// Conformance: the back office's trading settings through a spec-only client. The demo operator
// (README, Operators) logs in with a TOTP code computed here, reads every symbol's contract
// settings, changes one symbol's leverage choices and fee, and the public settings call answers
// the change at once; a nonsense change (a repeated leverage, a maintenance rate that would
// liquidate at open, enabling contracts on a pair not quoted in USD) is refused with its field
// and changes nothing; the change is in the audit trail; the lists of trades answer pages; a
// stranger's token opens none of it.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server.ts';
import { errorOf, SpecClient, tokenOf } from './specClient.ts';
import { AdminClient, base32Decode, totp, demoOperator } from './adminClient.ts';
import { describeAnswer, expectSuccess } from './expectAnswer.ts';


interface SymbolSettings {
  symbol: string; enabled: boolean; leverages: number[]; quantityMin: string; quantityMax: string; marginMin: string; marginMax: string;
  feeRate: string; maintenanceMarginRate: string; spread: string; pricePrecision: number; quantityPrecision: number;
}

let server: RunningServer;
let client: SpecClient;
let admin: AdminClient;
let token: string;


const bodyOf = (settings: SymbolSettings) => ({
  enabled: settings.enabled, leverages: settings.leverages, quantityMin: settings.quantityMin, quantityMax: settings.quantityMax,
  marginMin: settings.marginMin, marginMax: settings.marginMax, feeRate: settings.feeRate,
  maintenanceMarginRate: settings.maintenanceMarginRate, spread: settings.spread,
});

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
  admin = new AdminClient(client);
  const code = totp(base32Decode(demoOperator.totpSecret), await client.serverTime());
  const login = await admin.login(demoOperator.email, demoOperator.password, code);
  token = tokenOf(login)!;
  expect(token, describeAnswer(login)).toEqual(expect.any(String));
});

afterAll(async () => {
  await server?.stop();
});

describe('back office: trading settings (/api/admin/trade)', () => {
  it('changes a symbol\'s leverages and fee; the public settings answer the change; audited', async () => {
    const list = expectSuccess(await client.get<SymbolSettings[]>('/admin/trade/symbols', {}, token));
    const eth = list.find((item) => item.symbol === 'ETHUSDT')!;
    expect(eth).toMatchObject({ enabled: true, pricePrecision: 2 });
    const changed = expectSuccess(await client.post<SymbolSettings>('/admin/trade/symbols/ETHUSDT',
      { ...bodyOf(eth), leverages: [75, 1, 3], feeRate: '0.0007' }, token));
    expect(changed).toMatchObject({ symbol: 'ETHUSDT', leverages: [1, 3, 75], feeRate: '0.0007' });
    const offered = expectSuccess(await client.get<SymbolSettings[]>('/trade/appSymbol/tradeSettings'));
    expect(offered.find((item) => item.symbol === 'ETHUSDT')).toMatchObject({ leverages: [1, 3, 75], feeRate: '0.0007' });
    const audit = expectSuccess(await admin.audit(token, { action: 'trade.symbol_settings', pageSize: 5 }));
    expect(audit.records[0]).toMatchObject({ action: 'trade.symbol_settings', operatorEmail: demoOperator.email, targetType: 'trade_symbol' });
  });

  it('refuses nonsense with the field named, and nothing changes', async () => {
    const before = expectSuccess(await client.get<SymbolSettings[]>('/admin/trade/symbols', {}, token));
    const sol = before.find((item) => item.symbol === 'SOLUSDT')!;
    const repeated = await client.post('/admin/trade/symbols/SOLUSDT', { ...bodyOf(sol), leverages: [1, 10, 10] }, token);
    expect(repeated.status).toBe(400);
    expect(errorOf(repeated)).toBe('trade_settings_invalid');
    expect((repeated.envelope!.result as { field: string }).field).toBe('leverages');
    const liquidating = await client.post('/admin/trade/symbols/SOLUSDT', { ...bodyOf(sol), leverages: [1, 100], maintenanceMarginRate: '0.01' }, token);
    expect(errorOf(liquidating)).toBe('trade_settings_invalid');
    expect((liquidating.envelope!.result as { field: string }).field).toBe('maintenanceMarginRate');
    const jpy = before.find((item) => item.symbol === 'USDJPY')!;
    const notUsd = await client.post('/admin/trade/symbols/USDJPY', { ...bodyOf(jpy), enabled: true }, token);
    expect(errorOf(notUsd)).toBe('symbol_not_tradable');
    const after = expectSuccess(await client.get<SymbolSettings[]>('/admin/trade/symbols', {}, token));
    expect(after.find((item) => item.symbol === 'SOLUSDT')).toEqual(sol);
    expect(after.find((item) => item.symbol === 'USDJPY')).toEqual(jpy);
  });

  it('changes the swap settings and a second-contract set; reads the lists of trades', async () => {
    const swap = expectSuccess(await client.post<{ feeRate: string; quoteTtlSeconds: number }>('/admin/trade/swap',
      { enabled: true, feeRate: '0.002', spreadRate: '0.002', quoteTtlSeconds: 15 }, token));
    expect(swap).toMatchObject({ feeRate: '0.002', quoteTtlSeconds: 15 });
    const set = expectSuccess(await client.post<{ durations: unknown[] }>('/admin/trade/second-sets/BTCUSDT',
      { enabled: true, durations: [{ seconds: 45, payoutRate: '0.9' }, { seconds: 30, payoutRate: '0.8' }], amountMin: '10', amountMax: '5000' }, token));
    expect(set.durations).toEqual([{ seconds: 30, payoutRate: '0.8' }, { seconds: 45, payoutRate: '0.9' }]);
    const sets = expectSuccess(await client.get<Array<{ symbol: string; durations: unknown[] }>>('/trade/appSecondContractSet/list'));
    expect(sets.find((item) => item.symbol === 'BTCUSDT')!.durations).toEqual(set.durations);
    for (const list of ['/admin/trade/positions', '/admin/trade/second-orders', '/admin/trade/swaps']) {
      const page = expectSuccess(await client.get<{ records: unknown[]; total: number }>(list, { pageSize: 5 }, token));
      expect(page).toMatchObject({ records: expect.any(Array), total: expect.any(Number) });
    }
  });

  it('opens nothing to a stranger or to no token', async () => {
    const stranger = await client.get('/admin/trade/symbols', {}, crypto.randomBytes(16).toString('hex'));
    expect(stranger.status).toBe(401);
    const anonymous = await client.post('/admin/trade/swap', { enabled: false, feeRate: '0.001', spreadRate: '0.001', quoteTtlSeconds: 10 });
    expect(anonymous.status).toBe(401);
    expect(errorOf(anonymous)).toBe('unauthorized');
  });
});
