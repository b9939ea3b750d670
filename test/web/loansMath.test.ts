// The loan pages' arithmetic (features/loans/loanMath.ts): interest is one day's (amount × daily
// rate, cut toward zero at the asset's scale) times the days, as the server charges it, exactly (no float: 0.1 + 0.2 style errors would show in the
// last digit); a started day counts whole; the loan-to-value ratio and the refusal above the initial
// level are exact at the boundary; the form checks refuse what the server would.
import { describe, expect, it } from 'vitest';
import {
  atomicAt, chargesAtomic, checkCredit, payoffAtomic, checkRepayment, compareDecimal, interestAtomic, ltvAbove, ltvPercent, ltvZone, maxLoanText, newLoanClientOrderId,
  startedDays, totalInterestText, dayMs,
} from '../../src/features/loans/loanMath.ts';

describe('loan interest', () => {
  it('is one day\'s interest (amount × daily rate, cut at the asset scale) × days, exact', () => {
    // 1 000 USDT at 0.05 % a day for 30 days: 15 USDT.
    expect(totalInterestText('1000', '0.05', 30, 6)).toBe('15.000000');
    // 123.456789 × 0.05 % = 0.0617283945 a day → cut to 0.061728, × 7 = 0.432096 (the server's figure,
    // not the 0.432098 of the product cut once).
    expect(totalInterestText('123.456789', '0.05', 7, 6)).toBe('0.432096');
    // A rate with more decimals than a float keeps exactly: 0.0333 % of 0.3 = 0.0000999 a day, × 3 = 0.00029970.
    expect(totalInterestText('0.3', '0.0333', 3, 8)).toBe('0.00029970');
    // A huge amount stays exact (a float would lose the last digits).
    expect(interestAtomic(99_999_999_999_999_999_999n, '0.05', 1)).toBe(49_999_999_999_999_999n);
    expect(interestAtomic(99_999_999_999_999_999_999n, '0.05', 3)).toBe(149_999_999_999_999_997n);
    expect(totalInterestText('12.3456789', '0.05', 1, 6)).toBeUndefined();
    expect(totalInterestText('abc', '0.05', 1, 6)).toBeUndefined();
    expect(interestAtomic(1_000_000n, '0.05', 0)).toBe(0n);
  });

  it('agrees with a digit-by-digit computation for many amounts, rates and days', () => {
    // The oracle: one day's product written out as a decimal string and cut at the scale, then
    // added up day by day as decimal digits (schoolbook addition, no bigint arithmetic on the total).
    const oracle = (amount: string, rate: string, days: number, scale: number) => {
      const [aw, af = ''] = amount.split('.');
      const [rw, rf = ''] = rate.split('.');
      const digits = (BigInt(aw + af) * BigInt(rw + rf)).toString();
      const decimals = af.length + rf.length + 2; // + 2: the rate is in percent
      const padded = digits.padStart(decimals + 1, '0');
      const day = (padded.slice(0, padded.length - decimals) + padded.slice(padded.length - decimals).padEnd(scale, '0').slice(0, scale));
      let sum = '0';
      for (let count = 0; count < days; count += 1) {
        const width = Math.max(sum.length, day.length) + 1;
        const [x, y] = [sum.padStart(width, '0'), day.padStart(width, '0')];
        let carry = 0;
        let out = '';
        for (let index = width - 1; index >= 0; index -= 1) {
          const total = Number(x[index]) + Number(y[index]) + carry;
          out = String(total % 10) + out;
          carry = total >= 10 ? 1 : 0;
        }
        sum = out.replace(/^0+(?=\d)/, '');
      }
      const full = sum.padStart(scale + 1, '0');
      return `${full.slice(0, full.length - scale)}.${full.slice(full.length - scale)}`;
    };
    let seed = 7;
    const next = (bound: number) => { seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648; return seed % bound; };
    for (let run = 0; run < 500; run += 1) {
      const amount = `${next(100_000)}.${String(next(1_000_000)).padStart(6, '0')}`;
      const rate = `0.${String(next(10_000)).padStart(4, '0')}`;
      const days = 1 + next(365);
      expect(totalInterestText(amount, rate, days, 6), `${amount} × ${rate}% × ${days}`).toBe(oracle(amount, rate, days, 6));
    }
  });

  it('counts every started day, at least one', () => {
    const start = Date.UTC(2026, 10, 1, 8);
    expect(startedDays(start, start)).toBe(1);
    expect(startedDays(start, start + 1)).toBe(1);
    expect(startedDays(start, start + dayMs)).toBe(1);
    expect(startedDays(start, start + dayMs + 1)).toBe(2);
    expect(startedDays(start, start + 10 * dayMs - 1)).toBe(10);
    expect(startedDays(start, start - 5_000)).toBe(1);
  });
});

