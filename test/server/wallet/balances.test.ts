// Currencies, rates, balances, assets and the account ledger as a user reads them: amounts exact
// to the currency's scale, valued in USDT at the feed's last price (an operator's rate where the
// feed has no pair), and every figure read from the ledger itself.
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { walletPaths } from '../../../src/api/contract/wallet.ts';
import { walletCurrencies } from '../../../server/db/schema.ts';
import { openAccounts, systemShard } from '../../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';
import type { TickerState } from '../../../server/domain/core/market/bus.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import { applyDeposit, approveAsOperator, balanceOf, expectLedgerSound, userIdOf, withDepositAddresses } from './walletHelpers.ts';

function ticker(symbol: string, last: bigint, timeMs: number): TickerState {
  return {
    symbol, timeMs, last, open24h: last, high24h: last, low24h: last, volume24h: 0n, quoteVolume24h: 0n, open: true, source: 'test',
  };
}

/** The feed quotes BTC at 60000.00 and ETH at 3000.50 (price precision 2). */
async function publishPrices(server: TestServer) {
  const timeMs = server.clock.now().getTime();
  await server.marketBus.publish({
    timeMs, candles: [], tickers: [ticker('BTCUSDT', 6_000_000n, timeMs), ticker('ETHUSDT', 300_050n, timeMs)],
  });
}

/** Moves `amount` atomic units of `asset` from deposit clearing to one of the user's accounts. */
async function credit(server: TestServer, userId: bigint, asset: string, kind: 'spot' | 'frozen' | 'position_margin' | 'product_holdings' | 'collateral',
  amount: bigint, id: string) {
  const [clearing, account] = await openAccounts(server.db, [
    { ledger: 'real', asset, kind: 'deposit_clearing', shard: systemShard('tests') },
    { ledger: 'real', asset, kind, ownerUserId: userId },
  ]);
  const result = await postTransfers(server.db, [{
    id, debitAccountId: clearing, creditAccountId: account, amountAtomic: amount, kind: 'correction', reference: `test:${id}`,
  }], server.clock);
  expect(result.ok).toBe(true);
}

