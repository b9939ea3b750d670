// The flash swap through the real protocol: a quote made from the last recorded tick (recomputed
// here by swapMath from the tick the answer cites), executed once; expiry by the clock, reuse in
// turn and at once, another user's quote, a balance that does not cover it, and bad input — each
// refusal with a clear message and nothing moved. Every test ends with the ledger check (every
// asset sums to zero, house and fees included).
import { expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { tradePaths, type SwapQuote, type SwapRecord } from '../../../src/api/contract/trading.ts';
import { parseAmount } from '../../../src/api/contract/amounts.ts';
import { swapFigures, swapRate, type SwapMid } from '../../../src/api/contract/swapMath.ts';
import { marketTicks, swapOrders, swapQuotes, swapSettings } from '../../../server/db/schema.ts';
import { ledgerName } from '../../../server/domain/kernel/ledger/accounts.ts';
import { insertTicks, type RecordedTick } from '../../../server/domain/core/market/store.ts';
import { symbolByCode } from '../../../server/domain/core/market/symbols.ts';
import { tickFreshnessMs } from '../../../server/domain/core/market/ticks.ts';
import type { UserEvent } from '../../../src/api/contract/market.ts';
import { expectOk, expectRefused, forEachDatabase, type Account, type TestServer } from '../helpers.ts';
import { expectLedgerSound, fund, moneySnapshot, spotOf } from '../wallet/withdrawHelpers.ts';
import { duringSettlementAt } from './positionHelpers.ts';

const scales: Record<string, number> = { USDT: 6, USDC: 6, BTC: 8, ETH: 18 };
const atomic = (amount: string, currency: string) => {
  const parsed = parseAmount(amount, scales[currency]);
  if (!parsed.ok) throw new Error(`bad amount ${amount}`);
  return parsed.atomic;
};

interface Swapper extends Account { userId: bigint }

async function swapper(server: TestServer, funds: Record<string, string> = {}): Promise<Swapper> {
  const account = await server.registerByEmail();
  const userId = (await server.userByEmail(account.email!)).id;
  for (const [currency, amount] of Object.entries(funds)) await fund(server, userId, amount, currency);
  return { ...account, userId };
}

async function recordTick(server: TestServer, symbol: string, price: string, timeMs = server.clock.now().getTime()): Promise<RecordedTick> {
  const precision = symbolByCode.get(symbol)!.pricePrecision;
  const parsed = parseAmount(price, precision);
  if (!parsed.ok) throw new Error(`bad price ${price}`);
  const [tick] = await insertTicks(server.db, [{ symbol, priceUnits: parsed.atomic, volumeUnits: 1n, timeMs }], 'test');
  return tick;
}

const quote = (server: TestServer, user: Account, from: string, to: string, amount: string) =>
  server.get(tradePaths.swapQuote, { from, to, amount }, { token: user.token });
const swap = (server: TestServer, user: Account, quoteId: string) => server.post(tradePaths.swap, { quoteId }, { token: user.token });

async function quoted(server: TestServer, user: Account, from: string, to: string, amount: string): Promise<SwapQuote> {
  return expectOk(await quote(server, user, from, to, amount)).body.result as SwapQuote;
}

/** Every account's posted balance summed per (ledger, asset, kind): how a swap moved each side. */
async function totalsByKind(server: TestServer) {
  const rows = await server.query<{ ledger: number; asset: string; kind: string; total: string }>(sql`select ledger, asset, kind,
    (sum(credits_posted) - sum(debits_posted))::text as total from ledger_accounts group by ledger, asset, kind`);
  return new Map(rows.map((row) => [`${ledgerName(Number(row.ledger))}:${row.asset}:${row.kind}`, BigInt(row.total)]));
}
const delta = (before: Map<string, bigint>, after: Map<string, bigint>, key: string) => (after.get(key) ?? 0n) - (before.get(key) ?? 0n);

/** The mid of a currency from the tick a quote cites (or par), as the README tells a user to redo it. */
const midFrom = (ticks: SwapQuote['ticks'], currency: string): SwapMid => {
  if (currency === 'USDT' || currency === 'USDC') return { stable: true };
  const tick = ticks.find((candidate) => candidate.symbol === `${currency}USDT`)!;
  const precision = symbolByCode.get(tick.symbol)!.pricePrecision;
  const parsed = parseAmount(tick.price, precision);
  if (!parsed.ok) throw new Error('bad tick price');
  return { stable: false, priceUnits: parsed.atomic, pricePrecision: precision };
};

/** Recomputes a quote's or record's fee and receive from the ticks it cites and the settings. */
function recompute(record: Pick<SwapQuote, 'from' | 'to' | 'amount' | 'ticks'>, feePpm = 1000, spreadPpm = 2000) {
  const rate = swapRate(midFrom(record.ticks, record.from), midFrom(record.ticks, record.to), spreadPpm);
  return swapFigures(atomic(record.amount, record.from), rate, feePpm, scales[record.from], scales[record.to]);
}

const format = (value: bigint, currency: string) => {
  const scale = scales[currency];
  const text = value.toString().padStart(scale + 1, '0');
  return `${text.slice(0, -scale)}.${text.slice(-scale)}`;
};

forEachDatabase((server) => {
  it('lists the swappable currencies with the fee, the spread and how long a quote lasts', async () => {
    const user = await swapper(server);
    const answer = expectOk(await server.get(tradePaths.swapCurrencies, {}, { token: user.token })).body.result;
    expect(answer).toEqual({
      currencies: [{ currency: 'USDT', scale: 6 }, { currency: 'BTC', scale: 8 }, { currency: 'ETH', scale: 18 }, { currency: 'USDC', scale: 6 }],
      feeRate: '0.001', spreadRate: '0.002', quoteTtlSeconds: 10,
    });
    expectRefused(await server.get(tradePaths.swapCurrencies), 401, 'unauthorized');
    expectRefused(await server.get(tradePaths.swapQuote, { from: 'BTC', to: 'USDT', amount: '1' }), 401, 'unauthorized');
  });

  // PGlite runs one transaction at a time: there is nothing to race.
  it.skipIf(server.kind !== 'postgres')('a swap and a settlement at its tick lock in one order: accounts, then the tick', async () => {
    const user = await swapper(server, { BTC: '1' });
    const tick = await recordTick(server, 'BTCUSDT', '67250.00');
    const offer = await quoted(server, user, 'BTC', 'USDT', '0.5');
    // The swap waits for the account a settlement at its tick holds, and then goes through.
    expectOk(await duringSettlementAt(server, user.userId, 'BTC', tick.id, () => swap(server, user, offer.quoteId)));
    await expectLedgerSound(server);
  });

  it('BTC → USDT: the quote is exact from the recorded tick, the swap moves it once, the record cites the tick', async () => {
    const user = await swapper(server, { BTC: '1' });
    const tick = await recordTick(server, 'BTCUSDT', '67250.00');
    const events: UserEvent[] = [];
    const unsubscribe = server.services.userEvents.subscribe((userId, event) => { if (userId === user.userId) events.push(event); });
    const offer = await quoted(server, user, 'BTC', 'USDT', '0.5');
    // By hand: rate 67250 × 0.998 = 67115.5; fee ⌊0.5 × 0.001⌋ = 0.0005 BTC; receive 0.4995 × 67115.5 = 33524.19225.
    expect(offer).toMatchObject({
      from: 'BTC', to: 'USDT', amount: '0.50000000', rate: '67115.5', fee: '0.00050000', receive: '33524.192250',
      expiresAt: server.clock.now().getTime() + 10_000,
      ticks: [{ id: String(tick.id), symbol: 'BTCUSDT', price: '67250.00', time: tick.timeMs, source: 'test' }],
    });
    expect(offer.quoteId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const figures = recompute(offer);
    expect([format(figures.fee, 'BTC'), format(figures.receive, 'USDT')]).toEqual([offer.fee, offer.receive]);

    const before = await totalsByKind(server);
    server.clock.advance(9_999);
    const record = expectOk(await swap(server, user, offer.quoteId)).body.result as SwapRecord;
    unsubscribe();
    expect(record).toMatchObject({ quoteId: offer.quoteId, from: 'BTC', to: 'USDT', amount: offer.amount, fee: offer.fee,
      rate: offer.rate, receive: offer.receive, ticks: offer.ticks, createTime: server.clock.now().getTime() });
    expect(await spotOf(server, user.userId, 'BTC')).toMatchObject({ posted: atomic('0.5', 'BTC') });
    expect(await spotOf(server, user.userId, 'USDT')).toMatchObject({ posted: atomic('33524.19225', 'USDT') });
    const after = await totalsByKind(server);
    // Per asset the user's side, the house and the fees add up to nothing.
    expect(delta(before, after, 'real:BTC:spot')).toBe(-atomic('0.5', 'BTC'));
    expect(delta(before, after, 'real:BTC:fees')).toBe(atomic('0.0005', 'BTC'));
    expect(delta(before, after, 'real:BTC:house')).toBe(atomic('0.4995', 'BTC'));
    expect(delta(before, after, 'real:USDT:spot')).toBe(atomic('33524.19225', 'USDT'));
    expect(delta(before, after, 'real:USDT:house')).toBe(-atomic('33524.19225', 'USDT'));
    const [stored] = await server.db.select({ retained: marketTicks.retained }).from(marketTicks).where(eq(marketTicks.id, tick.id));
    expect(stored.retained).toBe(true);
    expect(events).toEqual([{ kind: 'swap', demo: false, id: record.id }, { kind: 'balance', demo: false }]);

    const list = expectOk(await server.get(tradePaths.swapList, { pageNo: '1', pageSize: '10' }, { token: user.token })).body.result;
    expect(list).toMatchObject({ total: 1, size: 10, current: 1, pages: 1 });
    expect(list.records).toEqual([record]);
    const again = recompute(list.records[0]);
    expect(format(again.receive, 'USDT')).toBe(list.records[0].receive);
    await expectLedgerSound(server);
  });

  it('USDT → ETH, BTC → ETH through USDT, and USDT → USDC at par: exact at each scale', async () => {
    const user = await swapper(server, { USDT: '10000', BTC: '0.3' });
    await recordTick(server, 'BTCUSDT', '60000.00');
    await recordTick(server, 'ETHUSDT', '3000.00');
    const toEth = await quoted(server, user, 'USDT', 'ETH', '3000');
    // fee 3 USDT; rate 1 / (3000 × 1.002) = 1/3006; receive ⌊2997 / 3006 × 10^18⌋ wei.
    expect(toEth.fee).toBe('3.000000');
    expect(toEth.receive).toBe(format((2997n * 10n ** 18n) / 3006n, 'ETH'));
    expect(toEth.rate).toBe('0.00033266799733865602129');
    const cross = await quoted(server, user, 'BTC', 'ETH', '0.25');
    expect(cross.ticks.map((tick) => tick.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
    // fee 0.00025 BTC; rate 60000 × 0.998 / (3000 × 1.002) = 59880 / 3006.
    expect(cross.receive).toBe(format((atomic('0.24975', 'BTC') * 59880n * 10n ** 18n) / (3006n * 10n ** 8n), 'ETH'));
    const par = await quoted(server, user, 'USDT', 'USDC', '1000');
    expect(par).toMatchObject({ rate: '0.998', fee: '1.000000', receive: '997.002000', ticks: [] });
    for (const offer of [toEth, cross, par]) {
      const figures = recompute(offer);
      expect([format(figures.fee, offer.from), format(figures.receive, offer.to)]).toEqual([offer.fee, offer.receive]);
      expectOk(await swap(server, user, offer.quoteId));
    }
    expect(await spotOf(server, user.userId, 'USDT')).toMatchObject({ posted: atomic('6000', 'USDT') });
    expect(await spotOf(server, user.userId, 'USDC')).toMatchObject({ posted: atomic('997.002', 'USDC') });
    expect(await spotOf(server, user.userId, 'ETH')).toMatchObject({ posted: atomic(toEth.receive, 'ETH') + atomic(cross.receive, 'ETH') });
    await expectLedgerSound(server);
  });

  it('an expired quote is refused and moves nothing; the clock decides', async () => {
    const user = await swapper(server, { USDT: '100' });
    await recordTick(server, 'BTCUSDT', '60000.00');
    const offer = await quoted(server, user, 'USDT', 'BTC', '50');
    server.clock.advance(10_000);
    const snapshot = await moneySnapshot(server);
    expectRefused(await swap(server, user, offer.quoteId), 409, 'quote_expired');
    expect(await moneySnapshot(server)).toEqual(snapshot);
    const [row] = await server.db.select().from(swapQuotes).where(eq(swapQuotes.id, offer.quoteId));
    expect(row.usedAt).toBeNull();
    await expectLedgerSound(server);
  });

  it('quotes a user never used are dropped an hour later, when the user asks for another', async () => {
    const user = await swapper(server, { USDT: '100' });
    const old = await quoted(server, user, 'USDT', 'USDC', '10');
    const used = await quoted(server, user, 'USDT', 'USDC', '10');
    expectOk(await swap(server, user, used.quoteId));
    server.clock.advance(3_600_001);
    expectRefused(await swap(server, user, old.quoteId), 409, 'quote_expired');
    await quoted(server, user, 'USDT', 'USDC', '10');
    const ids = (await server.db.select({ id: swapQuotes.id }).from(swapQuotes).where(eq(swapQuotes.userId, user.userId))).map((row) => row.id);
    expect(ids).not.toContain(old.quoteId);
    expect(ids).toContain(used.quoteId);
    expectRefused(await swap(server, user, old.quoteId), 404, 'quote_not_found');
    await expectLedgerSound(server);
  });

  it('a quote executes once: again in turn and twice at once give quote_used, one swap', async () => {
    const user = await swapper(server, { USDT: '1000' });
    await recordTick(server, 'BTCUSDT', '60000.00');
    const first = await quoted(server, user, 'USDT', 'BTC', '100');
    expectOk(await swap(server, user, first.quoteId));
    const snapshot = await moneySnapshot(server);
    expectRefused(await swap(server, user, first.quoteId), 409, 'quote_used');
    expect(await moneySnapshot(server)).toEqual(snapshot);

    const second = await quoted(server, user, 'USDT', 'BTC', '100');
    const answers = await Promise.all(Array.from({ length: 4 }, () => swap(server, user, second.quoteId)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate.status !== 200)) expectRefused(answer, 409, 'quote_used');
    const orders = await server.db.select().from(swapOrders).where(eq(swapOrders.userId, user.userId));
    expect(orders).toHaveLength(2);
    expect(await spotOf(server, user.userId, 'USDT')).toMatchObject({ posted: atomic('800', 'USDT') });
    expect(await spotOf(server, user.userId, 'BTC')).toMatchObject({ posted: 2n * atomic(first.receive, 'BTC') });
    await expectLedgerSound(server);
  });

  it('another user\'s quote is not found, and moves nothing', async () => {
    const owner = await swapper(server, { USDT: '100' });
    const other = await swapper(server, { USDT: '100' });
    await recordTick(server, 'BTCUSDT', '60000.00');
    const offer = await quoted(server, owner, 'USDT', 'BTC', '10');
    const snapshot = await moneySnapshot(server);
    expectRefused(await swap(server, other, offer.quoteId), 404, 'quote_not_found');
    expectRefused(await swap(server, other, 'A'.repeat(32)), 404, 'quote_not_found');
    expect(await moneySnapshot(server)).toEqual(snapshot);
    expectOk(await swap(server, owner, offer.quoteId));
    await expectLedgerSound(server);
  });

  it('a balance that does not cover the quote is refused, the quote stays unused and works once funded', async () => {
    const user = await swapper(server, { BTC: '0.1' });
    await recordTick(server, 'BTCUSDT', '60000.00');
    const offer = await quoted(server, user, 'BTC', 'USDT', '0.5');
    const snapshot = await moneySnapshot(server);
    const refused = await swap(server, user, offer.quoteId);
    expectRefused(refused, 400, 'balance_insufficient');
    expect(refused.body.message).toContain('BTC');
    expect(await moneySnapshot(server)).toEqual(snapshot);
    const [row] = await server.db.select().from(swapQuotes).where(eq(swapQuotes.id, offer.quoteId));
    expect(row.usedAt).toBeNull();
    expect(await server.db.select().from(swapOrders).where(eq(swapOrders.quoteId, offer.quoteId))).toEqual([]);
    await fund(server, user.userId, '0.4', 'BTC');
    expectOk(await swap(server, user, offer.quoteId));
    expect(await spotOf(server, user.userId, 'BTC')).toMatchObject({ posted: 0n });
    await expectLedgerSound(server);
  });

  it('bad input: a clear message, no quote stored and nothing moved', async () => {
    const user = await swapper(server, { USDT: '100' });
    await recordTick(server, 'BTCUSDT', '60000.00');
    const quotesBefore = (await server.db.select().from(swapQuotes)).length;
    const snapshot = await moneySnapshot(server);
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ from: 'USDT', to: 'USDT', amount: '1' }, 400, 'swap_pair_unavailable'],
      [{ from: 'USDT', to: 'DOGE', amount: '1' }, 400, 'swap_pair_unavailable'],
      [{ from: 'XYZ', to: 'USDT', amount: '1' }, 400, 'swap_pair_unavailable'],
      [{ from: 'USDT', to: 'BTC', amount: 'abc' }, 400, 'amount_malformed'],
      [{ from: 'USDT', to: 'BTC', amount: '1.1234567' }, 400, 'amount_too_many_decimals'],
      [{ from: 'USDT', to: 'BTC', amount: '0' }, 400, 'amount_not_positive'],
      [{ from: 'USDT', to: 'BTC', amount: '-1' }, 400, 'amount_negative'],
      [{ from: 'USDT', to: 'BTC', amount: '1e3' }, 400, 'amount_exponent'],
      [{ from: 'USDT', to: 'BTC', amount: '2000000000' }, 400, 'amount_too_large'],
      // 0.000001 USDT buys less than a satoshi.
      [{ from: 'USDT', to: 'BTC', amount: '0.000001' }, 400, 'amount_below_minimum'],
      [{ from: 'usdt', to: 'BTC', amount: '1' }, 400, 'invalid_request'],
    ];
    for (const [query, status, error] of cases) {
      const answer = await server.get(tradePaths.swapQuote, query, { token: user.token });
      expectRefused(answer, status, error);
    }
    expectRefused(await server.get(tradePaths.swapQuote, { from: 'USDT', to: 'BTC' }, { token: user.token }), 400, 'invalid_request');
    expectRefused(await server.post(tradePaths.swap, { quoteId: 'short' }, { token: user.token }), 400, 'invalid_request');
    expect((await server.db.select().from(swapQuotes)).length).toBe(quotesBefore);
    expect(await moneySnapshot(server)).toEqual(snapshot);
  });

  it('no fresh price: a stalled feed or a tick not yet due gives price_unavailable; swaps switched off give swap_unavailable', async () => {
    const user = await swapper(server, { USDT: '100' });
    await recordTick(server, 'BTCUSDT', '60000.00');
    server.clock.advance(tickFreshnessMs + 1);
    expectRefused(await quote(server, user, 'USDT', 'BTC', '10'), 409, 'price_unavailable');
    await recordTick(server, 'BTCUSDT', '60000.00');
    expectOk(await quote(server, user, 'USDT', 'BTC', '10'));
    // A tick stamped after now is not a price yet.
    await recordTick(server, 'BTCUSDT', '60000.00', server.clock.now().getTime() + tickFreshnessMs + 60_000);
    server.clock.advance(tickFreshnessMs + 1);
    expectRefused(await quote(server, user, 'USDT', 'BTC', '10'), 409, 'price_unavailable');

    const handedOut = await quoted(server, user, 'USDT', 'USDC', '10');
    await server.db.update(swapSettings).set({ enabled: false }).where(eq(swapSettings.id, 1));
    try {
      await recordTick(server, 'BTCUSDT', '60000.00');
      expectRefused(await quote(server, user, 'USDT', 'USDC', '10'), 409, 'swap_unavailable');
      // A quote handed out before the switch is not executed either, and stays unused.
      const snapshot = await moneySnapshot(server);
      expectRefused(await swap(server, user, handedOut.quoteId), 409, 'swap_unavailable');
      expect(await moneySnapshot(server)).toEqual(snapshot);
    } finally {
      await server.db.update(swapSettings).set({ enabled: true }).where(eq(swapSettings.id, 1));
    }
    expectOk(await quote(server, user, 'USDT', 'USDC', '10'));
    expectOk(await swap(server, user, handedOut.quoteId));
    await expectLedgerSound(server);
  });

  it('quotes are rate-limited per user', async () => {
    const user = await swapper(server);
    const other = await swapper(server);
    for (let i = 0; i < 120; i += 1) expectOk(await quote(server, user, 'USDT', 'USDC', '1'));
    expectRefused(await quote(server, user, 'USDT', 'USDC', '1'), 429, 'rate_limited');
    expectOk(await quote(server, other, 'USDT', 'USDC', '1'));
  });
});
