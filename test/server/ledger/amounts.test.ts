// Amounts on the wire are decimal strings; inside they are atomic units. The parser refuses
// anything that is not exactly an amount of the asset instead of rounding or guessing.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { atomicMax, formatAmount, parseAmount } from '../../../server/domain/kernel/ledger/amounts.ts';

describe('parseAmount', () => {
  it.each([
    ['12.5', 6, 12_500_000n],
    ['0.000001', 6, 1n],
    ['1', 0, 1n],
    ['007.10', 2, 710n],
    ['1.50', 1, 15n],
    ['0', 8, 0n],
    ['21000000', 8, 2_100_000_000_000_000n],
    ['1.000000000000000001', 18, 1_000_000_000_000_000_001n],
    // 9.3 ETH is beyond BIGINT at 18 decimals, and exact here.
    ['9.3', 18, 9_300_000_000_000_000_000n],
  ])('reads %s at scale %i as %s atomic units', (text, scale, atomic) => {
    expect(parseAmount(text, scale)).toEqual({ ok: true, atomic });
  });

  it.each([
    ['', 'amount_empty'],
    ['-1', 'amount_negative'],
    ['-0.5', 'amount_negative'],
    ['1e6', 'amount_exponent'],
    ['1E-2', 'amount_exponent'],
    ['+1', 'amount_malformed'],
    [' 1', 'amount_malformed'],
    ['1 ', 'amount_malformed'],
    ['.5', 'amount_malformed'],
    ['5.', 'amount_malformed'],
    ['1,5', 'amount_malformed'],
    ['1.2.3', 'amount_malformed'],
    ['0x10', 'amount_malformed'],
    ['NaN', 'amount_malformed'],
    ['Infinity', 'amount_malformed'],
    ['١٢', 'amount_malformed'],
    ['1.0000001', 'amount_too_many_decimals'],
    ['0.0000000000000000001', 'amount_too_many_decimals'],
    ['1'.repeat(33), 'amount_too_large'],
    ['9'.repeat(81), 'amount_too_large'],
  ])('refuses %j as %s', (text, refusal) => {
    expect(parseAmount(text, 6)).toEqual({ ok: false, refusal });
  });

  it('takes the largest NUMERIC(38,0) value and refuses one more', () => {
    expect(parseAmount('9'.repeat(38), 0)).toEqual({ ok: true, atomic: atomicMax });
    expect(parseAmount(`1${'0'.repeat(38)}`, 0)).toEqual({ ok: false, refusal: 'amount_too_large' });
    expect(parseAmount(`${'9'.repeat(20)}.${'9'.repeat(18)}`, 18)).toEqual({ ok: true, atomic: atomicMax });
  });

  it('throws on a scale no asset can have (a programmer error)', () => {
    expect(() => parseAmount('1', 19)).toThrow();
    expect(() => parseAmount('1', -1)).toThrow();
  });
});

describe('formatAmount', () => {
  it('writes every decimal of the scale, exactly', () => {
    expect(formatAmount(12_500_000n, 6)).toBe('12.500000');
    expect(formatAmount(1n, 18)).toBe('0.000000000000000001');
    expect(formatAmount(-150n, 2)).toBe('-1.50');
    expect(formatAmount(42n, 0)).toBe('42');
    expect(formatAmount(atomicMax, 18)).toBe(`${'9'.repeat(20)}.${'9'.repeat(18)}`);
  });

  it('round-trips every amount through its decimal string', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: atomicMax }), fc.integer({ min: 0, max: 18 }), (atomic, scale) => {
      expect(parseAmount(formatAmount(atomic, scale), scale)).toEqual({ ok: true, atomic });
    }));
  });
});
