// Real trading on simulated prices (issue 18): per symbol, an admin decides whether real (not demo)
// contracts, second contracts and swaps may use a tick the simulator made. A fresh install allows
// it; a change is audited before and after; once off, a real open, second contract, swap quote or
// execution of an earlier quote priced by a simulated tick is refused with
// simulated_feed_trading_disabled and moves nothing, while demo trading and venue prices go on.
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { simulatorSourceName } from '../../../src/api/contract/market.ts';
import { tradeAdminPaths, tradePaths, type SwapQuote } from '../../../src/api/contract/trading.ts';
import { ledgerAccounts } from '../../../server/db/schema.ts';
import { insertTicks } from '../../../server/domain/core/market/store.ts';
import { parsePrice, symbolByCode } from '../../../server/domain/core/market/symbols.ts';
import { createOperator, operatorLogin } from '../adminHelpers.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import { fund } from '../wallet/withdrawHelpers.ts';
import { expectLedgerSound, openPosition, trader } from './positionHelpers.ts';
import { buy } from './secondHelpers.ts';

const symbolPath = (symbol: string) => tradeAdminPaths.symbolSetting.replace(':symbol', symbol);

/** Moves the clock on a minute and records a fresh tick of each symbol from `source`. */
async function freshTicks(server: TestServer, prices: Record<string, string>, source = simulatorSourceName) {
  server.clock.advance(60_000);
  const timeMs = server.clock.now().getTime();
  await insertTicks(server.db, Object.entries(prices).map(([symbol, price]) => ({
    symbol, priceUnits: parsePrice(price, symbolByCode.get(symbol)!.pricePrecision), volumeUnits: 1n, timeMs,
  })), source);
}

/** Every account's totals and the rows any trade writes: what a refusal must leave as it was. */
async function snapshot(server: TestServer) {
  const accounts = await server.db.select().from(ledgerAccounts).orderBy(ledgerAccounts.id);
  const [counts] = await server.query<Record<string, number>>(sql`select
    (select count(*)::int from ledger_transfers) as transfers, (select count(*)::int from trade_positions) as positions,
    (select count(*)::int from second_contract_orders) as seconds, (select count(*)::int from swap_orders) as swaps,
    (select count(*)::int from swap_quotes where used_at is not null) as used_quotes`);
  return { accounts, counts };
}

