// Reward pools, welfare tasks, VIP bonuses and weekly red envelopes through the real protocol
// (issue 23): fundings with a second operator above the threshold, claims paid once from the
// rewards pool, bonuses never paid twice, the envelope job once a week, opening refusals, and
// every refusal leaves every balance as it was. Issue 38: rewards go to verified accounts only
// (basic verification applied for and approved through the real calls), the invitation task
// counts verified friends once per person, and a VIP bonus waits for its level to be held for the
// holding period and is paid once per verified person; accounts are funded by real deposits and
// emptied by real withdrawals. The suite's clock starts on Monday 2026-06-01.
import { describe, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { paths } from '../../../src/api/contract/paths.ts';
import { rewardAdminPaths, rewardPaths } from '../../../src/api/contract/rewards.ts';
import { productAdminPaths } from '../../../src/api/contract/products.ts';
import { withdrawalAdminPaths } from '../../../src/api/contract/withdrawals.ts';
import { grantVipBonuses, setVipReward } from '../../../server/domain/programs/rewards/vip.ts';
import { recheckUserLevel } from '../../../server/domain/core/levels/levels.ts';
import { issueEnvelopes } from '../../../server/domain/programs/rewards/envelopes.ts';
import type { Executor } from '../../../server/db/client.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import { approvedBySecondAdmin, createOperator, operatorLogin } from '../adminHelpers.ts';
import { admin, balance, buyer, expectLedgerSound, moneySnapshot, type Admin, type Buyer } from '../products/productHelpers.ts';
import { applyBasic, approve, reviewer, type Reviewer } from '../identity/kycHelpers.ts';
import { applyDeposit, approveAsOperator, withDepositAddresses } from '../wallet/walletHelpers.ts';
import { apply as applyWithdrawal, bindAddress, setWithdrawPassword } from '../wallet/withdrawHelpers.ts';
import { fundSpot } from '../trading/positionHelpers.ts';
import { accountBalances, openAccounts, systemAccountShardCount } from '../../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';

const usdt = (whole: number) => BigInt(whole) * 1_000_000n;

/** The rewards pool's USDT accounts, one per shard, as the ledger opens them. */
const poolAccounts = (server: TestServer) => openAccounts(server.db,
  Array.from({ length: systemAccountShardCount }, (_, shard) => ({ ledger: 'real' as const, asset: 'USDT', kind: 'rewards' as const, shard })));

/** What the rewards pool holds in USDT (posted, over its shards), read through the ledger's balances. */
async function poolOf(server: TestServer): Promise<bigint> {
  const balances = await accountBalances(server.db, await poolAccounts(server));
  return balances.reduce((sum, account) => sum + account.postedAtomic, 0n);
}

/**
 * Moves `amount` out of the rewards pool into the house (a negative amount: back into the pool),
 * one transfer posted by the ledger: every balance changes only through the posting function, so
 * the chains, the recomputed balances and each asset's zero sum hold throughout.
 */
async function movePoolToHouse(server: TestServer, amount: bigint) {
  const [pool, house] = await openAccounts(server.db, [
    { ledger: 'real', asset: 'USDT', kind: 'rewards', shard: 0 },
    { ledger: 'real', asset: 'USDT', kind: 'house', shard: 0 },
  ]);
  const id = server.unique('test-pool-move:');
  const result = await postTransfers(server.db, [{
    id, kind: 'correction', reference: id, amountAtomic: amount < 0n ? -amount : amount,
    debitAccountId: amount < 0n ? house : pool, creditAccountId: amount < 0n ? pool : house,
  }], server.clock);
  expect(result).toMatchObject({ ok: true, replayed: false });
}

async function setLevel(server: TestServer, userId: bigint, level: number, highest = level) {
  await server.query(sql`insert into user_levels (user_id, level, highest_level, assets, checked_at)
    values (${userId}, ${level}, ${highest}, 0, now())
    on conflict (user_id) do update set level = excluded.level, highest_level = greatest(user_levels.highest_level, excluded.highest_level)`);
}

async function fund(server: TestServer, by: Admin, amount: string) {
  return expectOk(await server.post(rewardAdminPaths.fundings, { pool: 'rewards', asset: 'USDT', amount }, { token: by.token })).body.result;
}

const runJob = (server: TestServer, by: Admin, name: string) =>
  server.post(productAdminPaths.runJob.replace(':name', name), {}, { token: by.token });

const dayMs = 86_400_000;

/** A registered account (with an inviter's code when given). */
async function account(server: TestServer, inviteCode?: string): Promise<Buyer & { inviteCode: string }> {
  server.freshIp();
  const email = server.uniqueEmail();
  expectOk(await server.requestEmailCode(email, 'register'));
  const answer = expectOk(await server.post(paths.register, {
    accountType: 'email', account: email, password: 'Secret123pass', code: server.latestCode(email), ...(inviteCode ? { inviteCode } : {}),
  }));
  const user = await server.userByEmail(email);
  return { token: answer.body.result.token, password: 'Secret123pass', account: email, email, userId: user.id, inviteCode: user.inviteCode };
}

/** Basic verification applied for with this document number and approved by an operator. */
async function verify(server: TestServer, by: Reviewer, who: Buyer, idNumber: string) {
  const id = expectOk(await applyBasic(server, who.token, { idNumber })).body.result.id as string;
  expectOk(await approve(server, by, id));
}

/** A document number no other test uses: one verified person. */
const person = (server: TestServer) => server.unique('DOC').toUpperCase();

/** A real deposit: the proof uploaded, the record applied for and approved by an operator. */
async function deposit(server: TestServer, who: Buyer, amount: string) {
  await withDepositAddresses(server);
  const record = await applyDeposit(server, who.token, { amount });
  await approveAsOperator(server, String(record.id));
}

/** The level the last check stored, waited for: deposits and withdrawals recheck it after their commit. */
async function levelSettles(server: TestServer, userId: bigint, level: number, holds = level) {
  await expect.poll(async () => {
    const [row] = await server.query<{ level: number; holds: number }>(sql`select
      (select level from user_levels where user_id = ${userId}) as level,
      (select count(*)::int from user_level_holds where user_id = ${userId}) as holds`);
    return `${row.level}/${row.holds}`;
  }, { timeout: 10_000 }).toBe(`${level}/${holds}`);
}

/** A real withdrawal of `amount` USDT, approved and paid by a finance operator. */
async function withdraw(server: TestServer, who: Buyer, amount: string) {
  const destinationId = await bindAddress(server, who.token);
  await setWithdrawPassword(server, who);
  const id = expectOk(await applyWithdrawal(server, { ...who, destinationId }, { amount })).body.result.id as string;
  const token = await operatorLogin(server, await createOperator(server, 'finance'));
  expectOk(await server.post(withdrawalAdminPaths.approve.replace(':id', id), {}, { token }));
  expectOk(await server.post(withdrawalAdminPaths.paid.replace(':id', id), { reference: server.unique('tx-') }, { token }));
}

/**
 * Each level's bonus and weekly envelope, through the domain: what the operator's call stores
 * (the call itself, and a second operator's approval of raises, have their own tests).
 */
async function setBonuses(server: TestServer, rows: ReadonlyArray<readonly [number, string, string]>) {
  for (const [level, bonus, weeklyEnvelope] of rows) await setVipReward(server.db, { level, asset: 'USDT', bonus, weeklyEnvelope }, server.clock.now());
}

const setHolding = (server: TestServer, by: Admin, holdingDays: unknown) =>
  server.post(rewardAdminPaths.vipHolding, { holdingDays }, { token: by.token });

const vipRewardsOf = async (server: TestServer, who: Buyer) => expectOk(await server.get(rewardPaths.vipRewards, {}, { token: who.token })).body.result;

forEachDatabase((server) => {
  let boss: Admin;
  let second: Admin;
  const setup = async () => { boss = await admin(server); second = await admin(server); };

  describe('reward pools', () => {
    test('a funding up to the threshold is done at once; above it waits for a second, different operator', async () => {
      await setup();
      const small = await fund(server, boss, '100');
      expect(small).toMatchObject({ pool: 'rewards', asset: 'USDT', amount: '100.000000', status: 'done', approvalsRequired: 1 });
      expect(await poolOf(server)).toBe(usdt(100));
      const big = await fund(server, boss, '1000000');
      expect(big).toMatchObject({ status: 'pending', approvalsRequired: 2 });
      const before = await moneySnapshot(server);
      expectRefused(await server.post(rewardAdminPaths.approveFunding.replace(':id', big.id), {}, { token: boss.token }), 409, 'funding_approved_by_you');
      expectRefused(await server.post(rewardAdminPaths.fundings, { pool: 'rewards', asset: 'USDT', amount: '0' }, { token: boss.token }), 400, 'amount_not_positive');
      expectRefused(await server.post(rewardAdminPaths.fundings, { pool: 'rewards', asset: 'USDT', amount: '1.1234567' }, { token: boss.token }), 400, 'amount_too_many_decimals');
      expectRefused(await server.post(rewardAdminPaths.fundings, { pool: 'rewards', asset: 'NOPE', amount: '1' }, { token: boss.token }), 400, 'currency_unknown');
      expect(await moneySnapshot(server)).toEqual(before);
      const pending = expectOk(await server.get(rewardAdminPaths.fundings, {}, { token: boss.token })).body.result;
      expect(pending.map((row: { id: string }) => row.id)).toContain(big.id);
      const rejected = expectOk(await server.post(rewardAdminPaths.rejectFunding.replace(':id', big.id), { reason: 'too much' }, { token: second.token })).body.result;
      expect(rejected.status).toBe('rejected');
      expect(await poolOf(server)).toBe(usdt(100));
      const prize = expectOk(await server.post(rewardAdminPaths.fundings, { pool: 'prizes', asset: 'USDT', amount: '50000' }, { token: boss.token })).body.result;
      expect(prize.status).toBe('pending');
      const approved = expectOk(await server.post(rewardAdminPaths.approveFunding.replace(':id', prize.id), {}, { token: second.token })).body.result;
      expect(approved).toMatchObject({ status: 'done', approvals: [{ operatorId: boss.id.toString() }, { operatorId: second.id.toString() }] });
      const pools = expectOk(await server.get(rewardAdminPaths.pools, {}, { token: boss.token })).body.result;
      expect(pools).toEqual(expect.arrayContaining([{ pool: 'prizes', asset: 'USDT', balance: '50000.000000' }, { pool: 'rewards', asset: 'USDT', balance: '100.000000' }]));
      const [audit] = await server.query<{ n: number }>(sql`select count(*)::int as n from audit_log where action like 'reward.funding%'`);
      expect(audit.n).toBeGreaterThanOrEqual(5);
      await expectLedgerSound(server);
    });
  });

  describe('welfare centre', () => {
    test('tasks show progress; a claim pays once when done; not done, twice and an empty pool move nothing', async () => {
      await setup();
      await fund(server, boss, '100');
      const user = await buyer(server, '0', false);
      const tasks = expectOk(await server.get(rewardPaths.welfareTasks, {}, { token: user.token })).body.result;
      expect(tasks.tasks.map((task: { kind: string }) => task.kind)).toEqual(['first_deposit', 'kyc_basic', 'first_trade', 'first_product', 'invite_deposit', 'checkin_streak']);
      expect(tasks.tasks.every((task: { state: string; progress: number }) => task.state === 'in_progress' && task.progress === 0)).toBe(true);
      const kyc = tasks.tasks.find((task: { kind: string }) => task.kind === 'kyc_basic');
      const before = await moneySnapshot(server);
      expectRefused(await server.post(rewardPaths.welfareClaim, { taskId: kyc.id }, { token: user.token }), 409, 'task_not_done');
      expectRefused(await server.post(rewardPaths.welfareClaim, { taskId: '999999' }, { token: user.token }), 404, 'task_not_found');
      expect(await moneySnapshot(server)).toEqual(before);

      // Check-in: once a day, the streak counts consecutive days.
      expect(expectOk(await server.post(rewardPaths.welfareCheckin, {}, { token: user.token })).body.result.checkinStreak).toBe(1);
      expectRefused(await server.post(rewardPaths.welfareCheckin, {}, { token: user.token }), 409, 'checkin_done_today');

      // Basic verification done → claimable; the pool is emptied first (its balance moved to the
      // house by a posted transfer): pool_insufficient, nothing moves.
      await verify(server, await reviewer(server), user, person(server));
      const claimable = expectOk(await server.get(rewardPaths.welfareTasks, {}, { token: user.token })).body.result.tasks
        .find((task: { kind: string }) => task.kind === 'kyc_basic');
      expect(claimable).toMatchObject({ state: 'claimable', progress: 1, rewardAmount: '2.000000' });
      const pool = await poolOf(server);
      expect(pool >= usdt(100)).toBe(true);
      await movePoolToHouse(server, pool);
      expect(await poolOf(server)).toBe(0n);
      await expectLedgerSound(server);
      const drained = await moneySnapshot(server);
      expectRefused(await server.post(rewardPaths.welfareClaim, { taskId: kyc.id }, { token: user.token }), 409, 'pool_insufficient');
      expect(await moneySnapshot(server)).toEqual(drained);
      const [claims] = await server.query<{ n: number }>(sql`select count(*)::int as n from welfare_claims where user_id = ${user.userId}`);
      expect(claims.n).toBe(0);
      await movePoolToHouse(server, -pool);
      expect(await poolOf(server)).toBe(pool);

      const paid = expectOk(await server.post(rewardPaths.welfareClaim, { taskId: kyc.id }, { token: user.token })).body.result;
      expect(paid).toMatchObject({ asset: 'USDT', amount: '2.000000', transferId: `welfare:${kyc.id}:${user.userId}` });
      expect(await balance(server, user.userId)).toBe(usdt(2));
      const afterPay = await moneySnapshot(server);
      expectRefused(await server.post(rewardPaths.welfareClaim, { taskId: kyc.id }, { token: user.token }), 409, 'task_claimed');
      expect(await moneySnapshot(server)).toEqual(afterPay);
      const state = expectOk(await server.get(rewardPaths.welfareTasks, {}, { token: user.token })).body.result.tasks
        .find((task: { kind: string }) => task.kind === 'kyc_basic');
      expect(state.state).toBe('claimed');

      // An operator adds a task and disables it: a disabled task is not offered and not claimable.
      // A new task with a reward is switched on only by a second admin (issue 38).
      const made = expectOk(await server.post(rewardAdminPaths.tasks, { kind: 'checkin_streak', name: 'Check in once', target: 1, rewardAsset: 'USDT', rewardAmount: '0.5' }, { token: boss.token })).body.result;
      expect(made).toMatchObject({ kind: 'checkin_streak', target: 1, rewardAmount: '0.500000', enabled: false, claims: 0, pendingChange: { status: 'pending' } });
      expectRefused(await server.post(rewardPaths.welfareClaim, { taskId: made.id }, { token: user.token }), 404, 'task_not_found');
      expect(await approvedBySecondAdmin(server, made)).toMatchObject({ enabled: true });
      expectOk(await server.post(rewardAdminPaths.task.replace(':id', made.id), { enabled: false }, { token: boss.token }));
      expectRefused(await server.post(rewardPaths.welfareClaim, { taskId: made.id }, { token: user.token }), 404, 'task_not_found');
      expect(await approvedBySecondAdmin(server, expectOk(await server.post(rewardAdminPaths.task.replace(':id', made.id), { enabled: true }, { token: boss.token })).body.result))
        .toMatchObject({ enabled: true });
      expectOk(await server.post(rewardPaths.welfareClaim, { taskId: made.id }, { token: user.token }));
      expect(await balance(server, user.userId)).toBe(2_500_000n);
      await expectLedgerSound(server);
    });
  });

  describe('welfare centre: verified accounts only (issue 38)', () => {
    const taskOf = async (who: Buyer, kind: string) => (expectOk(await server.get(rewardPaths.welfareTasks, {}, { token: who.token })).body.result as {
      tasks: Array<{ id: string; kind: string; state: string; progress: number }>; verified: boolean;
    });

    test('a fresh account\'s done tasks are refused with verification_required and move nothing; verified, the same claim pays once', async () => {
      await fund(server, await admin(server), '100');
      const fresh = await account(server);
      await deposit(server, fresh, '10');
      await levelSettles(server, fresh.userId, 0);
      expectOk(await server.post(rewardPaths.welfareCheckin, {}, { token: fresh.token }));
      const listed = await taskOf(fresh, 'first_deposit');
      expect(listed.verified).toBe(false);
      const first = listed.tasks.find((task) => task.kind === 'first_deposit')!;
      expect(first).toMatchObject({ state: 'claimable', progress: 1 });
      const before = await moneySnapshot(server);
      expectRefused(await server.post(rewardPaths.welfareClaim, { taskId: first.id }, { token: fresh.token }), 403, 'verification_required');
      for (const task of listed.tasks.filter((row) => row.state === 'claimable')) {
        expectRefused(await server.post(rewardPaths.welfareClaim, { taskId: task.id }, { token: fresh.token }), 403, 'verification_required');
      }
      expect(await moneySnapshot(server)).toEqual(before);
      const [claims] = await server.query<{ n: number }>(sql`select count(*)::int as n from welfare_claims where user_id = ${fresh.userId}`);
      expect(claims.n).toBe(0);
      expect(await balance(server, fresh.userId)).toBe(usdt(10));

      await verify(server, await reviewer(server), fresh, person(server));
      expect((await taskOf(fresh, 'first_deposit')).verified).toBe(true);
      expectOk(await server.post(rewardPaths.welfareClaim, { taskId: first.id }, { token: fresh.token }));
      expect(await balance(server, fresh.userId)).toBe(usdt(15));
      expectRefused(await server.post(rewardPaths.welfareClaim, { taskId: first.id }, { token: fresh.token }), 409, 'task_claimed');
      await expectLedgerSound(server);
    });

    test('the invitation task counts depositing friends with basic verification, once per person, never the inviter\'s own accounts', async () => {
      await fund(server, await admin(server), '100');
      const kyc = await reviewer(server);
      const inviter = await account(server);
      const inviterDocument = person(server);
      await verify(server, kyc, inviter, inviterDocument);
      const progress = async () => (await taskOf(inviter, 'invite_deposit')).tasks.find((task) => task.kind === 'invite_deposit')!;
      const friends: Buyer[] = [];
      for (let index = 0; index < 3; index += 1) {
        const friend = await account(server, inviter.inviteCode);
        await deposit(server, friend, '10');
        friends.push(friend);
      }
      // Three unverified depositors: nothing counts, the claim is refused and moves nothing.
      expect(await progress()).toMatchObject({ progress: 0, state: 'in_progress' });
      const task = await progress();
      const before = await moneySnapshot(server);
      expectRefused(await server.post(rewardPaths.welfareClaim, { taskId: task.id }, { token: inviter.token }), 409, 'task_not_done');
      expect(await moneySnapshot(server)).toEqual(before);

      // Two of them verified on one document (one person), the third on the inviter's own: one friend.
      const shared = person(server);
      await verify(server, kyc, friends[0], shared);
      await verify(server, kyc, friends[1], shared);
      await verify(server, kyc, friends[2], inviterDocument);
      expect(await progress()).toMatchObject({ progress: 1, state: 'in_progress' });
      expectRefused(await server.post(rewardPaths.welfareClaim, { taskId: task.id }, { token: inviter.token }), 409, 'task_not_done');
      expect(await moneySnapshot(server)).toEqual(before);

      // A verified friend without a deposit does not count; two more verified depositors make three.
      const idle = await account(server, inviter.inviteCode);
      await verify(server, kyc, idle, person(server));
      expect((await progress()).progress).toBe(1);
      for (let index = 0; index < 2; index += 1) {
        const friend = await account(server, inviter.inviteCode);
        await verify(server, kyc, friend, person(server));
        await deposit(server, friend, '10');
      }
      expect(await progress()).toMatchObject({ progress: 3, state: 'claimable' });
      expectOk(await server.post(rewardPaths.welfareClaim, { taskId: task.id }, { token: inviter.token }));
      expect(await balance(server, inviter.userId)).toBe(usdt(15));
      await expectLedgerSound(server);
    });
  });

  describe('VIP bonuses', () => {
    test('each level reached pays its bonus once to a verified user (no holding period set), never on a rerun; the daily job pays from assets', async () => {
      await setup();
      const kyc = await reviewer(server);
      // Bonuses start at zero on a fresh install; the operator sets them.
      await setBonuses(server, [[1, '10', '1'], [2, '50', '5'], [3, '200', '20'], [4, '800', '80'], [5, '3000', '300']]);
      expect(expectOk(await setHolding(server, boss, 0)).body.result).toEqual({ holdingDays: 0 });
      await fund(server, boss, '1000');
      const user = await account(server);
      await verify(server, kyc, user, person(server));
      await fundSpot(server, user.userId, '10000');
      expect((await recheckUserLevel(server.db, server.clock, user.userId)).level).toBe(2);
      expect(await grantVipBonuses(server.db, server.clock.now(), [user.userId])).toEqual({ granted: 2, uncovered: 0, samePerson: 0 });
      expect(await balance(server, user.userId)).toBe(usdt(10_060)); // 10 + 50
      await recheckUserLevel(server.db, server.clock, user.userId);
      expect(await grantVipBonuses(server.db, server.clock.now(), [user.userId])).toEqual({ granted: 0, uncovered: 0, samePerson: 0 });
      expect(await balance(server, user.userId)).toBe(usdt(10_060));
      const mine = await vipRewardsOf(server, user);
      expect(mine.granted.map((grant: { level: number }) => grant.level)).toEqual([1, 2]);
      expect(mine).toMatchObject({ verified: true, holdingDays: 0, waiting: [] });
      expect(mine.levels[0]).toMatchObject({ level: 1, bonus: '10.000000', weeklyEnvelope: '1.000000' });

      // A pool too small for the batch: the bonus is left unpaid (no grant row), paid once when funded.
      const poor = await account(server);
      await verify(server, kyc, poor, person(server));
      await fundSpot(server, poor.userId, '1000000');
      expect((await recheckUserLevel(server.db, server.clock, poor.userId)).level).toBe(5);
      expect(await poolOf(server) < usdt(4060)).toBe(true);
      const outcome = await grantVipBonuses(server.db, server.clock.now(), [poor.userId]);
      expect(outcome.granted + outcome.uncovered).toBe(5);
      expect(outcome.uncovered).toBeGreaterThanOrEqual(1);
      await fund(server, await admin(server), '5000');
      expect(await grantVipBonuses(server.db, server.clock.now(), [poor.userId])).toEqual({ granted: outcome.uncovered, uncovered: 0, samePerson: 0 });
      expect(await grantVipBonuses(server.db, server.clock.now(), [poor.userId])).toEqual({ granted: 0, uncovered: 0, samePerson: 0 });
      expect(await balance(server, poor.userId)).toBe(usdt(1_004_060));

      // The daily vip-levels job: 1 500 USDT of assets is level 1, its bonus paid after the
      // recompute to the verified account; the unverified one with the same assets gets nothing.
      const rich = await account(server);
      await verify(server, kyc, rich, person(server));
      await fundSpot(server, rich.userId, '1500');
      const stranger = await account(server);
      await fundSpot(server, stranger.userId, '1500');
      const run = expectOk(await runJob(server, boss, 'vip-levels')).body.result;
      expect(Number(run.result.bonusesGranted)).toBeGreaterThanOrEqual(1);
      expect(await balance(server, rich.userId)).toBe(usdt(1510));
      expect(await balance(server, stranger.userId)).toBe(usdt(1500));
      expect(await vipRewardsOf(server, stranger)).toMatchObject({ level: 1, verified: false, granted: [] });
      await expectLedgerSound(server);
    });
  });

  describe('red envelopes', () => {
    let owner: Buyer;
    let other: Buyer;
    test('the job issues one per eligible user a week; a second run is answered as done; an operator run later that week is refused', async () => {
      await setup();
      owner = await account(server);
      await verify(server, await reviewer(server), owner, person(server));
      other = await buyer(server, '0', false);
      await setLevel(server, owner.userId, 1);
      await setLevel(server, other.userId, 3);
      const levelZero = await buyer(server, '0', false);
      const first = expectOk(await runJob(server, boss, 'red-envelopes')).body.result;
      expect(first.result.issued).toBeGreaterThanOrEqual(2);
      expect(first.result.week).toBe('2026-06-01');
      const again = expectOk(await runJob(server, boss, 'red-envelopes')).body.result;
      expect(again.replayed).toBe(true);
      const mine = expectOk(await server.get(rewardPaths.myEnvelopes, {}, { token: owner.token })).body.result;
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ week: '2026-06-01', level: 1, asset: 'USDT', status: 'unopened' });
      expect(mine[0].amount).toBeUndefined();
      expect(expectOk(await server.get(rewardPaths.myEnvelopes, {}, { token: levelZero.token })).body.result).toEqual([]);

      server.clock.advance(86_400_000);
      await setup();
      const [countBefore] = await server.query<{ n: number }>(sql`select count(*)::int as n from red_envelopes`);
      expectRefused(await runJob(server, boss, 'red-envelopes'), 409, 'envelopes_issued_this_week');
      const [countAfter] = await server.query<{ n: number }>(sql`select count(*)::int as n from red_envelopes`);
      expect(countAfter.n).toBe(countBefore.n);
    });

    test('the owner opens an envelope once; another user\'s, an opened, an unverified owner\'s and an expired one are refused and move nothing', async () => {
      await fund(server, boss, '100');
      const [envelope] = expectOk(await server.get(rewardPaths.myEnvelopes, {}, { token: owner.token })).body.result;
      const [theirs] = expectOk(await server.get(rewardPaths.myEnvelopes, {}, { token: other.token })).body.result;
      const before = await moneySnapshot(server);
      expectRefused(await server.post(rewardPaths.openEnvelope, { id: theirs.id }, { token: owner.token }), 404, 'envelope_not_found');
      expectRefused(await server.post(rewardPaths.openEnvelope, { id: '999999999' }, { token: owner.token }), 404, 'envelope_not_found');
      expect(await moneySnapshot(server)).toEqual(before);
      const opened = expectOk(await server.post(rewardPaths.openEnvelope, { id: envelope.id }, { token: owner.token })).body.result;
      expect(opened).toMatchObject({ id: envelope.id, status: 'opened', amount: '1.000000' });
      expect(await balance(server, owner.userId)).toBe(usdt(1));
      const afterOpen = await moneySnapshot(server);
      expectRefused(await server.post(rewardPaths.openEnvelope, { id: envelope.id }, { token: owner.token }), 409, 'envelope_opened');
      expect(await moneySnapshot(server)).toEqual(afterOpen);
      // Issue 38: an unverified owner's envelope stays unopened (and waits for their verification).
      expectRefused(await server.post(rewardPaths.openEnvelope, { id: theirs.id }, { token: other.token }), 403, 'verification_required');
      expect(await moneySnapshot(server)).toEqual(afterOpen);
      const [waiting] = await server.query<{ status: string; transfer_id: string | null }>(sql`select status, transfer_id from red_envelopes where id = ${BigInt(theirs.id)}`);
      expect(waiting).toEqual({ status: 'unopened', transfer_id: null });

      server.clock.advance(7 * 86_400_000);
      expectRefused(await server.post(rewardPaths.openEnvelope, { id: theirs.id }, { token: other.token }), 409, 'envelope_expired');
      expect(await moneySnapshot(server)).toEqual(afterOpen);
      const listed = expectOk(await server.get(rewardPaths.myEnvelopes, {}, { token: other.token })).body.result;
      expect(listed[0].status).toBe('expired');
      await expectLedgerSound(server);
    });

    test('an issue that crashed half-way is run again and gives each user one envelope', async () => {
      const users: Buyer[] = [];
      for (let index = 0; index < 5; index += 1) {
        const user = await buyer(server, '0', false);
        await setLevel(server, user.userId, 1);
        users.push(user);
      }
      const week = '2026-06-15';
      let statements = 0;
      const crashing = new Proxy(server.db, {
        get(target, property, receiver) {
          if (property === 'execute') {
            return (query: unknown) => {
              statements += 1;
              if (statements > 4) throw new Error('crash');
              return (target as unknown as Executor).execute(query as never);
            };
          }
          return Reflect.get(target, property, receiver);
        },
      }) as unknown as Executor;
      await expect(issueEnvelopes(crashing, week, server.clock.now(), 1)).rejects.toThrow('crash');
      const [partial] = await server.query<{ n: number }>(sql`select count(*)::int as n from red_envelopes where week = ${week}`);
      expect(partial.n).toBeGreaterThan(0);
      await issueEnvelopes(server.db, week, server.clock.now(), 2);
      const rows = await server.query<{ user_id: string; n: number }>(sql`select user_id::text, count(*)::int as n from red_envelopes
        where week = ${week} group by user_id`);
      for (const user of users) expect(rows.find((row) => row.user_id === user.userId.toString())?.n).toBe(1);
      expect(rows.every((row) => row.n === 1)).toBe(true);
    });
  });

  describe('VIP bonuses: the holding period and one bonus per verified person (issue 38)', () => {
    test('the holding period is an audited admin setting from 0 to 90 days; a bad value or a finance operator changes nothing', async () => {
      const by = await admin(server);
      expectOk(await setHolding(server, by, 0));
      expect(expectOk(await setHolding(server, by, 7)).body.result).toEqual({ holdingDays: 7 });
      for (const bad of [91, -1, 1.5, '7', null]) expectRefused(await setHolding(server, by, bad), 400, 'invalid_request');
      const finance = await operatorLogin(server, await createOperator(server, 'finance'));
      expect((await server.post(rewardAdminPaths.vipHolding, { holdingDays: 0 }, { token: finance })).status).toBe(403);
      expect(expectOk(await server.get(rewardAdminPaths.vipHolding, {}, { token: finance })).body.result).toEqual({ holdingDays: 7 });
      const [audit] = await server.query<{ before: unknown; after: unknown; operator_id: string }>(sql`select before, after, operator_id::text
        from audit_log where action = 'vip.bonus.holding' order by id desc limit 1`);
      expect(audit).toEqual({ before: { holdingDays: 0 }, after: { holdingDays: 7 }, operator_id: by.id.toString() });
    });

    test('a deposit withdrawn within the period pays nothing; held for 7 days a verified account is paid once, a second account of the same person and an unverified one never', async () => {
      const by = await admin(server);
      await setBonuses(server, [[1, '10', '1']]);
      expectOk(await setHolding(server, by, 7));
      await fund(server, by, '100');
      const kyc = await reviewer(server);
      const document = person(server);
      const first = await account(server);
      await verify(server, kyc, first, document);

      // Deposit 1 000 (VIP 1 from now), then withdraw after 3 days: the holding ends unpaid.
      await deposit(server, first, '1000');
      await levelSettles(server, first.userId, 1);
      const reached = server.clock.now().getTime();
      expect(await vipRewardsOf(server, first)).toMatchObject({
        level: 1, verified: true, holdingDays: 7, granted: [], waiting: [{ level: 1, asset: 'USDT', amount: '10.000000', payableAt: reached + 7 * dayMs }],
      });
      expect(await grantVipBonuses(server.db, server.clock.now(), [first.userId])).toEqual({ granted: 0, uncovered: 0, samePerson: 0 });
      server.clock.advance(3 * dayMs);
      await withdraw(server, first, '100');
      await levelSettles(server, first.userId, 0);
      server.clock.advance(5 * dayMs);
      // Back-office sessions end with the days that passed: the operators log in again.
      const later = await admin(server);
      const withdrawn = await balance(server, first.userId);
      expect(expectOk(await runJob(server, later, 'vip-levels')).body.result.state).toBe('done');
      expect(await balance(server, first.userId)).toBe(withdrawn);
      const [grantsNone] = await server.query<{ n: number }>(sql`select count(*)::int as n from vip_bonus_grants where user_id = ${first.userId}`);
      expect(grantsNone.n).toBe(0);
      expect((await vipRewardsOf(server, first)).waiting).toEqual([]);

      // Back to VIP 1, and a second account of the same person and an unverified account beside it.
      await deposit(server, first, '200');
      await levelSettles(server, first.userId, 1);
      const second = await account(server);
      await verify(server, await reviewer(server), second, document.toLowerCase().replace(/^(..)/, '$1 '));
      await deposit(server, second, '1000');
      await levelSettles(server, second.userId, 1);
      const unverified = await account(server);
      await deposit(server, unverified, '1000');
      await levelSettles(server, unverified.userId, 1);
      server.clock.advance(6 * dayMs);
      expect(await grantVipBonuses(server.db, server.clock.now(), [first.userId, second.userId, unverified.userId]))
        .toEqual({ granted: 0, uncovered: 0, samePerson: 0 });
      server.clock.advance(dayMs);

      const firstBefore = await balance(server, first.userId);
      const secondBefore = await balance(server, second.userId);
      const unverifiedBefore = await balance(server, unverified.userId);
      const last = await admin(server);
      const run = expectOk(await runJob(server, last, 'vip-levels')).body.result;
      expect(Number(run.result.bonusesGranted)).toBeGreaterThanOrEqual(1);
      expect(Number(run.result.bonusesSamePerson)).toBeGreaterThanOrEqual(1);
      // The same person's accounts are paid once between them: the first one checked (lower id).
      expect(await balance(server, first.userId)).toBe(firstBefore + usdt(10));
      expect(await balance(server, second.userId)).toBe(secondBefore);
      expect(await balance(server, unverified.userId)).toBe(unverifiedBefore);
      expect(await vipRewardsOf(server, second)).toMatchObject({ verified: true, granted: [], waiting: [] });
      expect(await vipRewardsOf(server, unverified)).toMatchObject({ verified: false, granted: [] });

      // Reruns pay nothing more: the job's own replay, and the payout called again.
      expect(expectOk(await runJob(server, last, 'vip-levels')).body.result.replayed).toBe(true);
      const settled = await moneySnapshot(server);
      expect(await grantVipBonuses(server.db, server.clock.now())).toMatchObject({ granted: 0, uncovered: 0 });
      expect(await moneySnapshot(server)).toEqual(settled);
      await expectLedgerSound(server);
    });

    test('payouts run at once for two accounts of one person pay the level once', async () => {
      const by = await admin(server);
      await setBonuses(server, [[1, '10', '1']]);
      expectOk(await setHolding(server, by, 0));
      await fund(server, by, '100');
      const kyc = await reviewer(server);
      const document = person(server);
      const accounts: Buyer[] = [];
      for (let index = 0; index < 3; index += 1) {
        const one = await account(server);
        await verify(server, kyc, one, document);
        await fundSpot(server, one.userId, '1000');
        await recheckUserLevel(server.db, server.clock, one.userId);
        accounts.push(one);
      }
      const pool = await poolOf(server);
      const now = server.clock.now();
      const runs = await Promise.all([
        ...accounts.map((one) => grantVipBonuses(server.db, now, [one.userId])),
        grantVipBonuses(server.db, now, accounts.map((one) => one.userId)),
      ]);
      expect(runs.reduce((sum, run) => sum + run.granted, 0)).toBe(1);
      const ids = accounts.map((one) => one.userId);
      const grants = await server.query<{ user_id: string }>(sql`select user_id::text from vip_bonus_grants
        where level = 1 and user_id = any(${`{${ids.join(',')}}`}::bigint[])`);
      expect(grants).toHaveLength(1);
      const paid = await Promise.all(accounts.map((one) => balance(server, one.userId)));
      expect(paid.reduce((sum, value) => sum + value, 0n)).toBe(usdt(3010));
      expect(await poolOf(server)).toBe(pool - usdt(10));
      expectOk(await setHolding(server, by, 7));
      await expectLedgerSound(server);
    });
  });
});
