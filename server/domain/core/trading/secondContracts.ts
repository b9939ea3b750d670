// Second (timed) contracts (issue 10): the user bets that a symbol's price is higher (up) or lower
// (down) a chosen number of seconds after the order is accepted. Buying records the order and
// holds the stake (spot or demo funds → held) in one transaction; the settlement engine
// (secondSettlement.ts) later reads the entry and exit ticks from the recorded feed and pays out.
// Entry: the first recorded tick at or after acceptance; exit: the first at or after expiry. A
// retry with the same clientOrderId answers the first order (the same fields) or is refused (other
// fields); two at once make one order (the unique key of user, ledger and clientOrderId).
import { createHash } from 'node:crypto';
import { and, count, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import {
  marginAsset, type SecondBuyBody, type SecondContractSet, type SecondHead, type SecondListQuery, type SecondOrder, type SecondStatus,
} from '../../../../src/api/contract/trading.ts';
import { formatAmount } from '../../../../src/api/contract/amounts.ts';
import { formatRate, marginScale } from '../../../../src/api/contract/tradingMath.ts';
import { ledgerAccounts, secondContractOrders } from '../../../db/schema.ts';
import type { Db, Executor } from '../../../db/client.ts';
import type { Clock } from '../../../lib/time.ts';
import { AppError, badRequest, conflict } from '../../../lib/errors.ts';
import { balanceOf, ledgers } from '../../kernel/ledger/accounts.ts';
import { postTransfers } from '../../kernel/ledger/transfers.ts';
import { isMarketOpen, reopensAtMs } from '../market/calendar.ts';
import { symbolByCode } from '../market/symbols.ts';
import { parseUserAmount } from '../wallet/currencies.ts';
import { ledgerOf, tradingAccounts } from './accounts.ts';
import { checkFeedAllowsRealTrading, loadSecondSets, secondSetOf, secondSetToWire, symbolSettingsOf } from './settings.ts';
import { lastTickAt, tickFreshnessMs, tickRef, ticksByIds } from '../market/ticks.ts';
import { timeRangeConditions } from './historyFilters.ts';
import type { UserEventBus } from '../../kernel/userEvents.ts';
import type { RecordedTick } from '../market/store.ts';

export type SecondOrderRow = typeof secondContractOrders.$inferSelect;

const million = 1_000_000n;

/** The reference every ledger transfer of an order carries. */
export const secondReference = (id: bigint) => `second:${id}`;
/** The transfer that holds the stake at purchase. */
export const stakeTransferId = (id: bigint) => `second:${id}:stake`;

/** What a win pays on top of the returned stake: ⌊amount × payoutPpm / 10^6⌋. */
export const winningsOf = (amount: bigint, payoutPpm: number) => (amount * BigInt(payoutPpm)) / million;

/** The outcome by the rules of the issue: up wins above the entry, down below it, equal is a draw. */
export function secondOutcome(direction: string, entryPrice: bigint, exitPrice: bigint): Exclude<SecondStatus, 'open'> {
  if (exitPrice === entryPrice) return 'draw';
  const up = exitPrice > entryPrice;
  return (direction === 'up') === up ? 'won' : 'lost';
}

/** What returns to the user's funds at settlement: stake × (1 + rate) won, the stake on a draw, 0 lost. */
export function payoutOf(status: Exclude<SecondStatus, 'open'>, amount: bigint, payoutPpm: number): bigint {
  if (status === 'won') return amount + winningsOf(amount, payoutPpm);
  if (status === 'draw') return amount;
  return 0n;
}

export function secondOrderToWire(row: SecondOrderRow, ticks: Map<bigint, RecordedTick>): SecondOrder {
  const entry = row.entryTickId === null ? undefined : ticks.get(row.entryTickId);
  const exit = row.exitTickId === null ? undefined : ticks.get(row.exitTickId);
  return {
    id: String(row.id), symbol: row.symbol, direction: row.direction as SecondOrder['direction'],
    duration: row.durationSeconds, payoutRate: formatRate(row.payoutPpm), amount: formatAmount(row.amount, marginScale),
    status: row.status as SecondStatus, demo: row.ledger === ledgers.demo, clientOrderId: row.clientOrderId,
    acceptTime: row.acceptedAt.getTime(), expireTime: row.expiresAt.getTime(),
    entryTick: entry ? tickRef(entry) : null, exitTick: exit ? tickRef(exit) : null,
    payout: row.payout === null ? null : formatAmount(row.payout, marginScale),
    pnl: row.payout === null ? null : formatAmount(row.payout - row.amount, marginScale),
    settleTime: row.settledAt?.getTime() ?? null,
  };
}

/** Rows to the wire with their ticks read in one query. */
export async function secondOrdersToWire(db: Executor, rows: SecondOrderRow[]): Promise<SecondOrder[]> {
  const ids = rows.flatMap((row) => [row.entryTickId, row.exitTickId]).filter((id): id is bigint => id !== null);
  const ticks = await ticksByIds(db, ids);
  return rows.map((row) => secondOrderToWire(row, ticks));
}

export async function listSecondSets(db: Executor, nowMs: number): Promise<SecondContractSet[]> {
  return (await loadSecondSets(db)).map((row) => secondSetToWire(row, nowMs)).filter((set): set is SecondContractSet => set !== undefined);
}

/** SHA-256 of the fields that define an order: a retry must repeat them exactly. */
function requestHashOf(body: SecondBuyBody, amount: bigint): string {
  const fields = [body.symbol, body.direction, body.duration, amount.toString(), body.demo === true];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

async function orderByClientId(db: Executor, userId: bigint, ledger: number, clientOrderId: string) {
  const [row] = await db.select().from(secondContractOrders).where(and(eq(secondContractOrders.userId, userId),
    eq(secondContractOrders.ledger, ledger), eq(secondContractOrders.clientOrderId, clientOrderId))).limit(1);
  return row;
}

function replayOf(row: SecondOrderRow, requestHash: string): SecondOrderRow {
  if (row.requestHash !== requestHash) {
    throw conflict('client_order_id_reused', 'This order key was already used for a different order. Please try again.');
  }
  return row;
}

export interface SecondDeps {
  db: Db;
  clock: Clock;
  userEvents: UserEventBus;
}

/**
 * Buys a second contract. Checks, in order: the symbol (known, with an enabled set), the market
 * (open), the price (a recorded tick no older than tickFreshnessMs; for real money, not a simulated
 * one where the operator has switched that off), the duration (offered), the
 * stake (within the set's bounds); then one transaction records the order and holds the stake.
 * The same clientOrderId with the same fields answers the first order without checking again.
 */
export async function buySecondContract(deps: SecondDeps, userId: bigint, body: SecondBuyBody): Promise<SecondOrder> {
  const { db, clock } = deps;
  const ledger = ledgers[ledgerOf(body.demo)];
  const amount = parseUserAmount(body.amount, marginScale);
  const requestHash = requestHashOf(body, amount);
  const earlier = await orderByClientId(db, userId, ledger, body.clientOrderId);
  if (earlier) return (await secondOrdersToWire(db, [replayOf(earlier, requestHash)]))[0];

  const spec = symbolByCode.get(body.symbol);
  const set = spec ? await secondSetOf(db, body.symbol) : undefined;
  if (!spec || !set || !set.enabled) {
    throw badRequest('symbol_not_tradable', `Second contracts are not offered on ${body.symbol}.`);
  }
  const now = clock.now();
  const nowMs = now.getTime();
  if (!isMarketOpen(spec.class, nowMs)) {
    const reopensAt = reopensAtMs(spec.class, nowMs);
    throw new AppError(400, 'market_closed', `The ${body.symbol} market is closed now.`, reopensAt === undefined ? {} : { reopensAt });
  }
  const last = await lastTickAt(db, body.symbol, nowMs);
  if (!last || nowMs - last.timeMs > tickFreshnessMs) {
    throw badRequest('price_unavailable', `There is no current price for ${body.symbol}; please try again in a moment.`);
  }
  if (body.demo !== true) checkFeedAllowsRealTrading(await symbolSettingsOf(db, body.symbol), last, false);
  const duration = set.durations.find((offered) => offered.seconds === body.duration);
  if (!duration) {
    const offered = [...set.durations].map((d) => d.seconds).sort((a, b) => a - b);
    throw new AppError(400, 'duration_not_offered', `A ${body.duration}-second contract is not offered on ${body.symbol}.`, { offered });
  }
  if (amount < set.amountMin) {
    const minimum = formatAmount(set.amountMin, marginScale);
    throw new AppError(400, 'stake_too_small', `The smallest amount is ${minimum} USDT.`, { minimum });
  }
  if (amount > set.amountMax) {
    const maximum = formatAmount(set.amountMax, marginScale);
    throw new AppError(400, 'stake_too_large', `The largest amount is ${maximum} USDT.`, { maximum });
  }

  const outcome = await db.transaction(async (tx) => {
    const [inserted] = await tx.insert(secondContractOrders).values({
      userId, ledger, symbol: body.symbol, direction: body.direction, durationSeconds: duration.seconds,
      payoutPpm: duration.payoutPpm, amount, status: 'open', clientOrderId: body.clientOrderId, requestHash,
      acceptedAt: now, expiresAt: new Date(nowMs + duration.seconds * 1000),
    }).onConflictDoNothing().returning();
    if (!inserted) {
      // The same key raced this request and won: answer its order.
      const first = await orderByClientId(tx, userId, ledger, body.clientOrderId);
      if (!first) throw new Error('a second-contract order key conflicted but no order holds it');
      return { row: replayOf(first, requestHash), created: false };
    }
    const accounts = await tradingAccounts(tx, userId, ledgerOf(body.demo), secondReference(inserted.id));
    const result = await postTransfers(tx, [{
      id: stakeTransferId(inserted.id), kind: 'second_stake', reference: secondReference(inserted.id), amountAtomic: amount,
      debitAccountId: accounts.funds, creditAccountId: accounts.held,
    }], clock);
    if (!result.ok) {
      if (result.refusal === 'exceeds_credits') {
        throw new AppError(400, 'balance_insufficient', `The ${body.demo ? 'demo ' : ''}balance does not cover ${formatAmount(amount, marginScale)} USDT.`);
      }
      throw new Error(`second-contract stake refused: ${result.refusal}`);
    }
    return { row: inserted, created: true };
  });
  if (outcome.created) {
    deps.userEvents.publish(userId, { kind: 'second', demo: body.demo === true, id: String(outcome.row.id), status: 'open' });
  }
  return (await secondOrdersToWire(db, [outcome.row]))[0];
}

export async function listMySecondOrders(db: Executor, userId: bigint, query: SecondListQuery) {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 10;
  const conditions: SQL[] = [eq(secondContractOrders.userId, userId), eq(secondContractOrders.ledger, ledgers[ledgerOf(query.demo)])];
  if (query.status === 'open') conditions.push(eq(secondContractOrders.status, 'open'));
  if (query.status === 'settled') conditions.push(inArray(secondContractOrders.status, ['won', 'lost', 'draw']));
  // The history filters (issue 19): an even result is a draw; the time is settled at, else accepted at.
  if (query.symbol !== undefined) conditions.push(eq(secondContractOrders.symbol, query.symbol));
  if (query.result !== undefined) conditions.push(eq(secondContractOrders.status, query.result === 'even' ? 'draw' : query.result));
  conditions.push(...timeRangeConditions(sql`coalesce(${secondContractOrders.settledAt}, ${secondContractOrders.acceptedAt})`, query));
  const where = and(...conditions);
  const [{ total }] = await db.select({ total: count() }).from(secondContractOrders).where(where);
  const rows = await db.select().from(secondContractOrders).where(where).orderBy(desc(secondContractOrders.id))
    .limit(pageSize).offset((pageNo - 1) * pageSize);
  return {
    records: await secondOrdersToWire(db, rows), total: Number(total), size: pageSize, current: pageNo,
    pages: Math.ceil(Number(total) / pageSize),
  };
}

const dayMs = 86_400_000;

/** Spec §3 trade asset info: funds available, open orders, and the pnl of orders settled since 00:00 UTC. */
export async function secondHead(db: Executor, clock: Clock, userId: bigint, demo: boolean | undefined): Promise<SecondHead> {
  const ledgerName = ledgerOf(demo);
  const ledger = ledgers[ledgerName];
  const nowMs = clock.now().getTime();
  const dayStart = new Date(nowMs - (nowMs % dayMs));
  // A read: an account the user has never used holds nothing, and is not opened here.
  const [funds] = await db.select().from(ledgerAccounts).where(and(eq(ledgerAccounts.ownerUserId, userId),
    eq(ledgerAccounts.ledger, ledger), eq(ledgerAccounts.asset, marginAsset), eq(ledgerAccounts.kind, ledgerName === 'demo' ? 'demo' : 'spot')))
    .limit(1);
  const balance = funds ? balanceOf(funds) : undefined;
  const mine = and(eq(secondContractOrders.userId, userId), eq(secondContractOrders.ledger, ledger));
  const [{ open }] = await db.select({ open: count() }).from(secondContractOrders)
    .where(and(mine, eq(secondContractOrders.status, 'open')));
  const [{ pnl }] = await db.select({ pnl: sql<string>`coalesce(sum(${secondContractOrders.payout} - ${secondContractOrders.amount}), 0)::text` })
    .from(secondContractOrders).where(and(mine, inArray(secondContractOrders.status, ['won', 'lost', 'draw']),
      gte(secondContractOrders.settledAt, dayStart)));
  return {
    demo: demo === true, balance: formatAmount(balance?.availableAtomic ?? 0n, marginScale), openOrders: Number(open),
    todayPnl: formatAmount(BigInt(pnl), marginScale),
  };
}
