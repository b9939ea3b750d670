// Trading settings (issue 10): each symbol's contract settings, each symbol's second-contract
// durations and the flash swap's settings. Seeded at start with defaults an operator then edits in
// the back office (audited, routes/admin/trade.ts); read here, converted for the wire here.
import { eq } from 'drizzle-orm';
import type { SecondContractSet, SwapCurrencies, SymbolTradeSettings } from '../../../../src/api/contract/trading.ts';
import { formatAmount } from '../../../../src/api/contract/amounts.ts';
import { formatRate, marginScale } from '../../../../src/api/contract/tradingMath.ts';
import { secondContractSets, swapSettings, tradeSymbolSettings } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { simulatorSourceName } from '../../../../src/api/contract/market.ts';
import { AppError } from '../../../lib/errors.ts';
import { isMarketOpen, reopensAtMs } from '../market/calendar.ts';
import { parsePrice, symbolByCode, symbolSpecs, type SymbolSpec } from '../market/symbols.ts';

export type SymbolSettingsRow = typeof tradeSymbolSettings.$inferSelect;
export type SecondSetRow = typeof secondContractSets.$inferSelect;
export type SwapSettingsRow = typeof swapSettings.$inferSelect;

const usdt = (whole: bigint) => whole * 10n ** BigInt(marginScale);

/**
 * Contracts settle in USDT, so only symbols quoted in USDT or USD (taken at par) are offered; a
 * pair quoted in another currency (USDJPY, USDCHF, USDCAD) would need its profit converted, which
 * this release does not do: those are seeded disabled and cannot be enabled.
 */
export const contractCapable = (spec: SymbolSpec) => spec.quote === 'USDT' || spec.quote === 'USD';

/** Quantities are counted in the base asset with this many decimals (the feed's volume precision). */
export const quantityPrecisionOf = (spec: SymbolSpec) => spec.volumePrecision;

function defaultSpread(spec: SymbolSpec): bigint {
  // About 0.02 % of the starting price (crypto), 0.01 % (metals and forex), at least 2 units, even.
  const price = parsePrice(spec.startPrice, spec.pricePrecision);
  const raw = spec.class === 'crypto' ? price / 5000n : price / 10000n;
  const even = raw < 2n ? 2n : raw + (raw % 2n);
  return even;
}

const defaultLeverages = (spec: SymbolSpec) =>
  spec.class === 'crypto' ? [1, 2, 5, 10, 20, 50, 100] : spec.class === 'metal' ? [1, 5, 10, 20, 50] : [1, 10, 20, 50, 100];

export function defaultSymbolSettings(spec: SymbolSpec): SymbolSettingsRow {
  return {
    symbol: spec.symbol, enabled: contractCapable(spec), leverages: defaultLeverages(spec), simulatedFeedRealTrading: true,
    quantityMin: 1n, quantityMax: 10n ** BigInt(quantityPrecisionOf(spec) + 9),
    marginMin: usdt(1n), marginMax: usdt(1_000_000n), feePpm: 500, maintenancePpm: 5000,
    spreadUnits: defaultSpread(spec), updatedAt: new Date(0),
  };
}

export const defaultSecondDurations = [
  { seconds: 30, payoutPpm: 800_000 }, { seconds: 60, payoutPpm: 850_000 },
  { seconds: 120, payoutPpm: 900_000 }, { seconds: 300, payoutPpm: 950_000 },
];

export const defaultSwapSettings: SwapSettingsRow = {
  id: 1, enabled: true, feePpm: 1000, spreadPpm: 2000, quoteTtlMs: 10_000, updatedAt: new Date(0),
};

/** Adds the settings a fresh install needs; an operator's later changes are kept. */
export async function seedTradingSettings(db: Executor) {
  await db.insert(tradeSymbolSettings).values(symbolSpecs.map((spec) => {
    const { updatedAt: _ignored, ...row } = defaultSymbolSettings(spec);
    return row;
  })).onConflictDoNothing();
  await db.insert(secondContractSets).values(symbolSpecs.filter(contractCapable).map((spec) => ({
    symbol: spec.symbol, enabled: true, durations: defaultSecondDurations, amountMin: usdt(10n), amountMax: usdt(50_000n),
  }))).onConflictDoNothing();
  const { updatedAt: _ignored, ...swap } = defaultSwapSettings;
  await db.insert(swapSettings).values(swap).onConflictDoNothing();
}

