// The back office's trading settings (issue 10): admins change each symbol's contract settings,
// each symbol's second-contract durations and the flash swap's settings; every rule is checked
// and a refused change writes nothing; every change is audited with the settings before and
// after; finance operators only read, users and strangers nothing; and what an operator sets is
// what the next public read of the settings (settings.ts, which the public calls answer with) says.
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { closePositionPath, tradeAdminPaths, tradePaths } from '../../../src/api/contract/trading.ts';
import {
  loadSwapSettings, secondSetOf, secondSetToWire, symbolSettingsOf, symbolSettingsToWire, swapSettingsToWire,
} from '../../../server/domain/core/trading/settings.ts';
import { createOperator, operatorLogin } from '../adminHelpers.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import { expectLedgerSound, freshTick, openPosition, opened, trader } from './positionHelpers.ts';

const symbolPath = (symbol: string) => tradeAdminPaths.symbolSetting.replace(':symbol', symbol);
const secondPath = (symbol: string) => tradeAdminPaths.secondSet.replace(':symbol', symbol);

const goodSymbol = {
  enabled: true, leverages: [50, 1, 10, 5], quantityMin: '0.001', quantityMax: '250', marginMin: '5', marginMax: '200000',
  feeRate: '0.0008', maintenanceMarginRate: '0.004', spread: '1.5',
};
const goodSecond = {
  enabled: true, durations: [{ seconds: 60, payoutRate: '0.8' }, { seconds: 15, payoutRate: '0.7' }, { seconds: 300, payoutRate: '1.25' }],
  amountMin: '20', amountMax: '1000',
};

async function auditRows(server: TestServer, action: string, targetId: string) {
  return server.query<{ operator_id: string; before: any; after: any }>(
    sql`select operator_id::text, before, after from audit_log where action = ${action} and target_id = ${targetId} order by id`);
}

