// Number helpers of spec §5 and §9: amounts are truncated, never rounded, padded to the count of
// decimals, and grouped in thousands with commas. Empty input is returned unchanged by one
// helper and treated as 0 by the other.
import { describe, expect, it } from 'vitest';
import { formatAmount, truncateDecimals, truncateOrZero, withThousands } from '../../src/lib/number.ts';
// The simulator's seeded generator, so a failure can be reproduced.
import { seededRandom } from '../../server/domain/market/simulator.ts';

describe('truncateDecimals', () => {
  it('truncates instead of rounding', () => {
    expect(truncateDecimals('1.999', 2)).toBe('1.99');
    expect(truncateDecimals('0.129999999', 2)).toBe('0.12');
    expect(truncateDecimals(1.999, 2)).toBe('1.99');
    expect(truncateDecimals('2.5', 0)).toBe('2');
    expect(truncateDecimals('9.9999', 3)).toBe('9.999');
  });

  it('pads with zeros up to the count of decimals', () => {
    expect(truncateDecimals('1.5', 4)).toBe('1.5000');
    expect(truncateDecimals('7', 2)).toBe('7.00');
    expect(truncateDecimals('5.', 2)).toBe('5.00');
    expect(truncateDecimals('.5', 2)).toBe('0.50');
    expect(truncateDecimals(3, 0)).toBe('3');
  });

  it('truncates negatives toward zero and keeps the sign', () => {
    expect(truncateDecimals('-1.239', 2)).toBe('-1.23');
    expect(truncateDecimals(-12.5, 0)).toBe('-12');
    expect(truncateDecimals('-3', 1)).toBe('-3.0');
  });

  it('never shows a negative zero', () => {
    expect(truncateDecimals('-0.001', 2)).toBe('0.00');
    expect(truncateDecimals('-0.9', 0)).toBe('0');
    expect(truncateDecimals('-0', 2)).toBe('0.00');
    expect(truncateDecimals(-0, 2)).toBe('0.00');
  });

  it('drops leading zeros and a plus sign', () => {
    expect(truncateDecimals('007.50', 1)).toBe('7.5');
    expect(truncateDecimals('000', 2)).toBe('0.00');
    expect(truncateDecimals('+4.56', 1)).toBe('4.5');
  });

  it('treats a negative count of decimals as none', () => {
    expect(truncateDecimals('12.34', -2)).toBe('12');
  });

  it('takes bigints', () => {
    expect(truncateDecimals(12345678901234567890n, 2)).toBe('12345678901234567890.00');
    expect(truncateDecimals(-5n, 0)).toBe('-5');
  });

  it('keeps every digit of long decimal strings, beyond what a float can hold', () => {
    expect(truncateDecimals('123456789012345678.123456789012345678', 18)).toBe('123456789012345678.123456789012345678');
    expect(truncateDecimals('0.100000000000000000019', 20)).toBe('0.10000000000000000001');
  });

  it('writes tiny and huge numbers out in full, never in exponent notation', () => {
    expect(truncateDecimals(1e-7, 7)).toBe('0.0000001');
    expect(truncateDecimals(1e-7, 6)).toBe('0.000000');
    expect(truncateDecimals(0.00001234, 8)).toBe('0.00001234');
    expect(truncateDecimals(1e21, 0)).toBe('1000000000000000000000');
  });

  it('reads the number as written, not as its binary approximation', () => {
    // 0.29 and 1.005 are stored as 0.28999… and 1.00499… in binary.
    expect(truncateDecimals(0.29, 2)).toBe('0.29');
    expect(truncateDecimals(1.005, 3)).toBe('1.005');
    expect(truncateDecimals(0.1 + 0.2, 2)).toBe('0.30');
  });

  it('accepts thousands separators and surrounding spaces in strings', () => {
    expect(truncateDecimals(' 1,234,567.891 ', 2)).toBe('1234567.89');
  });

  it('returns empty input unchanged', () => {
    expect(truncateDecimals('', 2)).toBe('');
    expect(truncateDecimals('   ', 2)).toBe('');
  });

  it('returns an empty string for null, undefined and non-finite numbers', () => {
    expect(truncateDecimals(null, 2)).toBe('');
    expect(truncateDecimals(undefined, 2)).toBe('');
    expect(truncateDecimals(Number.NaN, 2)).toBe('');
    expect(truncateDecimals(Number.POSITIVE_INFINITY, 2)).toBe('');
  });

  it('returns text that is not a decimal unchanged', () => {
    for (const garbage of ['abc', '12abc', '1.2.3', '-', '.', '--1', '1e5', '0x10', 'NaN']) {
      expect(truncateDecimals(garbage, 2)).toBe(garbage);
    }
  });
});

