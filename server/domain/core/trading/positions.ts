// Contract positions (issue 10): isolated margin, leverage, take-profit, stop-loss, liquidation.
// Opening checks the request against the symbol's settings, the market calendar and the last
// recorded tick, then in ONE transaction inserts the position and moves margin and open fee out of
// the user's funds through the ledger; a refused transfer rolls the position back. Closing (by the
// user, or by the trigger engine through settleOnTick) locks the row, settles at a recorded tick
// with tradingMath.settle, moves margin back, profit or loss against the house and the close fee,
// and writes the receipt: the row lock and the status check make a close racing a trigger settle
// once. Every figure comes from tradingMath.ts; no code path here picks a price.
import { createHash } from 'node:crypto';
import { and, count, desc, eq, inArray, isNull, lte, sql, type Placeholder, type SQL } from 'drizzle-orm';
import {
  marginAsset, type CloseReason, type CreatePositionBody, type Direction, type Position, type PositionListQuery, type PositionsSummary,
  type PositionStatus, type UpdateStopLossBody,
} from '../../../../src/api/contract/trading.ts';
import type { PageOf } from '../../../../src/api/contract/wallet.ts';
import { formatAmount, parseAmount } from '../../../../src/api/contract/amounts.ts';
import * as math from '../../../../src/api/contract/tradingMath.ts';
import { ledgerAccounts, marketTicks, tradePositions, tradeSymbolSettings } from '../../../db/schema.ts';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import type { Clock } from '../../../lib/time.ts';
import { AppError, assert, badRequest, conflict, notFound } from '../../../lib/errors.ts';
import { balanceOf, ledgers, openAccounts, systemShard, type LedgerName } from '../../kernel/ledger/accounts.ts';
import { postTransfers } from '../../kernel/ledger/transfers.ts';
import type { NewTransferRequest } from '../../kernel/ledger/rules.ts';
import { postGroups, type TransferGroup } from '../../kernel/ledger/payouts.ts';
import { isMarketOpen } from '../market/calendar.ts';
import type { RecordedTick } from '../market/store.ts';
import { symbolByCode, type SymbolSpec } from '../market/symbols.ts';
import type { MarketView } from '../market/view.ts';
import { parseUserAmount } from '../wallet/currencies.ts';
import { ledgerOf, tradingAccounts, type TradingAccounts } from './accounts.ts';
import { positionToWire, tickIdsOf, unitsOf, type PositionRow } from './positionWire.ts';
import { checkFeedAllowsRealTrading, contractCapable, quantityPrecisionOf, type SymbolSettingsRow } from './settings.ts';
import { lastTickAt, retainTicks, tickFreshnessMs, ticksByIds } from '../market/ticks.ts';
import { timeRangeConditions } from './historyFilters.ts';
import type { UserEventBus } from '../../kernel/userEvents.ts';
import {
  deliverMessages, writeMessage, writeMessages, type MessageDelivery, type NewMessage, type WrittenMessage,
} from '../../kernel/messages.ts';
import type { CompetitionRules } from '../../kernel/ports.ts';

export interface PositionDeps {
  db: Db; clock: Clock; userEvents: UserEventBus;
  /** Where the internal messages of closes by a level go after commit (the push service); optional. */
  messages?: MessageDelivery;
  /** What a competition order asks of the competitions program (a port, services.ports.competitions). */
  competitions: CompetitionRules;
}

const closeMessageKinds = { take_profit: 'position_take_profit', stop_loss: 'position_stop_loss', liquidation: 'position_liquidated' } as const;

/**
 * The internal message of a real position closed by take-profit, stop-loss or liquidation (issue
 * 21): the user's own close, a competition's end (its result is the competition's) and demo
 * positions get none.
 */
function closeMessageOf(row: PositionRow, reason: CloseReason, closePrice: bigint, pnl: bigint): NewMessage | undefined {
  if (reason === 'user' || reason === 'competition_end' || row.ledger === ledgers.demo) return undefined;
  const spec = symbolByCode.get(row.symbol);
  return {
    userId: row.userId, kind: closeMessageKinds[reason], category: 'trading', route: '/heyue',
    params: {
      id: String(row.id), symbol: row.symbol, direction: row.direction, reason,
      closePrice: spec ? formatAmount(closePrice, spec.pricePrecision) : String(closePrice), pnl: usdt(pnl),
    },
    dedupeKey: `position:${row.id}:closed`,
  };
}

const usdt = (atomic: bigint) => formatAmount(atomic, math.marginScale);
const reference = (id: bigint) => `position:${id}`;
const transferId = (id: bigint, part: string) => `pos:${id}:${part}`;
/** House and fee shards: one user's trades land on one shard of each. */
const shardKeyOf = (userId: bigint) => `user:${userId}`;

const notTradable = (symbol: string) => badRequest('symbol_not_tradable', `Contracts on ${symbol} are not offered.`);
const positionNotFound = () => notFound('position_not_found', 'There is no such position.');

/** The SHA-256 of the fields that define a request: the same clientOrderId must come with the same. */
export function requestHashOf(body: CreatePositionBody): string {
  const fields: unknown[] = [body.symbol, body.direction, body.leverage, body.margin ?? null, body.quantity ?? null,
    body.takeProfit ?? null, body.stopLoss ?? null];
  // Issue 23: only a competition order adds its competition, so earlier hashes stay as they were.
  if (body.competitionId !== undefined) fields.push(body.competitionId);
  const canonical = JSON.stringify(fields);
  return createHash('sha256').update(canonical).digest('hex');
}

