// The flash swap (issue 10, spec §2 shandui): a quote at a rate made from the feed's last recorded
// ticks (src/api/contract/swapMath.ts has the formulas), valid for the configured few seconds,
// executed once. A quote is stored with the ticks it used; executing it marks it used with a
// conditional update (used_at is null) in the same transaction as the order row and the ledger
// batch, so two executions of one quote move money once, and a refused batch (balance) leaves the
// quote unused. Swaps move real money only: the demo ledger has no swap.
//
// Ledger batch of a swap (ids swap:<quoteId>:fee|in|out, reference swap:<quoteId>):
//   spot(from)  → fees(from)   fee               (swap_fee, left out when 0)
//   spot(from)  → house(from)  amount − fee      (swap)
//   house(to)   → spot(to)     receive           (swap)
import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, isNull, lt, type SQL } from 'drizzle-orm';
import type { SwapCurrencies, SwapListQuery, SwapQuote, SwapQuoteQuery, SwapRecord } from '../../../../src/api/contract/trading.ts';
import { formatAmount } from '../../../../src/api/contract/amounts.ts';
import {
  formatSwapRate, isSwapStablecoin, swapFigures, swapRate, swapSymbolOf, type SwapMid,
} from '../../../../src/api/contract/swapMath.ts';
import type { PageOf } from '../../../../src/api/contract/wallet.ts';
import { ledgerAssets, swapOrders, swapQuotes } from '../../../db/schema.ts';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError, assert } from '../../../lib/errors.ts';
import type { Clock } from '../../../lib/time.ts';
import { openAccounts, systemShard } from '../../kernel/ledger/accounts.ts';
import { postTransfers } from '../../kernel/ledger/transfers.ts';
import type { TransferRequest } from '../../kernel/ledger/rules.ts';
import type { RecordedTick } from '../market/store.ts';
import { symbolByCode } from '../market/symbols.ts';
import { loadCurrencies, parseUserAmount } from '../wallet/currencies.ts';
import { checkFeedAllowsRealTrading, loadSwapSettings, swapSettingsToWire, symbolSettingsOf } from './settings.ts';
import { timeRangeConditions } from './historyFilters.ts';
import { lastTickAt, retainTicks, tickFreshnessMs, tickRef, ticksByIds } from '../market/ticks.ts';

export type SwapOrderRow = typeof swapOrders.$inferSelect;
export type SwapQuoteRow = typeof swapQuotes.$inferSelect;

/** Quotes one user may ask for per minute: the app refreshes one every few seconds at most. */
export const swapQuotesPerUserPerMinute = 120;

/** How long a quote that was never used is kept (then a late use is told quote_not_found). */
export const unusedQuoteKeepMs = 3_600_000;

interface SwapAsset { code: string; scale: number; transferAmountMax: bigint }

/** Enabled wallet currencies that are a USD stablecoin or have a feed symbol <CODE>USDT. */
async function swappableAssets(db: Executor): Promise<SwapAsset[]> {
  const currencies = (await loadCurrencies(db)).filter((currency) => currency.enabled
    && (isSwapStablecoin(currency.code) || symbolByCode.has(swapSymbolOf(currency.code))));
  if (currencies.length === 0) return [];
  const limits = new Map((await db.select().from(ledgerAssets)).map((asset) => [asset.code, asset.transferAmountMax]));
  return currencies.map((currency) => ({ code: currency.code, scale: currency.scale, transferAmountMax: limits.get(currency.code) ?? 0n }));
}

export async function swapCurrencies(db: Executor): Promise<SwapCurrencies> {
  const settings = await loadSwapSettings(db);
  const assets = await swappableAssets(db);
  return swapSettingsToWire(settings, assets.map((asset) => ({ currency: asset.code, scale: asset.scale })));
}

const swapUnavailable = () => new AppError(409, 'swap_unavailable', 'Swaps are not available at the moment.');
const pairUnavailable = (from: string, to: string) =>
  new AppError(400, 'swap_pair_unavailable', `${from} cannot be swapped for ${to}.`, { from, to });

/** A currency's mid price from its symbol's last recorded tick, fresh; or par for a stablecoin. */
async function midOf(db: Executor, code: string, nowMs: number): Promise<{ mid: SwapMid; tick?: RecordedTick }> {
  if (isSwapStablecoin(code)) return { mid: { stable: true } };
  const symbol = swapSymbolOf(code);
  const spec = symbolByCode.get(symbol);
  assert(spec, `${symbol} is a feed symbol`);
  const tick = await lastTickAt(db, symbol, nowMs);
  if (!tick || nowMs - tick.timeMs > tickFreshnessMs || tick.priceUnits <= 0n) {
    throw new AppError(409, 'price_unavailable', `There is no current price of ${code}. Please try again in a moment.`, { symbol });
  }
  checkFeedAllowsRealTrading(await symbolSettingsOf(db, symbol), tick, false);
  return { mid: { stable: false, priceUnits: tick.priceUnits, pricePrecision: spec.pricePrecision }, tick };
}

