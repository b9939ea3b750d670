// The investment pages' arithmetic (entities/invest/investMath.ts): the expected return of a
// purchase is exactly what the server promises, floor(amount × ppm × days / 10^6) in atomic units,
// with no float anywhere, and the purchase checks refuse in the server's order.
import { describe, expect, it } from 'vitest';
import {
  atomicOf, checkPurchase, coverageView, dailyIncome, expectedReturn, machinesCost, newClientOrderId, normaliseAmountText,
  plainText, ppmOfPercent, redemptionFee, scaleOf, termsOf,
} from '../../src/entities/invest/investMath.ts';
import { raisedPercent } from '../../src/features/invest/BondListPage.tsx';
import { levelProgress } from '../../src/features/invest/VipLevelPage.tsx';
import { minedAssets } from '../../src/features/invest/MiningPoolPage.tsx';
import type { Product } from '../../src/api/contract/products.ts';

const product: Product = {
  id: '1', type: 'arbitrage', name: 'Arbitrage 30', asset: 'USDT', payoutAsset: 'USDT', status: 'open', days: 30, dailyRate: '0.05',
  firstDayRule: 'next_day', minLevel: 0, minAmount: '100.000000', maxAmount: '10000.000000', perUserMax: '0.000000', totalCap: '50000.000000',
  sold: '49000.000000', earlyRedeem: true, earlyRedeemFee: '1', coverage: '135.20', reserve: '800.000000', owed: '591.000000',
  returnSource: 'reserve_fixed_rate',
};

describe('rates and amounts', () => {
  it('reads a percent per day as parts per million, digit by digit', () => {
    expect(ppmOfPercent('0.05')).toBe(500n);
    expect(ppmOfPercent('1.5')).toBe(15_000n);
    expect(ppmOfPercent('0.0375')).toBe(375n);
    expect(ppmOfPercent('0.1000')).toBe(1000n);
    expect(ppmOfPercent('0.12345')).toBe(0n);
    expect(ppmOfPercent('-1')).toBe(0n);
    expect(ppmOfPercent('abc')).toBe(0n);
  });
  it('reads the scale from the digits the server wrote', () => {
    expect(scaleOf('100.000000')).toBe(6);
    expect(scaleOf('0.00100000')).toBe(8);
    expect(scaleOf('7')).toBe(0);
    expect(atomicOf('100.000000', 6)).toBe(100_000_000n);
    expect(atomicOf('garbage', 6)).toBe(0n);
    expect(plainText(12_500_000n, 6)).toBe('12.5');
    expect(plainText(0n, 6)).toBe('0');
    expect(normaliseAmountText(' 12,5 ')).toBe('12.5');
  });
});

describe('expected return', () => {
  it('is floor(amount × ppm × days / 10^6), exactly', () => {
    // 1 000 USDT at 0.05 % a day for 30 days: 15 USDT.
    expect(expectedReturn(1_000_000_000n, 500n, 30)).toBe(15_000_000n);
    // 333.333333 USDT at 0.0375 % for 7 days: 333333333 × 375 × 7 / 10^6 = 874999.999125 → 874999.
    expect(expectedReturn(333_333_333n, 375n, 7)).toBe(874_999n);
    expect(dailyIncome(333_333_333n, 375n)).toBe(124_999n);
    // The whole term is rounded once, not day by day: 7 daily floors would give 874993.
    expect(expectedReturn(333_333_333n, 375n, 7)).toBeGreaterThan(dailyIncome(333_333_333n, 375n) * 7n);
  });
  it('stays exact where a float would not (amounts past 2^53)', () => {
    const amount = 123_456_789_012_345_678_901n;
    expect(expectedReturn(amount, 777n, 365)).toBe((amount * 777n * 365n) / 1_000_000n);
    expect(Number.isSafeInteger(Number(amount))).toBe(false);
  });
  it('is nothing for nothing', () => {
    expect(expectedReturn(0n, 500n, 30)).toBe(0n);
    expect(expectedReturn(100n, 0n, 30)).toBe(0n);
    expect(expectedReturn(100n, 500n, 0)).toBe(0n);
  });
  it('charges early redemption at the stated percent, rounded down', () => {
    expect(redemptionFee(1_000_000_000n, ppmOfPercent('1'))).toBe(10_000_000n);
    expect(redemptionFee(999n, ppmOfPercent('1'))).toBe(9n);
    expect(redemptionFee(1_000n, 0n)).toBe(0n);
    expect(machinesCost(2_500_000_000n, 3)).toBe(7_500_000_000n);
  });
});