/** A price typed by the user, in units of the symbol's precision, more than zero. */
function parseLevel(text: string | undefined, spec: SymbolSpec, field: 'takeProfit' | 'stopLoss'): bigint | null {
  if (text === undefined) return null;
  const parsed = parseAmount(text, spec.pricePrecision);
  if (!parsed.ok || parsed.atomic <= 0n) {
    const name = field === 'takeProfit' ? 'take-profit' : 'stop-loss';
    throw new AppError(400, 'price_invalid', `The ${name} price must be a positive number with at most ${spec.pricePrecision} decimals.`,
      { field, pricePrecision: spec.pricePrecision });
  }
  return parsed.atomic;
}

function checkSides(direction: Direction, currentExit: bigint, takeProfit: bigint | null, stopLoss: bigint | null, spec: SymbolSpec) {
  const sides = math.levelSides(direction, currentExit, takeProfit, stopLoss);
  const price = formatAmount(currentExit, spec.pricePrecision);
  const long = direction === 'long';
  if (!sides.takeProfitOk) {
    throw new AppError(400, 'take_profit_wrong_side',
      `The take-profit of a ${direction} must be ${long ? 'above' : 'below'} the current closing price ${price}.`, { price });
  }
  if (!sides.stopLossOk) {
    throw new AppError(400, 'stop_loss_wrong_side',
      `The stop-loss of a ${direction} must be ${long ? 'below' : 'above'} the current closing price ${price}.`, { price });
  }
}

/** The symbol, its settings and the tick to trade at now: refusals for each thing missing. */
function tradableNow(symbol: string, settings: SymbolSettingsRow | undefined, tick: RecordedTick | undefined,
  nowMs: number): { spec: SymbolSpec; settings: SymbolSettingsRow; tick: RecordedTick } {
  const spec = symbolByCode.get(symbol);
  if (!spec || !settings || !settings.enabled || !contractCapable(spec)) throw notTradable(symbol);
  if (!isMarketOpen(spec.class, nowMs)) throw badRequest('market_closed', `The ${symbol} market is closed now.`);
  if (!tick || nowMs - tick.timeMs >= tickFreshnessMs) {
    throw badRequest('price_unavailable', `There is no current price of ${symbol}; please try again in a moment.`);
  }
  return { spec, settings, tick };
}

/** Everything an open reads before it writes. */
interface OpenContext {
  /** The position this user already opened with this clientOrderId in this ledger, if any. */
  earlierId: bigint | null;
  settings: SymbolSettingsRow | undefined;
  tick: RecordedTick | undefined;
  /**
   * Whether the tick was retained already (committed): retention is never undone, so the open
   * need not update, and lock, the tick's row. Every open at a fresh tick otherwise queued on that
   * one row behind the first open's transaction.
   */
  tickRetained: boolean;
  /** The four accounts of tradingAccounts when all exist (they are never deleted); else opened in the transaction. */
  accounts: TradingAccounts | undefined;
}

const bigintOrNull = (text: SQL) => sql<bigint | null>`(${text})::text`.mapWith((value: string) => BigInt(value));

/**
 * The query of openContextOf, prepared once per database (PostgreSQL planned its five subqueries
 * and the lateral join anew for every open: 0.6 ms of the database's CPU an open, the most of any
 * statement of it). Its values are placeholders: user, ledger, symbol, clientOrderId, the time,
 * the funds account's kind and the user's system shard.
 */
function openContextQuery(db: Db) {
  const accountId = (owner: Placeholder | null, kind: Placeholder | string, accountShard: Placeholder | number) => bigintOrNull(sql`select ${ledgerAccounts.id}
    from ${ledgerAccounts} where ${and(eq(ledgerAccounts.ledger, sql.placeholder('ledger')),
    owner === null ? isNull(ledgerAccounts.ownerUserId) : eq(ledgerAccounts.ownerUserId, owner), eq(ledgerAccounts.asset, marginAsset),
    eq(ledgerAccounts.kind, kind), eq(ledgerAccounts.shard, accountShard))}`);
  const lastTick = db.select({
    id: marketTicks.id, symbol: marketTicks.symbol, price: marketTicks.price, volume: marketTicks.volume, source: marketTicks.source,
    time: marketTicks.time, retained: marketTicks.retained,
  }).from(marketTicks).where(and(eq(marketTicks.symbol, sql.placeholder('symbol')), lte(marketTicks.time, sql.placeholder('now'))))
    .orderBy(desc(marketTicks.time), desc(marketTicks.id)).limit(1).as('last_tick');
  const user = sql.placeholder('userId');
  return db.select({
    settings: tradeSymbolSettings,
    tick: {
      id: lastTick.id, symbol: lastTick.symbol, price: lastTick.price, volume: lastTick.volume, source: lastTick.source, time: lastTick.time,
      retained: lastTick.retained,
    },
    earlierId: bigintOrNull(sql`select ${tradePositions.id} from ${tradePositions} where ${and(eq(tradePositions.userId, user),
      eq(tradePositions.ledger, sql.placeholder('ledger')), eq(tradePositions.clientOrderId, sql.placeholder('clientOrderId')))}`),
    funds: accountId(user, sql.placeholder('fundsKind'), 0),
    held: accountId(user, 'position_margin', 0),
    house: accountId(null, 'house', sql.placeholder('shard')),
    fees: accountId(null, 'fees', sql.placeholder('shard')),
  }).from(tradeSymbolSettings).leftJoinLateral(lastTick, sql`true`).where(eq(tradeSymbolSettings.symbol, sql.placeholder('symbol')))
    .limit(1).prepare('trading_open_context');
}

