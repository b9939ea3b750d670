// Team invitation and team income through the real protocol (issue 23): a chain of invitations
// counted three levels down (a fourth level is not), today's new members and those with a
// credited deposit; the invitation link and short link (resolved and counted, unknown codes
// refused); binding an inviter later, once, never oneself or a member of one's own team; the
// team-commission job crediting each inviter rate(level) × the fees paid the day before, demo
// fees never, exactly once however often it runs or wherever it stopped; the operator's rates.
import { describe, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { paths } from '../../../src/api/contract/paths.ts';
import { teamAdminPaths, teamPaths, type MyTeam } from '../../../src/api/contract/team.ts';
import { openAccounts } from '../../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';
import { commissionJobId, firstSeqFrom, payCommissions, prepareCommissions, runTeamCommission } from '../../../server/domain/programs/team/jobs.ts';
import { ratesPpm } from '../../../server/domain/programs/team/team.ts';
import { expectOk, expectRefused, forEachDatabase, type Account, type TestServer } from '../helpers.ts';
import { admin, balance, expectLedgerSound, moneySnapshot } from '../products/productHelpers.ts';
import { approvePendingSettingChanges } from '../adminHelpers.ts';
import { applyDeposit, approveAsOperator, withDepositAddresses } from '../wallet/walletHelpers.ts';

interface Member extends Account { userId: bigint; inviteCode: string }

async function member(server: TestServer, inviteCode?: string): Promise<Member> {
  server.freshIp();
  const email = server.uniqueEmail();
  expectOk(await server.requestEmailCode(email, 'register'));
  const answer = expectOk(await server.post(paths.register, {
    accountType: 'email', account: email, password: 'Secret123pass', code: server.latestCode(email), ...(inviteCode ? { inviteCode } : {}),
  }));
  const user = await server.userByEmail(email);
  return { token: answer.body.result.token, password: 'Secret123pass', account: email, email, userId: user.id, inviteCode: user.inviteCode };
}

const myTeam = async (server: TestServer, who: Account): Promise<MyTeam> =>
  expectOk(await server.get(teamPaths.myTeam, {}, { token: who.token })).body.result;

/** A fee paid by `who` now, as a trade's fee is: from their spot (or demo) account to the fees account. */
async function payFee(server: TestServer, userId: bigint, amountAtomic: bigint, ledger: 'real' | 'demo' = 'real', kind: 'trade_fee' | 'swap_fee' = 'trade_fee') {
  const [funds, fees] = await openAccounts(server.db, [
    { ledger, asset: 'USDT', kind: ledger === 'demo' ? 'demo' : 'spot', ownerUserId: userId },
    { ledger, asset: 'USDT', kind: 'fees', shard: Number(userId % 16n) },
  ]);
  const [clearing] = await openAccounts(server.db, [{ ledger, asset: 'USDT', kind: ledger === 'demo' ? 'house' : 'deposit_clearing', shard: 0 }]);
  const result = await postTransfers(server.db, [
    { id: server.unique('fund-'), kind: ledger === 'demo' ? 'demo_grant' : 'deposit', reference: server.unique('ref-'), amountAtomic, debitAccountId: clearing, creditAccountId: funds },
    { id: server.unique('fee-'), kind, reference: server.unique('position:'), amountAtomic, debitAccountId: funds, creditAccountId: fees },
  ], server.clock);
  if (!result.ok) throw new Error(`fee refused: ${result.refusal}`);
}

const utcDay = (time: Date) => time.toISOString().slice(0, 10);
const dayMs = 86_400_000;

forEachDatabase((server) => {
  describe('GET /api/marketing/myTeam', () => {
    test('counts three levels below the user (not a fourth), today\'s new members and those with a credited deposit', async () => {
      await withDepositAddresses(server);
      const top = await member(server);
      const level1 = await member(server, top.inviteCode.toLowerCase());
      const level1b = await member(server, top.inviteCode);
      const level2 = await member(server, level1.inviteCode);
      const level3 = await member(server, level2.inviteCode);
      await member(server, level3.inviteCode);
      // A credited deposit counts; one only applied for does not.
      const credited = await applyDeposit(server, level1b.token);
      await approveAsOperator(server, credited.id);
      await applyDeposit(server, level2.token);

      const team = await myTeam(server, top);
      expect(team).toMatchObject({
        inviteCode: top.inviteCode, teamSize: 4, subordinateLevels: 3, newToday: 4, depositedCount: 1, hasInviter: false,
        teamIncome: '0.000000', today: utcDay(server.clock.now()),
      });
      expect(team.inviteLink).toMatch(new RegExp(`/#/login\\?mode=register&inviteCode=${top.inviteCode}$`));
      expect(team.qrCodeContent).toBe(team.inviteLink);
      expect(team.levels.map(({ level, members, deposited, ratePercent }) => ({ level, members, deposited, ratePercent }))).toEqual([
        { level: 1, members: 2, deposited: 1, ratePercent: '20' }, { level: 2, members: 1, deposited: 0, ratePercent: '10' },
        { level: 3, members: 1, deposited: 0, ratePercent: '5' },
      ]);
      expect((await myTeam(server, level1)).hasInviter).toBe(true);

      // Tomorrow the same members are no longer new.
      server.clock.advance(dayMs);
      expect((await myTeam(server, top)).newToday).toBe(0);
      expect((await server.get(teamPaths.myTeam)).status).toBe(401);
    });

    test('the levels are walked through an index on users.referrer_id', async () => {
      const [index] = await server.query<{ n: number }>(sql`select count(*)::int as n from pg_indexes where indexname = 'users_referrer_idx'`);
      expect(Number(index.n)).toBe(1);
    });
  });

  describe('short links', () => {
    test('GET /api/marketing/myTeam/shortLink makes one link per user; /api/set/appShortLink/use resolves it and counts visits', async () => {
      const user = await member(server);
      const link = expectOk(await server.get(teamPaths.myShortLink, {}, { token: user.token })).body.result;
      expect(expectOk(await server.get(teamPaths.myShortLink, {}, { token: user.token })).body.result.code).toBe(link.code);
      expect(link.target).toBe(`/login?mode=register&inviteCode=${user.inviteCode}`);
      const used = expectOk(await server.get(teamPaths.useShortLink, { code: link.code })).body.result;
      expect(used).toMatchObject({ code: link.code, target: link.target, inviteCode: user.inviteCode, visits: 1 });
      expect(used.url).toMatch(/\/#\/login\?mode=register&inviteCode=/);
      const redirect = await server.app.inject({ method: 'GET', url: `/api/s/${link.code}` });
      expect(redirect.statusCode).toBe(302);
      expect(redirect.headers.location).toBe(`/#${link.target}`);
      expect((await myTeam(server, user)).shortLink).toBe(link.url);
      const [row] = await server.query<{ visits: number }>(sql`select visits from short_links where code = ${link.code}`);
      expect(Number(row.visits)).toBe(2);
    });

    test('an unknown code is refused with short_link_not_found; a malformed one with invalid_request', async () => {
      expectRefused(await server.get(teamPaths.useShortLink, { code: 'NoSuch99' }), 404, 'short_link_not_found');
      expect((await server.get(teamPaths.useShortLink, { code: 'a/b' })).status).toBe(400);
    });
  });

  describe('POST /api/marketing/myTeam/bindInviter', () => {
    test('binds once; refuses oneself, a member of one\'s own team at any depth, a second binding and an unknown code; nothing changes', async () => {
      const loner = await member(server);
      const below = await member(server, loner.inviteCode);
      const further = await member(server, below.inviteCode);
      const other = await member(server);
      const referrerOf = async (userId: bigint) =>
        (await server.query<{ r: string | null }>(sql`select referrer_id::text as r from users where id = ${userId}`))[0].r;

      expectRefused(await server.post(teamPaths.bindInviter, { inviteCode: loner.inviteCode }, { token: loner.token }), 400, 'invite_self');
      expectRefused(await server.post(teamPaths.bindInviter, { inviteCode: further.inviteCode }, { token: loner.token }), 400, 'invite_cycle');
      expectRefused(await server.post(teamPaths.bindInviter, { inviteCode: below.inviteCode }, { token: loner.token }), 400, 'invite_cycle');
      expectRefused(await server.post(teamPaths.bindInviter, { inviteCode: 'ZZZZ9999' }, { token: loner.token }), 400, 'invite_code_invalid');
      expectRefused(await server.post(teamPaths.bindInviter, { inviteCode: other.inviteCode }, { token: below.token }), 409, 'inviter_bound');
      expect(await referrerOf(loner.userId)).toBeNull();
      expect(await referrerOf(below.userId)).toBe(loner.userId.toString());

      const bound = expectOk(await server.post(teamPaths.bindInviter, { inviteCode: other.inviteCode }, { token: loner.token })).body.result;
      expect(bound.hasInviter).toBe(true);
      expect(await referrerOf(loner.userId)).toBe(other.userId.toString());
      expectRefused(await server.post(teamPaths.bindInviter, { inviteCode: further.inviteCode }, { token: loner.token }), 409, 'inviter_bound');
      expect(await referrerOf(loner.userId)).toBe(other.userId.toString());
      // The other's team now holds the loner's whole team below it.
      expect((await myTeam(server, other)).teamSize).toBe(3);
    });
  });

  describe('team-commission', () => {
    test('credits each of three inviters rate × the fees of the previous day from the fees account, once, demo fees never', async () => {
      const top = await member(server);
      const l1 = await member(server, top.inviteCode);
      const l2 = await member(server, l1.inviteCode);
      const l3 = await member(server, l2.inviteCode);
      const l4 = await member(server, l3.inviteCode);
      // Move to a fresh UTC day so this test's fees are the only ones of it.
      const now = server.clock.now().getTime();
      server.clock.advance(Math.floor(now / dayMs) * dayMs + dayMs + 3_600_000 - now);
      const feeDay = utcDay(server.clock.now());
      await payFee(server, l4.userId, 10_000_000n); // 10 USDT: l3 level 1, l2 level 2, l1 level 3 (top is level 4: nothing)
      await payFee(server, l1.userId, 3_333_333n, 'real', 'swap_fee'); // top level 1
      await payFee(server, l1.userId, 50_000_000n, 'demo'); // demo: never counts
      const before = { top: await balance(server, top.userId), l1: await balance(server, l1.userId), l2: await balance(server, l2.userId), l3: await balance(server, l3.userId) };

      // The operator's run of the next day pays the fee day.
      server.clock.advance(dayMs);
      // Back-office sessions end as the clock moves on by days: a fresh operator after the move.
      const boss = await admin(server);
      const run = expectOk(await server.post('/admin/jobs/team-commission/run', {}, { token: boss.token })).body.result;
      expect(run).toMatchObject({ name: 'team-commission', state: 'done' });
      expect(run.result.day).toBe(feeDay);
      expect(await balance(server, l3.userId) - before.l3).toBe(2_000_000n); // 20 % of 10
      expect(await balance(server, l2.userId) - before.l2).toBe(1_000_000n); // 10 % of 10
      expect(await balance(server, l1.userId) - before.l1).toBe(500_000n); // 5 % of 10
      expect(await balance(server, top.userId) - before.top).toBe(666_666n); // 20 % of 3.333333, rounded down
      const [paid] = await server.query<{ n: number; kinds: string }>(sql`select count(*)::int as n, string_agg(distinct t.kind, ',') as kinds
        from ledger_transfers t join ledger_accounts d on d.id = t.debit_account_id where t.reference = ${`team-commission:${feeDay}`} and d.kind = 'fees'`);
      expect(paid).toMatchObject({ n: 4, kinds: 'team_commission' });

      // The statements: per day and level, on the user's own call.
      const income = expectOk(await server.get(teamPaths.income, {}, { token: l2.token })).body.result;
      expect(income.records[0]).toMatchObject({
        day: feeDay, asset: 'USDT', fees: '10.000000', amount: '1.000000',
        levels: [{ level: 2, members: 1, fees: '10.000000', ratePercent: '10', amount: '1.000000' }],
      });
      const team = await myTeam(server, top);
      expect(team.teamIncome).toBe('0.666666');
      expect(team.levels[0].income).toEqual([{ asset: 'USDT', amount: '0.666666' }]);

      // Running again, for the same day, pays nobody twice.
      const snapshot = await moneySnapshot(server);
      await payCommissions(server.db, feeDay, server.clock.now());
      expect(expectOk(await server.post('/admin/jobs/team-commission/run', {}, { token: boss.token })).body.result.replayed).toBe(true);
      expect(await moneySnapshot(server)).toEqual(snapshot);

      const lines = expectOk(await server.get(teamAdminPaths.commissions, { day: feeDay }, { token: boss.token })).body.result;
      expect(lines.total).toBe(4);
      await expectLedgerSound(server);
    });

    test('counts only the fees paid at or after the binding: a level-1 inviter from the member\'s binding, a level-2 one from the later link', async () => {
      const top = await member(server);
      const inviter = await member(server);
      const trader = await member(server);
      const now = server.clock.now().getTime();
      server.clock.advance(Math.floor(now / dayMs) * dayMs + dayMs + 3_600_000 - now);
      const feeDay = utcDay(server.clock.now());
      await payFee(server, trader.userId, 5_000_000n); // before any binding: nobody's commission
      server.clock.advance(3_600_000);
      expectOk(await server.post(teamPaths.bindInviter, { inviteCode: inviter.inviteCode }, { token: trader.token }));
      await payFee(server, trader.userId, 2_000_000n); // at the very moment of the binding: counts for the inviter
      server.clock.advance(3_600_000);
      expectOk(await server.post(teamPaths.bindInviter, { inviteCode: top.inviteCode }, { token: inviter.token }));
      server.clock.advance(3_600_000);
      await payFee(server, trader.userId, 3_000_000n); // after both bindings: counts for both
      const start = { top: await balance(server, top.userId), inviter: await balance(server, inviter.userId) };

      server.clock.advance(dayMs);
      await payCommissions(server.db, feeDay, server.clock.now());
      expect(await balance(server, inviter.userId) - start.inviter).toBe(1_000_000n); // 20 % of 2 + 3, not of 10
      expect(await balance(server, top.userId) - start.top).toBe(300_000n); // 10 % of 3, not of 10
      const lines = await server.query<{ user_id: string; level: number; fees: string }>(sql`select user_id::text, level::int, fees::text
        from team_commissions where day = ${feeDay} and from_user_id = ${trader.userId} order by level`);
      expect(lines).toEqual([
        { user_id: inviter.userId.toString(), level: 1, fees: '5000000' },
        { user_id: top.userId.toString(), level: 2, fees: '3000000' },
      ]);
      const income = expectOk(await server.get(teamPaths.income, {}, { token: inviter.token })).body.result;
      expect(income.records[0]).toMatchObject({ day: feeDay, fees: '5.000000', amount: '1.000000' });
      await expectLedgerSound(server);
    });

    test('a run stopped after its statements were written pays them once when run again', async () => {
      const top = await member(server);
      const l1 = await member(server, top.inviteCode);
      server.clock.advance(dayMs);
      const feeDay = utcDay(server.clock.now());
      await payFee(server, l1.userId, 7_000_000n);
      const start = await balance(server, top.userId);
      // Step 1 only: statements and the payout job made, nothing paid (a crash before step 2).
      const jobId = await prepareCommissions(server.db, feeDay, 'USDT', await ratesPpm(server.db), server.clock.now());
      expect(jobId).toBe(commissionJobId(feeDay, 'USDT'));
      expect(await balance(server, top.userId)).toBe(start);
      await payCommissions(server.db, feeDay, server.clock.now());
      await payCommissions(server.db, feeDay, server.clock.now());
      expect(await balance(server, top.userId) - start).toBe(1_400_000n);
      const [rows] = await server.query<{ n: number }>(sql`select count(*)::int as n from team_commissions where day = ${feeDay} and user_id = ${top.userId}`);
      expect(Number(rows.n)).toBe(1);
      await expectLedgerSound(server);
    });
  });

  describe('team-commission catch-up', () => {
    test('a day no run paid (the server was down) is paid by the next run within a week, once', async () => {
      const top = await member(server);
      const l1 = await member(server, top.inviteCode);
      server.clock.advance(dayMs);
      const missedDay = utcDay(server.clock.now());
      await payFee(server, l1.userId, 5_000_000n);
      const start = await balance(server, top.userId);
      // The scan's seq bound leaves out older transfers and keeps every one of the day.
      const since = new Date(`${missedDay}T00:00:00Z`);
      const fromSeq = await server.db.transaction((tx) => firstSeqFrom(tx, since));
      const [split] = await server.query<{ kept_out: number; day_before_bound: number }>(sql`select
        count(*) filter (where seq < ${fromSeq.toString()}::bigint)::int as kept_out,
        count(*) filter (where seq < ${fromSeq.toString()}::bigint and created_at >= ${since.toISOString()}::timestamptz)::int as day_before_bound
        from ledger_transfers`);
      expect(Number(split.kept_out)).toBeGreaterThan(0);
      expect(Number(split.day_before_bound)).toBe(0);
      server.clock.advance(3 * dayMs);
      const today = utcDay(server.clock.now());
      const first = await runTeamCommission(server.services, today);
      expect(String(first.lateDays)).toContain(`${missedDay}: USDT 1.000000`);
      expect(await balance(server, top.userId) - start).toBe(1_000_000n);
      const again = await runTeamCommission(server.services, today);
      expect(again.lateDays).toBe('none');
      expect(await balance(server, top.userId) - start).toBe(1_000_000n);
    });
  });

  describe('/api/admin/team/rates', () => {
    test('an admin edits the rates (audited), the job uses them; above 50 % or a level twice is refused and nothing changes', async () => {
      const boss = await admin(server);
      expectRefused(await server.post(teamAdminPaths.rates, { rates: [{ level: 1, ratePercent: '50.5' }] }, { token: boss.token }), 400, 'invalid_request');
      expectRefused(await server.post(teamAdminPaths.rates, { rates: [{ level: 1, ratePercent: '5' }, { level: 1, ratePercent: '6' }] }, { token: boss.token }), 400, 'invalid_request');
      expect((await server.post(teamAdminPaths.rates, { rates: [{ level: 4, ratePercent: '5' }] }, { token: boss.token })).status).toBe(400);
      expect(expectOk(await server.get(teamAdminPaths.rates, {}, { token: boss.token })).body.result.map((rate: { ratePercent: string }) => rate.ratePercent))
        .toEqual(['20', '10', '5']);
      // A raise waits for a second admin (issue 38): the rates read as before until then.
      const asked = expectOk(await server.post(teamAdminPaths.rates, { rates: [{ level: 2, ratePercent: '12.5' }] }, { token: boss.token })).body.result;
      expect(asked.map((rate: { ratePercent: string }) => rate.ratePercent)).toEqual(['20', '10', '5']);
      expect((await ratesPpm(server.db)).get(2)).toBe(100_000);
      expect(await approvePendingSettingChanges(server)).toBe(1);
      const after = expectOk(await server.get(teamAdminPaths.rates, {}, { token: boss.token })).body.result;
      expect(after.map((rate: { ratePercent: string }) => rate.ratePercent)).toEqual(['20', '12.5', '5']);
      const [audit] = await server.query<{ action: string }>(sql`select action from audit_log where action = 'team.rates'`);
      expect(audit.action).toBe('team.rates');
      expect((await ratesPpm(server.db)).get(2)).toBe(125_000);
      expect((await server.get(teamAdminPaths.rates)).status).toBe(401);
      expectOk(await server.post(teamAdminPaths.rates, { rates: [{ level: 2, ratePercent: '10' }] }, { token: boss.token }));
    });
  });
});
