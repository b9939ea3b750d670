// A contract position as the wire shows it (issue 10): the row's figures formatted, and for a
// closed position its receipt, built from the row's copies of fee rate and spread and the two
// recorded ticks it cites. The settlement wrote its figures with tradingMath.settle; the receipt
// shows them with the entry and exit prices and ticks, so every figure recomputes by the formulas
// of the README (the tests redo it and compare with the ledger). The back office shows positions
// with the same function.
import type { Direction, Position, PositionReceipt, PositionStatus, CloseReason } from '../../../../src/api/contract/trading.ts';
import { formatAmount } from '../../../../src/api/contract/amounts.ts';
import { formatRate, marginScale, type Settlement, type SymbolUnits } from '../../../../src/api/contract/tradingMath.ts';
import { tradePositions } from '../../../db/schema.ts';
import { assert } from '../../../lib/errors.ts';
import type { RecordedTick } from '../market/store.ts';
import { symbolByCode } from '../market/symbols.ts';
import { isDemoLedger } from './accounts.ts';
import { quantityPrecisionOf } from './settings.ts';
import { tickRef } from '../market/ticks.ts';

export type PositionRow = typeof tradePositions.$inferSelect;

/** The price and quantity precisions of a position's symbol. */
export function unitsOf(symbol: string): SymbolUnits {
  const spec = symbolByCode.get(symbol);
  assert(spec, `symbol ${symbol} is known`);
  return { pricePrecision: spec.pricePrecision, quantityPrecision: quantityPrecisionOf(spec) };
}

const usdt = (atomic: bigint) => formatAmount(atomic, marginScale);

/** The tick ids a page of rows cites (entry, and exit once closed): load them with ticksByIds. */
export const tickIdsOf = (rows: readonly PositionRow[]) =>
  rows.flatMap((row) => (row.exitTickId === null ? [row.entryTickId] : [row.entryTickId, row.exitTickId]));

function receiptOf(row: PositionRow, units: SymbolUnits, ticks: Map<bigint, RecordedTick>): PositionReceipt | null {
  if (row.status !== 'closed' || row.exitTickId === null || row.closePrice === null || row.closeReason === null) return null;
  const exitTick = ticks.get(row.exitTickId);
  const entryTick = ticks.get(row.entryTickId);
  assert(entryTick && exitTick, `the ticks of position ${row.id} were loaded`);
  // What the settlement wrote (and moved); payout and balance change follow from it by the
  // formulas of tradingMath.ts (payout = margin + pnl − closeFee, balance change = pnl − fees).
  const figures = {
    grossPnl: row.grossPnl ?? 0n, pnl: row.pnl ?? 0n, shortfall: row.shortfall ?? 0n, closeFee: row.closeFee ?? 0n,
    payout: row.margin + (row.pnl ?? 0n) - (row.closeFee ?? 0n), balanceChange: (row.pnl ?? 0n) - row.openFee - (row.closeFee ?? 0n),
  } satisfies Settlement;
  const price = (units_: bigint) => formatAmount(units_, units.pricePrecision);
  return {
    reason: row.closeReason as CloseReason, entryTick: tickRef(entryTick), exitTick: tickRef(exitTick),
    entryPrice: price(row.openPrice), exitPrice: price(row.closePrice),
    quantity: formatAmount(row.quantity, units.quantityPrecision), margin: usdt(row.margin),
    grossPnl: usdt(figures.grossPnl), pnl: usdt(figures.pnl), shortfall: usdt(figures.shortfall),
    openFee: usdt(row.openFee), closeFee: usdt(figures.closeFee), fee: usdt(row.openFee + figures.closeFee),
    payout: usdt(figures.payout), balanceChange: usdt(figures.balanceChange),
  };
}

export function positionToWire(row: PositionRow, ticks: Map<bigint, RecordedTick>): Position {
  const units = unitsOf(row.symbol);
  const price = (value: bigint | null) => (value === null ? null : formatAmount(value, units.pricePrecision));
  const entryTick = ticks.get(row.entryTickId);
  assert(entryTick, `the entry tick of position ${row.id} was loaded`);
  return {
    id: String(row.id), symbol: row.symbol, direction: row.direction as Direction, leverage: row.leverage,
    quantity: formatAmount(row.quantity, units.quantityPrecision), margin: usdt(row.margin),
    openPrice: price(row.openPrice)!, closePrice: price(row.closePrice),
    takeProfit: price(row.takeProfit), stopLoss: price(row.stopLoss), liquidationPrice: price(row.liquidationPrice),
    openFee: usdt(row.openFee), feeRate: formatRate(row.feePpm), maintenanceMarginRate: formatRate(row.maintenancePpm),
    spread: formatAmount(row.spreadUnits, units.pricePrecision), status: row.status as PositionStatus,
    pnl: row.pnl === null ? null : usdt(row.pnl), demo: isDemoLedger(row.ledger), clientOrderId: row.clientOrderId,
    entryTick: tickRef(entryTick), createTime: row.createdAt.getTime(), closeTime: row.closedAt?.getTime() ?? null,
    receipt: receiptOf(row, units, ticks),
    ...(row.competitionId !== null ? { competitionId: String(row.competitionId) } : {}),
  };
}
