// The instruments the platform quotes. Prices are integers in units of 10^-pricePrecision; the
// simulator's parameters are typical of each class (crypto volatile and open around the clock,
// metals medium, forex low; metals and forex follow their trading week).
import type { SymbolClass } from '../../../../src/api/contract/market.ts';

export interface SymbolSpec {
  symbol: string;
  base: string;
  quote: string;
  class: SymbolClass;
  pricePrecision: number;
  /** Smallest price step, in price units (10^-pricePrecision). */
  tickSizeUnits: bigint;
  /** Volume is kept in units of 10^-volumePrecision of the base asset. */
  volumePrecision: number;
  /** Price the deterministic history ends at and the live feed starts from, as a decimal. */
  startPrice: string;
  annualVolatility: number;
  /** Expected number of jumps per day, and the standard deviation of a jump's log size. */
  jumpsPerDay: number;
  jumpSigma: number;
  /** Mean traded quantity per day, in the base asset. */
  dailyVolume: number;
}

const crypto = (symbol: string, base: string, pricePrecision: number, startPrice: string, annualVolatility: number,
  dailyVolume: number): SymbolSpec => ({
  symbol, base, quote: 'USDT', class: 'crypto', pricePrecision, tickSizeUnits: 1n, volumePrecision: 4, startPrice,
  annualVolatility, jumpsPerDay: 0.5, jumpSigma: 0.012, dailyVolume,
});
const forex = (base: string, quote: string, pricePrecision: number, startPrice: string, annualVolatility: number,
  dailyVolume: number, klass: SymbolClass = 'forex'): SymbolSpec => ({
  symbol: `${base}${quote}`, base, quote, class: klass, pricePrecision, tickSizeUnits: 1n, volumePrecision: 2, startPrice,
  annualVolatility, jumpsPerDay: klass === 'metal' ? 0.2 : 0.1, jumpSigma: klass === 'metal' ? 0.004 : 0.002, dailyVolume,
});

export const symbolSpecs: SymbolSpec[] = [
  crypto('BTCUSDT', 'BTC', 2, '67250.00', 0.6, 22_000),
  crypto('ETHUSDT', 'ETH', 2, '3180.00', 0.72, 310_000),
  crypto('SOLUSDT', 'SOL', 3, '152.400', 0.95, 3_100_000),
  crypto('BNBUSDT', 'BNB', 2, '585.30', 0.58, 520_000),
  crypto('XRPUSDT', 'XRP', 4, '0.5230', 0.8, 820_000_000),
  crypto('DOGEUSDT', 'DOGE', 5, '0.12350', 1.0, 2_900_000_000),
  crypto('ADAUSDT', 'ADA', 4, '0.4510', 0.85, 480_000_000),
  crypto('TRXUSDT', 'TRX', 5, '0.12040', 0.55, 950_000_000),
  crypto('LTCUSDT', 'LTC', 2, '74.80', 0.75, 1_400_000),
  crypto('DOTUSDT', 'DOT', 3, '6.520', 0.85, 9_800_000),
  crypto('LINKUSDT', 'LINK', 3, '14.120', 0.88, 8_700_000),
  crypto('AVAXUSDT', 'AVAX', 3, '29.870', 0.92, 3_900_000),
  forex('XAU', 'USD', 2, '2352.40', 0.15, 160_000, 'metal'),
  forex('XAG', 'USD', 3, '28.150', 0.26, 9_000_000, 'metal'),
  forex('EUR', 'USD', 5, '1.08450', 0.07, 1_200_000_000),
  forex('GBP', 'USD', 5, '1.27120', 0.08, 450_000_000),
  forex('USD', 'JPY', 3, '155.320', 0.09, 900_000_000),
  forex('AUD', 'USD', 5, '0.66080', 0.1, 250_000_000),
  forex('USD', 'CHF', 5, '0.90150', 0.08, 180_000_000),
  forex('USD', 'CAD', 5, '1.36420', 0.07, 220_000_000),
];

export const symbolByCode = new Map(symbolSpecs.map((spec) => [spec.symbol, spec]));

/** "1.08450" with precision 5 → 108450n. Throws on more decimals than the precision. */
export function parsePrice(text: string, precision: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match || (match[2]?.length ?? 0) > precision) throw new Error(`bad price ${text} for precision ${precision}`);
  return BigInt(match[1] + (match[2] ?? '').padEnd(precision, '0'));
}

/** 108450n with precision 5 → "1.08450". */
export { formatAmount as formatUnits } from '../../../../src/api/contract/amounts.ts';
