// The contract screen's figures before anything is sent: bid and ask from the last price and the
// spread, the size from a margin or a quantity, the cost (margin, fee, notional), the estimated
// liquidation price, and whether take-profit and stop-loss sit on the right side. Every figure is
// an integer of tradingMath.ts's units computed by tradingMath.ts itself (the server settles with
// the same functions), so the preview and the server can only differ by the tick between them.
import { formatAmount, parseAmount } from '../../../api/contract/amounts.ts';
import type { Direction, Position, SymbolTradeSettings } from '../../../api/contract/trading.ts';
import {
  entryPrice, exitPrice, feeOf, halfSpread, levelSides, liquidationPrice, marginFor, marginScale, notional, parseRate,
  quantityForMargin, settle, yieldPercent, type SymbolUnits,
} from '../../../api/contract/tradingMath.ts';
import { truncateDecimals } from '../../../lib/number.ts';

export type SizeMode = 'margin' | 'quantity';

/** A decimal string in `scale` units, or undefined when it is not one (empty, malformed, too precise). */
export function unitsOf(text: string | null | undefined, scale: number): bigint | undefined {
  if (text === null || text === undefined) return undefined;
  const parsed = parseAmount(text.trim(), scale);
  return parsed.ok ? parsed.atomic : undefined;
}

/** A price from the feed in the symbol's units (extra digits, if any, truncated). */
export const priceUnitsOf = (text: string, pricePrecision: number) =>
  unitsOf(truncateDecimals(text, pricePrecision), pricePrecision);

export const unitsOfSettings = (settings: Pick<SymbolTradeSettings, 'pricePrecision' | 'quantityPrecision'>): SymbolUnits =>
  ({ pricePrecision: settings.pricePrecision, quantityPrecision: settings.quantityPrecision });

export interface Quote {
  /** The last tick's price. */
  last: bigint;
  /** What a short opens at (and a long closes at): last − ⌊spread / 2⌋. */
  bid: bigint;
  /** What a long opens at (and a short closes at): last + ⌊spread / 2⌋. */
  ask: bigint;
}

export function quoteOf(settings: SymbolTradeSettings, lastText: string): Quote | undefined {
  const last = priceUnitsOf(lastText, settings.pricePrecision);
  const spread = unitsOf(settings.spread, settings.pricePrecision) ?? 0n;
  if (last === undefined || last <= 0n) return undefined;
  return { last, bid: exitPrice('long', last, spread), ask: entryPrice('long', last, spread) };
}

export interface OrderInput {
  direction: Direction;
  leverage: number;
  sizeMode: SizeMode;
  size: string;
  takeProfit: string;
  stopLoss: string;
}

export type SizeProblem = 'size_required' | 'size_invalid' | 'quantity_too_small' | 'quantity_too_large' | 'margin_too_small'
  | 'margin_too_large' | 'balance_insufficient';

export interface Preview {
  entry: bigint;
  /** The price the position would close at now (the side TP/SL are checked against). */
  currentExit: bigint;
  quantity: bigint;
  margin: bigint;
  fee: bigint;
  notional: bigint;
  /** margin + fee: what leaves the available balance. */
  cost: bigint;
  liquidation: bigint | null;
  takeProfit: bigint | null;
  stopLoss: bigint | null;
  /** False: the text is not a price of the symbol's precision. */
  takeProfitValid: boolean;
  stopLossValid: boolean;
  takeProfitOk: boolean;
  stopLossOk: boolean;
  sizeProblem: SizeProblem | undefined;
  /**
   * The smallest and largest size in the unit the user typed (margin in atomic USDT, or quantity
   * units), so a size problem can name the bound the user can act on: a margin of 0.5 that buys
   * less than the minimum quantity is "below the minimum margin" of what the minimum quantity costs.
   */
  sizeMin: bigint;
  sizeMax: bigint | undefined;
}

/** Fee and maintenance rates in ppm (0 when the settings carry an unreadable rate). */
export const feePpmOf = (settings: SymbolTradeSettings) => parseRate(settings.feeRate) ?? 0;
export const maintenancePpmOf = (settings: SymbolTradeSettings) => parseRate(settings.maintenanceMarginRate) ?? 0;