describe('checking a purchase', () => {
  const terms = termsOf(product, 5_000_000_000n);
  it('takes the terms from the product', () => {
    expect(terms).toMatchObject({ scale: 6, minimum: 100_000_000n, maximum: 10_000_000_000n, ratePpm: 500n, days: 30, remaining: 1_000_000_000n });
  });
  it('quotes a good amount with its expected return and the total at the end', () => {
    expect(checkPurchase('200', terms)).toEqual({ ok: true, amount: 200_000_000n, expected: 3_000_000n, daily: 100_000n, total: 203_000_000n });
  });
  it('refuses in the server order, keeping the figures past the amount form', () => {
    expect(checkPurchase('', terms)).toEqual({ ok: false, refusal: 'amount_empty' });
    expect(checkPurchase('-5', terms)).toEqual({ ok: false, refusal: 'amount_negative' });
    expect(checkPurchase('1e3', terms)).toEqual({ ok: false, refusal: 'amount_exponent' });
    expect(checkPurchase('1.0000001', terms)).toEqual({ ok: false, refusal: 'amount_too_many_decimals' });
    expect(checkPurchase('abc', terms)).toEqual({ ok: false, refusal: 'amount_malformed' });
    expect(checkPurchase('0', terms)).toEqual({ ok: false, refusal: 'amount_not_positive' });
    expect(checkPurchase('99.999999', terms)).toMatchObject({ ok: false, refusal: 'amount_below_product_minimum', quote: { amount: 99_999_999n } });
    expect(checkPurchase('10000.000001', { ...terms, remaining: undefined })).toMatchObject({ ok: false, refusal: 'amount_above_product_maximum' });
    expect(checkPurchase('1000.000001', terms)).toMatchObject({ ok: false, refusal: 'amount_above_remaining' });
    expect(checkPurchase('900', { ...terms, available: 899_999_999n })).toMatchObject({ ok: false, refusal: 'balance_insufficient', quote: { expected: 13_500_000n } });
  });
  it('lets the server decide the balance when it is not known', () => {
    expect(checkPurchase('900', termsOf(product)).ok).toBe(true);
  });
  it('counts a bond against its target', () => {
    const bond = termsOf({ ...product, type: 'bond', target: '2000.000000', totalCap: '0.000000', sold: '1500.000000' });
    expect(bond.remaining).toBe(500_000_000n);
  });
});

describe('the rest of the pages figures', () => {
  it('makes a fresh client order id of the contract form each time', () => {
    const first = newClientOrderId();
    expect(first).toMatch(/^[A-Za-z0-9_.:-]{8,64}$/);
    expect(newClientOrderId()).not.toBe(first);
  });
  it('reads coverage, infinite when nothing is owed, low under 100 %', () => {
    expect(coverageView('∞')).toMatchObject({ infinite: true, low: false });
    expect(coverageView('135.20')).toMatchObject({ infinite: false, percent: '135.20', low: false });
    expect(coverageView('99.99')).toMatchObject({ low: true });
  });
  it('shows what a raise has gathered, capped at its target', () => {
    expect(raisedPercent('1500.000000', '2000.000000')).toBe(75);
    expect(raisedPercent('2500.000000', '2000.000000')).toBe(100);
    expect(raisedPercent('1.000000', undefined)).toBe(0);
  });
  it('shows progress to the next VIP level from the current threshold', () => {
    const levels = [
      { level: 0, name: 'Standard', minAssets: '0.000000', creditLimit: '0.000000', productsUnlocked: 3 },
      { level: 1, name: 'VIP 1', minAssets: '1000.000000', creditLimit: '500.000000', productsUnlocked: 4 },
      { level: 2, name: 'VIP 2', minAssets: '5000.000000', creditLimit: '2000.000000', productsUnlocked: 5 },
    ];
    expect(levelProgress({ levels, my: { level: 1, highestLevel: 1, assets: '2000.000000', checkedAt: 0, toNext: '3000.000000' } })).toBe(25);
    expect(levelProgress({ levels, my: { level: 2, highestLevel: 2, assets: '9000.000000', checkedAt: 0 } })).toBe(100);
    expect(levelProgress({ levels })).toBe(0);
  });
});

describe('the mining pool\'s assets', () => {
  it('offers every asset the machines mine, BTC first, each once', () => {
    expect(minedAssets([])).toEqual(['BTC']);
    expect(minedAssets([{ payoutAsset: 'LTC' }, { payoutAsset: 'BTC' }, { payoutAsset: 'ETH' }, { payoutAsset: 'LTC' }])).toEqual(['BTC', 'ETH', 'LTC']);
  });
});