export async function loadSymbolSettings(db: Executor): Promise<SymbolSettingsRow[]> {
  return db.select().from(tradeSymbolSettings).orderBy(tradeSymbolSettings.symbol);
}

export async function symbolSettingsOf(db: Executor, symbol: string): Promise<SymbolSettingsRow | undefined> {
  const [row] = await db.select().from(tradeSymbolSettings).where(eq(tradeSymbolSettings.symbol, symbol)).limit(1);
  return row;
}

/**
 * Refuses a real (not demo) open, second contract or swap priced by a simulated tick on a symbol
 * whose operator has closed real trading on simulated prices (issue 18). Demo trading and venue
 * prices always pass; closing what is already open is never refused here.
 */
export function checkFeedAllowsRealTrading(settings: Pick<SymbolSettingsRow, 'symbol' | 'simulatedFeedRealTrading'> | undefined,
  tick: { source: string }, demo: boolean) {
  if (demo || tick.source !== simulatorSourceName) return;
  if (settings?.simulatedFeedRealTrading !== false) return;
  throw new AppError(400, 'simulated_feed_trading_disabled',
    `Prices of ${settings.symbol} are simulated, and real trading on simulated prices is switched off for it. Demo trading stays open.`,
    { symbol: settings.symbol });
}

export async function loadSecondSets(db: Executor): Promise<SecondSetRow[]> {
  return db.select().from(secondContractSets).orderBy(secondContractSets.symbol);
}

export async function secondSetOf(db: Executor, symbol: string): Promise<SecondSetRow | undefined> {
  const [row] = await db.select().from(secondContractSets).where(eq(secondContractSets.symbol, symbol)).limit(1);
  return row;
}

export async function loadSwapSettings(db: Executor): Promise<SwapSettingsRow> {
  const [row] = await db.select().from(swapSettings).where(eq(swapSettings.id, 1)).limit(1);
  return row ?? defaultSwapSettings;
}

function marketState(spec: SymbolSpec, nowMs: number) {
  const reopensAt = reopensAtMs(spec.class, nowMs);
  return { open: isMarketOpen(spec.class, nowMs), ...(reopensAt === undefined ? {} : { reopensAt }) };
}

export function symbolSettingsToWire(row: SymbolSettingsRow, nowMs: number): SymbolTradeSettings | undefined {
  const spec = symbolByCode.get(row.symbol);
  if (!spec) return undefined;
  const quantityPrecision = quantityPrecisionOf(spec);
  return {
    symbol: row.symbol, enabled: row.enabled && contractCapable(spec), leverages: [...row.leverages].sort((a, b) => a - b),
    pricePrecision: spec.pricePrecision, quantityPrecision,
    quantityMin: formatAmount(row.quantityMin, quantityPrecision), quantityMax: formatAmount(row.quantityMax, quantityPrecision),
    marginMin: formatAmount(row.marginMin, marginScale), marginMax: formatAmount(row.marginMax, marginScale),
    feeRate: formatRate(row.feePpm), maintenanceMarginRate: formatRate(row.maintenancePpm),
    spread: formatAmount(row.spreadUnits, spec.pricePrecision), ...marketState(spec, nowMs),
  };
}

export function secondSetToWire(row: SecondSetRow, nowMs: number): SecondContractSet | undefined {
  const spec = symbolByCode.get(row.symbol);
  if (!spec) return undefined;
  return {
    symbol: row.symbol, enabled: row.enabled,
    durations: [...row.durations].sort((a, b) => a.seconds - b.seconds)
      .map((duration) => ({ seconds: duration.seconds, payoutRate: formatRate(duration.payoutPpm) })),
    amountMin: formatAmount(row.amountMin, marginScale), amountMax: formatAmount(row.amountMax, marginScale),
    ...marketState(spec, nowMs),
  };
}

export function swapSettingsToWire(row: SwapSettingsRow, currencies: SwapCurrencies['currencies']): SwapCurrencies {
  return {
    currencies, feeRate: formatRate(row.feePpm), spreadRate: formatRate(row.spreadPpm), quoteTtlSeconds: Math.round(row.quoteTtlMs / 1000),
  };
}