const openContextQueries = new WeakMap<Db, ReturnType<typeof openContextQuery>>();

/**
 * Reads what an open needs in ONE query (it took six round trips: the clientOrderId look-up, the
 * settings, the last tick, the accounts, and the tick again for the answer): the symbol's settings
 * row with its last tick at `nowMs` joined laterally, the earlier position of the clientOrderId and
 * the ids of the four trading accounts as scalar subqueries. Reading the account ids outside the
 * write transaction is safe: an account row, once opened, never changes its id or goes away.
 */
async function openContextOf(db: Db, userId: bigint, ledger: LedgerName, symbol: string, clientOrderId: string,
  nowMs: number): Promise<OpenContext | undefined> {
  let query = openContextQueries.get(db);
  if (!query) openContextQueries.set(db, query = openContextQuery(db));
  const [row] = await query.execute({
    userId, ledger: ledgers[ledger], symbol, clientOrderId, now: new Date(nowMs), fundsKind: ledger === 'demo' ? 'demo' : 'spot',
    shard: systemShard(shardKeyOf(userId)),
  });
  if (!row) return undefined;
  const { tick, funds, held, house, fees } = row;
  return {
    earlierId: row.earlierId,
    settings: row.settings,
    tick: tick === null ? undefined : {
      id: tick.id, symbol: tick.symbol, priceUnits: tick.price, volumeUnits: tick.volume, source: tick.source, timeMs: tick.time.getTime(),
    },
    tickRetained: tick?.retained === true,
    accounts: funds !== null && held !== null && house !== null && fees !== null ? { funds, held, house, fees } : undefined,
  };
}

async function findByClientOrderId(db: Executor, userId: bigint, ledger: number, clientOrderId: string) {
  const [row] = await db.select().from(tradePositions).where(and(eq(tradePositions.userId, userId),
    eq(tradePositions.ledger, ledger), eq(tradePositions.clientOrderId, clientOrderId))).limit(1);
  return row;
}

async function toWire(db: Executor, rows: PositionRow[]): Promise<Position[]> {
  const ticks = await ticksByIds(db, tickIdsOf(rows));
  return rows.map((row) => positionToWire(row, ticks));
}

/** The first position of a clientOrderId, if the request is the same; a refusal if it is not. */
async function replayOf(db: Executor, row: PositionRow, hash: string): Promise<Position> {
  if (row.requestHash !== hash) {
    throw new AppError(409, 'client_order_id_reused', 'This order id was used for a different order. Please send a new one.',
      { id: String(row.id) });
  }
  return (await toWire(db, [row]))[0];
}

function violatesClientOrderKey(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const { code, constraint } = cause as Error & { code?: string; constraint?: string };
    if (code === '23505') return constraint === undefined || constraint === 'trade_positions_client_order_key';
  }
  return false;
}

/** What a refused ledger batch means to the user. */
function refusalError(refusal: string, needed: bigint): Error {
  if (refusal === 'exceeds_credits') {
    return new AppError(400, 'balance_insufficient', `The balance does not cover ${usdt(needed)} USDT (the margin and the fee).`,
      { needed: usdt(needed) });
  }
  return new Error(`position transfers refused: ${refusal}`);
}

/**
 * The quantity and margin of an order sized by margin (the largest quantity the margin buys at
 * `entry`) or by quantity, within the symbol's bounds of both: refusals name the bound.
 */
function sizeOf(body: CreatePositionBody, spec: SymbolSpec, settings: SymbolSettingsRow, entry: bigint) {
  const units = unitsOf(spec.symbol);
  const quantityPrecision = quantityPrecisionOf(spec);
  const marginBounds = { marginMin: usdt(settings.marginMin), marginMax: usdt(settings.marginMax) };
  const quantityBounds = {
    quantityMin: formatAmount(settings.quantityMin, quantityPrecision), quantityMax: formatAmount(settings.quantityMax, quantityPrecision),
  };
  const marginTooSmall = () => new AppError(400, 'margin_too_small', `The margin must be at least ${marginBounds.marginMin} USDT.`, marginBounds);
  const marginTooLarge = () => new AppError(400, 'margin_too_large', `The margin can be at most ${marginBounds.marginMax} USDT.`, marginBounds);
  let quantity: bigint;
  if (body.margin !== undefined) {
    const asked = parseUserAmount(body.margin, math.marginScale, { field: 'margin' });
    if (asked < settings.marginMin) throw marginTooSmall();
    if (asked > settings.marginMax) throw marginTooLarge();
    quantity = math.quantityForMargin(units, asked, entry, body.leverage);
  } else {
    quantity = parseUserAmount(body.quantity!, quantityPrecision, { field: 'quantity' });
  }
  if (quantity < settings.quantityMin) {
    throw new AppError(400, 'quantity_too_small', `The quantity must be at least ${quantityBounds.quantityMin} ${spec.base}.`, quantityBounds);
  }
  if (quantity > settings.quantityMax) {
    throw new AppError(400, 'quantity_too_large', `The quantity can be at most ${quantityBounds.quantityMax} ${spec.base}.`, quantityBounds);
  }
  const margin = math.marginFor(units, quantity, entry, body.leverage);
  if (margin < settings.marginMin || margin <= 0n) throw marginTooSmall();
  if (margin > settings.marginMax) throw marginTooLarge();
  assert(quantity > 0n && margin > 0n, 'a position has a size');
  return { quantity, margin };
}