forEachDatabase((server) => {
  afterEach(() => expectLedgerSound(server));
  let adminToken: string | undefined;
  async function admin() {
    if (!adminToken) adminToken = await operatorLogin(server, await createOperator(server, 'admin'));
    return adminToken;
  }

  async function rowOf(symbol: string) {
    const row = await symbolSettingsOf(server.db, symbol);
    return symbolSettingsToWire(row!, server.clock.now().getTime());
  }

  describe('symbol settings', () => {
    it('lists every symbol with its settings and whether contracts can run on it', async () => {
      const token = await admin();
      const list = expectOk(await server.get(tradeAdminPaths.symbolSettings, {}, { token })).body.result as any[];
      expect(list.map((item) => item.symbol)).toContain('BTCUSDT');
      expect(list[0]).toMatchObject({ symbol: 'BTCUSDT', enabled: true, contractCapable: true, pricePrecision: 2, feeRate: '0.0005' });
      expect(list.find((item) => item.symbol === 'USDJPY')).toMatchObject({ enabled: false, contractCapable: false });
    });

    it('an admin\'s change is stored in the symbol\'s units, audited before and after, and read by the next public call', async () => {
      const token = await admin();
      const before = await rowOf('ETHUSDT');
      server.clock.advance(1000);
      const after = expectOk(await server.post(symbolPath('ETHUSDT'), goodSymbol, { token })).body.result;
      expect(after).toMatchObject({
        symbol: 'ETHUSDT', enabled: true, leverages: [1, 5, 10, 50], quantityMin: '0.0010', quantityMax: '250.0000',
        marginMin: '5.000000', marginMax: '200000.000000', feeRate: '0.0008', maintenanceMarginRate: '0.004', spread: '1.50',
        updateTime: server.clock.now().getTime(),
      });
      // The public settings read the same row: what the operator set is what a user is offered.
      const publicView = await rowOf('ETHUSDT');
      expect(publicView).toMatchObject({ leverages: [1, 5, 10, 50], feeRate: '0.0008', spread: '1.50', quantityMin: '0.0010' });
      const offered = (expectOk(await server.get(tradePaths.settings)).body.result as any[]).find((item) => item.symbol === 'ETHUSDT');
      expect(offered).toMatchObject({ enabled: true, leverages: [1, 5, 10, 50], feeRate: '0.0008', maintenanceMarginRate: '0.004', spread: '1.50' });
      // A user's next order is held to the new choices: 20× is no longer offered, 50× is.
      const user = await trader(server, '1000');
      await freshTick(server, 'ETHUSDT', '3000.00');
      expectRefused(await openPosition(server, user, { symbol: 'ETHUSDT', leverage: 20, margin: '10' }), 400, 'leverage_not_offered');
      expect(await opened(server, user, { symbol: 'ETHUSDT', leverage: 50, margin: '10' })).toMatchObject({ leverage: 50, feeRate: '0.0008' });
      const [raw] = await server.query<{ fee_ppm: number; spread_units: string; quantity_min: string }>(
        sql`select fee_ppm, spread_units::text, quantity_min::text from trade_symbol_settings where symbol = 'ETHUSDT'`);
      expect(raw).toEqual({ fee_ppm: 800, spread_units: '150', quantity_min: '10' });
      const audit = await auditRows(server, 'trade.symbol_settings', 'ETHUSDT');
      expect(audit).toHaveLength(1);
      expect(audit[0].before).toMatchObject({ leverages: before!.leverages, feeRate: before!.feeRate, spread: before!.spread });
      expect(audit[0].after).toMatchObject({ leverages: [1, 5, 10, 50], feeRate: '0.0008', spread: '1.50' });
      // The same change through PUT (the contract's verb) gives the same settings.
      const put = await server.app.inject({ method: 'PUT', url: `/api${symbolPath('ETHUSDT')}`,
        payload: await server.encrypt({ ...goodSymbol, leverages: [2, 3] }), headers: { 'content-type': 'application/json', 'x-access-token': token } });
      expect(put.statusCode).toBe(200);
      expect((await rowOf('ETHUSDT'))!.leverages).toEqual([2, 3]);
      expect(await auditRows(server, 'trade.symbol_settings', 'ETHUSDT')).toHaveLength(2);
    });

    const refusals: Array<[string, Record<string, unknown>, string, string]> = [
      ['a repeated leverage', { leverages: [1, 10, 10] }, 'trade_settings_invalid', 'leverages'],
      ['minimum quantity above the maximum', { quantityMin: '300', quantityMax: '250' }, 'trade_settings_invalid', 'quantityMax'],
      ['a quantity beyond the symbol\'s precision', { quantityMin: '0.00001' }, 'trade_settings_invalid', 'quantityMin'],
      ['a zero minimum quantity', { quantityMin: '0' }, 'trade_settings_invalid', 'quantityMin'],
      ['minimum margin above the maximum', { marginMin: '10', marginMax: '9.99' }, 'trade_settings_invalid', 'marginMax'],
      ['a fee above 10 %', { feeRate: '0.100001' }, 'trade_settings_invalid', 'feeRate'],
      ['a fee that is not a rate', { feeRate: '5%' }, 'trade_settings_invalid', 'feeRate'],
      ['a maintenance rate at 1 / the largest leverage', { maintenanceMarginRate: '0.02' }, 'trade_settings_invalid', 'maintenanceMarginRate'],
      ['a maintenance rate above one half', { leverages: [1], maintenanceMarginRate: '0.6' }, 'trade_settings_invalid', 'maintenanceMarginRate'],
      ['a spread beyond the price precision', { spread: '0.0001' }, 'trade_settings_invalid', 'spread'],
      ['a negative spread', { spread: '-1' }, 'trade_settings_invalid', 'spread'],
    ];
    for (const [name, change, code, field] of refusals) {
      it(`refuses ${name}, naming the field, and changes nothing`, async () => {
        const token = await admin();
        const before = await rowOf('SOLUSDT');
        const auditBefore = (await auditRows(server, 'trade.symbol_settings', 'SOLUSDT')).length;
        const reply = await server.post(symbolPath('SOLUSDT'), { ...goodSymbol, spread: '0.002', quantityMin: '0.0001', ...change }, { token });
        expectRefused(reply, 400, code);
        expect(reply.body.result.field).toBe(field);
        expect(reply.body.message).toMatch(/\w+/);
        expect(await rowOf('SOLUSDT')).toEqual(before);
        expect(await auditRows(server, 'trade.symbol_settings', 'SOLUSDT')).toHaveLength(auditBefore);
      });
    }

    it('refuses enabling contracts on a symbol not quoted in USD(T), an unknown symbol and out-of-schema leverages', async () => {
      const token = await admin();
      const before = await rowOf('USDJPY');
      const reply = await server.post(symbolPath('USDJPY'), { ...goodSymbol, quantityMin: '0.01', spread: '0.010' }, { token });
      expectRefused(reply, 400, 'symbol_not_tradable');
      expect(await rowOf('USDJPY')).toEqual(before);
      // Disabled, its other settings may still be edited.
      expectOk(await server.post(symbolPath('USDJPY'), { ...goodSymbol, enabled: false, quantityMin: '0.01', spread: '0.010' }, { token }));
      expectRefused(await server.post(symbolPath('NOPEUSDT'), goodSymbol, { token }), 404, 'unknown_symbol');
      expectRefused(await server.post(symbolPath('BTCUSDT'), { ...goodSymbol, leverages: [0] }, { token }), 400, 'invalid_request');
      expectRefused(await server.post(symbolPath('BTCUSDT'), { ...goodSymbol, leverages: [1001] }, { token }), 400, 'invalid_request');
      expectRefused(await server.post(symbolPath('BTCUSDT'), { ...goodSymbol, leverages: [] }, { token }), 400, 'invalid_request');
      expectRefused(await server.post(symbolPath('BTCUSDT'), { ...goodSymbol, price: '1' }, { token }), 400, 'invalid_request');
    });

    it('a finance operator reads but cannot change; a user and a stranger get nothing', async () => {
      const finance = await operatorLogin(server, await createOperator(server, 'finance'));
      expectOk(await server.get(tradeAdminPaths.symbolSettings, {}, { token: finance }));
      const before = await rowOf('BNBUSDT');
      expectRefused(await server.post(symbolPath('BNBUSDT'), goodSymbol, { token: finance }), 403, 'forbidden');
      const user = await server.registerByEmail();
      expectRefused(await server.get(tradeAdminPaths.symbolSettings, {}, { token: user.token }), 401, 'unauthorized');
      expectRefused(await server.post(symbolPath('BNBUSDT'), goodSymbol, { token: user.token }), 401, 'unauthorized');
      expectRefused(await server.post(symbolPath('BNBUSDT'), goodSymbol), 401, 'unauthorized');
      expect(await rowOf('BNBUSDT')).toEqual(before);
      expect(await auditRows(server, 'trade.symbol_settings', 'BNBUSDT')).toHaveLength(0);
    });
  });

  describe('second-contract sets', () => {
    const setOf = async (symbol: string) => secondSetToWire((await secondSetOf(server.db, symbol))!, server.clock.now().getTime());

    it('an admin sets durations and payout rates, sorted, audited, read by the public list', async () => {
      const token = await admin();
      const list = expectOk(await server.get(tradeAdminPaths.secondSets, {}, { token })).body.result as any[];
      expect(list.find((item) => item.symbol === 'BTCUSDT')).toMatchObject({ enabled: true, contractCapable: true });
      const before = await setOf('XRPUSDT');
      const after = expectOk(await server.post(secondPath('XRPUSDT'), goodSecond, { token })).body.result;
      expect(after).toMatchObject({
        symbol: 'XRPUSDT', durations: [{ seconds: 15, payoutRate: '0.7' }, { seconds: 60, payoutRate: '0.8' }, { seconds: 300, payoutRate: '1.25' }],
        amountMin: '20.000000', amountMax: '1000.000000',
      });
      expect(await setOf('XRPUSDT')).toMatchObject({ durations: after.durations, amountMin: '20.000000' });
      const offered = (expectOk(await server.get(tradePaths.secondSets)).body.result as any[]).find((item) => item.symbol === 'XRPUSDT');
      expect(offered).toMatchObject({ durations: after.durations, amountMin: '20.000000', amountMax: '1000.000000' });
      const audit = await auditRows(server, 'trade.second_set', 'XRPUSDT');
      expect(audit).toHaveLength(1);
      expect(audit[0].before).toMatchObject({ durations: before!.durations });
      expect(audit[0].after).toMatchObject({ durations: after.durations });
    });

    const refusals: Array<[string, Record<string, unknown>, string]> = [
      ['a zero payout rate', { durations: [{ seconds: 60, payoutRate: '0' }] }, 'durations.0.payoutRate'],
      ['a payout rate above 10', { durations: [{ seconds: 60, payoutRate: '10.000001' }] }, 'durations.0.payoutRate'],
      ['a repeated duration', { durations: [{ seconds: 60, payoutRate: '0.8' }, { seconds: 60, payoutRate: '0.9' }] }, 'durations'],
      ['minimum amount above the maximum', { amountMin: '100', amountMax: '50' }, 'amountMax'],
      ['a zero minimum amount', { amountMin: '0' }, 'amountMin'],
    ];
    for (const [name, change, field] of refusals) {
      it(`refuses ${name} and changes nothing`, async () => {
        const token = await admin();
        const before = await setOf('ADAUSDT');
        const reply = await server.post(secondPath('ADAUSDT'), { ...goodSecond, ...change }, { token });
        expectRefused(reply, 400, 'trade_settings_invalid');
        expect(reply.body.result.field).toBe(field);
        expect(await setOf('ADAUSDT')).toEqual(before);
        expect(await auditRows(server, 'trade.second_set', 'ADAUSDT')).toHaveLength(0);
      });
    }

    it('refuses enabling second contracts on USDCHF and a duration out of bounds; finance cannot change', async () => {
      const token = await admin();
      expectRefused(await server.post(secondPath('USDCHF'), goodSecond, { token }), 400, 'symbol_not_tradable');
      expect(await secondSetOf(server.db, 'USDCHF')).toBeUndefined();
      expectRefused(await server.post(secondPath('ADAUSDT'), { ...goodSecond, durations: [{ seconds: 4, payoutRate: '0.8' }] }, { token }),
        400, 'invalid_request');
      const finance = await operatorLogin(server, await createOperator(server, 'finance'));
      expectRefused(await server.post(secondPath('ADAUSDT'), goodSecond, { token: finance }), 403, 'forbidden');
      expect(await auditRows(server, 'trade.second_set', 'USDCHF')).toHaveLength(0);
    });
  });

  describe('swap settings', () => {
    it('an admin changes the fee, spread and quote life, audited, read by the public currencies call', async () => {
      const token = await admin();
      const before = expectOk(await server.get(tradeAdminPaths.swapSettings, {}, { token })).body.result;
      expect(before).toMatchObject({ enabled: true, feeRate: '0.001', spreadRate: '0.002', quoteTtlSeconds: 10 });
      const after = expectOk(await server.post(tradeAdminPaths.swapSettings,
        { enabled: true, feeRate: '0.0015', spreadRate: '0.003', quoteTtlSeconds: 8 }, { token })).body.result;
      expect(after).toMatchObject({ enabled: true, feeRate: '0.0015', spreadRate: '0.003', quoteTtlSeconds: 8 });
      expect(swapSettingsToWire(await loadSwapSettings(server.db), [])).toMatchObject({ feeRate: '0.0015', spreadRate: '0.003', quoteTtlSeconds: 8 });
      const user = await server.registerByEmail();
      expect(expectOk(await server.get(tradePaths.swapCurrencies, {}, { token: user.token })).body.result)
        .toMatchObject({ feeRate: '0.0015', spreadRate: '0.003', quoteTtlSeconds: 8 });
      const audit = await auditRows(server, 'trade.swap_settings', '1');
      expect(audit).toHaveLength(1);
      expect(audit[0].before).toMatchObject({ feeRate: '0.001', quoteTtlSeconds: 10 });
      expect(audit[0].after).toMatchObject({ feeRate: '0.0015', quoteTtlSeconds: 8 });
    });

    it('refuses a fee or spread above 10 %, a malformed rate and a quote life out of bounds; nothing changes', async () => {
      const token = await admin();
      const before = await loadSwapSettings(server.db);
      const audits = (await auditRows(server, 'trade.swap_settings', '1')).length;
      const base = { enabled: false, feeRate: '0.001', spreadRate: '0.002', quoteTtlSeconds: 10 };
      for (const [change, field] of [[{ feeRate: '0.2' }, 'feeRate'], [{ spreadRate: '0.11' }, 'spreadRate'], [{ feeRate: '1e-3' }, 'feeRate']] as const) {
        const reply = await server.post(tradeAdminPaths.swapSettings, { ...base, ...change }, { token });
        expectRefused(reply, 400, 'trade_settings_invalid');
        expect(reply.body.result.field).toBe(field);
      }
      expectRefused(await server.post(tradeAdminPaths.swapSettings, { ...base, quoteTtlSeconds: 2 }, { token }), 400, 'invalid_request');
      const finance = await operatorLogin(server, await createOperator(server, 'finance'));
      expectRefused(await server.post(tradeAdminPaths.swapSettings, base, { token: finance }), 403, 'forbidden');
      expect(await loadSwapSettings(server.db)).toEqual(before);
      expect(await auditRows(server, 'trade.swap_settings', '1')).toHaveLength(audits);
    });
  });

  describe('lists of trades', () => {
    it('positions, second contracts and swaps across users, filtered, each with its receipt; read-only; users refused', async () => {
      const token = await admin();
      const alice = await trader(server, '5000', '1000');
      const bob = await trader(server, '5000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const running = await opened(server, alice, { symbol: 'BTCUSDT', leverage: 10, margin: '100' });
      const closing = await opened(server, bob, { symbol: 'BTCUSDT', leverage: 5, margin: '50' });
      const demo = await opened(server, alice, { symbol: 'BTCUSDT', leverage: 10, margin: '20', demo: true });
      await freshTick(server, 'BTCUSDT', '60300.00');
      expectOk(await server.post(closePositionPath(closing.id), {}, { token: bob.token }));

      const all = expectOk(await server.get(tradeAdminPaths.positions, { pageSize: '100' }, { token })).body.result;
      const ids = all.records.map((record: any) => record.id);
      expect(ids).toEqual(expect.arrayContaining([running.id, closing.id]));
      expect(ids).not.toContain(demo.id);
      const closed = all.records.find((record: any) => record.id === closing.id);
      expect(closed).toMatchObject({ status: 'closed', account: bob.email, userId: String(bob.userId), demo: false });
      expect(closed.receipt).toMatchObject({ reason: 'user', entryTick: { price: '60000.00' }, exitTick: { price: '60300.00' } });
      const mine = expectOk(await server.get(tradeAdminPaths.positions, { userId: String(alice.userId), status: 'running' }, { token })).body.result;
      expect(mine.records.map((record: any) => record.id)).toEqual([running.id]);
      expect(mine.records[0].receipt).toBeNull();
      const demoList = expectOk(await server.get(tradeAdminPaths.positions, { userId: String(alice.userId), demo: 'true' }, { token })).body.result;
      expect(demoList.records.map((record: any) => record.id)).toEqual([demo.id]);
      expect(expectOk(await server.get(tradeAdminPaths.positions, { userId: String(bob.userId), symbol: 'ETHUSDT' }, { token })).body.result.total).toBe(0);

      const order = expectOk(await server.post(tradePaths.secondBuy, {
        symbol: 'BTCUSDT', direction: 'up', duration: 60, amount: '100', clientOrderId: server.unique('second-'),
      }, { token: alice.token })).body.result;
      const orders = expectOk(await server.get(tradeAdminPaths.secondOrders, { userId: String(alice.userId), status: 'open' }, { token })).body.result;
      expect(orders.records).toHaveLength(1);
      expect(orders.records[0]).toMatchObject({ id: order.id, status: 'open', account: alice.email, amount: '100.000000' });
      expect(expectOk(await server.get(tradeAdminPaths.secondOrders, { userId: String(alice.userId), status: 'settled' }, { token })).body.result.total).toBe(0);

      const offer = expectOk(await server.get(tradePaths.swapQuote, { from: 'USDT', to: 'BTC', amount: '603' }, { token: bob.token })).body.result;
      const record = expectOk(await server.post(tradePaths.swap, { quoteId: offer.quoteId }, { token: bob.token })).body.result;
      const swaps = expectOk(await server.get(tradeAdminPaths.swaps, { userId: String(bob.userId), symbol: 'BTC' }, { token })).body.result;
      expect(swaps.records).toHaveLength(1);
      expect(swaps.records[0]).toMatchObject({ id: record.id, from: 'USDT', to: 'BTC', receive: record.receive, account: bob.email });
      expect(swaps.records[0].ticks[0]).toMatchObject({ symbol: 'BTCUSDT', price: '60300.00' });
      expect(expectOk(await server.get(tradeAdminPaths.swaps, { userId: String(bob.userId), symbol: 'ETH' }, { token })).body.result.total).toBe(0);

      const finance = await operatorLogin(server, await createOperator(server, 'finance'));
      expect(expectOk(await server.get(tradeAdminPaths.positions, { userId: String(bob.userId) }, { token: finance })).body.result.total).toBe(1);
      for (const path of [tradeAdminPaths.positions, tradeAdminPaths.secondOrders, tradeAdminPaths.swaps]) {
        expectRefused(await server.get(path, {}, { token: alice.token }), 401, 'unauthorized');
      }
      expectRefused(await server.get(tradeAdminPaths.positions, { userId: 'x' }, { token }), 400, 'invalid_request');
      // There is no operator call that closes, settles or prices a trade.
      expect((await server.post(`${tradeAdminPaths.positions}/${running.id}/close`, {}, { token })).status).toBe(404);
    });
  });
});