forEachDatabase((server) => {
  afterEach(() => expectLedgerSound(server));
  let adminToken: string | undefined;
  async function admin() {
    if (!adminToken) adminToken = await operatorLogin(server, await createOperator(server, 'admin'));
    return adminToken;
  }

  async function adminSettingsOf(symbol: string) {
    const list = expectOk(await server.get(tradeAdminPaths.symbolSettings, {}, { token: await admin() })).body.result as any[];
    return list.find((item) => item.symbol === symbol);
  }

  /** Sets the switch through the back office's call, sending the symbol's other settings unchanged. */
  async function setSimulatedFeedTrading(symbol: string, allowed: boolean | undefined) {
    const current = await adminSettingsOf(symbol);
    const body = {
      enabled: current.enabled, leverages: current.leverages, quantityMin: current.quantityMin, quantityMax: current.quantityMax,
      marginMin: current.marginMin, marginMax: current.marginMax, feeRate: current.feeRate,
      maintenanceMarginRate: current.maintenanceMarginRate, spread: current.spread,
      ...(allowed === undefined ? {} : { simulatedFeedRealTrading: allowed }),
    };
    return expectOk(await server.post(symbolPath(symbol), body, { token: await admin() })).body.result;
  }

  describe('POST /api/admin/trade/symbols/:symbol (simulatedFeedRealTrading)', () => {
    it('allows real trading on simulated prices on a fresh install, for every symbol', async () => {
      const list = expectOk(await server.get(tradeAdminPaths.symbolSettings, {}, { token: await admin() })).body.result as any[];
      expect(list.length).toBeGreaterThan(5);
      expect(list.every((item) => item.simulatedFeedRealTrading === true)).toBe(true);
    });

    it('audits the switch before and after, and keeps the choice when a body leaves the field out', async () => {
      server.clock.advance(1000);
      const after = await setSimulatedFeedTrading('LTCUSDT', false);
      expect(after).toMatchObject({ symbol: 'LTCUSDT', simulatedFeedRealTrading: false, updateTime: server.clock.now().getTime() });
      const audits = await server.query<{ before: any; after: any }>(sql`select before, after from audit_log
        where action = 'trade.symbol_settings' and target_id = 'LTCUSDT' order by id`);
      expect(audits.at(-1)!.before).toMatchObject({ simulatedFeedRealTrading: true });
      expect(audits.at(-1)!.after).toMatchObject({ simulatedFeedRealTrading: false });
      // A client that predates the field saves the other settings and switches nothing.
      expect(await setSimulatedFeedTrading('LTCUSDT', undefined)).toMatchObject({ simulatedFeedRealTrading: false });
      expect(await setSimulatedFeedTrading('LTCUSDT', true)).toMatchObject({ simulatedFeedRealTrading: true });
      expect((await adminSettingsOf('LTCUSDT')).simulatedFeedRealTrading).toBe(true);
    });

    it('is refused to a finance operator, who may only read', async () => {
      const finance = await operatorLogin(server, await createOperator(server, 'finance'));
      const body = {
        enabled: true, leverages: [1, 10], quantityMin: '0.01', quantityMax: '100', marginMin: '1', marginMax: '1000', feeRate: '0.0005',
        maintenanceMarginRate: '0.005', spread: '0.02', simulatedFeedRealTrading: false,
      };
      expectRefused(await server.post(symbolPath('LTCUSDT'), body, { token: finance }), 403, 'forbidden');
      expect((await adminSettingsOf('LTCUSDT')).simulatedFeedRealTrading).toBe(true);
    });
  });

  describe('POST /api/trade/appTradePositions/create (a contract) on a simulated feed', () => {
    it('refuses a real open when the switch is off and changes nothing; demo opens, and so does real on a venue tick', async () => {
      await setSimulatedFeedTrading('BTCUSDT', false);
      const user = await trader(server, '1000', '1000');
      await freshTicks(server, { BTCUSDT: '60000.00' });
      const before = await snapshot(server);
      const refused = await openPosition(server, user);
      expectRefused(refused, 400, 'simulated_feed_trading_disabled');
      expect(refused.body.message).toMatch(/simulated/);
      expect(refused.body.result).toMatchObject({ symbol: 'BTCUSDT' });
      expect(await snapshot(server)).toEqual(before);
      expectOk(await openPosition(server, user, { demo: true }));
      // A price from a venue is no simulated price: the switch does not apply to it.
      await freshTicks(server, { BTCUSDT: '60010.00' }, 'ccxt:testvenue');
      expectOk(await openPosition(server, user));
      await setSimulatedFeedTrading('BTCUSDT', true);
      await freshTicks(server, { BTCUSDT: '60020.00' });
      expectOk(await openPosition(server, user));
    });
  });

  describe('POST /api/trade/appSecondContractOrder/buy on a simulated feed', () => {
    it('refuses a real second contract when the switch is off and changes nothing; a demo one is accepted', async () => {
      await setSimulatedFeedTrading('ETHUSDT', false);
      const user = await trader(server, '1000', '1000');
      await freshTicks(server, { ETHUSDT: '3000.00' });
      const before = await snapshot(server);
      expectRefused(await buy(server, user, { symbol: 'ETHUSDT' }), 400, 'simulated_feed_trading_disabled');
      expect(await snapshot(server)).toEqual(before);
      expectOk(await buy(server, user, { symbol: 'ETHUSDT', demo: true }));
      await setSimulatedFeedTrading('ETHUSDT', true);
      await freshTicks(server, { ETHUSDT: '3001.00' });
      expectOk(await buy(server, user, { symbol: 'ETHUSDT' }));
    });
  });

  describe('GET /api/trade/appFlashExchangeLog/quote and POST …/flashExchange on a simulated feed', () => {
    it('refuses a quote, and the execution of a quote made before the switch, moving nothing', async () => {
      const user = await server.registerByEmail();
      const userId = (await server.userByEmail(user.email!)).id;
      await fund(server, userId, '1', 'BTC');
      await freshTicks(server, { BTCUSDT: '60000.00' });
      const earlier = expectOk(await server.get(tradePaths.swapQuote, { from: 'BTC', to: 'USDT', amount: '0.01' }, { token: user.token }))
        .body.result as SwapQuote;
      expect(earlier.ticks.map((tick) => tick.source)).toEqual([simulatorSourceName]);
      await setSimulatedFeedTrading('BTCUSDT', false);
      const before = await snapshot(server);
      expectRefused(await server.get(tradePaths.swapQuote, { from: 'BTC', to: 'USDT', amount: '0.01' }, { token: user.token }),
        400, 'simulated_feed_trading_disabled');
      expectRefused(await server.post(tradePaths.swap, { quoteId: earlier.quoteId }, { token: user.token }),
        400, 'simulated_feed_trading_disabled');
      expect(await snapshot(server)).toEqual(before);
      await setSimulatedFeedTrading('BTCUSDT', true);
      expectOk(await server.post(tradePaths.swap, { quoteId: earlier.quoteId }, { token: user.token }));
    });
  });
});