/** A url-safe random id of 32 characters. */
const newQuoteId = () => randomBytes(24).toString('base64url');

/** Quotes `amount` of `from` in `to` and stores the quote (valid for the configured time). */
export async function quoteSwap(db: Db, clock: Clock, userId: bigint, query: SwapQuoteQuery): Promise<SwapQuote> {
  const settings = await loadSwapSettings(db);
  if (!settings.enabled) throw swapUnavailable();
  if (query.from === query.to) {
    throw new AppError(400, 'swap_pair_unavailable', 'Please choose two different currencies.', { from: query.from, to: query.to });
  }
  const assets = new Map((await swappableAssets(db)).map((asset) => [asset.code, asset]));
  const from = assets.get(query.from);
  const to = assets.get(query.to);
  if (!from || !to) throw pairUnavailable(query.from, query.to);
  const amount = parseUserAmount(query.amount, from.scale, { field: 'amount' });
  if (amount > from.transferAmountMax) {
    throw new AppError(400, 'amount_too_large', `The amount is above the largest swap of ${formatAmount(from.transferAmountMax, from.scale)} ${from.code}.`);
  }
  const now = clock.now();
  const nowMs = now.getTime();
  const fromMid = await midOf(db, from.code, nowMs);
  const toMid = await midOf(db, to.code, nowMs);
  const rate = swapRate(fromMid.mid, toMid.mid, settings.spreadPpm);
  const { fee, receive } = swapFigures(amount, rate, settings.feePpm, from.scale, to.scale);
  if (receive <= 0n) {
    throw new AppError(400, 'amount_below_minimum', `The amount is too small: it would receive no ${to.code}.`);
  }
  if (receive > to.transferAmountMax) {
    throw new AppError(400, 'amount_too_large', `The amount is too large: it would receive more than ${formatAmount(to.transferAmountMax, to.scale)} ${to.code}.`);
  }
  const ticks = [fromMid.tick, toMid.tick].filter((tick): tick is RecordedTick => tick !== undefined);
  const row: SwapQuoteRow = {
    id: newQuoteId(), userId, fromAsset: from.code, toAsset: to.code, amount, fee, receive, rate: formatSwapRate(rate),
    tickIds: ticks.map((tick) => String(tick.id)), createdAt: now, expiresAt: new Date(nowMs + settings.quoteTtlMs), usedAt: null,
  };
  await db.insert(swapQuotes).values(row);
  // The user's quotes that expired unused long ago go: the table holds what may still be asked about.
  await db.delete(swapQuotes).where(and(eq(swapQuotes.userId, userId), isNull(swapQuotes.usedAt),
    lt(swapQuotes.createdAt, new Date(nowMs - unusedQuoteKeepMs))));
  return {
    quoteId: row.id, from: from.code, to: to.code, amount: formatAmount(amount, from.scale), rate: row.rate,
    fee: formatAmount(fee, from.scale), receive: formatAmount(receive, to.scale), expiresAt: row.expiresAt.getTime(),
    ticks: ticks.map(tickRef),
  };
}

async function scalesOf(db: Executor, codes: string[]): Promise<Map<string, number>> {
  const rows = await db.select({ code: ledgerAssets.code, scale: ledgerAssets.scale }).from(ledgerAssets);
  const wanted = new Set(codes);
  return new Map(rows.filter((row) => wanted.has(row.code)).map((row) => [row.code, row.scale]));
}

/** A swap order as the wire shows it, with its ticks (as recorded; missing ones are left out). */
export function swapToWire(row: SwapOrderRow, scales: ReadonlyMap<string, number>, ticks: ReadonlyMap<bigint, RecordedTick>): SwapRecord {
  const fromScale = scales.get(row.fromAsset);
  const toScale = scales.get(row.toAsset);
  assert(fromScale !== undefined && toScale !== undefined, `scales of swap ${row.id} are known`);
  return {
    id: String(row.id), quoteId: row.quoteId, from: row.fromAsset, to: row.toAsset,
    amount: formatAmount(row.amount, fromScale), fee: formatAmount(row.fee, fromScale), rate: row.rate,
    receive: formatAmount(row.receive, toScale),
    ticks: row.tickIds.map((id) => ticks.get(BigInt(id))).filter((tick): tick is RecordedTick => tick !== undefined).map(tickRef),
    createTime: row.createdAt.getTime(),
  };
}

/** Swap orders as the wire shows them (scales and ticks loaded for all of them at once). */
export async function swapRecordsOf(db: Executor, rows: SwapOrderRow[]): Promise<SwapRecord[]> {
  if (rows.length === 0) return [];
  const scales = await scalesOf(db, rows.flatMap((row) => [row.fromAsset, row.toAsset]));
  const ticks = await ticksByIds(db, rows.flatMap((row) => row.tickIds.map((id) => BigInt(id))));
  return rows.map((row) => swapToWire(row, scales, ticks));
}

