// VIP levels (issue 22): the level follows total assets in USDT from the real ledger (spot,
// frozen, margin, product holdings, collateral, minus loans; BTC at the recorded feed price),
// rises and falls with the daily job (run twice the same day: the second answers the first),
// keeps the highest level reached, is re-checked after a credited deposit, never counts demo
// money, and operators edit levels only with thresholds that keep rising. Issue 38: since when each
// level has been held without a break (user_level_holds), which VIP bonuses wait on.
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { levelAdminPaths, levelPaths } from '../../../src/api/contract/levels.ts';
import { productAdminPaths } from '../../../src/api/contract/products.ts';
import { auditLog, userLevelHolds, userLevels, vipLevels } from '../../../server/db/schema.ts';
import { openAccounts, systemShard, type UserAccountKind } from '../../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';
import { insertTicks } from '../../../server/domain/core/market/store.ts';
import { ensureDemoGrant } from '../../../server/domain/core/trading/demo.ts';
import {
  defaultLevels, levelOf, recheckUserLevel, recomputeAllLevels, userVipLevel,
} from '../../../server/domain/core/levels/levels.ts';
import { createOperator, operatorLogin } from '../adminHelpers.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import {
  applyDeposit, approveAsOperator, expectLedgerSound, userIdOf, withDepositAddresses,
} from '../wallet/walletHelpers.ts';

const usdt = (whole: bigint) => whole * 1_000_000n;
const btc = (satoshi: bigint) => satoshi;

let transferCounter = 0;
/** Moves atomic units between deposit clearing and one of the user's accounts (negative: back out). */
async function move(server: TestServer, userId: bigint, asset: string, kind: UserAccountKind, amount: bigint) {
  const [clearing, account] = await openAccounts(server.db, [
    { ledger: 'real', asset, kind: 'deposit_clearing', shard: systemShard('levels-tests') },
    { ledger: 'real', asset, kind, ownerUserId: userId },
  ]);
  transferCounter += 1;
  const id = `levels-test:${transferCounter}:${server.unique('t')}`;
  const result = await postTransfers(server.db, [{
    id, amountAtomic: amount < 0n ? -amount : amount, kind: 'correction', reference: id,
    debitAccountId: amount < 0n ? account : clearing, creditAccountId: amount < 0n ? clearing : account,
  }], server.clock);
  expect(result).toMatchObject({ ok: true });
}

/** A loan paid out: the user's loan account owes `amount`, their spot holds it. */
async function borrow(server: TestServer, userId: bigint, amount: bigint) {
  const [loan, spot] = await openAccounts(server.db, [
    { ledger: 'real', asset: 'USDT', kind: 'loan', ownerUserId: userId },
    { ledger: 'real', asset: 'USDT', kind: 'spot', ownerUserId: userId },
  ]);
  const id = `levels-loan:${server.unique('l')}`;
  const result = await postTransfers(server.db, [{
    id, debitAccountId: loan, creditAccountId: spot, amountAtomic: amount, kind: 'loan_disbursal', reference: id,
  }], server.clock);
  expect(result).toMatchObject({ ok: true });
}

async function newUser(server: TestServer) {
  const account = await server.registerByEmail();
  return { token: account.token, userId: await userIdOf(server, account.email!) };
}

async function storedLevel(server: TestServer, userId: bigint) {
  const [row] = await server.db.select().from(userLevels).where(eq(userLevels.userId, userId));
  return row;
}

/** Waits (by condition, no time limit of its own) until the stored level row satisfies `check`. */
async function waitForLevel(server: TestServer, userId: bigint, check: (row: Awaited<ReturnType<typeof storedLevel>>) => boolean) {
  await expect.poll(async () => check(await storedLevel(server, userId)), { timeout: 20_000, interval: 20 }).toBe(true);
}

