// Trading competitions through the real protocol (issue 23): the operator creates one; joining
// moves the entry funds spot → competition account once (a retry answers the first entry);
// every refusal moves nothing; contracts with the competition's id trade on that account, only
// its symbols and only for entrants; the live ranking follows the stated formula; exiting closes
// the positions and returns everything (status -3); the settle job freezes the ranking, returns
// the funds, waits for a funded prize pool, and a payout crashed half-way then run again pays
// each winner once.
import { describe, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { competitionAdminPaths, competitionPaths } from '../../../src/api/contract/competitions.ts';
import { walletPaths } from '../../../src/api/contract/wallet.ts';
import { seedDemoCompetition } from '../../../server/domain/competitions/seedCompetitions.ts';
import { payPrizes, prizeJobIdOf, settleCompetitions } from '../../../server/domain/competitions/jobs.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import { admin, balance, type Admin } from '../products/productHelpers.ts';
import { expectLedgerSound, freshTick, moneySnapshot, openPosition, recordTick, trader, usdt, type Trader } from '../trading/positionHelpers.ts';
import { createCompetition, fundPrizes, join } from './competitionHelpers.ts';

const hourMs = 3_600_000;

async function transfersOfKind(server: TestServer, userId: bigint, kind: string) {
  const [row] = await server.query<{ n: number; total: string }>(sql`select count(*)::int as n, coalesce(sum(t.amount), 0)::text as total
    from ledger_transfers t join ledger_accounts a on a.id = t.credit_account_id where a.owner_user_id = ${userId} and t.kind = ${kind}`);
  return { n: row.n, total: BigInt(row.total) };
}

forEachDatabase((server) => {
  let boss: Admin;

  test('the demo seed makes a competition in progress with three entrants and a funded prize pool, once', async () => {
    await seedDemoCompetition(server.db, server.clock.now());
    await seedDemoCompetition(server.db, server.clock.now());
    const list = expectOk(await server.get(competitionPaths.list, { status: '1' })).body.result;
    expect(list.records).toHaveLength(1);
    expect(list.records[0]).toMatchObject({ status: 1, participants: 3, prizeTotal: '975.000000' });
    await expectLedgerSound(server);
  });

  describe('join and refusals', () => {
    test('joining moves the entry funds once; a retry answers the first entry; every refusal moves nothing', async () => {
      boss = await admin(server);
      await freshTick(server, 'BTCUSDT', '50000');
      const cup = await createCompetition(server, boss, { maxParticipants: 2 });
      expect(cup).toMatchObject({ status: 1, state: 'running', entryAmount: '100.000000', participants: 0, prizeTotal: '90.000000' });
      const user = await trader(server, '150');
      const orderId = server.unique('join-order-');
      const first = expectOk(await join(server, user, cup.id, orderId)).body.result;
      expect(first).toMatchObject({ competitionId: cup.id, status: 1, state: 'joined', entryAmount: '100.000000', returnRate: '0.0000', rank: 1 });
      const again = expectOk(await join(server, user, cup.id, orderId)).body.result;
      expect(again.id).toBe(first.id);
      expect(await balance(server, user.userId, 'spot')).toBe(usdt('50'));
      expect(await balance(server, user.userId, 'competition')).toBe(usdt('100'));
      expect((await transfersOfKind(server, user.userId, 'competition_entry')).n).toBe(1);

      const before = await moneySnapshot(server);
      expectRefused(await join(server, user, cup.id), 409, 'competition_joined_already');
      expectRefused(await join(server, user, '999999'), 404, 'competition_not_found');
      const other = await createCompetition(server, boss);
      expectRefused(await join(server, user, other.id), 409, 'competition_busy');
      const poor = await trader(server, '99');
      expectRefused(await join(server, poor, cup.id), 400, 'balance_insufficient');
      const third = await trader(server, '100');
      expectOk(await join(server, third, cup.id));
      const late = await trader(server, '100');
      const afterFull = await moneySnapshot(server);
      expectRefused(await join(server, late, cup.id), 409, 'competition_full');
      expect(await moneySnapshot(server)).toEqual(afterFull);
      expect(before.accounts.find((row) => row.id === afterFull.accounts[0].id)).toEqual(afterFull.accounts[0]);
      expectRefused(await server.post(competitionPaths.join, { id: cup.id }, { token: user.token }), 400, 'invalid_request');

      const list = expectOk(await server.get(competitionPaths.list, { status: '1' }, { token: user.token })).body.result;
      expect(list.records.find((row: { id: string }) => row.id === cup.id)).toMatchObject({ joined: true, participants: 2 });
      const assets = expectOk(await server.get(walletPaths.userAssets, {}, { token: user.token })).body.result;
      expect(assets.byKind.competition).toBe('100.000000');
      await expectLedgerSound(server);
    });
  });

  describe('trading, ranking, exit and settlement', () => {
    let cup: { id: string };
    let a: Trader; let b: Trader; let c: Trader;

    test('competition contracts trade on the competition account; the ranking follows the formula; exit returns everything', async () => {
      boss = await admin(server);
      await freshTick(server, 'ETHUSDT', '3000');
      await recordTick(server, 'BTCUSDT', '50000');
      cup = await createCompetition(server, boss);
      [a, b, c] = [await trader(server, '200'), await trader(server, '200'), await trader(server, '200')];
      for (const user of [a, b, c]) expectOk(await join(server, user, cup.id));
      const stranger = await trader(server, '200');
      const before = await moneySnapshot(server);
      expectRefused(await openPosition(server, stranger, { competitionId: cup.id, margin: '10' }), 409, 'competition_not_joined');
      expectRefused(await openPosition(server, a, { competitionId: cup.id, symbol: 'ETHUSDT', margin: '10' }), 400, 'competition_symbol_not_allowed');
      expectRefused(await openPosition(server, a, { competitionId: cup.id, margin: '150' }), 400, 'balance_insufficient');
      expect(await moneySnapshot(server)).toEqual(before);

      const long = expectOk(await openPosition(server, a, { competitionId: cup.id, margin: '50', direction: 'long' })).body.result;
      expect(long.competitionId).toBe(cup.id);
      const short = expectOk(await openPosition(server, b, { competitionId: cup.id, margin: '50', direction: 'short' })).body.result;
      expect(await balance(server, a.userId, 'spot')).toBe(usdt('100'));
      expect(await balance(server, a.userId, 'competition')).toBe(usdt('100') - usdt(long.margin) - usdt(long.openFee));

      await freshTick(server, 'BTCUSDT', '51000');
      const detail = expectOk(await server.get(competitionPaths.detail, { id: cup.id }, { token: a.token })).body.result;
      expect(detail.formula).toMatch(/rate of return/);
      expect(detail.ranking.map((row: { rank: number }) => row.rank)).toEqual([1, 2, 3]);
      expect(detail.ranking[0]).toMatchObject({ mine: true, reward: '50.000000' });
      const rates = detail.ranking.map((row: { returnRate: string }) => Number(row.returnRate));
      expect([...rates].sort((x, y) => y - x)).toEqual(rates);
      // a: the account's balance + margin + unrealised P/L at the last tick, over the entry.
      const equityA = usdt(detail.ranking[0].equity);
      expect(detail.myEntry.equity).toBe(detail.ranking[0].equity);
      expect(detail.ranking[0].returnRate).toBe(((Number(equityA - usdt('100')) * 1e6 / Number(usdt('100'))) / 1e4).toFixed(4));

      const spotBefore = await balance(server, b.userId, 'spot');
      const exited = expectOk(await server.post(competitionPaths.exit, { id: cup.id }, { token: b.token })).body.result;
      expect(exited).toMatchObject({ status: -3, state: 'exited', rank: null, reward: '0.000000' });
      const [closed] = await server.query<{ status: string }>(sql`select status from trade_positions where id = ${BigInt(short.id)}`);
      expect(closed.status).toBe('closed');
      expect(await balance(server, b.userId, 'competition')).toBe(0n);
      expect(await balance(server, b.userId, 'spot') - spotBefore).toBe(usdt(exited.equity));
      expectRefused(await server.post(competitionPaths.exit, { id: cup.id }, { token: b.token }), 409, 'competition_not_joined');
      expectRefused(await openPosition(server, b, { competitionId: cup.id, margin: '10' }), 409, 'competition_not_joined');
      const mine = expectOk(await server.get(competitionPaths.mine, {}, { token: b.token })).body.result;
      expect(mine.records[0]).toMatchObject({ id: exited.id, status: -3 });
      await expectLedgerSound(server);
    });

    test('the end freezes the ranking and returns the funds; prizes wait for the pool; a crashed payout resumed pays each winner once', async () => {
      server.clock.advance(25 * hourMs);
      await freshTick(server, 'BTCUSDT', '51000');
      const before = await moneySnapshot(server);
      expectRefused(await server.post(competitionPaths.exit, { id: cup.id }, { token: a.token }), 409, 'competition_ended');
      expectRefused(await join(server, await trader(server, '0'), cup.id), 409, 'competition_closed');
      expectRefused(await openPosition(server, a, { competitionId: cup.id, margin: '10' }), 409, 'competition_not_running');
      expect((await moneySnapshot(server)).transfers).toBe(before.transfers);

      // The prize pool is held for the demo cup (975 of its 1 000): frozen and returned, prizes not paid yet.
      await settleCompetitions(server.db, server.clock);
      const ended = expectOk(await server.get(competitionPaths.detail, { id: cup.id })).body.result;
      expect(ended).toMatchObject({ status: -2, state: 'ended' });
      expect(ended.ranking.map((row: { rank: number }) => row.rank)).toEqual([1, 2]);
      expect(await balance(server, a.userId, 'competition')).toBe(0n);
      expect(await balance(server, c.userId, 'competition')).toBe(0n);
      expect(await balance(server, c.userId, 'spot')).toBe(usdt('200'));
      const [open] = await server.query<{ n: number }>(sql`select count(*)::int as n from trade_positions where competition_id = ${BigInt(cup.id)} and status = 'running'`);
      expect(open.n).toBe(0);
      expect((await transfersOfKind(server, a.userId, 'competition_prize')).n).toBe(0);

      // The pool is held for the demo cup (975) and the other unsettled ones: 300 more pays this one and the first test's cup (70 each).
      await fundPrizes(server, '300');
      let batches = 0;
      await expect(payPrizes(server.db, server.clock, BigInt(cup.id), {
        batchSize: 1, onProgress: () => { if ((batches += 1) === 2) throw new Error('crash after the first batch'); },
      })).rejects.toThrow(/crash/);
      const [job] = await server.query<{ state: string; targets_posted: number }>(sql`select state, targets_posted from payout_jobs where id = ${prizeJobIdOf(BigInt(cup.id))}`);
      expect(job).toMatchObject({ state: 'failed', targets_posted: 1 });
      const paidFirst = (await transfersOfKind(server, a.userId, 'competition_prize')).n + (await transfersOfKind(server, c.userId, 'competition_prize')).n;
      expect(paidFirst).toBe(1);
      await settleCompetitions(server.db, server.clock);
      await settleCompetitions(server.db, server.clock);
      const winners = ended.ranking as Array<{ name: string; reward: string; equity: string }>;
      const rewardOf = async (user: Trader) => transfersOfKind(server, user.userId, 'competition_prize');
      expect([await rewardOf(a), await rewardOf(c)].map((paid) => paid.n)).toEqual([1, 1]);
      expect((await rewardOf(a)).total + (await rewardOf(c)).total).toBe(usdt(winners[0].reward) + usdt(winners[1].reward));
      expect((await rewardOf(b)).n).toBe(0);
      boss = await admin(server);
      const settled = expectOk(await server.get(competitionAdminPaths.competition.replace(':id', cup.id), {}, { token: boss.token })).body.result;
      expect(settled).toMatchObject({ state: 'settled', prizesDue: '70.000000', poolBalance: '1160.000000', payout: { state: 'done', targetsPosted: 2 } });
      const mine = expectOk(await server.get(competitionPaths.mine, {}, { token: a.token })).body.result;
      expect(mine.records[0]).toMatchObject({ status: -2, state: 'ended' });
      expect(mine.records[0].rank).toBeGreaterThan(0);
      const [audit] = await server.query<{ n: number }>(sql`select count(*)::int as n from audit_log where action = 'competition.create'`);
      expect(audit.n).toBeGreaterThan(0);
      await expectLedgerSound(server);
    });
  });
});
