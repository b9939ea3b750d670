// Conformance (issue 18, README "Market data"): prices name their source, and per symbol the
// operator decides whether real trading may use simulated prices. A spec-only client reads the
// tickers and ticks ("simulator"), the demo operator switches real trading on simulated prices
// off for one symbol, a real open there is refused with simulated_feed_trading_disabled and moves
// no money while a demo open goes on, and switching it back opens real trading again. The field
// names were read (not imported) from src/api/contract/market.ts and trading.ts: optional
// extension fields a client of the spec alone may ignore.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from './server.ts';
import { tokenOf, type SpecClient } from './specClient.ts';
import { AdminClient, base32Decode, demoOperator, totp } from './adminClient.ts';
import { describeAnswer, expectError, expectSuccess, fundUsdt, openTradingSession, recentTicks, type Tick } from './tradingSession.ts';

interface AdminSettings {
  symbol: string; enabled: boolean; leverages: number[]; quantityMin: string; quantityMax: string; marginMin: string; marginMax: string;
  feeRate: string; maintenanceMarginRate: string; spread: string; simulatedFeedRealTrading: boolean;
}

let server: RunningServer;
let client: SpecClient;
let token: string;

beforeAll(async () => {
  ({ server, client, token } = await openTradingSession('conf-simulated', 'Simulated2026conf'));
}, 120_000);

afterAll(async () => {
  await server?.stop();
});


describe('simulated prices name themselves, and the operator decides whether real trading may use them', () => {
  it('labels tickers and ticks "simulator"; with real trading on simulated prices off, a real open is refused and moves nothing while a demo open goes on', async () => {
    const tickers = expectSuccess(await client.get<Array<{ symbol: string; source?: string }>>('/public/getTicketList'));
    expect(tickers.find((ticker) => ticker.symbol === 'BNBUSDT')?.source).toBe('simulator');
    expect((await recentTicks(client, 'BNBUSDT')).at(-1)!.source).toBe('simulator');

    // Funding logs the demo operator in with this step's code; the operator's own session then
    // uses the next step's (one step of drift is accepted, and a spent code is refused).
    await fundUsdt({ server, client, token }, '100');
    const login = await new AdminClient(client).login(demoOperator.email, demoOperator.password,
      totp(base32Decode(demoOperator.totpSecret), (await client.serverTime()) + 30_000));
    const operatorToken = tokenOf(login)!;
    expect(operatorToken, describeAnswer(login)).toEqual(expect.any(String));
    const bnb = expectSuccess(await client.get<AdminSettings[]>('/admin/trade/symbols', {}, operatorToken))
      .find((row) => row.symbol === 'BNBUSDT')!;
    // A fresh install allows it (the evaluation setup).
    expect(bnb.simulatedFeedRealTrading).toBe(true);
    const body = {
      enabled: bnb.enabled, leverages: bnb.leverages, quantityMin: bnb.quantityMin, quantityMax: bnb.quantityMax, marginMin: bnb.marginMin,
      marginMax: bnb.marginMax, feeRate: bnb.feeRate, maintenanceMarginRate: bnb.maintenanceMarginRate, spread: bnb.spread,
    };
    const switched = expectSuccess(await client.post<AdminSettings>('/admin/trade/symbols/BNBUSDT',
      { ...body, simulatedFeedRealTrading: false }, operatorToken));
    expect(switched.simulatedFeedRealTrading).toBe(false);

    const balanceOf = async () => {
      const rows = expectSuccess(await client.get<Array<{ currency: string; available: string }>>('/finance/appWallet/queryUserBalance', {}, token));
      return rows.find((row) => row.currency === 'USDT')?.available;
    };
    const before = await balanceOf();
    const open = (demo: boolean) => client.post<{ symbol: string; status: string; entryTick: Tick }>('/trade/appTradePositions/create', {
      symbol: 'BNBUSDT', direction: 'short', leverage: bnb.leverages[0], margin: '10',
      clientOrderId: `conf-sim-${crypto.randomBytes(4).toString('hex')}`, ...(demo ? { demo: true } : {}),
    }, token);
    expectError(await open(false), 400, 'simulated_feed_trading_disabled');
    expect(await balanceOf()).toBe(before);
    // Demo funds open with the first read of the demo account; demo trading stays allowed.
    expectSuccess(await client.get('/trade/appDemo/account', {}, token));
    expect(expectSuccess(await open(true))).toMatchObject({ symbol: 'BNBUSDT', status: 'running' });

    expectSuccess(await client.post('/admin/trade/symbols/BNBUSDT', { ...body, simulatedFeedRealTrading: true }, operatorToken));
    expect(expectSuccess(await open(false))).toMatchObject({ symbol: 'BNBUSDT', status: 'running', entryTick: { source: 'simulator' } });
  }, 120_000);
});