export async function createPosition(deps: PositionDeps, userId: bigint, body: CreatePositionBody): Promise<Position> {
  const { db, clock } = deps;
  const ledger = ledgerOf(body.demo);
  const ledgerId = ledgers[ledger];
  const hash = requestHashOf(body);
  const now = clock.now();
  const nowMs = now.getTime();
  const context = await openContextOf(db, userId, ledger, body.symbol, body.clientOrderId, nowMs);
  // A replay comes first: the same order answers the same even once the market has closed. (No
  // settings row, a rare refusal, leaves the look-up to findByClientOrderId.)
  if (context === undefined || context.earlierId !== null) {
    const earlier = await findByClientOrderId(db, userId, ledgerId, body.clientOrderId);
    if (earlier) return replayOf(db, earlier, hash);
  }
  const { spec, settings, tick } = tradableNow(body.symbol, context?.settings, context?.tick, nowMs);
  checkFeedAllowsRealTrading(settings, tick, ledger === 'demo');
  if (!settings.leverages.includes(body.leverage)) {
    throw new AppError(400, 'leverage_not_offered', `Leverage ${body.leverage}× is not offered on ${spec.symbol}.`,
      { leverages: [...settings.leverages].sort((a, b) => a - b) });
  }
  if ((body.margin === undefined) === (body.quantity === undefined)) {
    throw badRequest('size_required', 'Please size the position by either a margin or a quantity.');
  }
  const units = unitsOf(spec.symbol);
  const entry = math.entryPrice(body.direction, tick.priceUnits, settings.spreadUnits);
  const { quantity, margin } = sizeOf(body, spec, settings, entry);
  const takeProfit = parseLevel(body.takeProfit, spec, 'takeProfit');
  const stopLoss = parseLevel(body.stopLoss, spec, 'stopLoss');
  checkSides(body.direction, math.exitPrice(body.direction, tick.priceUnits, settings.spreadUnits), takeProfit, stopLoss, spec);
  const openFee = math.feeOf(math.notional(units, quantity, entry), settings.feePpm);
  const liquidation = math.liquidationPrice(units, body.direction, quantity, entry, margin, settings.maintenancePpm);
  const competitionId = body.competitionId === undefined ? null : BigInt(body.competitionId);
  if (competitionId !== null && ledger === 'demo') {
    throw badRequest('competition_not_joined', 'Competition trades use the competition account, not demo funds.');
  }

  let row: PositionRow;
  try {
    row = await db.transaction(async (tx) => {
      // Issue 23: a competition order checks the entry (locked, so an exit or the end waits) and trades on its account.
      if (competitionId !== null) await deps.competitions.checkTrade(tx, userId, competitionId, spec.symbol, now);
      // Opened in the transaction when missing: a refused open leaves no trace, not even empty accounts.
      const accounts = competitionId !== null
        ? await tradingAccounts(tx, userId, ledger, shardKeyOf(userId), marginAsset, { competition: true })
        : context?.accounts ?? await tradingAccounts(tx, userId, ledger, shardKeyOf(userId));
      const [inserted] = await tx.insert(tradePositions).values({ competitionId,
        userId, ledger: ledgerId, symbol: spec.symbol, direction: body.direction, leverage: body.leverage, quantity, margin,
        openPrice: entry, spreadUnits: settings.spreadUnits, feePpm: settings.feePpm, maintenancePpm: settings.maintenancePpm,
        openFee, takeProfit, stopLoss, liquidationPrice: liquidation, status: 'running', clientOrderId: body.clientOrderId,
        requestHash: hash, entryTickId: tick.id, createdAt: now, updatedAt: now,
      }).returning();
      const batch: NewTransferRequest[] = [{
        id: transferId(inserted.id, 'margin'), kind: 'trade_margin', reference: reference(inserted.id), amountAtomic: margin,
        debitAccountId: accounts.funds, creditAccountId: accounts.held,
      }];
      if (openFee > 0n) {
        batch.push({
          id: transferId(inserted.id, 'open_fee'), kind: 'trade_fee', reference: reference(inserted.id), amountAtomic: openFee,
          debitAccountId: accounts.funds, creditAccountId: accounts.fees,
        });
      }
      const result = await postTransfers(tx, batch, clock);
      if (!result.ok) throw refusalError(result.refusal, margin + openFee);
      // After the ledger, as every settlement does (accounts, then ticks: one lock order, no
      // deadlock with a close at the same tick), and held for the commit only.
      if (!context?.tickRetained) await retainTicks(tx, [tick.id]);
      return inserted;
    });
  } catch (error) {
    if (!violatesClientOrderKey(error)) throw error;
    // The same clientOrderId arrived twice at once: the other request's position is the answer.
    const first = await findByClientOrderId(db, userId, ledgerId, body.clientOrderId);
    if (!first) throw error;
    return replayOf(db, first, hash);
  }
  deps.userEvents.publish(userId, { kind: 'position', demo: ledger === 'demo', id: String(row.id), status: 'running' });
  // The only tick a new position cites is the one in hand: no query for it.
  return positionToWire(row, new Map([[tick.id, tick]]));
}

