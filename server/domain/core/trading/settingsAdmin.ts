// The operator's side of the trading settings (issue 10, back office): each symbol's contract
// settings, each symbol's second-contract durations and the flash swap's settings, read and
// changed here with every rule checked before anything is written. A refused change writes
// nothing and says which field is wrong and why (`trade_settings_invalid`, extra `field`); a
// change returns the settings before and after, for the audit record written in the same
// transaction by routes/admin/trade.ts. There is deliberately no setting of a price or of an
// outcome here (DESIGN §1): prices come from recorded ticks only.
import { eq } from 'drizzle-orm';
import type { SecondContractSet, SecondSetBody, SwapSettingsBody, SymbolSettingsBody, SymbolTradeSettings } from '../../../../src/api/contract/trading.ts';
import { parseAmount } from '../../../../src/api/contract/amounts.ts';
import { formatRate, marginScale, parseRate } from '../../../../src/api/contract/tradingMath.ts';
import { secondContractSets, swapSettings, tradeSymbolSettings } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import { symbolByCode, symbolSpecs, type SymbolSpec } from '../market/symbols.ts';
import {
  contractCapable, defaultSwapSettings, loadSecondSets, loadSwapSettings, quantityPrecisionOf, secondSetToWire, symbolSettingsToWire,
  type SecondSetRow, type SwapSettingsRow, type SymbolSettingsRow,
} from './settings.ts';

/** A symbol's contract settings as the back office reads them. */
export type AdminSymbolSettings = SymbolTradeSettings & {
  /** False: quoted in a currency contracts cannot settle in (USDJPY…); it cannot be enabled. */
  contractCapable: boolean;
  /** Whether real (not demo) trading may use this symbol's simulated prices (issue 18). */
  simulatedFeedRealTrading: boolean;
  updateTime: number;
};
export type AdminSecondSet = SecondContractSet & { contractCapable: boolean; updateTime: number };
export type AdminSwapSettings = SwapSettingsBody & { updateTime: number };

/** Limits an operator cannot go past (the database's checks say the same). */
export const settingsLimits = {
  leverageMax: 1000,
  /** 10 % of the notional. */
  feePpmMax: 100_000,
  /** Half the entry notional, and always below 1 / the largest leverage. */
  maintenancePpmMax: 500_000,
  /** A win pays at most stake × 11. */
  payoutPpmMax: 10_000_000,
  swapFeePpmMax: 100_000,
  swapSpreadPpmMax: 100_000,
} as const;

const int8Max = 2n ** 63n - 1n;
const million = 1_000_000;

export const refuse = (field: string, message: string) => new AppError(400, 'trade_settings_invalid', message, { field });

function specOf(symbol: string): SymbolSpec {
  const spec = symbolByCode.get(symbol);
  if (!spec) throw new AppError(404, 'unknown_symbol', `There is no symbol ${symbol}.`);
  return spec;
}

/** A positive decimal of `scale` decimals, or a refusal naming the field. */
function parsePositive(field: string, label: string, text: string, scale: number, max: bigint = int8Max): bigint {
  const parsed = parseAmount(text.trim(), scale);
  if (!parsed.ok) {
    throw refuse(field, parsed.refusal === 'amount_too_many_decimals'
      ? `${label} has more than ${scale} decimals.` : `${label} must be a plain decimal number, such as 12.5.`);
  }
  if (parsed.atomic <= 0n) throw refuse(field, `${label} must be more than zero.`);
  if (parsed.atomic > max) throw refuse(field, `${label} is too large.`);
  return parsed.atomic;
}

function parseRateField(field: string, label: string, text: string): number {
  const ppm = parseRate(text.trim());
  if (ppm === undefined) throw refuse(field, `${label} must be a decimal rate with at most 6 decimals, such as 0.0005 for 0.05 %.`);
  return ppm;
}

// ─── Contracts ───────────────────────────────────────────────────────────────────────────────

export function adminSymbolSettings(row: SymbolSettingsRow, nowMs: number): AdminSymbolSettings | undefined {
  const wire = symbolSettingsToWire(row, nowMs);
  const spec = symbolByCode.get(row.symbol);
  if (!wire || !spec) return undefined;
  return {
    ...wire, contractCapable: contractCapable(spec), simulatedFeedRealTrading: row.simulatedFeedRealTrading, updateTime: row.updatedAt.getTime(),
  };
}

export async function listSymbolSettings(db: Executor, nowMs: number): Promise<AdminSymbolSettings[]> {
  const rows = await db.select().from(tradeSymbolSettings).orderBy(tradeSymbolSettings.symbol);
  const order = new Map(symbolSpecs.map((spec, index) => [spec.symbol, index]));
  return rows.map((row) => adminSymbolSettings(row, nowMs)).filter((item): item is AdminSymbolSettings => !!item)
    .sort((a, b) => (order.get(a.symbol) ?? 0) - (order.get(b.symbol) ?? 0));
}

