// Mining output by the published formula (issue 22): a machine's net output per day in the mined
// asset is hashrate × the network's reward per TH/s per day (the operator's figure in force that
// day, with its source) − power × 24 h × the electricity price converted at the last stored price
// of <ASSET>USDT (the newest tick, else the newest 1-minute candle). Never negative: costs above
// the output make a day of 0. All integers: the electricity cost is rounded up (in the reserve's
// favour by at most one atomic unit), the output down.
import { and, desc, eq, lte } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { miningRewards } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { formatAmount, parseAmount } from '../../kernel/ledger/amounts.ts';
import { symbolByCode } from '../../core/market/symbols.ts';

export type MiningRewardRow = typeof miningRewards.$inferSelect;

/** The figure in force on `day` (YYYY-MM-DD): the newest published on or before it. */
export async function rewardInForce(db: Executor, asset: string, day: string): Promise<MiningRewardRow | undefined> {
  const [row] = await db.select().from(miningRewards).where(and(eq(miningRewards.asset, asset), lte(miningRewards.day, day)))
    .orderBy(desc(miningRewards.day)).limit(1);
  return row;
}

export interface PriceQuote {
  symbol: string;
  /** Price in units of 10^-pricePrecision. */
  priceUnits: bigint;
  pricePrecision: number;
  time: Date;
  source: 'tick' | 'candle_1m';
}

/** The last stored price of <asset>USDT at or before `at`: the newest tick, else the newest 1m candle's close. */
export async function lastPrice(db: Executor, asset: string, at: Date): Promise<PriceQuote | undefined> {
  const symbol = `${asset}USDT`;
  const spec = symbolByCode.get(symbol);
  if (!spec) return undefined;
  const iso = at.toISOString();
  const ticks = (await db.execute(sql`select price::text as price, time from market_ticks
    where symbol = ${symbol} and time <= ${iso}::timestamptz order by time desc limit 1`) as unknown as { rows: Array<{ price: string; time: string | Date }> }).rows;
  if (ticks[0]) return { symbol, priceUnits: BigInt(ticks[0].price), pricePrecision: spec.pricePrecision, time: new Date(ticks[0].time), source: 'tick' };
  const candles = (await db.execute(sql`select close::text as close, open_time from market_candles
    where symbol = ${symbol} and period = '1m' and open_time <= ${iso}::timestamptz order by open_time desc limit 1`) as unknown as {
    rows: Array<{ close: string; open_time: string | Date }>;
  }).rows;
  if (candles[0]) {
    return { symbol, priceUnits: BigInt(candles[0].close), pricePrecision: spec.pricePrecision, time: new Date(candles[0].open_time), source: 'candle_1m' };
  }
  return undefined;
}

/** Hashrate is kept to 4 decimals of TH/s. */
export const hashrateScale = 4;

export function parseHashrate(text: string): bigint | undefined {
  const parsed = parseAmount(text, hashrateScale);
  return parsed.ok && parsed.atomic > 0n ? parsed.atomic : undefined;
}

export interface OutputInputs {
  hashrateThs: string;
  powerW: number;
  quantity: number;
  rewardPerThsDay: bigint;
  electricityPerKwh: bigint;
  minedScale: number;
  usdtScale: number;
  price: PriceQuote;
}

export interface OutputResult {
  gross: bigint;
  cost: bigint;
  net: bigint;
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** One day's output of `quantity` machines, in atomic units of the mined asset. */
export function dailyOutput(inputs: OutputInputs): OutputResult {
  const hash = parseHashrate(inputs.hashrateThs) ?? 0n;
  const quantity = BigInt(inputs.quantity);
  const gross = (hash * quantity * inputs.rewardPerThsDay) / 10n ** BigInt(hashrateScale);
  // Watt-hours a day × USDT atomic per kWh / 1000 = USDT atomic; ÷ price → mined atomic.
  const wattHours = BigInt(inputs.powerW) * quantity * 24n;
  const numerator = wattHours * inputs.electricityPerKwh * 10n ** BigInt(inputs.minedScale) * 10n ** BigInt(inputs.price.pricePrecision);
  const denominator = 1000n * 10n ** BigInt(inputs.usdtScale) * inputs.price.priceUnits;
  const cost = denominator > 0n ? ceilDiv(numerator, denominator) : 0n;
  const net = gross > cost ? gross - cost : 0n;
  return { gross, cost, net };
}

/** The receipt's inputs: everything a user needs to recompute the day's output. */
export function outputReceiptInputs(inputs: OutputInputs, result: OutputResult, reward: MiningRewardRow, day: string): Record<string, string | number> {
  return {
    formula: 'hashrateThs × quantity × rewardPerThsDay − powerW × quantity × 24 / 1000 × electricityPerKwh ÷ price',
    hashrateThs: inputs.hashrateThs,
    quantity: inputs.quantity,
    powerW: inputs.powerW,
    rewardPerThsDay: formatAmount(inputs.rewardPerThsDay, inputs.minedScale),
    electricityPerKwh: formatAmount(inputs.electricityPerKwh, inputs.usdtScale),
    rewardDay: reward.day,
    rewardSource: reward.source,
    priceSymbol: inputs.price.symbol,
    price: formatAmount(inputs.price.priceUnits, inputs.price.pricePrecision),
    priceSource: inputs.price.source,
    tickTime: inputs.price.time.getTime(),
    gross: formatAmount(result.gross, inputs.minedScale),
    electricityCost: formatAmount(result.cost, inputs.minedScale),
    net: formatAmount(result.net, inputs.minedScale),
    day,
  };
}