async function lockPosition(tx: Tx, id: bigint): Promise<PositionRow | undefined> {
  const [row] = await tx.select().from(tradePositions).where(eq(tradePositions.id, id)).for('update').limit(1);
  return row;
}

/** Whether the row is this user's position in this ledger (else it is "not found" to them). */
const ownedBy = (row: PositionRow | undefined, userId: bigint, ledgerId: number): row is PositionRow =>
  row !== undefined && row.userId === userId && row.ledger === ledgerId;

/**
 * What closing `row` at `tick` moves, pure: margin back (held → funds), profit from the house or
 * loss to it, the close fee; and the figures for the receipt. The transfer ids are the position's
 * (pos:<id>:release, :pnl, :close_fee), so a settlement posted twice pays once.
 */
function settlementOf(row: PositionRow, tick: RecordedTick, accounts: TradingAccounts) {
  assert(row.status === 'running', `position ${row.id} is running`);
  assert(tick.symbol === row.symbol, `tick ${tick.id} is of ${row.symbol}`);
  const units = unitsOf(row.symbol);
  const direction = row.direction as Direction;
  const exit = math.exitPrice(direction, tick.priceUnits, row.spreadUnits);
  const figures = math.settle(units, {
    direction, quantity: row.quantity, entryPrice: row.openPrice, margin: row.margin, openFee: row.openFee, feePpm: row.feePpm,
  }, exit);
  const ref = reference(row.id);
  const batch: NewTransferRequest[] = [{
    id: transferId(row.id, 'release'), kind: 'trade_margin', reference: ref, amountAtomic: row.margin,
    debitAccountId: accounts.held, creditAccountId: accounts.funds,
  }];
  if (figures.pnl > 0n) {
    batch.push({ id: transferId(row.id, 'pnl'), kind: 'trade_pnl', reference: ref, amountAtomic: figures.pnl,
      debitAccountId: accounts.house, creditAccountId: accounts.funds });
  } else if (figures.pnl < 0n) {
    batch.push({ id: transferId(row.id, 'pnl'), kind: 'trade_pnl', reference: ref, amountAtomic: -figures.pnl,
      debitAccountId: accounts.funds, creditAccountId: accounts.house });
  }
  if (figures.closeFee > 0n) {
    batch.push({ id: transferId(row.id, 'close_fee'), kind: 'trade_fee', reference: ref, amountAtomic: figures.closeFee,
      debitAccountId: accounts.funds, creditAccountId: accounts.fees });
  }
  assert(figures.payout >= 0n && figures.payout === row.margin + figures.pnl - figures.closeFee, `position ${row.id} pays out what it holds`);
  return { batch, figures, exit };
}

/**
 * Settles a locked running position at `tick` for `reason`, inside the caller's transaction: the
 * ledger batch (margin back, profit from the house or loss to it, close fee), the exit tick
 * retained, the receipt columns written, status closed.
 */
export async function settleLocked(tx: Tx, clock: Clock, row: PositionRow, tick: RecordedTick, reason: CloseReason): Promise<PositionRow> {
  const accounts = await tradingAccounts(tx, row.userId, ledgerOf(row.ledger === ledgers.demo), shardKeyOf(row.userId), marginAsset,
    { competition: row.competitionId !== null });
  const { batch, figures, exit } = settlementOf(row, tick, accounts);
  const result = await postTransfers(tx, batch, clock);
  // The margin just released covers any loss and fee (payout ≥ 0), so a refusal is a bug.
  if (!result.ok) throw new Error(`settlement of position ${row.id} refused: ${result.refusal}`);
  await retainTicks(tx, [tick.id]);
  const now = clock.now();
  const [updated] = await tx.update(tradePositions).set({
    status: 'closed', exitTickId: tick.id, closePrice: exit, closeReason: reason, closeFee: figures.closeFee,
    grossPnl: figures.grossPnl, pnl: figures.pnl, shortfall: figures.shortfall, closedAt: now, updatedAt: now,
    version: sql`${tradePositions.version} + 1`,
  }).where(eq(tradePositions.id, row.id)).returning();
  return updated;
}

/**
 * The trigger engine's call: settles the position at `tick` if it is still running and the exit
 * price of `tick` reaches one of the levels the ROW holds now (the user may have moved or removed
 * them since the engine indexed it). Answers the reason it settled for, or undefined.
 */
export async function settleOnTick(deps: PositionDeps, positionId: bigint, tick: RecordedTick): Promise<CloseReason | undefined> {
  const written: WrittenMessage[] = [];
  const settled = await deps.db.transaction(async (tx) => {
    const row = await lockPosition(tx, positionId);
    if (!row || row.status !== 'running' || row.symbol !== tick.symbol) return undefined;
    if (row.competitionId !== null && !beforeEnd(tick, row, await deps.competitions.endsMs(tx, [row.competitionId]))) return undefined;
    const direction = row.direction as Direction;
    const reason = math.reachedLevel(direction, math.exitPrice(direction, tick.priceUnits, row.spreadUnits), {
      takeProfit: row.takeProfit, stopLoss: row.stopLoss, liquidation: row.liquidationPrice,
    });
    if (!reason) return undefined;
    const closed = await settleLocked(tx, deps.clock, row, tick, reason);
    const message = closeMessageOf(closed, reason, closed.closePrice ?? 0n, closed.pnl ?? 0n);
    const note = message && await writeMessage(tx, message, deps.clock.now());
    if (note) written.push(note);
    return { row: closed, reason };
  });
  if (!settled) return undefined;
  publishPosition(deps, settled.row);
  deliverMessages({ userEvents: deps.userEvents, push: deps.messages }, written);
  return settled.reason;
}