/** The body checked and converted to the row's units; throws a refusal naming the first bad field. */
export function validateSymbolSettings(symbol: string, body: SymbolSettingsBody) {
  const spec = specOf(symbol);
  if (body.enabled && !contractCapable(spec)) {
    throw new AppError(400, 'symbol_not_tradable',
      `${symbol} is quoted in ${spec.quote}: contracts settle in USDT, so they cannot be enabled on it.`, { field: 'enabled' });
  }
  const leverages = body.leverages;
  if (leverages.length === 0) throw refuse('leverages', 'Offer at least one leverage.');
  for (const leverage of leverages) {
    if (!Number.isInteger(leverage) || leverage < 1 || leverage > settingsLimits.leverageMax) {
      throw refuse('leverages', `Each leverage must be a whole number from 1 to ${settingsLimits.leverageMax}.`);
    }
  }
  if (new Set(leverages).size !== leverages.length) throw refuse('leverages', 'Each leverage may be offered only once.');
  const sorted = [...leverages].sort((a, b) => a - b);
  const quantityPrecision = quantityPrecisionOf(spec);
  const quantityMin = parsePositive('quantityMin', 'The minimum quantity', body.quantityMin, quantityPrecision);
  const quantityMax = parsePositive('quantityMax', 'The maximum quantity', body.quantityMax, quantityPrecision);
  if (quantityMin > quantityMax) throw refuse('quantityMax', 'The maximum quantity cannot be below the minimum.');
  const marginMin = parsePositive('marginMin', 'The minimum margin', body.marginMin, marginScale, 10n ** 30n);
  const marginMax = parsePositive('marginMax', 'The maximum margin', body.marginMax, marginScale, 10n ** 30n);
  if (marginMin > marginMax) throw refuse('marginMax', 'The maximum margin cannot be below the minimum.');
  const feePpm = parseRateField('feeRate', 'The fee rate', body.feeRate);
  if (feePpm > settingsLimits.feePpmMax) throw refuse('feeRate', 'The fee rate cannot be more than 0.1 (10 %).');
  const maintenancePpm = parseRateField('maintenanceMarginRate', 'The maintenance margin rate', body.maintenanceMarginRate);
  const leverageMax = sorted[sorted.length - 1];
  // At leverage L the margin is 1/L of the notional: a maintenance rate at or above it would
  // liquidate a position the moment it opens.
  if (maintenancePpm * leverageMax >= million) {
    throw refuse('maintenanceMarginRate', `The maintenance margin rate must be below 1 / ${leverageMax} (the largest leverage offered).`);
  }
  if (maintenancePpm > settingsLimits.maintenancePpmMax) {
    throw refuse('maintenanceMarginRate', 'The maintenance margin rate cannot be more than 0.5.');
  }
  const spreadText = body.spread.trim();
  const spread = parseAmount(spreadText, spec.pricePrecision);
  if (!spread.ok) {
    throw refuse('spread', spread.refusal === 'amount_too_many_decimals'
      ? `The spread has more than ${spec.pricePrecision} decimals (the symbol's price precision).`
      : 'The spread must be a plain decimal number in the symbol\'s price, zero or more.');
  }
  if (spread.atomic > int8Max) throw refuse('spread', 'The spread is too large.');
  return {
    enabled: body.enabled, leverages: sorted, quantityMin, quantityMax, marginMin, marginMax, feePpm, maintenancePpm, spreadUnits: spread.atomic,
    // Absent: the stored choice stays (a client that predates the field cannot switch it by omission).
    ...(body.simulatedFeedRealTrading === undefined ? {} : { simulatedFeedRealTrading: body.simulatedFeedRealTrading }),
  };
}

export async function updateSymbolSettings(tx: Executor, symbol: string, body: SymbolSettingsBody, now: Date) {
  const changes = validateSymbolSettings(symbol, body);
  const [beforeRow] = await tx.select().from(tradeSymbolSettings).where(eq(tradeSymbolSettings.symbol, symbol)).for('update');
  if (!beforeRow) throw new AppError(404, 'unknown_symbol', `There are no contract settings for ${symbol}.`);
  const [afterRow] = await tx.update(tradeSymbolSettings).set({ ...changes, updatedAt: now })
    .where(eq(tradeSymbolSettings.symbol, symbol)).returning();
  const nowMs = now.getTime();
  return { before: adminSymbolSettings(beforeRow, nowMs)!, after: adminSymbolSettings(afterRow, nowMs)! };
}

// ─── Second contracts ────────────────────────────────────────────────────────────────────────

export function adminSecondSet(row: SecondSetRow, nowMs: number): AdminSecondSet | undefined {
  const wire = secondSetToWire(row, nowMs);
  const spec = symbolByCode.get(row.symbol);
  if (!wire || !spec) return undefined;
  return { ...wire, enabled: wire.enabled && contractCapable(spec), contractCapable: contractCapable(spec), updateTime: row.updatedAt.getTime() };
}

