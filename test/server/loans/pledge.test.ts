// Pledge loans through the real protocol, with feed prices published on the app's market bus: the
// collateral locked at once within the initial LTV, released on rejection, added later; the live
// LTV; the margin call (once) and the liquidation at the tick that crosses the threshold, with its
// receipt citing the tick; and a property test over random loans, repayments and price paths that
// checks conservation and that each loan is liquidated exactly at the tick a brute-force oracle
// (the integer LTV comparison over the same ticks) names; an approval refused when the price has
// moved the LTV above the initial one.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import { loanAdminPaths, loanPaths, type Loan } from '../../../src/api/contract/loans.ts';
import { auditLog, loans, userMessages } from '../../../server/db/schema.ts';
import { expectOk, expectRefused, forEachDatabase } from '../helpers.ts';
import {
  applyPledge, approve, balanceOf, borrower, expectLedgerSound, moneySnapshot, operatorToken, publishPrice, reject, settingOf,
} from './loanHelpers.ts';

const atomic = (text: string, scale: number) => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
};
const usdt = (text: string) => atomic(text, 6);
const btc = (text: string) => atomic(text, 8);
const format = (value: bigint, scale: number) => {
  const digits = value.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
};

forEachDatabase((server) => {
  const admin = () => operatorToken(server);
  const detail = async (token: string, id: string) => expectOk(await server.get(loanPaths.detail, { id }, { token })).body.result as Loan;

  describe('POST /api/prod/appLoanOrder/pledgeApply', () => {
    it('locks the collateral within the initial LTV, refuses beyond it, and releases it on rejection', async () => {
      await publishPrice(server, 'BTCUSDT', '60000.00');
      const user = await borrower(server, { BTC: '1' });
      const setting = await settingOf(server, 'pledge', 'BTC');
      expect(setting).toMatchObject({ initialLtv: '65', marginCallLtv: '80', liquidationLtv: '90', liquidationFee: '2', dailyRate: '0.03' });
      expect(await settingOf(server, 'pledge', 'ETH')).toMatchObject({ initialLtv: '55', marginCallLtv: '75', liquidationLtv: '85' });
      const before = await moneySnapshot(server);
      // 39 001 / 60 000 = 65.001 %: above the initial LTV.
      expectRefused(await applyPledge(server, user, 'BTC', '39001', '1', 30), 400, 'collateral_insufficient');
      expectRefused(await applyPledge(server, user, 'BTC', '1000', '1.5', 30), 400, 'balance_insufficient');
      const credit = await settingOf(server, 'credit');
      expectRefused(await applyPledge(server, user, 'BTC', '1000', '0.5', 30, { settingId: credit.id }), 400, 'collateral_unsupported');
      expectRefused(await applyPledge(server, user, 'BTC', '1000', '0.000000001', 30, { termsHash: '0'.repeat(64) }), 400, 'amount_too_many_decimals');
      const after = await moneySnapshot(server);
      expect([after.transfers, after.loans]).toEqual([before.transfers, before.loans]);

      // Exactly 65 %: allowed.
      const loan = expectOk(await applyPledge(server, user, 'BTC', '39000', '1', 30)).body.result as Loan;
      expect(loan).toMatchObject({ status: 'pending', collateralAsset: 'BTC', collateral: '1.00000000', ltv: '65.00', price: '60000.00' });
      expect(await balanceOf(server, user.userId, 'BTC', 'spot')).toBe(0n);
      expect(await balanceOf(server, user.userId, 'BTC', 'collateral')).toBe(btc('1'));
      expectOk(await reject(server, await admin(), loan.id, 'Try a smaller amount'));
      expect(await balanceOf(server, user.userId, 'BTC', 'spot')).toBe(btc('1'));
      expect(await balanceOf(server, user.userId, 'BTC', 'collateral')).toBe(0n);
      await expectLedgerSound(server);
    });

    it('calls the margin once, then liquidates at the crossing tick with a receipt citing it', async () => {
      await publishPrice(server, 'BTCUSDT', '60000.00');
      const user = await borrower(server, { BTC: '1.5' });
      const loan = expectOk(await applyPledge(server, user, 'BTC', '30000', '1', 30)).body.result as Loan;
      expectOk(await approve(server, await admin(), loan.id));
      expect(await balanceOf(server, user.userId, 'USDT', 'spot')).toBe(usdt('30000'));
      // More collateral, then back to one BTC's worth of margin by price.
      const added = expectOk(await server.post(loanPaths.addCollateral, { id: loan.id, amount: '0.5' }, { token: user.token })).body.result as Loan;
      expect(added.collateral).toBe('1.50000000');
      expect(await balanceOf(server, user.userId, 'BTC', 'collateral')).toBe(btc('1.5'));
      const marginCalls = async () => (await server.db.select().from(userMessages)
        .where(sql`${userMessages.userId} = ${user.userId} and ${userMessages.kind} = 'loan_margin_call'`)).length;
      // 30 000 / (1.5 × 26 000) = 76.9 %: nothing; 80 % is at 25 000.
      await publishPrice(server, 'BTCUSDT', '26000.00');
      expect((await detail(user.token, loan.id)).marginCalled).toBe(false);
      await publishPrice(server, 'BTCUSDT', '25000.01');
      expect(await marginCalls()).toBe(0);
      await publishPrice(server, 'BTCUSDT', '25000.00');
      expect(await marginCalls()).toBe(1);
      expect(await detail(user.token, loan.id)).toMatchObject({ status: 'active', marginCalled: true, ltv: '80.00' });
      await publishPrice(server, 'BTCUSDT', '24000.00');
      expect(await marginCalls()).toBe(1);
      // 90 % at 22 222.22…: 22 222.23 is not there yet, 22 222.22 is.
      await publishPrice(server, 'BTCUSDT', '22222.23');
      expect((await detail(user.token, loan.id)).status).toBe('active');
      await publishPrice(server, 'BTCUSDT', '22222.22');
      const liquidated = await detail(user.token, loan.id);
      expect(liquidated.status).toBe('liquidated');
      // Owed: 30 000 + one started day at 0.03 % (9); proceeds 1.5 × 22 222.22 = 33 333.33; fee 2 % of them.
      const receipt = liquidated.liquidation!;
      expect(receipt).toMatchObject({
        price: '22222.22', symbol: 'BTCUSDT', collateralSold: '1.50000000', proceeds: '33333.330000', repaid: '30009.000000',
        fee: '666.666600', returned: '2657.663400', shortfall: '0.000000', tickTime: server.clock.now().getTime(),
      });
      expect(receipt.tickId).toBeDefined();
      expect(await balanceOf(server, user.userId, 'USDT', 'loan')).toBe(0n);
      expect(await balanceOf(server, user.userId, 'BTC', 'collateral')).toBe(0n);
      expect(await balanceOf(server, user.userId, 'USDT', 'spot')).toBe(usdt('30000') + usdt('2657.6634'));
      const [message] = await server.db.select().from(userMessages).where(sql`${userMessages.userId} = ${user.userId} and ${userMessages.kind} = 'loan_liquidated'`);
      expect(message.params).toMatchObject({ price: '22222.22', returned: '2657.663400' });
      // Later ticks do nothing more.
      await publishPrice(server, 'BTCUSDT', '10000.00');
      expect((await detail(user.token, loan.id)).status).toBe('liquidated');
      await expectLedgerSound(server);
    });

    it('calls the margin again after collateral brought the LTV back under the threshold, not while it stays above', async () => {
      await publishPrice(server, 'BTCUSDT', '60000.00');
      const user = await borrower(server, { BTC: '2' });
      const loan = expectOk(await applyPledge(server, user, 'BTC', '30000', '1', 30)).body.result as Loan;
      expectOk(await approve(server, await admin(), loan.id));
      const marginCalls = async () => (await server.db.select().from(userMessages)
        .where(sql`${userMessages.userId} = ${user.userId} and ${userMessages.kind} = 'loan_margin_call'`)).length;
      const add = async (amount: string) =>
        expectOk(await server.post(loanPaths.addCollateral, { id: loan.id, amount }, { token: user.token })).body.result as Loan;
      // 30 000 / 37 500 = 80 %: the first call.
      await publishPrice(server, 'BTCUSDT', '37500.00');
      expect(await marginCalls()).toBe(1);
      // A little collateral at a lower price: 30 000 / (1.01 × 37 000) = 80.28 %, still at or above 80 %:
      // the call stays made, and is not repeated.
      await publishPrice(server, 'BTCUSDT', '37000.00');
      expect((await add('0.01')).marginCalled).toBe(true);
      await publishPrice(server, 'BTCUSDT', '36900.00');
      expect(await marginCalls()).toBe(1);
      // Half a BTC more: 30 000 / (1.51 × 36 900) = 53.8 %, the call is cleared...
      expect((await add('0.5')).marginCalled).toBe(false);
      // ...and made again when the LTV comes back to 80 %: 30 000 / (1.51 × 24 834.44) = 80.00 %.
      await publishPrice(server, 'BTCUSDT', '25000.00');
      expect(await marginCalls()).toBe(1);
      await publishPrice(server, 'BTCUSDT', '24834.43');
      expect(await marginCalls()).toBe(2);
      expect(await detail(user.token, loan.id)).toMatchObject({ status: 'active', marginCalled: true });
      await expectLedgerSound(server);
    });

    it('a gap below the proceeds: the house absorbs the shortfall and takes no fee', async () => {
      await publishPrice(server, 'BTCUSDT', '60000.00');
      const user = await borrower(server, { BTC: '1' });
      const loan = expectOk(await applyPledge(server, user, 'BTC', '39000', '1', 30)).body.result as Loan;
      expectOk(await approve(server, await admin(), loan.id));
      await publishPrice(server, 'BTCUSDT', '30000.00');
      const liquidated = await detail(user.token, loan.id);
      expect(liquidated).toMatchObject({ status: 'liquidated' });
      expect(liquidated.liquidation).toMatchObject({ proceeds: '30000.000000', repaid: '39011.700000', fee: '0.000000', returned: '0.000000', shortfall: '9011.700000' });
      expect(await balanceOf(server, user.userId, 'USDT', 'loan')).toBe(0n);
      await expectLedgerSound(server);
    });
  });

  describe('POST /api/admin/loans/:id/approve', () => {
    it('refuses to pay out a pending pledge loan whose LTV at the current recorded price is above the initial LTV, and moves nothing', async () => {
      await publishPrice(server, 'BTCUSDT', '60000.00');
      const user = await borrower(server, { BTC: '1' });
      // Exactly the initial 65 % when filed.
      const loan = expectOk(await applyPledge(server, user, 'BTC', '39000', '1', 30)).body.result as Loan;
      const token = await admin();
      // The price falls while the application waits: 39 000 / 59 000 = 66.10… %.
      await publishPrice(server, 'BTCUSDT', '59000.00');
      const before = await moneySnapshot(server);
      const refused = await approve(server, token, loan.id);
      expectRefused(refused, 409, 'loan_ltv_above_initial');
      expect(refused.body.result).toMatchObject({ ltv: '66.11', initialLtv: '65', price: '59000.00', symbol: 'BTCUSDT' });
      expect(refused.body.message).toContain('66.11 %');
      expect(await moneySnapshot(server)).toEqual(before);
      expect((await detail(user.token, loan.id)).status).toBe('pending');
      expect(await balanceOf(server, user.userId, 'USDT', 'spot')).toBe(0n);
      expect(await balanceOf(server, user.userId, 'BTC', 'collateral')).toBe(btc('1'));
      const audits = async () => (await server.db.select().from(auditLog)
        .where(sql`${auditLog.action} = 'loan.approve' and ${auditLog.targetId} = ${loan.id}`)).length;
      expect(await audits()).toBe(0);
      // A stale price is no price to pay out against either.
      server.clock.advance(61_000);
      const stale = await approve(server, token, loan.id);
      expect([stale.status, stale.body.result.error]).toEqual([503, 'market_unavailable']);
      expect(await moneySnapshot(server)).toEqual(before);
      // Back at 60 000 the loan is within 65 % again and is paid out.
      await publishPrice(server, 'BTCUSDT', '60000.00');
      expect((expectOk(await approve(server, token, loan.id)).body.result as Loan).status).toBe('active');
      expect(await balanceOf(server, user.userId, 'USDT', 'spot')).toBe(usdt('39000'));
      expect(await audits()).toBe(1);
      await expectLedgerSound(server);
    });
  });

  it('keeps the thresholds and fee a loan was signed with when the offer is edited later', async () => {
    await publishPrice(server, 'BTCUSDT', '60000.00');
    const user = await borrower(server, { BTC: '1' });
    const setting = await settingOf(server, 'pledge', 'BTC');
    const loan = expectOk(await applyPledge(server, user, 'BTC', '30000', '1', 30)).body.result as Loan;
    const token = await admin();
    expectOk(await approve(server, token, loan.id));
    const edit = (body: Record<string, string>) => server.post(loanAdminPaths.setting.replace(':id', setting.id), body, { token });
    expectOk(await edit({ marginCallLtv: '70', liquidationLtv: '75', liquidationFee: '5' }));
    try {
      expect(await detail(user.token, loan.id)).toMatchObject({ marginCallLtv: '80', liquidationLtv: '90', liquidationFee: '2' });
      // 30 000 / 39 000 = 76.92… % (shown rounded up): past the edited offer's 70 % and 75 %, under the signed 80 % and 90 %.
      await publishPrice(server, 'BTCUSDT', '39000.00');
      expect(await detail(user.token, loan.id)).toMatchObject({ status: 'active', marginCalled: false, ltv: '76.93' });
      // The signed margin call still comes at 80 % (37 500).
      await publishPrice(server, 'BTCUSDT', '37500.00');
      expect(await detail(user.token, loan.id)).toMatchObject({ status: 'active', marginCalled: true });
      // And the liquidation at the signed 90 % (33 333.33…) with the signed 2 % fee.
      await publishPrice(server, 'BTCUSDT', '33333.34');
      expect((await detail(user.token, loan.id)).status).toBe('active');
      await publishPrice(server, 'BTCUSDT', '33333.33');
      const liquidated = await detail(user.token, loan.id);
      expect(liquidated.status).toBe('liquidated');
      expect(liquidated.liquidation).toMatchObject({ proceeds: '33333.330000', fee: '666.666600' });
    } finally {
      expectOk(await edit({ marginCallLtv: '80', liquidationLtv: '90', liquidationFee: '2' }));
    }
    await expectLedgerSound(server);
  });

  it('refuses to value collateral at a stale price and moves nothing', async () => {
    await publishPrice(server, 'BTCUSDT', '60000.00');
    const user = await borrower(server, { BTC: '1', USDT: '10' });
    server.clock.advance(61_000);
    const before = await moneySnapshot(server);
    const stale = await applyPledge(server, user, 'BTC', '1000', '0.5', 30);
    expect(stale.status).toBe(503);
    expect(stale.body.result.error).toBe('market_unavailable');
    expect(await moneySnapshot(server)).toEqual(before);
    await publishPrice(server, 'BTCUSDT', '60000.00');
    expectOk(await applyPledge(server, user, 'BTC', '1000', '0.5', 30));
  });

  describe('liquidation against a brute-force oracle', () => {
    it('random loans, repayments and price paths keep conservation and liquidate exactly at the crossing tick', async () => {
      const setting = await settingOf(server, 'pledge', 'BTC');
      const liquidationBp = 9000n;
      const marginBp = 8000n;
      expect(setting.liquidationLtv).toBe('90');
      const token = await admin();
      await fc.assert(fc.asyncProperty(
        fc.integer({ min: 2_000_000, max: 8_000_000 }), // start price in cents
        fc.integer({ min: 1_000_000, max: 200_000_000 }), // collateral in satoshi
        fc.integer({ min: 10, max: 65 }), // initial LTV percent
        fc.array(fc.record({
          move: fc.integer({ min: -1500, max: 800 }), repay: fc.integer({ min: 0, max: 30 }),
          // Some ticks land on a threshold price itself or a cent either side: where an off-by-one shows.
          snap: fc.option(fc.record({ level: fc.constantFrom(marginBp, liquidationBp), offset: fc.integer({ min: -1, max: 1 }) }), { freq: 2 }),
        }), { minLength: 3, maxLength: 8 }),
        async (startCents, collateralSats, ltvPercent, steps) => {
          const start = BigInt(startCents);
          const collateral = BigInt(collateralSats);
          const value = (collateral * start * 10n ** 6n) / 10n ** 10n; // USDT atomic
          const amount = ((value * BigInt(ltvPercent)) / 100n / 1_000_000n) * 1_000_000n;
          fc.pre(amount >= usdt('100') && amount <= usdt('500000'));
          await publishPrice(server, 'BTCUSDT', format(start, 2));
          const user = await borrower(server, { BTC: format(collateral, 8), USDT: '1000' });
          const loan = expectOk(await applyPledge(server, user, 'BTC', format(amount, 6), format(collateral, 8), 30)).body.result as Loan;
          expectOk(await approve(server, token, loan.id));
          const daily = (amount * 300n) / 1_000_000n;
          let interest = 0n;
          let repaid = 0n;
          let price = start;
          let liquidatedAt = -1;
          // A margin call is made once, and made again only after a repayment brought the LTV at the
          // last price back under its threshold (the call is then cleared).
          let marginCalled = false;
          for (const [index, step] of steps.entries()) {
            if (liquidatedAt < 0 && step.repay > 0) {
              // A repayment charges the first (started) day once, then pays part of what is owed.
              const owedNow = amount + daily - repaid;
              const part = (owedNow * BigInt(step.repay)) / 100n;
              if (part > 0n) {
                expectOk(await server.post(loanPaths.repay, { id: loan.id, amount: format(part, 6) }, { token: user.token }));
                interest = daily;
                repaid += part;
                const owedAfter = amount + interest - repaid;
                if (marginCalled && owedAfter * 10_000n * 10n ** 10n < marginBp * collateral * price * 10n ** 6n) marginCalled = false;
              }
            }
            price = price + (price * BigInt(step.move)) / 10_000n;
            if (step.snap && liquidatedAt < 0) {
              const owed = amount + interest - repaid;
              price = (owed * 10_000n * 10n ** 10n) / (step.snap.level * collateral * 10n ** 6n) + BigInt(step.snap.offset);
            }
            if (price < 1n) price = 1n;
            await publishPrice(server, 'BTCUSDT', format(price, 2));
            if (liquidatedAt < 0) {
              const owed = amount + interest - repaid;
              // The oracle: owed / (collateral × price) ≥ threshold, in integers (BTC 8, price 2, USDT 6 decimals).
              const left = owed * 10_000n * 10n ** 10n;
              // Both thresholds crossed at one tick: the liquidation, with no margin call before it.
              if (left >= liquidationBp * collateral * price * 10n ** 6n) liquidatedAt = index;
              else if (left >= marginBp * collateral * price * 10n ** 6n) marginCalled = true;
            }
            const [row] = await server.db.select().from(loans).where(eq(loans.id, BigInt(loan.id)));
            expect(row.status).toBe(liquidatedAt >= 0 ? 'liquidated' : 'active');
            expect(row.marginCalledAt !== null).toBe(marginCalled);
          }
          await expectLedgerSound(server);
        },
      ), { numRuns: Number(process.env.LOAN_PROPERTY_RUNS ?? 12), seed: 22 });
    }, 600_000);
  });
});