/**
 * Whether `tick` may fire `row`'s levels: always for a position outside competitions; for a
 * competition's, only a tick before the competition's end (issue 38). From the end on, the end
 * closes the position at the end tick and no later price decides anything.
 */
function beforeEnd(tick: RecordedTick, row: PositionRow, competitionEnds: Map<bigint, number>): boolean {
  if (row.competitionId === null) return true;
  const endsMs = competitionEnds.get(row.competitionId);
  assert(endsMs !== undefined, `competition ${row.competitionId} of position ${row.id} exists`);
  return tick.timeMs < endsMs;
}

/** A position the trigger engine fired, with the tick it fired at. */
export interface FiredPosition { positionId: bigint; tick: RecordedTick }

export interface FiredSettlement {
  settled: Array<{ positionId: bigint; reason: CloseReason }>;
  /** Positions whose settlement threw or was refused: the engine re-arms them. */
  failed: Array<{ positionId: bigint; error: unknown }>;
}

/** Positions per transaction: a ledger batch of up to three transfers each (transferBatchSizeMax 1000). */
export const firedBatchSizeMax = 200;

/**
 * The trigger engine's call for a burst (issue 20): settles the fired positions a batch at a time,
 * each batch ONE transaction through the payout primitive (ledger/payouts.ts postGroups), where
 * settleOnTick took one transaction per position. The rules are settleOnTick's: each row is locked
 * (in id order) and decided again from what it holds now; one that is closed, or whose levels the
 * tick no longer reaches, is left alone. A position the ledger refuses fails alone (its group is
 * set aside, the rest of the batch settles); a batch that throws fails its positions only.
 */
export async function settleFired(deps: PositionDeps, fired: readonly FiredPosition[]): Promise<FiredSettlement> {
  const outcome: FiredSettlement = { settled: [], failed: [] };
  for (let start = 0; start < fired.length; start += firedBatchSizeMax) {
    const chunk = fired.slice(start, start + firedBatchSizeMax);
    try {
      const written: WrittenMessage[] = [];
      const closed = await deps.db.transaction((tx) => settleFiredChunk(tx, deps, chunk, outcome.failed, written));
      for (const { row, reason } of closed) {
        outcome.settled.push({ positionId: row.id, reason });
        publishPosition(deps, row);
      }
      deliverMessages({ userEvents: deps.userEvents, push: deps.messages }, written);
    } catch (error) {
      for (const each of chunk) outcome.failed.push({ positionId: each.positionId, error });
    }
  }
  return outcome;
}