export async function listSecondSets(db: Executor, nowMs: number): Promise<AdminSecondSet[]> {
  const order = new Map(symbolSpecs.map((spec, index) => [spec.symbol, index]));
  return (await loadSecondSets(db)).map((row) => adminSecondSet(row, nowMs)).filter((item): item is AdminSecondSet => !!item)
    .sort((a, b) => (order.get(a.symbol) ?? 0) - (order.get(b.symbol) ?? 0));
}

export function validateSecondSet(symbol: string, body: SecondSetBody) {
  const spec = specOf(symbol);
  if (body.enabled && !contractCapable(spec)) {
    throw new AppError(400, 'symbol_not_tradable',
      `${symbol} is quoted in ${spec.quote}: second contracts settle in USDT, so they cannot be enabled on it.`, { field: 'enabled' });
  }
  if (body.durations.length === 0) throw refuse('durations', 'Offer at least one duration.');
  const durations = body.durations.map((duration, index) => {
    if (!Number.isInteger(duration.seconds) || duration.seconds < 5 || duration.seconds > 86_400) {
      throw refuse(`durations.${index}.seconds`, 'Each duration must be a whole number of seconds from 5 to 86400.');
    }
    const payoutPpm = parseRateField(`durations.${index}.payoutRate`, 'The payout rate', duration.payoutRate);
    if (payoutPpm <= 0 || payoutPpm > settingsLimits.payoutPpmMax) {
      throw refuse(`durations.${index}.payoutRate`, 'The payout rate must be more than 0 and at most 10 (a win pays the stake × (1 + rate)).');
    }
    return { seconds: duration.seconds, payoutPpm };
  });
  if (new Set(durations.map((duration) => duration.seconds)).size !== durations.length) {
    throw refuse('durations', 'Each duration may be offered only once.');
  }
  durations.sort((a, b) => a.seconds - b.seconds);
  const amountMin = parsePositive('amountMin', 'The minimum amount', body.amountMin, marginScale, 10n ** 30n);
  const amountMax = parsePositive('amountMax', 'The maximum amount', body.amountMax, marginScale, 10n ** 30n);
  if (amountMin > amountMax) throw refuse('amountMax', 'The maximum amount cannot be below the minimum.');
  return { enabled: body.enabled, durations, amountMin, amountMax };
}

export async function updateSecondSet(tx: Executor, symbol: string, body: SecondSetBody, now: Date) {
  const changes = validateSecondSet(symbol, body);
  const [beforeRow] = await tx.select().from(secondContractSets).where(eq(secondContractSets.symbol, symbol)).for('update');
  const [afterRow] = await tx.insert(secondContractSets).values({ symbol, ...changes, updatedAt: now })
    .onConflictDoUpdate({ target: secondContractSets.symbol, set: { ...changes, updatedAt: now } }).returning();
  const nowMs = now.getTime();
  return { before: beforeRow ? adminSecondSet(beforeRow, nowMs)! : null, after: adminSecondSet(afterRow, nowMs)! };
}

// ─── Flash swap ──────────────────────────────────────────────────────────────────────────────

export const adminSwapSettings = (row: SwapSettingsRow): AdminSwapSettings => ({
  enabled: row.enabled, feeRate: formatRate(row.feePpm), spreadRate: formatRate(row.spreadPpm),
  quoteTtlSeconds: Math.round(row.quoteTtlMs / 1000), updateTime: row.updatedAt.getTime(),
});

export async function readSwapSettings(db: Executor) {
  return adminSwapSettings(await loadSwapSettings(db));
}

export function validateSwapSettings(body: SwapSettingsBody) {
  const feePpm = parseRateField('feeRate', 'The fee rate', body.feeRate);
  if (feePpm > settingsLimits.swapFeePpmMax) throw refuse('feeRate', 'The fee rate cannot be more than 0.1 (10 %).');
  const spreadPpm = parseRateField('spreadRate', 'The spread rate', body.spreadRate);
  if (spreadPpm > settingsLimits.swapSpreadPpmMax) throw refuse('spreadRate', 'The spread rate cannot be more than 0.1 (10 %).');
  if (!Number.isInteger(body.quoteTtlSeconds) || body.quoteTtlSeconds < 3 || body.quoteTtlSeconds > 120) {
    throw refuse('quoteTtlSeconds', 'A quote must last a whole number of seconds from 3 to 120.');
  }
  return { enabled: body.enabled, feePpm, spreadPpm, quoteTtlMs: body.quoteTtlSeconds * 1000 };
}

export async function updateSwapSettings(tx: Executor, body: SwapSettingsBody, now: Date) {
  const changes = validateSwapSettings(body);
  const [beforeRow] = await tx.select().from(swapSettings).where(eq(swapSettings.id, 1)).for('update');
  const [afterRow] = await tx.insert(swapSettings).values({ id: 1, ...changes, updatedAt: now })
    .onConflictDoUpdate({ target: swapSettings.id, set: { ...changes, updatedAt: now } }).returning();
  return { before: adminSwapSettings(beforeRow ?? defaultSwapSettings), after: adminSwapSettings(afterRow) };
}