function levelOf(text: string, pricePrecision: number): { value: bigint | null; valid: boolean } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: null, valid: true };
  const value = unitsOf(trimmed, pricePrecision);
  return value === undefined || value <= 0n ? { value: null, valid: false } : { value, valid: true };
}

/**
 * The smallest margin that opens a position at `entry` and `leverage`: the symbol's minimum margin
 * or what its minimum quantity (at least one quantity unit) costs, whichever is larger. marginFor
 * rounds up, so quantityForMargin of this margin buys at least the minimum quantity.
 */
export function minimumMarginFor(settings: SymbolTradeSettings, entry: bigint, leverage: number): bigint {
  const units = unitsOfSettings(settings);
  const quantityMin = unitsOf(settings.quantityMin, settings.quantityPrecision) ?? 0n;
  const marginMin = unitsOf(settings.marginMin, marginScale) ?? 0n;
  const forQuantity = marginFor(units, quantityMin > 0n ? quantityMin : 1n, entry, leverage);
  return forQuantity > marginMin ? forQuantity : marginMin;
}

/**
 * The largest margin within both maxima at `entry` and `leverage` (undefined when the symbol sets
 * neither): the symbol's maximum margin or what its maximum quantity costs, whichever is smaller.
 */
export function maximumMarginFor(settings: SymbolTradeSettings, entry: bigint, leverage: number): bigint | undefined {
  const quantityMax = unitsOf(settings.quantityMax, settings.quantityPrecision);
  const marginMax = unitsOf(settings.marginMax, marginScale);
  const forQuantity = quantityMax === undefined ? undefined : marginFor(unitsOfSettings(settings), quantityMax, entry, leverage);
  if (forQuantity === undefined) return marginMax;
  return marginMax === undefined || forQuantity < marginMax ? forQuantity : marginMax;
}

/** Everything the form shows for an order at the last price, with the first problem of its size. */
export function previewOrder(settings: SymbolTradeSettings, lastText: string, input: OrderInput, available: bigint): Preview | undefined {
  const quote = quoteOf(settings, lastText);
  if (!quote) return undefined;
  const units = unitsOfSettings(settings);
  const spread = unitsOf(settings.spread, settings.pricePrecision) ?? 0n;
  const entry = entryPrice(input.direction, quote.last, spread);
  const currentExit = exitPrice(input.direction, quote.last, spread);
  const sizeText = input.size.trim();
  let quantity = 0n;
  let sizeProblem: SizeProblem | undefined;
  if (sizeText === '') sizeProblem = 'size_required';
  else if (input.sizeMode === 'margin') {
    const wanted = unitsOf(sizeText, marginScale);
    if (wanted === undefined || wanted <= 0n) sizeProblem = 'size_invalid';
    else quantity = quantityForMargin(units, wanted, entry, input.leverage);
  } else {
    const wanted = unitsOf(sizeText, settings.quantityPrecision);
    if (wanted === undefined || wanted <= 0n) sizeProblem = 'size_invalid';
    else quantity = wanted;
  }
  const margin = quantity > 0n ? marginFor(units, quantity, entry, input.leverage) : 0n;
  const value = notional(units, quantity, entry);
  const fee = feeOf(value, feePpmOf(settings));
  const quantityMin = unitsOf(settings.quantityMin, settings.quantityPrecision) ?? 0n;
  const quantityMax = unitsOf(settings.quantityMax, settings.quantityPrecision);
  const byMargin = input.sizeMode === 'margin';
  if (!sizeProblem) {
    const marginMin = unitsOf(settings.marginMin, marginScale) ?? 0n;
    const marginMax = unitsOf(settings.marginMax, marginScale);
    // Sized by margin, every bound is told as a margin: the user typed no quantity.
    if (quantity <= 0n || quantity < quantityMin) sizeProblem = byMargin ? 'margin_too_small' : 'quantity_too_small';
    else if (quantityMax !== undefined && quantity > quantityMax) sizeProblem = byMargin ? 'margin_too_large' : 'quantity_too_large';
    else if (margin < marginMin) sizeProblem = 'margin_too_small';
    else if (marginMax !== undefined && margin > marginMax) sizeProblem = 'margin_too_large';
    else if (margin + fee > available) sizeProblem = 'balance_insufficient';
  }
  const sizeMin = byMargin ? minimumMarginFor(settings, entry, input.leverage) : quantityMin;
  const sizeMax = byMargin ? maximumMarginFor(settings, entry, input.leverage) : quantityMax;
  const takeProfit = levelOf(input.takeProfit, settings.pricePrecision);
  const stopLoss = levelOf(input.stopLoss, settings.pricePrecision);
  const sides = levelSides(input.direction, currentExit, takeProfit.value, stopLoss.value);
  return {
    entry, currentExit, quantity, margin, fee, notional: value, cost: margin + fee,
    liquidation: quantity > 0n ? liquidationPrice(units, input.direction, quantity, entry, margin, maintenancePpmOf(settings)) : null,
    takeProfit: takeProfit.value, stopLoss: stopLoss.value, takeProfitValid: takeProfit.valid, stopLossValid: stopLoss.valid,
    takeProfitOk: sides.takeProfitOk, stopLossOk: sides.stopLossOk, sizeProblem, sizeMin, sizeMax,
  };
}

