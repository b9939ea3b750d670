// Conformance: a spec-only client reads the swappable currencies, funds its account with a deposit
// the demo operator approves, asks for quotes (USDT → USDC at par, USDT → BTC from the live
// feed's recorded tick), recomputes each quote's fee and receive from the documented formula,
// swaps once (a second use of the quote is refused) and lists its swaps. It also opens its demo
// funds. Field names the spec does not show were read (not imported) from src/api/contract/trading.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from './server.ts';
import { errorOf, type Answer, type SpecClient } from './specClient.ts';
import { expectError, expectSuccess, fundUsdt, openTradingSession } from './tradingSession.ts';

let server: RunningServer;
let client: SpecClient;
let token: string;

const fund = (amount: string) => fundUsdt({ server, client, token }, amount);

beforeAll(async () => {
  ({ server, client, token } = await openTradingSession('conf-swap', 'Swap2026conf'));
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

interface Currencies { currencies: Array<{ currency: string; scale: number }>; feeRate: string; spreadRate: string; quoteTtlSeconds: number }
interface TickRef { id: string; symbol: string; price: string; time: number; source: string }
interface Quote { quoteId: string; from: string; to: string; amount: string; rate: string; fee: string; receive: string; expiresAt: number; ticks: TickRef[] }
interface SwapRecord { id: string; quoteId: string; from: string; to: string; amount: string; fee: string; rate: string; receive: string; ticks: TickRef[]; createTime: number }

/** A decimal string as a fraction: digits over a power of ten. */
function fraction(text: string): [bigint, bigint] {
  const [whole, decimals = ''] = text.split('.');
  return [BigInt(whole + decimals), 10n ** BigInt(decimals.length)];
}
function atomicOf(text: string, scale: number): bigint {
  const [numerator, denominator] = fraction(text);
  return (numerator * 10n ** BigInt(scale)) / denominator;
}

describe('flash swap calls of spec §7', () => {
  let settings: Currencies;
  const scaleOf = (currency: string) => settings.currencies.find((row) => row.currency === currency)!.scale;

  it('GET /trade/appFlashExchangeLog/currencies needs a session and names the fee and spread', async () => {
    expectError(await client.get('/trade/appFlashExchangeLog/currencies'), 401, 'unauthorized');
    settings = expectSuccess(await client.get<Currencies>('/trade/appFlashExchangeLog/currencies', {}, token));
    expect(settings.currencies.map((row) => row.currency)).toEqual(expect.arrayContaining(['USDT', 'USDC', 'BTC']));
    expect(settings.feeRate).toMatch(/^\d+(\.\d+)?$/);
    expect(settings.quoteTtlSeconds).toBeGreaterThan(0);
  });

  it('GET quote, POST flashExchange once, GET listMy: USDT → USDC at par', async () => {
    await fund('100');
    expectError(await client.get('/trade/appFlashExchangeLog/quote', { from: 'USDT', to: 'USDT', amount: '10' }, token), 400, 'swap_pair_unavailable');
    expectError(await client.get('/trade/appFlashExchangeLog/quote', { from: 'USDT', to: 'USDC', amount: '1e3' }, token), 400, 'amount_exponent');
    const quote = expectSuccess(await client.get<Quote>('/trade/appFlashExchangeLog/quote', { from: 'USDT', to: 'USDC', amount: '40' }, token));
    // fee = ⌊amount × feeRate⌋; receive = ⌊(amount − fee) × (1 − spreadRate)⌋, at 6 decimals.
    const amount = atomicOf('40', 6);
    const [feeNumerator, feeDenominator] = fraction(settings.feeRate);
    const fee = (amount * feeNumerator) / feeDenominator;
    const [spreadNumerator, spreadDenominator] = fraction(settings.spreadRate);
    const receive = ((amount - fee) * (spreadDenominator - spreadNumerator)) / spreadDenominator;
    expect(atomicOf(quote.fee, 6)).toBe(fee);
    expect(atomicOf(quote.receive, 6)).toBe(receive);
    expect(quote.ticks).toEqual([]);
    expect(quote.expiresAt).toBeGreaterThan(await client.serverTime());

    const record = expectSuccess(await client.post<SwapRecord>('/trade/appFlashExchangeLog/flashExchange', { quoteId: quote.quoteId }, token));
    expect(record).toMatchObject({ quoteId: quote.quoteId, from: 'USDT', to: 'USDC', amount: quote.amount, fee: quote.fee, receive: quote.receive });
    expectError(await client.post('/trade/appFlashExchangeLog/flashExchange', { quoteId: quote.quoteId }, token), 409, 'quote_used');
    const page = expectSuccess(await client.get<{ records: SwapRecord[]; total: number }>('/trade/appFlashExchangeLog/listMy',
      { pageNo: 1, pageSize: 10 }, token));
    expect(page.total).toBe(1);
    expect(page.records[0]).toEqual(record);
  });

  it('USDT → BTC at the recorded tick with the spread, receive recomputed from the cited tick', async () => {
    let answer: Answer<Quote> | undefined;
    // The feed records its first ticks shortly after the start.
    for (let attempt = 0; attempt < 60; attempt += 1) {
      answer = await client.get<Quote>('/trade/appFlashExchangeLog/quote', { from: 'USDT', to: 'BTC', amount: '20' }, token);
      if (errorOf(answer) !== 'price_unavailable') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const quote = expectSuccess(answer!);
    expect(quote.ticks).toHaveLength(1);
    expect(quote.ticks[0]).toMatchObject({ symbol: 'BTCUSDT', id: expect.any(String), source: expect.any(String) });
    // receive = ⌊(amount − fee) / (price × (1 + spreadRate))⌋ at the scale of BTC.
    const amount = atomicOf('20', 6);
    const [feeNumerator, feeDenominator] = fraction(settings.feeRate);
    const fee = (amount * feeNumerator) / feeDenominator;
    const [price, priceDenominator] = fraction(quote.ticks[0].price);
    const [spreadNumerator, spreadDenominator] = fraction(settings.spreadRate);
    const receive = ((amount - fee) * priceDenominator * spreadDenominator * 10n ** BigInt(scaleOf('BTC')))
      / (10n ** 6n * price * (spreadDenominator + spreadNumerator));
    expect(atomicOf(quote.fee, 6)).toBe(fee);
    expect(atomicOf(quote.receive, scaleOf('BTC'))).toBe(receive);
    const record = expectSuccess(await client.post<SwapRecord>('/trade/appFlashExchangeLog/flashExchange', { quoteId: quote.quoteId }, token));
    expect(record.ticks).toEqual(quote.ticks);
    const page = expectSuccess(await client.get<{ records: SwapRecord[]; total: number }>('/trade/appFlashExchangeLog/listMy', {}, token));
    expect(page.total).toBe(2);
    expect(page.records[0].id).toBe(record.id);
    // The records' optional filters (issue 19): the pair in the swap's direction, either side alone, and the time.
    const swaps = async (query: Record<string, string | number>) => expectSuccess(
      await client.get<{ records: SwapRecord[]; total: number }>('/trade/appFlashExchangeLog/listMy', query, token));
    expect((await swaps({ from: 'USDT', to: 'BTC' })).records.map((row) => row.id)).toEqual([record.id]);
    expect((await swaps({ to: 'USDC' })).records.map((row) => row.to)).toEqual(['USDC']);
    expect((await swaps({ from: 'BTC' })).total).toBe(0);
    expect((await swaps({ to: 'BTC', since: record.createTime, until: record.createTime })).total).toBe(1);
    expect((await swaps({ since: record.createTime + 1 })).total).toBe(0);
    expectError(await client.get('/trade/appFlashExchangeLog/listMy', { since: 10, until: 5 }, token), 400, 'invalid_request');
  });

  it('GET /trade/appDemo/account opens 100000 virtual USDT; POST reset restores them', async () => {
    const opened = expectSuccess(await client.get<{ balance: string; inUse: string }>('/trade/appDemo/account', {}, token));
    expect(opened).toEqual({ balance: '100000.000000', inUse: '0.000000', openPositions: 0, openOrders: 0 });
    const reset = expectSuccess(await client.post<{ balance: string }>('/trade/appDemo/reset', {}, token));
    expect(reset.balance).toBe('100000.000000');
  });
});