describe('repaying all', () => {
  it('adds the started days the server has not charged yet, with the penalty past the term', () => {
    // 1 000 USDT at 0.05 % a day (0.5), penalty 0.1 % (1) a day, 30 days.
    const principal = 1_000_000_000n;
    expect(chargesAtomic(principal, '0.05', '0.1', 30, 1)).toBe(500_000n);
    expect(chargesAtomic(principal, '0.05', '0.1', 30, 30)).toBe(15_000_000n);
    // Two days past the term: 32 days of interest and two of penalty.
    expect(chargesAtomic(principal, '0.05', '0.1', 30, 32)).toBe(16_000_000n + 2_000_000n);
    // Nothing charged yet on day one: owed 1 000, all of it 1 000.5.
    expect(payoffAtomic(principal, 0n, 500_000n)).toBe(1_000_500_000n);
    // The job already charged that day: nothing is added.
    expect(payoffAtomic(1_000_500_000n, 500_000n, 500_000n)).toBe(1_000_500_000n);
  });
});

describe('loan-to-value', () => {
  it('is what is owed over the collateral at the price, in percent cut at two decimals', () => {
    // 30 000 USDT against 0.5 BTC at 67 250: 30 000 / 33 625 = 89.219…%, rounded up as the server does.
    expect(ltvPercent('30000', '0.5', '67250.00')).toBe('89.22');
    expect(ltvPercent('21856.25', '0.5', '67250.00')).toBe('65.00');
    expect(ltvPercent('1', '0', '67250')).toBeUndefined();
    expect(ltvPercent('x', '1', '1')).toBeUndefined();
  });

  it('refuses exactly above the initial level, not at it', () => {
    // 0.5 BTC at 67 250 is 33 625 USDT; 65 % of it is 21 856.25.
    expect(ltvAbove('21856.25', '0.5', '67250.00', '65')).toBe(false);
    expect(ltvAbove('21856.250001', '0.5', '67250.00', '65')).toBe(true);
    expect(ltvAbove('21856.249999', '0.5', '67250.00', '65')).toBe(false);
    expect(maxLoanText('0.5', '67250.00', '65', 6)).toBe('21856.250000');
    expect(maxLoanText('0.33333333', '3000.5', '55', 6)).toBe('550.091661');
    expect(ltvAbove(maxLoanText('0.33333333', '3000.5', '55', 6)!, '0.33333333', '3000.5', '55')).toBe(false);
  });

  it('places an LTV against the margin-call and liquidation levels', () => {
    expect(ltvZone('79.99', '80', '90')).toBe('safe');
    expect(ltvZone('80.00', '80', '90')).toBe('margin_call');
    expect(ltvZone('90', '80', '90')).toBe('liquidation');
    expect(compareDecimal('10.5', '10.50')).toBe(0);
    expect(compareDecimal('9.99', '10')).toBe(-1);
  });
});

describe('loan form checks', () => {
  const terms = { minAmount: '100.000000', maxAmount: '50000.000000', minDays: 7, maxDays: 180, available: '10000.000000' };

  it('refuses in the server order: form, range, limit, days', () => {
    expect(checkCredit('', '30', terms)).toBe('empty');
    expect(checkCredit('1.1234567', '30', terms)).toBe('invalid');
    expect(checkCredit('-5', '30', terms)).toBe('invalid');
    expect(checkCredit('99.999999', '30', terms)).toBe('below_minimum');
    expect(checkCredit('50000.000001', '30', terms)).toBe('above_maximum');
    expect(checkCredit('10000.000001', '30', terms)).toBe('over_limit');
    expect(checkCredit('10000', '6', terms)).toBe('days_invalid');
    expect(checkCredit('10000', '181', terms)).toBe('days_invalid');
    expect(checkCredit('10000', '7.5', terms)).toBe('days_invalid');
    expect(checkCredit('10000', '180', terms)).toBe('ok');
    expect(checkCredit('1000,5', '30', terms)).toBe('ok');
  });

  it('takes a repayment of all (empty) or of a part no more than owed', () => {
    expect(checkRepayment('', '15.000000', 6)).toBe('ok');
    expect(checkRepayment('15', '15.000000', 6)).toBe('ok');
    expect(checkRepayment('15.000001', '15.000000', 6)).toBe('above_owed');
    expect(checkRepayment('0', '15.000000', 6)).toBe('invalid');
    expect(atomicAt('1.5', 6)).toBe(1_500_000n);
  });

  it('makes client order ids the server accepts', () => {
    const id = newLoanClientOrderId();
    expect(id).toMatch(/^[A-Za-z0-9_.:-]{8,64}$/);
    expect(newLoanClientOrderId()).not.toBe(id);
  });
});
