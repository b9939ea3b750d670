// Number helpers of spec §5 and §9: amounts are truncated, never rounded, padded to the count of
// decimals, and grouped in thousands as the user's language writes them (issue 8 #7). Empty input is returned unchanged by one
// helper and treated as 0 by the other.
import { describe, expect, it } from 'vitest';
import { formatCompact, formatDecimal, formatPercent, formatSigned, truncateDecimals, truncateOrZero } from '../../src/lib/number.ts';
// The simulator's seeded generator, so a failure can be reproduced.
import { seededRandom } from '../../server/domain/core/market/simulator.ts';

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

describe('formatDecimal', () => {
  it('truncates, pads and groups as the language writes numbers', () => {
    expect(formatDecimal('1234567.891', 2, 'en-US')).toBe('1,234,567.89');
    expect(formatDecimal(1234.5, 4, 'en-US')).toBe('1,234.5000');
    expect(formatDecimal('-9876543.21', 0, 'en-US')).toBe('-9,876,543');
    expect(formatDecimal(1000000n, 2, 'en-US')).toBe('1,000,000.00');
    expect(formatDecimal('1234567.891', 2, 'es-ES')).toBe('1.234.567,89');
    expect(formatDecimal('1234567.891', 2, 'ko-KR')).toBe('1,234,567.89');
  });

  it('never rounds, not even where a float would', () => {
    expect(formatDecimal('0.999999', 2, 'en-US')).toBe('0.99');
    expect(formatDecimal('67412.119999999999999', 2, 'en-US')).toBe('67,412.11');
    expect(formatDecimal('123456789012345678.129', 2, 'en-US')).toBe('123,456,789,012,345,678.12');
  });

  it('shows zero for empty input and garbage as it came', () => {
    expect(formatDecimal('', 2, 'en-US')).toBe('0.00');
    expect(formatDecimal(null, 2, 'en-US')).toBe('0.00');
    expect(formatDecimal('n/a', 2, 'en-US')).toBe('n/a');
    expect(formatDecimal('-0.001', 2, 'en-US')).toBe('0.00');
  });
});

describe('formatSigned, formatPercent and formatCompact', () => {
  it('signs every non-zero change', () => {
    expect(formatSigned('2646.639', 2, 'en-US')).toBe('+2,646.63');
    expect(formatSigned('-0.509', 2, 'en-US')).toBe('-0.50');
    expect(formatSigned('0.001', 2, 'en-US')).toBe('0.00');
  });

  it('writes percentages given in percent, truncated', () => {
    expect(formatPercent('1.259', 'en-US')).toBe('+1.25%');
    expect(formatPercent('-0.5', 'en-US')).toBe('-0.50%');
    expect(formatPercent('0', 'en-US')).toBe('0.00%');
    expect(formatPercent('1234.5', 'en-US')).toBe('+1,234.50%');
    expect(formatPercent('0.07', 'en-US')).toBe('+0.07%');
    expect(formatPercent('1.259', 'es-ES').replace(/\s/g, ' ')).toBe('+1,25 %');
  });

  it('writes volumes compactly in the language, truncated', () => {
    expect(formatCompact('1459999999', 'en-US')).toBe('1.45B');
    expect(formatCompact('999', 'en-US')).toBe('999');
    expect(formatCompact('1450960000', 'es-ES').replace(/\s/g, ' ')).toBe('1450,96 M');
  });

  it('agrees with itself in one row: price, change and volume share the decimal mark', () => {
    for (const intl of ['en-US', 'es-ES', 'vi-VN', 'ms-MY', 'th-TH', 'ja-JP', 'ko-KR', 'zh-CN', 'zh-TW', 'zh-HK']) {
      const mark = formatDecimal('1.5', 1, intl).replace(/\d/g, '');
      expect(formatCompact('1234567', intl)).toContain(mark);
      expect(formatPercent('1.5', intl)).toContain(mark);
    }
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