async function settleFiredChunk(tx: Tx, { clock, competitions }: PositionDeps, chunk: readonly FiredPosition[],
  failed: FiredSettlement['failed'], written: WrittenMessage[]): Promise<Array<{ row: PositionRow; reason: CloseReason }>> {
  const ids = [...new Set(chunk.map((each) => each.positionId))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rows = new Map((await tx.select().from(tradePositions).where(inArray(tradePositions.id, ids))
    .orderBy(tradePositions.id).for('update')).map((row) => [row.id, row]));
  const decided: Array<{ row: PositionRow; tick: RecordedTick; reason: CloseReason }> = [];
  const competitionEnds = await competitions.endsMs(tx, [...rows.values()].flatMap((row) => row.competitionId ?? []));
  for (const { positionId, tick } of chunk) {
    const row = rows.get(positionId);
    if (!row || row.status !== 'running' || row.symbol !== tick.symbol || !beforeEnd(tick, row, competitionEnds)) continue;
    const direction = row.direction as Direction;
    const reason = math.reachedLevel(direction, math.exitPrice(direction, tick.priceUnits, row.spreadUnits), {
      takeProfit: row.takeProfit, stopLoss: row.stopLoss, liquidation: row.liquidationPrice,
    });
    if (reason) decided.push({ row, tick, reason });
  }
  if (decided.length === 0) return [];
  const accounts = await tradingAccountsOf(tx, decided.map(({ row }) => row));
  const groups: TransferGroup<(typeof decided)[number] & { figures: ReturnType<typeof settlementOf>['figures']; exit: bigint }>[] =
    decided.map((each) => {
      const { batch, figures, exit } = settlementOf(each.row, each.tick,
        accounts.get(`${each.row.ledger}:${each.row.userId}:${each.row.competitionId === null ? 's' : 'c'}`)!);
      return { target: { ...each, figures, exit }, transfers: batch };
    });
  const posted = await postGroups(tx, groups, clock);
  // The margin released covers any loss and fee (payout ≥ 0), so a refusal is a bug: that position fails alone.
  for (const refused of posted.refused) {
    failed.push({ positionId: refused.target.row.id, error: new Error(`settlement of position ${refused.target.row.id} refused: ${refused.refusal}`) });
  }
  if (posted.posted.length === 0) return [];
  await retainTicks(tx, posted.posted.map(({ tick }) => tick.id));
  const now = clock.now();
  const list = <T>(values: T[]) => `{${values.map((value) => (value === null ? 'NULL' : String(value))).join(',')}}`;
  const targets = posted.posted;
  const updated = await tx.execute(sql`update trade_positions p set status = 'closed', exit_tick_id = v.exit_tick_id,
      close_price = v.close_price, close_reason = v.close_reason, close_fee = v.close_fee, gross_pnl = v.gross_pnl, pnl = v.pnl,
      shortfall = v.shortfall, closed_at = ${now.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz,
      version = p.version + 1
    from unnest(${list(targets.map((t) => t.row.id))}::bigint[], ${list(targets.map((t) => t.tick.id))}::bigint[],
      ${list(targets.map((t) => t.exit))}::bigint[], ${list(targets.map((t) => t.reason))}::varchar[],
      ${list(targets.map((t) => t.figures.closeFee))}::numeric[], ${list(targets.map((t) => t.figures.grossPnl))}::numeric[],
      ${list(targets.map((t) => t.figures.pnl))}::numeric[], ${list(targets.map((t) => t.figures.shortfall))}::numeric[])
      as v(id, exit_tick_id, close_price, close_reason, close_fee, gross_pnl, pnl, shortfall)
    where p.id = v.id and p.status = 'running'
    returning p.id::text as id`);
  assert((updated as unknown as { rows: unknown[] }).rows.length === targets.length, 'every settled position was closed');
  // Their internal messages (issue 21): one statement for the whole batch.
  const messages = targets.flatMap((t) => closeMessageOf(t.row, t.reason, t.exit, t.figures.pnl) ?? []);
  written.push(...await writeMessages(tx, messages, now));
  return targets.map(({ row, reason }) => ({ row: { ...row, status: 'closed' }, reason }));
}

/** tradingAccounts of many positions' owners, 50 owners (200 account keys) per look-up; keyed `${ledger}:${userId}`. */
async function tradingAccountsOf(tx: Tx, rows: readonly PositionRow[]): Promise<Map<string, TradingAccounts>> {
  const keyOf = (row: PositionRow) => `${row.ledger}:${row.userId}:${row.competitionId === null ? 's' : 'c'}`;
  const owners = [...new Map(rows.map((row) => [keyOf(row), row])).values()];
  const byOwner = new Map<string, TradingAccounts>();
  for (let start = 0; start < owners.length; start += 50) {
    const page = owners.slice(start, start + 50);
    const keys = page.flatMap((row) => {
      const ledger = ledgerOf(row.ledger === ledgers.demo);
      const shard = systemShard(shardKeyOf(row.userId));
      return [
        {
          ledger, asset: marginAsset, ownerUserId: row.userId,
          kind: row.competitionId !== null && ledger === 'real' ? 'competition' as const : ledger === 'demo' ? 'demo' as const : 'spot' as const,
        },
        { ledger, asset: marginAsset, kind: 'position_margin' as const, ownerUserId: row.userId },
        { ledger, asset: marginAsset, kind: 'house' as const, shard },
        { ledger, asset: marginAsset, kind: 'fees' as const, shard },
      ];
    });
    const ids = await openAccounts(tx, keys);
    page.forEach((row, index) => byOwner.set(keyOf(row), {
      funds: ids[4 * index], held: ids[4 * index + 1], house: ids[4 * index + 2], fees: ids[4 * index + 3],
    }));
  }
  return byOwner;
}

function publishPosition(deps: PositionDeps, row: PositionRow) {
  deps.userEvents.publish(row.userId, {
    kind: 'position', demo: row.ledger === ledgers.demo, id: String(row.id), status: row.status as PositionStatus,
  });
}

/** The user's close: at the last recorded tick, fresh, with the market open. */
export async function closePosition(deps: PositionDeps, userId: bigint, id: bigint, demo: boolean | undefined): Promise<Position> {
  const { db, clock } = deps;
  const ledgerId = ledgers[ledgerOf(demo)];
  const [found] = await db.select().from(tradePositions).where(eq(tradePositions.id, id)).limit(1);
  if (!ownedBy(found, userId, ledgerId)) throw positionNotFound();
  if (found.status !== 'running') throw conflict('position_closed', 'This position is closed already.');
  const nowMs = clock.now().getTime();
  // Issue 38: a competition's positions are the end's to close once it has ended.
  await deps.competitions.checkPositionLive(db, found.competitionId, nowMs);
  const spec = symbolByCode.get(found.symbol)!;
  if (!isMarketOpen(spec.class, nowMs)) throw badRequest('market_closed', `The ${found.symbol} market is closed now.`);
  const tick = await lastTickAt(db, found.symbol, nowMs);
  if (!tick || nowMs - tick.timeMs >= tickFreshnessMs) {
    throw badRequest('price_unavailable', `There is no current price of ${found.symbol}; please try again in a moment.`);
  }
  const row = await db.transaction(async (tx) => {
    const locked = await lockPosition(tx, id);
    assert(locked, `position ${id} exists`);
    if (locked.status !== 'running') throw conflict('position_closed', 'This position is closed already.');
    return settleLocked(tx, clock, locked, tick, 'user');
  });
  publishPosition(deps, row);
  return (await toWire(db, [row]))[0];
}

/** Sets take-profit and stop-loss (an omitted one is removed), checked against the current exit price. */
export async function updateLevels(deps: PositionDeps, userId: bigint, body: UpdateStopLossBody): Promise<Position> {
  const { db, clock } = deps;
  const ledgerId = ledgers[ledgerOf(body.demo)];
  const id = BigInt(body.id);
  const nowMs = clock.now().getTime();
  const row = await db.transaction(async (tx) => {
    const locked = await lockPosition(tx, id);
    if (!ownedBy(locked, userId, ledgerId)) throw positionNotFound();
    if (locked.status !== 'running') throw conflict('position_closed', 'This position is closed already.');
    await deps.competitions.checkPositionLive(tx, locked.competitionId, nowMs);
    const spec = symbolByCode.get(locked.symbol)!;
    const takeProfit = parseLevel(body.takeProfit, spec, 'takeProfit');
    const stopLoss = parseLevel(body.stopLoss, spec, 'stopLoss');
    const tick = await lastTickAt(tx, locked.symbol, nowMs);
    if (!tick) throw badRequest('price_unavailable', `There is no current price of ${locked.symbol}; please try again in a moment.`);
    const direction = locked.direction as Direction;
    checkSides(direction, math.exitPrice(direction, tick.priceUnits, locked.spreadUnits), takeProfit, stopLoss, spec);
    const [updated] = await tx.update(tradePositions).set({
      takeProfit, stopLoss, version: sql`${tradePositions.version} + 1`, updatedAt: clock.now(),
    }).where(eq(tradePositions.id, id)).returning();
    return updated;
  });
  publishPosition(deps, row);
  return (await toWire(db, [row]))[0];
}

/** The history filters (issue 19): symbol, result by the balance change (pnl − both fees), time closed else opened. */
function positionFilterConditions(query: PositionListQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.symbol !== undefined) conditions.push(eq(tradePositions.symbol, query.symbol));
  if (query.result !== undefined) {
    const change = sql`(${tradePositions.pnl} - ${tradePositions.openFee} - coalesce(${tradePositions.closeFee}, 0))`;
    conditions.push(eq(tradePositions.status, 'closed'));
    conditions.push(query.result === 'won' ? sql`${change} > 0` : query.result === 'lost' ? sql`${change} < 0` : sql`${change} = 0`);
  }
  conditions.push(...timeRangeConditions(sql`coalesce(${tradePositions.closedAt}, ${tradePositions.createdAt})`, query));
  return conditions;
}

