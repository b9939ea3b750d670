// Reward pools, welfare tasks, VIP bonuses and weekly red envelopes through the real protocol
// (issue 23): fundings with a second operator above the threshold, claims paid once from the
// rewards pool, bonuses never paid twice, the envelope job once a week, opening refusals, and
// every refusal leaves every balance as it was. The suite's clock starts on Monday 2026-06-01.
import { describe, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { rewardAdminPaths, rewardPaths } from '../../../src/api/contract/rewards.ts';
import { productAdminPaths } from '../../../src/api/contract/products.ts';
import { grantVipBonuses } from '../../../server/domain/rewards/vip.ts';
import { issueEnvelopes } from '../../../server/domain/rewards/envelopes.ts';
import type { Executor } from '../../../server/db/client.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import { admin, balance, buyer, expectLedgerSound, moneySnapshot, type Admin, type Buyer } from '../products/productHelpers.ts';

const usdt = (whole: number) => BigInt(whole) * 1_000_000n;

async function poolOf(server: TestServer): Promise<bigint> {
  const [row] = await server.query<{ total: string }>(sql`select coalesce(sum(credits_posted - debits_posted), 0)::text as total
    from ledger_accounts where kind = 'rewards' and asset = 'USDT' and ledger = 1`);
  return BigInt(row.total);
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

      // Basic verification done → claimable; the pool is drained first: pool_insufficient, nothing moves.
      await server.query(sql`insert into kyc_applications (user_id, level, status, details, decided_at) values (${user.userId}, 1, 'approved', '{}', now())`);
      const claimable = expectOk(await server.get(rewardPaths.welfareTasks, {}, { token: user.token })).body.result.tasks
        .find((task: { kind: string }) => task.kind === 'kyc_basic');
      expect(claimable).toMatchObject({ state: 'claimable', progress: 1, rewardAmount: '2.000000' });
      const pool = await poolOf(server);
      await server.query(sql`update ledger_accounts set debits_posted = debits_posted + ${pool} where kind = 'rewards' and asset = 'USDT' and ledger = 1 and id = (
        select id from ledger_accounts where kind = 'rewards' and asset = 'USDT' and ledger = 1 order by id limit 1)`);
      const drained = await moneySnapshot(server);
      expectRefused(await server.post(rewardPaths.welfareClaim, { taskId: kyc.id }, { token: user.token }), 409, 'pool_insufficient');
      expect(await moneySnapshot(server)).toEqual(drained);
      const [claims] = await server.query<{ n: number }>(sql`select count(*)::int as n from welfare_claims where user_id = ${user.userId}`);
      expect(claims.n).toBe(0);
      await server.query(sql`update ledger_accounts set debits_posted = debits_posted - ${pool} where kind = 'rewards' and asset = 'USDT' and ledger = 1 and id = (
        select id from ledger_accounts where kind = 'rewards' and asset = 'USDT' and ledger = 1 order by id limit 1)`);

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
      const made = expectOk(await server.post(rewardAdminPaths.tasks, { kind: 'checkin_streak', name: 'Check in once', target: 1, rewardAsset: 'USDT', rewardAmount: '0.5' }, { token: boss.token })).body.result;
      expect(made).toMatchObject({ kind: 'checkin_streak', target: 1, rewardAmount: '0.500000', enabled: true, claims: 0 });
      expectOk(await server.post(rewardAdminPaths.task.replace(':id', made.id), { enabled: false }, { token: boss.token }));
      expectRefused(await server.post(rewardPaths.welfareClaim, { taskId: made.id }, { token: user.token }), 404, 'task_not_found');
      expectOk(await server.post(rewardAdminPaths.task.replace(':id', made.id), { enabled: true }, { token: boss.token }));
      expectOk(await server.post(rewardPaths.welfareClaim, { taskId: made.id }, { token: user.token }));
      expect(await balance(server, user.userId)).toBe(2_500_000n);
      await expectLedgerSound(server);
    });
  });

  describe('VIP bonuses', () => {
    test('each level reached pays its bonus once, never again after falling and rising; the daily job pays from assets', async () => {
      await setup();
      // Bonuses start at zero on a fresh install; the operator sets them.
      for (const [level, bonus, weeklyEnvelope] of [[1, '10', '1'], [2, '50', '5'], [3, '200', '20'], [4, '800', '80'], [5, '3000', '300']] as const) {
        expectOk(await server.post(rewardAdminPaths.vipRewards, { level, asset: 'USDT', bonus, weeklyEnvelope }, { token: boss.token }));
      }
      await fund(server, boss, '1000');
      const user = await buyer(server, '0', false);
      await setLevel(server, user.userId, 2);
      expect(await grantVipBonuses(server.db, server.clock.now(), [user.userId])).toEqual({ granted: 2, uncovered: 0 });
      expect(await balance(server, user.userId)).toBe(usdt(60)); // 10 + 50
      await setLevel(server, user.userId, 0);
      await setLevel(server, user.userId, 2);
      expect(await grantVipBonuses(server.db, server.clock.now(), [user.userId])).toEqual({ granted: 0, uncovered: 0 });
      expect(await balance(server, user.userId)).toBe(usdt(60));
      const mine = expectOk(await server.get(rewardPaths.vipRewards, {}, { token: user.token })).body.result;
      expect(mine.granted.map((grant: { level: number }) => grant.level)).toEqual([1, 2]);
      expect(mine.levels[0]).toMatchObject({ level: 1, bonus: '10.000000', weeklyEnvelope: '1.000000' });

      // A pool too small for the batch: the bonus is left unpaid (no grant row), paid once when funded.
      const poor = await buyer(server, '0', false);
      await setLevel(server, poor.userId, 5);
      expect(await poolOf(server) < usdt(4060)).toBe(true);
      const outcome = await grantVipBonuses(server.db, server.clock.now(), [poor.userId]);
      expect(outcome.granted + outcome.uncovered).toBe(5);
      expect(outcome.uncovered).toBeGreaterThanOrEqual(1);
      await fund(server, boss, '5000');
      expect(await grantVipBonuses(server.db, server.clock.now(), [poor.userId])).toEqual({ granted: outcome.uncovered, uncovered: 0 });
      expect(await grantVipBonuses(server.db, server.clock.now(), [poor.userId])).toEqual({ granted: 0, uncovered: 0 });
      expect(await balance(server, poor.userId)).toBe(usdt(4060));

      // The daily vip-levels job: 1 500 USDT of assets is level 1, its bonus paid after the recompute.
      const rich = await buyer(server, '1500', false);
      const run = expectOk(await runJob(server, boss, 'vip-levels')).body.result;
      expect(Number(run.result.bonusesGranted)).toBeGreaterThanOrEqual(1);
      expect(await balance(server, rich.userId)).toBe(usdt(1510));
      await expectLedgerSound(server);
    });
  });

  describe('red envelopes', () => {
    let owner: Buyer;
    let other: Buyer;
    test('the job issues one per eligible user a week; a second run is answered as done; an operator run later that week is refused', async () => {
      await setup();
      owner = await buyer(server, '0', false);
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

    test('the owner opens an envelope once; another user\'s, an opened and an expired one are refused and move nothing', async () => {
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
});
