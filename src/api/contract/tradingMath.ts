// The arithmetic of contracts (issue 10), in one place for the server (which settles with it), the
// app (which previews with it) and anyone checking a receipt (the README writes it out). Integers
// only: prices in units of 10^-pricePrecision, quantities in units of 10^-quantityPrecision of the
// base asset, money in atomic USDT (10^-6), rates in parts per million. Every division truncates
// toward zero unless its comment says it rounds up; the rounding never favours the platform
// beyond the truncation the spec's number helper does (spec §5).
//
//   notional(q, p)   = q × p / 10^(qp + pp − 6)                       (USDT atomic)
//   entry price      = tick + ⌊spread / 2⌋ for a long, tick − ⌊spread / 2⌋ for a short
//   exit price       = tick − ⌊spread / 2⌋ for a long, tick + ⌊spread / 2⌋ for a short
//   margin           = ⌈notional(q, entry) / leverage⌉
//   quantity by margin m: the largest q with ⌈notional(q, entry) / leverage⌉ ≤ m
//   open fee         = ⌊notional(q, entry) × feeRate⌋,   close fee = ⌊notional(q, exit) × feeRate⌋
//   gross            = ±q × (exit − entry) / 10^(qp + pp − 6)          (+ long, − short)
//   maintenance      = ⌊notional(q, entry) × maintenanceMarginRate⌋
//   liquidation      = entry ∓ ⌈(margin − maintenance) × 10^(qp + pp − 6) / q⌉   (− long, + short)
//   at close: if margin + gross ≤ 0: pnl = −margin, shortfall = −(margin + gross), closeFee = 0
//             else pnl = gross, closeFee = min(close fee, margin + gross), shortfall = 0
//   payout = margin + pnl − closeFee;  balance change = pnl − openFee − closeFee
//   yield = pnl / margin
import type { CloseReason, Direction } from './trading.ts';

export const marginScale = 6;
export const ratePrecision = 6;
const million = 1_000_000n;

export interface SymbolUnits {
  pricePrecision: number;
  quantityPrecision: number;
}

const pow10 = (exponent: number) => 10n ** BigInt(exponent);
/** The power of ten that turns quantity units × price units into atomic USDT. */
const exponentOf = (units: SymbolUnits) => units.quantityPrecision + units.pricePrecision - marginScale;

/** x / 10^e for e ≥ 0 (truncating toward zero), x × 10^−e otherwise. */
function shiftDown(x: bigint, exponent: number): bigint {
  return exponent >= 0 ? x / pow10(exponent) : x * pow10(-exponent);
}

const ceilDiv = (numerator: bigint, denominator: bigint) =>
  (numerator % denominator === 0n ? numerator / denominator : numerator / denominator + (numerator > 0n === denominator > 0n ? 1n : 0n));

export function notional(units: SymbolUnits, quantity: bigint, price: bigint): bigint {
  return shiftDown(quantity * price, exponentOf(units));
}

export const halfSpread = (spread: bigint) => spread / 2n;

/** The price a position opens at from the tick price. */
export function entryPrice(direction: Direction, tickPrice: bigint, spread: bigint): bigint {
  return direction === 'long' ? tickPrice + halfSpread(spread) : tickPrice - halfSpread(spread);
}

/** The price a position closes at from the tick price. */
export function exitPrice(direction: Direction, tickPrice: bigint, spread: bigint): bigint {
  return direction === 'long' ? tickPrice - halfSpread(spread) : tickPrice + halfSpread(spread);
}

/** The tick price at which a position's exit price equals `level` (the trigger engine's key). */
export function tickPriceForExit(direction: Direction, level: bigint, spread: bigint): bigint {
  return direction === 'long' ? level + halfSpread(spread) : level - halfSpread(spread);
}

export function marginFor(units: SymbolUnits, quantity: bigint, entry: bigint, leverage: number): bigint {
  return ceilDiv(notional(units, quantity, entry), BigInt(leverage));
}

/** The largest quantity whose margin at `entry` and `leverage` is at most `margin`. */
export function quantityForMargin(units: SymbolUnits, margin: bigint, entry: bigint, leverage: number): bigint {
  if (entry <= 0n || margin <= 0n) return 0n;
  const exponent = exponentOf(units);
  // notional ≤ margin × leverage ⇔ q × entry ≤ margin × leverage × 10^e (+ the truncation's slack).
  const budget = margin * BigInt(leverage);
  let quantity = exponent >= 0 ? ((budget + 1n) * pow10(exponent) - 1n) / entry : (budget + 1n) / (entry * pow10(-exponent));
  while (quantity > 0n && marginFor(units, quantity, entry, leverage) > margin) quantity -= 1n;
  return quantity;
}

export function feeOf(notionalAtomic: bigint, ratePpm: number): bigint {
  return (notionalAtomic * BigInt(ratePpm)) / million;
}

