// The arithmetic of the flash swap (issue 10), shared by the server (which quotes and settles with
// it), the app (which previews with it) and anyone checking a swap record (the README writes it
// out). Integers only: amounts in atomic units of their currency (10^-scale), tick prices in units
// of 10^-pricePrecision of the symbol <CODE>USDT, rates in parts per million. The rate is kept as
// an exact fraction (numerator / denominator, units of `to` per unit of `from`); only the wire's
// `rate` text is rounded, never the figures.
//
//   mid(X)        = tick price of XUSDT / 10^pricePrecision          (USDT and USDC: 1, no tick)
//   s             = spreadRate = spreadPpm / 10^6
//   X → stable    : rate = mid(X) × (1 − s)
//   stable → X    : rate = 1 / (mid(X) × (1 + s))
//   X → Y         : rate = mid(X) × (1 − s) / (mid(Y) × (1 + s))        (through USDT, both legs' spread)
//   stable → stable (USDT ↔ USDC): rate = 1 − s                        (at par)
//   fee           = ⌊amount × feePpm / 10^6⌋                            (in `from`)
//   receive       = ⌊(amount − fee) × rate⌋                             (in `to`, at its scale)
//                 = ⌊(amountAtomic − feeAtomic) × num × 10^toScale / (den × 10^fromScale)⌋
// A stable is a USD stablecoin taken at par with USDT: USDT and USDC.

export const ppm = 1_000_000n;
export const swapStablecoins = ['USDT', 'USDC'] as const;
export const isSwapStablecoin = (code: string) => (swapStablecoins as readonly string[]).includes(code);
/** The feed symbol whose price is a currency's mid price in USDT. */
export const swapSymbolOf = (code: string) => `${code}USDT`;

/** Units of `to` per unit of `from`, exactly: num / den (both positive). */
export interface SwapRate { num: bigint; den: bigint }

/** A currency's mid price in USDT: a tick price in units of 10^-pricePrecision, or par for a stablecoin. */
export type SwapMid = { stable: true } | { stable: false; priceUnits: bigint; pricePrecision: number };

const pow10 = (exponent: number) => 10n ** BigInt(exponent);

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function reduced(num: bigint, den: bigint): SwapRate {
  const divisor = gcd(num, den);
  return divisor > 1n ? { num: num / divisor, den: den / divisor } : { num, den };
}

/** The rate from `from` to `to` given each one's mid price and the spread (ppm); see the formulas above. */
export function swapRate(from: SwapMid, to: SwapMid, spreadPpm: number): SwapRate {
  const spread = BigInt(spreadPpm);
  if (spread < 0n || spread >= ppm) throw new RangeError(`spread ${spreadPpm} ppm`);
  // Selling `from` for USDT costs the spread; so does buying `to` with it; stable to stable pays it once.
  let num = 1n;
  let den = 1n;
  if (!from.stable || to.stable) {
    num *= ppm - spread;
    den *= ppm;
  }
  if (!from.stable) {
    if (from.priceUnits <= 0n) throw new RangeError('price must be positive');
    num *= from.priceUnits;
    den *= pow10(from.pricePrecision);
  }
  if (!to.stable) {
    if (to.priceUnits <= 0n) throw new RangeError('price must be positive');
    // ÷ (mid(to) × (1 + s))
    num *= pow10(to.pricePrecision) * ppm;
    den *= to.priceUnits * (ppm + spread);
  }
  return reduced(num, den);
}

export function swapFee(amountAtomic: bigint, feePpm: number): bigint {
  return (amountAtomic * BigInt(feePpm)) / ppm;
}

/** ⌊(amount − fee) × rate⌋ in atomic units of `to`. */
export function swapReceive(netAtomic: bigint, rate: SwapRate, fromScale: number, toScale: number): bigint {
  return (netAtomic * rate.num * pow10(toScale)) / (rate.den * pow10(fromScale));
}

export interface SwapFigures { fee: bigint; receive: bigint }

/** The fee and what is received for `amountAtomic` of `from`. */
export function swapFigures(amountAtomic: bigint, rate: SwapRate, feePpm: number, fromScale: number, toScale: number): SwapFigures {
  const fee = swapFee(amountAtomic, feePpm);
  return { fee, receive: swapReceive(amountAtomic - fee, rate, fromScale, toScale) };
}

/** Decimals the wire's `rate` text carries (truncated): enough for 18-decimal currencies. */
export const swapRateDecimals = 24;

/** The rate as a decimal string truncated to `decimals`, trailing zeros dropped ("67115.5", "0.0000148"). */
export function formatSwapRate(rate: SwapRate, decimals: number = swapRateDecimals): string {
  const scaled = (rate.num * pow10(decimals)) / rate.den;
  const text = scaled.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  const fraction = text.slice(text.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}