describe('truncateOrZero', () => {
  it('treats empty input as 0', () => {
    expect(truncateOrZero('', 2)).toBe('0.00');
    expect(truncateOrZero(null, 3)).toBe('0.000');
    expect(truncateOrZero(undefined, 0)).toBe('0');
    expect(truncateOrZero(Number.NaN, 1)).toBe('0.0');
  });

  it('agrees with truncateDecimals on everything else', () => {
    for (const value of ['1.999', '-0.001', 42, 12n, 'abc']) {
      expect(truncateOrZero(value, 2)).toBe(truncateDecimals(value, 2));
    }
  });
});

describe('withThousands', () => {
  it('groups the whole part in thousands with commas', () => {
    expect(withThousands('1234567.5')).toBe('1,234,567.5');
    expect(withThousands('1000')).toBe('1,000');
    expect(withThousands('999')).toBe('999');
    expect(withThousands('100000')).toBe('100,000');
    expect(withThousands('-1234567')).toBe('-1,234,567');
  });

  it('leaves the decimals alone', () => {
    expect(withThousands('1234.56789')).toBe('1,234.56789');
    expect(withThousands('0.123456')).toBe('0.123456');
  });

  it('returns anything that is not a plain decimal unchanged', () => {
    for (const value of ['', 'abc', '1,234', '.5', '1e9']) expect(withThousands(value)).toBe(value);
  });
});

describe('formatAmount', () => {
  it('truncates, pads and groups for display', () => {
    expect(formatAmount('1234567.891', 2)).toBe('1,234,567.89');
    expect(formatAmount(1234.5, 4)).toBe('1,234.5000');
    expect(formatAmount('-9876543.21', 0)).toBe('-9,876,543');
    expect(formatAmount(1000000n, 2)).toBe('1,000,000.00');
  });

  it('shows zero for empty input', () => {
    expect(formatAmount('', 2)).toBe('0.00');
    expect(formatAmount(null, 2)).toBe('0.00');
    expect(formatAmount(undefined, 4)).toBe('0.0000');
  });

  it('shows garbage as it came rather than inventing a number', () => {
    expect(formatAmount('n/a', 2)).toBe('n/a');
  });
});

// Property-style check: for many random decimal strings, the helper must agree with a plain
// string-slicing oracle, and the result may only move toward zero.
describe('truncateDecimals on random decimal strings', () => {
  function randomDecimal(random: () => number): string {
    const digits = (count: number) => Array.from({ length: count }, () => Math.floor(random() * 10)).join('');
    const sign = random() < 0.3 ? '-' : '';
    const whole = digits(1 + Math.floor(random() * 12));
    const fractionLength = Math.floor(random() * 15);
    return fractionLength === 0 && random() < 0.5 ? `${sign}${whole}` : `${sign}${whole}.${digits(fractionLength)}`;
  }

  /** The oracle: cut the fraction after `decimals` characters, pad, drop leading zeros and a negative zero. */
  function oracle(text: string, decimals: number): string {
    const negative = text.startsWith('-');
    const [whole, fraction = ''] = text.replace(/^-/, '').split('.');
    const kept = (fraction + '0'.repeat(decimals)).slice(0, decimals);
    const wholeDigits = whole.replace(/^0+/, '') || '0';
    const isZero = !/[1-9]/.test(wholeDigits + kept);
    return `${negative && !isZero ? '-' : ''}${wholeDigits}${decimals > 0 ? `.${kept}` : ''}`;
  }

  /** Exact value of a decimal string as a bigint scaled by 10^scale. */
  function scaled(text: string, scale: number): bigint {
    const negative = text.startsWith('-');
    const [whole, fraction = ''] = text.replace(/^-/, '').split('.');
    const magnitude = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
    return negative ? -magnitude : magnitude;
  }

  const abs = (value: bigint) => (value < 0n ? -value : value);

  it('matches the string-slicing oracle and only ever moves toward zero', () => {
    const random = seededRandom(20260102);
    for (let run = 0; run < 2000; run += 1) {
      const value = randomDecimal(random);
      const decimals = Math.floor(random() * 10);
      const truncated = truncateDecimals(value, decimals);
      expect(truncated, `truncateDecimals(${value}, ${decimals})`).toBe(oracle(value, decimals));

      const scale = 20;
      const original = scaled(value, scale);
      const result = scaled(truncated, scale);
      expect(abs(result) <= abs(original), `|${truncated}| <= |${value}|`).toBe(true);
      if (original >= 0n) expect(result <= original, `${truncated} <= ${value}`).toBe(true);
      // The part cut away is less than one unit of the last kept decimal.
      expect(abs(original - result) < 10n ** BigInt(scale - decimals), `${value} - ${truncated}`).toBe(true);
      if (result !== 0n) expect(result < 0n === original < 0n).toBe(true);
    }
  });
});