export async function listMyPositions(db: Executor, userId: bigint, query: PositionListQuery): Promise<PageOf<Position>> {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 10;
  const conditions: SQL[] = [eq(tradePositions.userId, userId), eq(tradePositions.ledger, ledgers[ledgerOf(query.demo)])];
  if (query.status !== undefined) conditions.push(eq(tradePositions.status, query.status));
  conditions.push(...positionFilterConditions(query));
  const [{ total }] = await db.select({ total: count() }).from(tradePositions).where(and(...conditions));
  const rows = await db.select().from(tradePositions).where(and(...conditions)).orderBy(desc(tradePositions.id))
    .limit(pageSize).offset((pageNo - 1) * pageSize);
  return { records: await toWire(db, rows), total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
}

export async function positionById(db: Executor, userId: bigint, id: bigint, demo: boolean | undefined): Promise<Position> {
  const [row] = await db.select().from(tradePositions).where(eq(tradePositions.id, id)).limit(1);
  if (!ownedBy(row, userId, ledgers[ledgerOf(demo)])) throw positionNotFound();
  return (await toWire(db, [row]))[0];
}

/** The last price of a symbol: the market view's, else the last recorded tick's. */
async function lastPriceOf(db: Executor, market: MarketView, symbol: string, nowMs: number): Promise<bigint | undefined> {
  const spec = symbolByCode.get(symbol)!;
  const last = market.lastPrice(symbol);
  if (last) {
    const parsed = parseAmount(last.price, spec.pricePrecision);
    if (parsed.ok) return parsed.atomic;
  }
  return (await lastTickAt(db, symbol, nowMs))?.priceUnits;
}

export async function positionsSummary(db: Executor, market: MarketView, userId: bigint, demo: boolean | undefined,
  nowMs: number): Promise<PositionsSummary> {
  const ledger = ledgerOf(demo);
  // A read: an account the user has never used holds nothing, and is not opened here.
  const [fundsRow] = await db.select().from(ledgerAccounts).where(and(eq(ledgerAccounts.ownerUserId, userId),
    eq(ledgerAccounts.ledger, ledgers[ledger]), eq(ledgerAccounts.asset, marginAsset),
    eq(ledgerAccounts.kind, ledger === 'demo' ? 'demo' : 'spot'))).limit(1);
  const funds = fundsRow ? balanceOf(fundsRow) : undefined;
  // Competition positions (issue 23) trade on the competition account, not these funds: left out.
  const running = await db.select().from(tradePositions).where(and(eq(tradePositions.userId, userId),
    eq(tradePositions.ledger, ledgers[ledger]), eq(tradePositions.status, 'running'), isNull(tradePositions.competitionId)));
  const prices = new Map<string, bigint | undefined>();
  let margin = 0n;
  let unrealised = 0n;
  for (const row of running) {
    margin += row.margin;
    if (!prices.has(row.symbol)) prices.set(row.symbol, await lastPriceOf(db, market, row.symbol, nowMs));
    const price = prices.get(row.symbol);
    if (price === undefined) continue;
    const direction = row.direction as Direction;
    unrealised += math.settle(unitsOf(row.symbol), {
      direction, quantity: row.quantity, entryPrice: row.openPrice, margin: row.margin, openFee: row.openFee, feePpm: row.feePpm,
    }, math.exitPrice(direction, price, row.spreadUnits)).pnl;
  }
  return {
    demo: ledger === 'demo', available: usdt(funds?.availableAtomic ?? 0n), margin: usdt(margin), unrealisedPnl: usdt(unrealised),
    equity: usdt(margin + unrealised), openPositions: running.length,
  };
}