/**
 * The largest margin whose margin and fee the available balance covers at `leverage`:
 * margin + margin × leverage × feeRate ≤ available.
 */
export function maxMarginFor(available: bigint, leverage: number, feePpm: number): bigint {
  if (available <= 0n) return 0n;
  return (available * 1_000_000n) / (1_000_000n + BigInt(leverage) * BigInt(feePpm));
}

/** The size text a slider position (0–100 %) of the available balance gives, in the size mode's units. */
export function sizeForPercent(settings: SymbolTradeSettings, lastText: string, direction: Direction, leverage: number,
  mode: SizeMode, available: bigint, percent: number): string {
  const margin = (maxMarginFor(available, leverage, feePpmOf(settings)) * BigInt(Math.round(percent))) / 100n;
  if (margin <= 0n) return '';
  if (mode === 'margin') return formatAmount(margin, marginScale);
  const quote = quoteOf(settings, lastText);
  if (!quote) return '';
  const spread = unitsOf(settings.spread, settings.pricePrecision) ?? 0n;
  const quantity = quantityForMargin(unitsOfSettings(settings), margin, entryPrice(direction, quote.last, spread), leverage);
  return quantity > 0n ? formatAmount(quantity, settings.quantityPrecision) : '';
}

export interface LiveResult { exit: bigint; pnl: bigint; yieldPercent: string }

/** A running position's profit or loss if it closed at `lastText` now (before the close fee). */
export function livePnl(position: Position, units: SymbolUnits, lastText: string): LiveResult | undefined {
  const last = priceUnitsOf(lastText, units.pricePrecision);
  const spread = unitsOf(position.spread, units.pricePrecision);
  const entry = unitsOf(position.openPrice, units.pricePrecision);
  const quantity = unitsOf(position.quantity, units.quantityPrecision);
  const margin = unitsOf(position.margin, marginScale);
  const openFee = unitsOf(position.openFee, marginScale);
  if (last === undefined || spread === undefined || entry === undefined || quantity === undefined || margin === undefined
    || openFee === undefined) return undefined;
  const exit = exitPrice(position.direction, last, spread);
  const result = settle(units, {
    direction: position.direction, quantity, entryPrice: entry, margin, openFee, feePpm: parseRate(position.feeRate) ?? 0,
  }, exit);
  return { exit, pnl: result.pnl, yieldPercent: yieldPercent(result.pnl, margin) };
}

/** Half of a spread written in price units, as a price string. */
export const halfSpreadText = (spread: string, pricePrecision: number) =>
  formatAmount(halfSpread(unitsOf(spread, pricePrecision) ?? 0n), pricePrecision);