forEachDatabase((server) => {
  afterEach(() => expectLedgerSound(server));

  describe('GET /set/appCurrencySet/getCurrencyList', () => {
    it('lists the currencies with their ledger scale, networks, minimums and fees, to anyone', async () => {
      const answer = expectOk(await server.get(walletPaths.currencyList));
      const list = answer.body.result as Array<{ currency: string; scale: number; networks: Array<Record<string, unknown>> }>;
      expect(list.map((currency) => [currency.currency, currency.scale])).toEqual([['USDT', 6], ['BTC', 8], ['ETH', 18], ['USDC', 6]]);
      expect(list[0].networks).toEqual([
        { network: 'BANK', depositEnabled: false, withdrawalEnabled: true, depositMin: '10.000000', withdrawalMin: '20.000000', withdrawalFee: '2.000000' },
        { network: 'ERC20', depositEnabled: true, withdrawalEnabled: true, depositMin: '10.000000', withdrawalMin: '20.000000', withdrawalFee: '5.000000' },
        { network: 'TRC20', depositEnabled: true, withdrawalEnabled: true, depositMin: '10.000000', withdrawalMin: '10.000000', withdrawalFee: '1.000000' },
      ]);
      expect(list[2].networks[0]).toMatchObject({ network: 'ERC20', withdrawalFee: '0.002000000000000000' });
      // No address is handed out here: getAddr answers it to a logged-in user.
      expect(JSON.stringify(list)).not.toContain('depositAddress');
    });

    it('leaves out a currency an operator disabled', async () => {
      await server.db.update(walletCurrencies).set({ enabled: false }).where(eq(walletCurrencies.code, 'USDC'));
      try {
        const list = expectOk(await server.get(walletPaths.currencyList)).body.result as Array<{ currency: string }>;
        expect(list.map((currency) => currency.currency)).not.toContain('USDC');
        expectRefused(await server.get(walletPaths.rateByCurrency, { currency: 'USDC' }), 404, 'currency_unknown');
      } finally {
        await server.db.update(walletCurrencies).set({ enabled: true }).where(eq(walletCurrencies.code, 'USDC'));
      }
    });
  });

  describe('GET /set/appCurrencySet/getRateByCurrency', () => {
    it('answers USDT at par, a feed price where the feed quotes the pair, an operator rate with its time otherwise', async () => {
      expect(expectOk(await server.get(walletPaths.rateByCurrency, { currency: 'USDT' })).body.result)
        .toEqual({ currency: 'USDT', rate: '1', source: 'par', time: server.clock.now().getTime() });
      // Before the feed has said anything, BTC has no rate at all.
      const none = await server.get(walletPaths.rateByCurrency, { currency: 'BTC' });
      expect([none.status, none.body.success, none.body.result]).toEqual([503, false, { error: 'market_unavailable' }]);
      await publishPrices(server);
      expect(expectOk(await server.get(walletPaths.rateByCurrency, { currency: 'BTC' })).body.result)
        .toEqual({ currency: 'BTC', rate: '60000', source: 'feed', time: server.clock.now().getTime() });
      expect(expectOk(await server.get(walletPaths.rateByCurrency, { currency: 'ETH' })).body.result)
        .toMatchObject({ rate: '3000.5', source: 'feed' });
      const usdc = expectOk(await server.get(walletPaths.rateByCurrency, { currency: 'USDC' })).body.result;
      const [row] = await server.db.select().from(walletCurrencies).where(eq(walletCurrencies.code, 'USDC'));
      expect(usdc).toEqual({ currency: 'USDC', rate: '1', source: 'operator', time: row.usdtRateUpdatedAt!.getTime() });
      expectRefused(await server.get(walletPaths.rateByCurrency, { currency: 'DOGE' }), 404, 'currency_unknown');
      expectRefused(await server.get(walletPaths.rateByCurrency, {}), 400, 'invalid_request');
    });
  });

  describe('GET /finance/appWallet/queryUserBalance', () => {
    it('lists every currency at zero for a new user, and available and frozen from the ledger after money moves', async () => {
      const user = await server.registerByEmail();
      const balances = expectOk(await server.get(walletPaths.userBalance, {}, { token: user.token })).body.result;
      expect(balances).toEqual([
        { currency: 'USDT', scale: 6, available: '0.000000', frozen: '0.000000' },
        { currency: 'BTC', scale: 8, available: '0.00000000', frozen: '0.00000000' },
        { currency: 'ETH', scale: 18, available: '0.000000000000000000', frozen: '0.000000000000000000' },
        { currency: 'USDC', scale: 6, available: '0.000000', frozen: '0.000000' },
      ]);
      const userId = await userIdOf(server, user.email!);
      await credit(server, userId, 'USDT', 'spot', 500_000_000n, server.unique('b-spot-'));
      await credit(server, userId, 'USDT', 'frozen', 25_000_000n, server.unique('b-frozen-'));
      // 9.3 ETH does not fit a BIGINT at 18 decimals; the balance is exact all the same.
      await credit(server, userId, 'ETH', 'spot', 9_300_000_000_000_000_001n, server.unique('b-eth-'));
      // A withdrawal under review reserves part of the spot balance: it shows as frozen.
      const [spot, clearing] = await openAccounts(server.db, [
        { ledger: 'real', asset: 'USDT', kind: 'spot', ownerUserId: userId },
        { ledger: 'real', asset: 'USDT', kind: 'withdrawal_clearing', shard: systemShard('tests') },
      ]);
      const pending = await postTransfers(server.db, [{
        id: server.unique('b-pending-'), debitAccountId: spot, creditAccountId: clearing, amountAtomic: 100_000_000n,
        kind: 'withdrawal', reference: 'withdrawal:test', pending: true,
      }], server.clock);
      expect(pending.ok).toBe(true);
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({ currency: 'USDT', scale: 6, available: '400.000000', frozen: '125.000000' });
      expect(await balanceOf(server, user.token, 'ETH')).toMatchObject({ available: '9.300000000000000001' });
    });

    it("shows only the caller's own balance, and nothing without a session", async () => {
      const rich = await server.registerByEmail();
      const other = await server.registerByEmail();
      await credit(server, await userIdOf(server, rich.email!), 'BTC', 'spot', 100_000_000n, server.unique('b-rich-'));
      expect(await balanceOf(server, rich.token, 'BTC')).toMatchObject({ available: '1.00000000' });
      expect(await balanceOf(server, other.token, 'BTC')).toMatchObject({ available: '0.00000000' });
      expectRefused(await server.get(walletPaths.userBalance), 401, 'unauthorized');
    });
  });

  describe('GET /finance/appWallet/queryUserAssets', () => {
    it('values every kind in USDT at the feed price, exactly, cut toward zero', async () => {
      await publishPrices(server);
      const user = await server.registerByEmail();
      const userId = await userIdOf(server, user.email!);
      await credit(server, userId, 'USDT', 'spot', 1_000_000_000n, server.unique('a-usdt-'));
      await credit(server, userId, 'BTC', 'position_margin', 50_000_000n, server.unique('a-btc-')); // 0.5 BTC = 30000 USDT
      await credit(server, userId, 'ETH', 'product_holdings', 1_000_000_000_000_000_001n, server.unique('a-eth-')); // 1 ETH + 1 wei
      await credit(server, userId, 'USDC', 'frozen', 2_500_000n, server.unique('a-usdc-'));
      await credit(server, userId, 'BTC', 'collateral', 1_000_000n, server.unique('a-col-')); // 0.01 BTC pledged = 600 USDT
      const assets = expectOk(await server.get(walletPaths.userAssets, {}, { token: user.token })).body.result;
      expect(assets.byKind).toEqual({
        spot: '1000.000000', frozen: '2.500000', position: '30000.000000', product: '3000.500000', loan: '0.000000', demo: '0.000000',
        collateral: '600.000000', competition: '0.000000',
      });
      // Pledged collateral is still the user's: it counts in the total (a loan against it counts as owed).
      expect(assets.totalUsdt).toBe('34603.000000');
      const btc = assets.currencies.find((row: { currency: string }) => row.currency === 'BTC');
      expect(btc.amounts).toMatchObject({ position: '0.50000000', collateral: '0.01000000' });
      expect(assets.unpriced).toEqual([]);
      const eth = assets.currencies.find((row: { currency: string }) => row.currency === 'ETH');
      expect(eth).toMatchObject({ rate: '3000.5', valueUsdt: '3000.500000', amounts: expect.objectContaining({ product: '1.000000000000000001' }) });
    });

    it('lists a currency no rate values as unpriced and leaves it out of the totals', async () => {
      const user = await server.registerByEmail();
      const userId = await userIdOf(server, user.email!);
      await server.db.update(walletCurrencies).set({ usdtRate: null, usdtRateUpdatedAt: null }).where(eq(walletCurrencies.code, 'USDC'));
      try {
        await credit(server, userId, 'USDC', 'spot', 7_000_000n, server.unique('a-unpriced-'));
        await credit(server, userId, 'USDT', 'spot', 1_000_000n, server.unique('a-priced-'));
        const assets = expectOk(await server.get(walletPaths.userAssets, {}, { token: user.token })).body.result;
        expect(assets.unpriced).toEqual(['USDC']);
        expect(assets.totalUsdt).toBe('1.000000');
        expect(assets.currencies.find((row: { currency: string }) => row.currency === 'USDC')).toMatchObject({ rate: null, valueUsdt: null });
      } finally {
        await server.db.update(walletCurrencies).set({ usdtRate: '1', usdtRateUpdatedAt: server.clock.now() }).where(eq(walletCurrencies.code, 'USDC'));
      }
    });
  });

  describe('GET /finance/appBalanceLog/list', () => {
    it("reads the caller's entries from the ledger: signed amounts, balance after, filtered by type, currency and time", async () => {
      const user = await server.registerByEmail();
      const other = await server.registerByEmail();
      await withDepositAddresses(server);
      const first = await applyDeposit(server, user.token, { amount: '100' });
      await approveAsOperator(server, first.id);
      const startOfSecond = server.clock.now().getTime() + 1000;
      server.clock.advance(1000);
      const second = await applyDeposit(server, user.token, { amount: '30.5' });
      await approveAsOperator(server, second.id);
      await credit(server, await userIdOf(server, user.email!), 'BTC', 'spot', 1n, server.unique('log-btc-'));
      const log = expectOk(await server.get(walletPaths.balanceLog, {}, { token: user.token })).body.result;
      expect(log).toMatchObject({ total: 3, size: 10, current: 1, pages: 1 });
      expect(log.records[1]).toEqual({
        id: `recharge:${second.id}`, type: 'deposit', currency: 'USDT', account: 'spot', amount: '30.500000',
        balanceAfter: '130.500000', phase: 'single', time: startOfSecond, reference: `recharge:${second.id}`, remark: 'USDT TRC20',
      });
      const deposits = expectOk(await server.get(walletPaths.balanceLog, { type: 'deposit' }, { token: user.token })).body.result;
      expect(deposits.records.map((entry: { id: string }) => entry.id)).toEqual([`recharge:${second.id}`, `recharge:${first.id}`]);
      const btc = expectOk(await server.get(walletPaths.balanceLog, { currency: 'BTC' }, { token: user.token })).body.result;
      expect(btc.records).toHaveLength(1);
      expect(btc.records[0]).toMatchObject({ amount: '0.00000001', type: 'correction' });
      const early = expectOk(await server.get(walletPaths.balanceLog, { endTime: String(startOfSecond) }, { token: user.token })).body.result;
      expect(early.records.map((entry: { id: string }) => entry.id)).toEqual([`recharge:${first.id}`]);
      const paged = expectOk(await server.get(walletPaths.balanceLog, { pageNo: '2', pageSize: '2' }, { token: user.token })).body.result;
      expect(paged).toMatchObject({ total: 3, size: 2, current: 2, pages: 2 });
      expect(paged.records).toHaveLength(1);
      expect(expectOk(await server.get(walletPaths.balanceLog, {}, { token: other.token })).body.result).toMatchObject({ total: 0, records: [] });
      expectRefused(await server.get(walletPaths.balanceLog, { startTime: '5', endTime: '5' }, { token: user.token }), 400, 'invalid_request');
      expectRefused(await server.get(walletPaths.balanceLog, { type: 'DROP TABLE' }, { token: user.token }), 400, 'invalid_request');
      expectRefused(await server.get(walletPaths.balanceLog), 401, 'unauthorized');
    });
  });
});