export function grossPnl(units: SymbolUnits, direction: Direction, quantity: bigint, entry: bigint, exit: bigint): bigint {
  const move = direction === 'long' ? exit - entry : entry - exit;
  return shiftDown(quantity * move, exponentOf(units));
}

export function maintenanceOf(units: SymbolUnits, quantity: bigint, entry: bigint, maintenancePpm: number): bigint {
  return feeOf(notional(units, quantity, entry), maintenancePpm);
}

/**
 * The exit price at which equity (margin + gross) falls to the maintenance margin; null when it
 * cannot (a long whose liquidation price would be at or below zero).
 */
export function liquidationPrice(units: SymbolUnits, direction: Direction, quantity: bigint, entry: bigint,
  margin: bigint, maintenancePpm: number): bigint | null {
  if (quantity <= 0n) return null;
  const room = margin - maintenanceOf(units, quantity, entry, maintenancePpm);
  if (room <= 0n) return entry;
  const exponent = exponentOf(units);
  const move = exponent >= 0 ? ceilDiv(room * pow10(exponent), quantity) : ceilDiv(room, quantity * pow10(-exponent));
  if (direction === 'short') return entry + move;
  return entry - move > 0n ? entry - move : null;
}

export interface Settlement {
  grossPnl: bigint;
  pnl: bigint;
  shortfall: bigint;
  closeFee: bigint;
  payout: bigint;
  balanceChange: bigint;
}

export interface OpenPosition {
  direction: Direction;
  quantity: bigint;
  entryPrice: bigint;
  margin: bigint;
  openFee: bigint;
  feePpm: number;
}

export function settle(units: SymbolUnits, position: OpenPosition, exit: bigint): Settlement {
  const gross = grossPnl(units, position.direction, position.quantity, position.entryPrice, exit);
  const left = position.margin + gross;
  if (left <= 0n) {
    const pnl = -position.margin;
    return { grossPnl: gross, pnl, shortfall: -left, closeFee: 0n, payout: 0n, balanceChange: pnl - position.openFee };
  }
  const nominal = feeOf(notional(units, position.quantity, exit), position.feePpm);
  const closeFee = nominal < left ? nominal : left;
  return {
    grossPnl: gross, pnl: gross, shortfall: 0n, closeFee, payout: left - closeFee,
    balanceChange: gross - position.openFee - closeFee,
  };
}

export interface Levels {
  takeProfit: bigint | null;
  stopLoss: bigint | null;
  liquidation: bigint | null;
}

/**
 * Which level an exit price reaches, if any: take-profit first, then stop-loss, then liquidation
 * (a stop-loss the user set wins over a liquidation the same tick reaches).
 */
export function reachedLevel(direction: Direction, exit: bigint, levels: Levels): Exclude<CloseReason, 'user' | 'competition_end'> | undefined {
  const long = direction === 'long';
  if (levels.takeProfit !== null && (long ? exit >= levels.takeProfit : exit <= levels.takeProfit)) return 'take_profit';
  if (levels.stopLoss !== null && (long ? exit <= levels.stopLoss : exit >= levels.stopLoss)) return 'stop_loss';
  if (levels.liquidation !== null && (long ? exit <= levels.liquidation : exit >= levels.liquidation)) return 'liquidation';
  return undefined;
}

/**
 * Whether take-profit and stop-loss sit on the right side of the current exit price: above it
 * (take-profit) and below it (stop-loss) for a long, the other way round for a short.
 */
export function levelSides(direction: Direction, currentExit: bigint, takeProfit: bigint | null, stopLoss: bigint | null) {
  const long = direction === 'long';
  return {
    takeProfitOk: takeProfit === null || (long ? takeProfit > currentExit : takeProfit < currentExit),
    stopLossOk: stopLoss === null || (long ? stopLoss < currentExit : stopLoss > currentExit),
  };
}

/** A rate in ppm as a decimal string ("500" → "0.0005"), and back (undefined when not a rate). */
export function formatRate(ppm: number): string {
  const text = String(ppm).padStart(ratePrecision + 1, '0');
  const whole = text.slice(0, -ratePrecision);
  const fraction = text.slice(-ratePrecision).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

export function parseRate(text: string): number | undefined {
  const match = /^(\d{1,6})(?:\.(\d{1,6}))?$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 1_000_000 + Number((match[2] ?? '').padEnd(ratePrecision, '0'));
}

/** pnl / margin as a percentage with two decimals, truncated ("12.34"). */
export function yieldPercent(pnl: bigint, margin: bigint): string {
  if (margin <= 0n) return '0.00';
  const hundredths = (pnl * 10_000n) / margin;
  const sign = hundredths < 0n ? '-' : '';
  const magnitude = hundredths < 0n ? -hundredths : hundredths;
  return `${sign}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, '0')}`;
}