forEachDatabase((server) => {
  afterEach(() => expectLedgerSound(server));

  describe('thresholds', () => {
    it('seeds the six default levels and lists them to anyone, without a caller part', async () => {
      const answer = expectOk(await server.get(levelPaths.list)).body.result;
      expect(answer.levels.map((row: { level: number; name: string; minAssets: string; creditLimit: string }) =>
        [row.level, row.name, row.minAssets, row.creditLimit])).toEqual([
        [0, 'Standard', '0.000000', '0.000000'], [1, 'VIP 1', '1000.000000', '500.000000'],
        [2, 'VIP 2', '10000.000000', '2000.000000'], [3, 'VIP 3', '50000.000000', '10000.000000'],
        [4, 'VIP 4', '200000.000000', '50000.000000'], [5, 'VIP 5', '1000000.000000', '200000.000000'],
      ]);
      for (const row of answer.levels) expect(Number.isInteger(row.productsUnlocked)).toBe(true);
      expect(answer.my).toBeUndefined();
      // A stale token is answered like no token: the list is public.
      const stale = expectOk(await server.get(levelPaths.list, {}, { token: 'no-such-session-token' })).body.result;
      expect(stale.my).toBeUndefined();
    });

    it('picks the highest level whose threshold the assets reach, exactly at the boundary', () => {
      const levels = defaultLevels.map((row) => ({ level: row.level, minAssets: row.minAssets }));
      expect(levelOf(levels, -1n)).toBe(0);
      expect(levelOf(levels, 0n)).toBe(0);
      expect(levelOf(levels, usdt(1_000n) - 1n)).toBe(0);
      expect(levelOf(levels, usdt(1_000n))).toBe(1);
      expect(levelOf(levels, usdt(9_999n))).toBe(1);
      expect(levelOf(levels, usdt(10_000n))).toBe(2);
      expect(levelOf(levels, usdt(1_000_000n))).toBe(5);
      expect(levelOf(levels, usdt(50_000_000n))).toBe(5);
    });

    it('counts spot, frozen, margin, product holdings and collateral, minus loans, BTC at the recorded feed price', async () => {
      const { token, userId } = await newUser(server);
      expect(await userVipLevel(server.db, userId)).toBe(0);
      await move(server, userId, 'USDT', 'spot', usdt(999n) + 999_999n);
      expect((await recheckUserLevel(server.db, server.clock, userId)).level).toBe(0);
      await move(server, userId, 'USDT', 'frozen', 1n);
      const atOne = await recheckUserLevel(server.db, server.clock, userId);
      expect(atOne).toMatchObject({ level: 1, assetsAtomic: usdt(1_000n) });
      expect(await userVipLevel(server.db, userId)).toBe(1);

      await move(server, userId, 'USDT', 'position_margin', usdt(2_000n));
      await move(server, userId, 'USDT', 'product_holdings', usdt(3_000n));
      // 0.05 BTC of collateral at 60 000.00 (price precision 2) is 3 000 USDT: 9 000 in all, level 1.
      await insertTicks(server.db, [{ symbol: 'BTCUSDT', priceUnits: 6_000_000n, volumeUnits: 1n, timeMs: server.clock.now().getTime() }], 'test');
      await move(server, userId, 'BTC', 'collateral', btc(5_000_000n));
      expect(await recheckUserLevel(server.db, server.clock, userId)).toMatchObject({ level: 1, assetsAtomic: usdt(9_000n) });
      await move(server, userId, 'BTC', 'spot', btc(2_000_000n));
      expect(await recheckUserLevel(server.db, server.clock, userId)).toMatchObject({ level: 2, assetsAtomic: usdt(10_200n) });

      // Borrowed money is not the user's: spot rises by the loan, the loan account owes it back.
      await borrow(server, userId, usdt(5_000n));
      expect(await recheckUserLevel(server.db, server.clock, userId)).toMatchObject({ level: 2, assetsAtomic: usdt(10_200n) });

      const answer = expectOk(await server.get(levelPaths.list, {}, { token })).body.result;
      expect(answer.my).toMatchObject({ level: 2, highestLevel: 2, assets: '10200.000000', toNext: '39800.000000' });
      expect(answer.my.checkedAt).toBe(server.clock.now().getTime());
    });

    it('never counts demo money', async () => {
      const { token, userId } = await newUser(server);
      await ensureDemoGrant(server.db, server.clock, userId);
      expect(await recheckUserLevel(server.db, server.clock, userId)).toMatchObject({ level: 0, assetsAtomic: 0n });
      const answer = expectOk(await server.get(levelPaths.list, {}, { token })).body.result;
      expect(answer.my).toMatchObject({ level: 0, assets: '0.000000', toNext: '1000.000000' });
    });
  });

  describe('rise and fall', () => {
    it('the daily job raises and lowers levels, keeps the highest reached, and a second run the same day is replayed', async () => {
      const riser = await newUser(server);
      const faller = await newUser(server);
      await move(server, faller.userId, 'USDT', 'spot', usdt(60_000n));
      expect((await recheckUserLevel(server.db, server.clock, faller.userId)).level).toBe(3);
      // The riser has a stored level 0; then money arrives without a re-check.
      await move(server, riser.userId, 'USDT', 'spot', usdt(10n));
      expect((await recheckUserLevel(server.db, server.clock, riser.userId)).level).toBe(0);
      await move(server, riser.userId, 'USDT', 'spot', usdt(200_000n));
      await move(server, faller.userId, 'USDT', 'spot', -usdt(55_000n));

      const admin = await createOperator(server);
      const adminToken = await operatorLogin(server, admin);
      const runPath = productAdminPaths.runJob.replace(':name', 'vip-levels');
      const first = expectOk(await server.post(runPath, {}, { token: adminToken })).body.result;
      expect(first).toMatchObject({ name: 'vip-levels', state: 'done', replayed: false });
      expect(first.result.raised).toBeGreaterThanOrEqual(1);
      expect(first.result.lowered).toBeGreaterThanOrEqual(1);
      expect(first.result.users).toBeGreaterThanOrEqual(2);
      expect(await storedLevel(server, riser.userId)).toMatchObject({ level: 4, highestLevel: 4, assets: usdt(200_010n) });
      expect(await storedLevel(server, faller.userId)).toMatchObject({ level: 1, highestLevel: 3, assets: usdt(5_000n) });

      // Money moves again the same day: the run of the day answers itself, nothing is recomputed.
      await move(server, faller.userId, 'USDT', 'spot', -usdt(4_500n));
      const second = expectOk(await server.post(runPath, {}, { token: adminToken })).body.result;
      expect(second).toMatchObject({ name: 'vip-levels', day: first.day, replayed: true, result: first.result });
      expect((await storedLevel(server, faller.userId)).level).toBe(1);

      // The next day's run sees it.
      server.clock.advance(86_400_000);
      const nextToken = await operatorLogin(server, admin);
      const next = expectOk(await server.post(runPath, {}, { token: nextToken })).body.result;
      expect(next).toMatchObject({ replayed: false });
      expect(next.day).not.toBe(first.day);
      expect(await storedLevel(server, faller.userId)).toMatchObject({ level: 0, highestLevel: 3 });

      // Run again directly (as a crashed run is resumed): the same levels, nothing raised or lowered.
      const again = await recomputeAllLevels(server.db, server.clock);
      expect(again).toMatchObject({ raised: 0, lowered: 0 });
    });

    it('keeps since when each level is held: a level kept keeps its start, a level lost ends its holding, a level reached starts one (issue 38)', async () => {
      const { userId } = await newUser(server);
      const holds = async () => (await server.db.select().from(userLevelHolds).where(eq(userLevelHolds.userId, userId)))
        .map((row) => [row.level, row.since.getTime()]).sort((a, b) => a[0] - b[0]);
      const start = server.clock.now().getTime();
      await move(server, userId, 'USDT', 'spot', usdt(10_000n));
      expect((await recheckUserLevel(server.db, server.clock, userId)).level).toBe(2);
      expect(await holds()).toEqual([[1, start], [2, start]]);
      server.clock.advance(86_400_000);
      await recheckUserLevel(server.db, server.clock, userId);
      expect(await holds()).toEqual([[1, start], [2, start]]);
      // Down to level 1: level 2's holding ends, level 1's goes on from its start.
      await move(server, userId, 'USDT', 'spot', -usdt(8_000n));
      expect((await recheckUserLevel(server.db, server.clock, userId)).level).toBe(1);
      expect(await holds()).toEqual([[1, start]]);
      // Back to level 2 a day later: a new holding of level 2 from now.
      server.clock.advance(86_400_000);
      const back = server.clock.now().getTime();
      await move(server, userId, 'USDT', 'spot', usdt(8_000n));
      await recomputeAllLevels(server.db, server.clock);
      expect(await holds()).toEqual([[1, start], [2, back]]);
      // Everything out: no holding left.
      await move(server, userId, 'USDT', 'spot', -usdt(10_000n));
      expect((await recheckUserLevel(server.db, server.clock, userId)).level).toBe(0);
      expect(await holds()).toEqual([]);
    });

    it('re-checks the level after a deposit is credited, without waiting for the job', async () => {
      await withDepositAddresses(server);
      const { token, userId } = await newUser(server);
      expect(await userVipLevel(server.db, userId)).toBe(0);
      const record = await applyDeposit(server, token, { amount: '1500' });
      let decided = await approveAsOperator(server, record.id);
      if (decided.status !== 1) decided = await approveAsOperator(server, record.id);
      await waitForLevel(server, userId, (row) => row?.level === 1 && row.assets === usdt(1_500n));
    });
  });

  describe('operators', () => {
    it('lets an admin edit a level (audited) and refuses thresholds that do not rise, a finance operator, an unknown level', async () => {
      const admin = await createOperator(server);
      const token = await operatorLogin(server, admin);
      const listed = expectOk(await server.get(levelAdminPaths.levels, {}, { token })).body.result;
      expect(listed.map((row: { level: number }) => row.level)).toEqual([0, 1, 2, 3, 4, 5]);
      const before = await server.db.select().from(vipLevels).orderBy(vipLevels.level);
      const at = (level: number) => levelAdminPaths.level.replace(':level', String(level));

      expectRefused(await server.post(at(2), { minAssets: '1000' }, { token }), 400, 'invalid_request');
      expectRefused(await server.post(at(2), { minAssets: '50000' }, { token }), 400, 'invalid_request');
      expectRefused(await server.post(at(1), { minAssets: '0' }, { token }), 400, 'invalid_request');
      expectRefused(await server.post(at(0), { minAssets: '5' }, { token }), 400, 'invalid_request');
      expectRefused(await server.post(at(2), { minAssets: '12.1234567' }, { token }), 400, 'amount_too_many_decimals');
      expectRefused(await server.post(at(2), { minAssets: '-5' }, { token }), 400, 'amount_negative');
      expectRefused(await server.post(at(2), { name: '   ' }, { token }), 400, 'invalid_request');
      expectRefused(await server.post(at(2), { colour: 'gold' }, { token }), 400, 'invalid_request');
      expectRefused(await server.post(at(9), { name: 'VIP 9' }, { token }), 404, 'not_found');
      const finance = await createOperator(server, 'finance');
      const financeToken = await operatorLogin(server, finance);
      expectRefused(await server.post(at(2), { name: 'Gold' }, { token: financeToken }), 403, 'forbidden');
      expect(await server.db.select().from(vipLevels).orderBy(vipLevels.level)).toEqual(before);

      // A user at 8 000 USDT is level 1; the admin lowers VIP 2 to 8 000 and every level is recomputed.
      const { userId } = await newUser(server);
      await move(server, userId, 'USDT', 'spot', usdt(8_000n));
      expect((await recheckUserLevel(server.db, server.clock, userId)).level).toBe(1);
      const edited = expectOk(await server.post(at(2), { name: 'Gold', minAssets: '8000', creditLimit: '2500.5' }, { token })).body.result;
      expect(edited).toMatchObject({ level: 2, name: 'Gold', minAssets: '8000.000000', creditLimit: '2500.500000' });
      await waitForLevel(server, userId, (row) => row?.level === 2);
      const audit = await server.db.select().from(auditLog).where(eq(auditLog.action, 'level.update'));
      expect(audit.at(-1)).toMatchObject({ targetType: 'vip_level', targetId: '2', before: { name: 'VIP 2', minAssets: '10000.000000' },
        after: { name: 'Gold', minAssets: '8000.000000', creditLimit: '2500.500000' } });
      const publicList = expectOk(await server.get(levelPaths.list)).body.result;
      expect(publicList.levels[2]).toMatchObject({ name: 'Gold', minAssets: '8000.000000' });

      // Back to the defaults; the user falls back to level 1 and keeps 2 as the highest.
      expectOk(await server.post(at(2), { name: 'VIP 2', minAssets: '10000', creditLimit: '2000' }, { token }));
      await waitForLevel(server, userId, (row) => row?.level === 1 && row.highestLevel === 2);
    });
  });
});
