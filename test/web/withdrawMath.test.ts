// The withdrawal's figures (features/wallet/withdrawMath.ts): exact bigint arithmetic at the
// scales the wallet has (USDT 6, BTC 8, ETH 18), the fee on top of the amount, and the refusals
// in the server's order.
import { describe, expect, it } from 'vitest';
import {
  arrivalAmount, atomicOf, maxWithdrawal, maxWithdrawalText, plainText, quoteWithdrawal, totalDebit,
} from '../../src/features/wallet/withdrawMath.ts';

describe('atomicOf', () => {
  it('reads the server\'s decimal strings at the currency\'s scale', () => {
    expect(atomicOf('100.000000', 6)).toBe(100_000_000n);
    expect(atomicOf('0.00020000', 8)).toBe(20_000n);
    expect(atomicOf('0.002000000000000000', 18)).toBe(2_000_000_000_000_000n);
    expect(atomicOf('123456789.123456789123456789', 18)).toBe(123456789123456789123456789n);
  });
  it('counts what is missing or unreadable as zero', () => {
    expect(atomicOf(undefined, 6)).toBe(0n);
    expect(atomicOf('', 6)).toBe(0n);
    expect(atomicOf('-1', 6)).toBe(0n);
  });
});

describe('maxWithdrawal', () => {
  it('is the available balance less the fee (scale 6)', () => {
    expect(maxWithdrawal(atomicOf('100', 6), atomicOf('1', 6))).toBe(99_000_000n);
    expect(maxWithdrawalText(atomicOf('100', 6), atomicOf('1', 6), 6)).toBe('99');
    expect(maxWithdrawalText(atomicOf('100.5', 6), atomicOf('1', 6), 6)).toBe('99.5');
  });
  it('is exact at scale 8 and 18', () => {
    expect(maxWithdrawalText(atomicOf('0.01234567', 8), atomicOf('0.0002', 8), 8)).toBe('0.01214567');
    expect(maxWithdrawalText(atomicOf('1.000000000000000001', 18), atomicOf('0.002', 18), 18)).toBe('0.998000000000000001');
    // A float would have lost the last digit here.
    expect(maxWithdrawal(atomicOf('9007199254.740993', 18), 1n)).toBe(9007199254740993000000000000n - 1n);
  });
  it('is never negative when the fee is more than the balance', () => {
    expect(maxWithdrawal(atomicOf('0.5', 6), atomicOf('1', 6))).toBe(0n);
    expect(maxWithdrawal(atomicOf('1', 6), atomicOf('1', 6))).toBe(0n);
    expect(maxWithdrawalText(0n, atomicOf('5', 6), 6)).toBe('0');
  });
});

describe('total and arrival', () => {
  it('takes the fee on top: the total leaves the balance, the amount arrives', () => {
    expect(totalDebit(atomicOf('10', 6), atomicOf('1', 6))).toBe(atomicOf('11', 6));
    expect(arrivalAmount(atomicOf('10', 6))).toBe(atomicOf('10', 6));
    expect(totalDebit(atomicOf('0.001', 8), atomicOf('0.0002', 8))).toBe(atomicOf('0.0012', 8));
    expect(plainText(totalDebit(atomicOf('0.1', 18), atomicOf('0.002', 18)), 18)).toBe('0.102');
  });
});

describe('quoteWithdrawal', () => {
  const usdt = { scale: 6, available: atomicOf('100', 6), fee: atomicOf('1', 6), minimum: atomicOf('10', 6) };

  it('quotes a valid amount: fee, total and arrival', () => {
    expect(quoteWithdrawal('10', usdt)).toEqual({ ok: true, amount: 10_000_000n, fee: 1_000_000n, total: 11_000_000n, arrival: 10_000_000n });
    expect(quoteWithdrawal(' 99 ', usdt)).toMatchObject({ ok: true, total: 100_000_000n });
  });

  it('refuses what the parser refuses, with its code', () => {
    expect(quoteWithdrawal('', usdt)).toEqual({ ok: false, refusal: 'amount_empty' });
    expect(quoteWithdrawal('-5', usdt)).toEqual({ ok: false, refusal: 'amount_negative' });
    expect(quoteWithdrawal('1e3', usdt)).toEqual({ ok: false, refusal: 'amount_exponent' });
    expect(quoteWithdrawal('1.2.3', usdt)).toEqual({ ok: false, refusal: 'amount_malformed' });
    expect(quoteWithdrawal('10.1234567', usdt)).toEqual({ ok: false, refusal: 'amount_too_many_decimals' });
    expect(quoteWithdrawal('0', usdt)).toEqual({ ok: false, refusal: 'amount_not_positive' });
  });

  it('refuses below the minimum, and above the balance counting the fee, with the figures', () => {
    expect(quoteWithdrawal('9.999999', usdt)).toMatchObject({ ok: false, refusal: 'amount_below_minimum' });
    // 99.000001 + 1 is more than 100: the fee counts.
    const over = quoteWithdrawal('99.000001', usdt);
    expect(over).toMatchObject({ ok: false, refusal: 'balance_insufficient', quote: { total: 100_000_001n } });
  });

  it('works at scale 18 without losing a digit', () => {
    const eth = { scale: 18, available: atomicOf('1', 18), fee: atomicOf('0.002', 18), minimum: atomicOf('0.01', 18) };
    expect(quoteWithdrawal('0.998', eth)).toMatchObject({ ok: true, total: 10n ** 18n });
    expect(quoteWithdrawal('0.998000000000000001', eth)).toMatchObject({ ok: false, refusal: 'balance_insufficient' });
    expect(quoteWithdrawal('0.0100000000000000001', eth)).toEqual({ ok: false, refusal: 'amount_too_many_decimals' });
  });

  it('works at scale 8', () => {
    const btc = { scale: 8, available: atomicOf('0.005', 8), fee: atomicOf('0.0002', 8), minimum: atomicOf('0.001', 8) };
    expect(quoteWithdrawal('0.0048', btc)).toMatchObject({ ok: true, total: 500_000n, arrival: 480_000n });
    expect(quoteWithdrawal('0.00099999', btc)).toMatchObject({ ok: false, refusal: 'amount_below_minimum' });
  });
});
