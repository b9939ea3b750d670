// The swap arithmetic (src/api/contract/swapMath.ts), property-based: the rate is the documented
// fraction, receive is the floor of the exact product (never more, less by under one unit), a
// round trip through USDT never returns more than was given, a wider spread never pays more, and
// the wire's rate text is the exact rate truncated to its decimals.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  formatSwapRate, swapFee, swapFigures, swapRate, swapRateDecimals, swapReceive, type SwapMid,
} from '../../../src/api/contract/swapMath.ts';

const pricePrecision = fc.integer({ min: 0, max: 8 });
const priceUnits = fc.bigInt({ min: 1n, max: 10n ** 12n });
const mid: fc.Arbitrary<SwapMid> = fc.oneof(
  fc.constant<SwapMid>({ stable: true }),
  fc.record({ stable: fc.constant(false as const), priceUnits, pricePrecision }),
);
const spreadPpm = fc.integer({ min: 0, max: 200_000 });
const feePpm = fc.integer({ min: 0, max: 100_000 });
const scale = fc.constantFrom(6, 8, 18);
const amount = fc.bigInt({ min: 1n, max: 10n ** 24n });

/** The documented rate, written out independently as one fraction. */
function documentedRate(from: SwapMid, to: SwapMid, spread: number): [bigint, bigint] {
  const s = BigInt(spread);
  const m = 1_000_000n;
  if (from.stable && to.stable) return [m - s, m];
  if (!from.stable && to.stable) return [from.priceUnits * (m - s), 10n ** BigInt(from.pricePrecision) * m];
  if (from.stable && !to.stable) return [10n ** BigInt(to.pricePrecision) * m, to.priceUnits * (m + s)];
  const f = from as Extract<SwapMid, { stable: false }>;
  const t = to as Extract<SwapMid, { stable: false }>;
  return [f.priceUnits * (m - s) * 10n ** BigInt(t.pricePrecision) * m, 10n ** BigInt(f.pricePrecision) * m * t.priceUnits * (m + s)];
}

describe('swapMath', () => {
  it('worked examples of the README', () => {
    const btc: SwapMid = { stable: false, priceUnits: 6_725_000n, pricePrecision: 2 };
    const rate = swapRate(btc, { stable: true }, 2000);
    expect(formatSwapRate(rate)).toBe('67115.5');
    expect(swapFigures(50_000_000n, rate, 1000, 8, 6)).toEqual({ fee: 50_000n, receive: 33_524_192_250n });
    expect(formatSwapRate(swapRate({ stable: true }, { stable: true }, 2000))).toBe('0.998');
    expect(formatSwapRate(swapRate({ stable: true }, { stable: false, priceUnits: 300_000n, pricePrecision: 2 }, 2000)))
      .toBe('0.00033266799733865602129');
    expect(() => swapRate({ stable: true }, { stable: true }, 1_000_000)).toThrow(RangeError);
    expect(() => swapRate({ stable: false, priceUnits: 0n, pricePrecision: 2 }, { stable: true }, 0)).toThrow(RangeError);
  });

  it('the rate is the documented fraction, and receive its exact floor', () => {
    fc.assert(fc.property(mid, mid, spreadPpm, feePpm, amount, scale, scale, (from, to, spread, fee, value, fromScale, toScale) => {
      const rate = swapRate(from, to, spread);
      const [num, den] = documentedRate(from, to, spread);
      expect(rate.num * den).toBe(num * rate.den);
      const figures = swapFigures(value, rate, fee, fromScale, toScale);
      expect(figures.fee).toBe((value * BigInt(fee)) / 1_000_000n);
      // receive × den × 10^fromScale ≤ net × num × 10^toScale < (receive + 1) × den × 10^fromScale
      const exact = (value - figures.fee) * num * 10n ** BigInt(toScale);
      const unit = den * 10n ** BigInt(fromScale);
      expect(figures.receive * unit <= exact && exact < (figures.receive + 1n) * unit).toBe(true);
    }), { numRuns: 500 });
  });

  it('a round trip through USDT never gives back more, and a wider spread never pays more', () => {
    fc.assert(fc.property(priceUnits, pricePrecision, spreadPpm, feePpm, amount, scale, (units, precision, spread, fee, value, xScale) => {
      const x: SwapMid = { stable: false, priceUnits: units, pricePrecision: precision };
      const usdt: SwapMid = { stable: true };
      const sold = swapFigures(value, swapRate(x, usdt, spread), fee, xScale, 6).receive;
      const back = swapFigures(sold, swapRate(usdt, x, spread), fee, 6, xScale).receive;
      expect(back <= value).toBe(true);
      const wider = swapFigures(value, swapRate(x, usdt, spread + 1), fee, xScale, 6).receive;
      expect(wider <= sold).toBe(true);
    }), { numRuns: 500 });
  });

  it('the rate text is the exact rate truncated to its decimals', () => {
    fc.assert(fc.property(mid, mid, spreadPpm, (from, to, spread) => {
      const rate = swapRate(from, to, spread);
      const text = formatSwapRate(rate);
      expect(text).toMatch(/^\d+(\.\d*[1-9])?$/);
      const [whole, decimals = ''] = text.split('.');
      const shown = BigInt(whole + decimals.padEnd(swapRateDecimals, '0'));
      expect(shown).toBe((rate.num * 10n ** BigInt(swapRateDecimals)) / rate.den);
    }), { numRuns: 500 });
  });

  it('fee and receive of zero-width cases', () => {
    expect(swapFee(999n, 1000)).toBe(0n);
    expect(swapReceive(1n, swapRate({ stable: true }, { stable: false, priceUnits: 6_000_000n, pricePrecision: 2 }, 0), 6, 8)).toBe(0n);
  });
});