/** The batch of a swap (see the header). */
async function swapBatch(tx: Executor, quote: SwapQuoteRow): Promise<TransferRequest[]> {
  const shard = systemShard(`swap:${quote.id}`);
  const [fromSpot, fromFees, fromHouse, toSpot, toHouse] = await openAccounts(tx, [
    { ledger: 'real', asset: quote.fromAsset, kind: 'spot', ownerUserId: quote.userId },
    { ledger: 'real', asset: quote.fromAsset, kind: 'fees', shard },
    { ledger: 'real', asset: quote.fromAsset, kind: 'house', shard },
    { ledger: 'real', asset: quote.toAsset, kind: 'spot', ownerUserId: quote.userId },
    { ledger: 'real', asset: quote.toAsset, kind: 'house', shard },
  ]);
  const reference = `swap:${quote.id}`;
  const batch: TransferRequest[] = [];
  if (quote.fee > 0n) {
    batch.push({ id: `${reference}:fee`, kind: 'swap_fee', reference, amountAtomic: quote.fee, debitAccountId: fromSpot, creditAccountId: fromFees });
  }
  batch.push(
    { id: `${reference}:in`, kind: 'swap', reference, amountAtomic: quote.amount - quote.fee, debitAccountId: fromSpot, creditAccountId: fromHouse },
    { id: `${reference}:out`, kind: 'swap', reference, amountAtomic: quote.receive, debitAccountId: toHouse, creditAccountId: toSpot },
  );
  return batch;
}

const quoteNotFound = () => new AppError(404, 'quote_not_found', 'This quote was not found. Please ask for a new one.');
const quoteUsed = () => new AppError(409, 'quote_used', 'This quote has already been used: the swap was made once.');

/** Executes the user's own quote once, before it expires; answers the swap record. */
export async function executeSwap(db: Db, clock: Clock, userId: bigint, quoteId: string): Promise<SwapRecord> {
  const [quote] = await db.select().from(swapQuotes).where(and(eq(swapQuotes.id, quoteId), eq(swapQuotes.userId, userId))).limit(1);
  if (!quote) throw quoteNotFound();
  if (quote.usedAt !== null) throw quoteUsed();
  // An operator who switches swaps off stops the quotes already handed out as well.
  if (!(await loadSwapSettings(db)).enabled) throw swapUnavailable();
  // So does one who closes real trading on a symbol's simulated prices (issue 18).
  for (const tick of (await ticksByIds(db, quote.tickIds.map((id) => BigInt(id)))).values()) {
    checkFeedAllowsRealTrading(await symbolSettingsOf(db, tick.symbol), tick, false);
  }
  const now = clock.now();
  if (now.getTime() >= quote.expiresAt.getTime()) {
    throw new AppError(409, 'quote_expired', 'The quote has expired. Please ask for a new one.', { expiresAt: quote.expiresAt.getTime() });
  }
  const order = await db.transaction(async (tx) => {
    const marked = await tx.update(swapQuotes).set({ usedAt: now })
      .where(and(eq(swapQuotes.id, quote.id), eq(swapQuotes.userId, userId), isNull(swapQuotes.usedAt)))
      .returning({ id: swapQuotes.id });
    if (marked.length === 0) throw quoteUsed();
    const [inserted] = await tx.insert(swapOrders).values({
      quoteId: quote.id, userId, fromAsset: quote.fromAsset, toAsset: quote.toAsset, amount: quote.amount, fee: quote.fee,
      receive: quote.receive, rate: quote.rate, tickIds: quote.tickIds, createdAt: now,
    }).returning();
    const result = await postTransfers(tx, await swapBatch(tx, quote), clock);
    if (!result.ok) {
      if (result.refusal === 'exceeds_credits') {
        const scale = (await scalesOf(tx, [quote.fromAsset])).get(quote.fromAsset) ?? 0;
        throw new AppError(400, 'balance_insufficient',
          `The ${quote.fromAsset} balance does not cover ${formatAmount(quote.amount, scale)} ${quote.fromAsset}.`);
      }
      throw new Error(`swap ${quote.id} refused by the ledger: ${result.refusal}`);
    }
    // After the ledger, as the settlements do: accounts, then ticks, one lock order everywhere.
    await retainTicks(tx, quote.tickIds.map((id) => BigInt(id)));
    return inserted;
  });
  return (await swapRecordsOf(db, [order]))[0];
}

/** The user's swaps, newest first. */
export async function listMySwaps(db: Executor, userId: bigint, query: SwapListQuery): Promise<PageOf<SwapRecord>> {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 10;
  // The history filters (issue 19): the pair in the swap's direction, and the time of the swap.
  const conditions: SQL[] = [eq(swapOrders.userId, userId), ...timeRangeConditions(swapOrders.createdAt, query)];
  if (query.from !== undefined) conditions.push(eq(swapOrders.fromAsset, query.from));
  if (query.to !== undefined) conditions.push(eq(swapOrders.toAsset, query.to));
  const where = and(...conditions);
  const [{ total }] = await db.select({ total: count() }).from(swapOrders).where(where);
  const rows = await db.select().from(swapOrders).where(where).orderBy(desc(swapOrders.id))
    .limit(pageSize).offset((pageNo - 1) * pageSize);
  return { records: await swapRecordsOf(db, rows), total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
}
