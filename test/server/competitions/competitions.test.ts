// Trading competitions through the real protocol (issue 23): the operator creates one; joining
// moves the entry funds spot → competition account once (a retry answers the first entry);
// every refusal moves nothing; contracts with the competition's id trade on that account, only
// its symbols and only for entrants; the live ranking follows the stated formula; exiting closes
// the positions and returns everything (status -3); the settle job freezes the ranking, returns
// the funds, waits for a funded prize pool, and a payout crashed half-way then run again pays
// each winner once. The end instant (issue 38): the engine closes every competition position at
// the end tick (the last at or before the end) on its first tick after the end, whatever the price
// since; the user's close and level changes after the end are refused and TP/SL and liquidation
// do not fire; settlement and prizes follow at once; the daily job a day later (ticks pruned)
// finds the same tick and pays nobody twice; an engine started after the end closes at it too.
import { describe, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { competitionAdminPaths, competitionPaths } from '../../../src/api/contract/competitions.ts';
import { closePositionPath, tradePaths, type Position } from '../../../src/api/contract/trading.ts';
import { walletPaths } from '../../../src/api/contract/wallet.ts';
import { seedDemoCompetition } from '../../../server/domain/programs/competitions/seedCompetitions.ts';
import { CompetitionEnds } from '../../../server/domain/programs/competitions/ending.ts';
import { payPrizes, prizeJobIdOf, settleCompetitions } from '../../../server/domain/programs/competitions/jobs.ts';
import { pruneTicks, type RecordedTick } from '../../../server/domain/core/market/store.ts';
import { settleFired, settleOnTick } from '../../../server/domain/core/trading/positions.ts';
import { TradingRuntime } from '../../../server/domain/core/trading/runtime.ts';
import { lastTickAt } from '../../../server/domain/core/market/ticks.ts';
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

/** The engine's trading runtime as the instance wires it: triggers, then the competitions' ends. */
function engineRuntime(server: TestServer, errors: unknown[]) {
  const onError = (error: unknown) => errors.push(error);
  return new TradingRuntime({
    db: server.db, clock: server.clock, userEvents: server.services.userEvents, onError, competitions: server.services.ports.competitions,
    watchers: [new CompetitionEnds({ db: server.db, clock: server.clock, onError })],
  });
}

/** Moves the test clock forward to `timeMs`. */
const advanceTo = (server: TestServer, timeMs: number) => server.clock.advance(timeMs - server.clock.now().getTime());

async function positionRows(server: TestServer, competitionId: string) {
  return server.query<{ id: string; status: string; exit_tick_id: string | null; close_reason: string | null }>(sql`select id::text as id,
    status, exit_tick_id::text as exit_tick_id, close_reason from trade_positions where competition_id = ${BigInt(competitionId)} order by id`);
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
  describe('the end instant (issue 38)', () => {
    const errors: unknown[] = [];
    let runtime: TradingRuntime;
    let cup: { id: string; endTime: number };
    let hedger: Trader; let bull: Trader;
    let long: Position; let short: Position; let leveraged: Position;
    let endTick: RecordedTick;
    const feed = async (ticks: RecordedTick[]) => { runtime.enqueue(ticks); await runtime.drained(); };

    test('after the end the user cannot close or change a competition position, and no level fires', async () => {
      boss = await admin(server);
      await fundPrizes(server, '2000');
      await freshTick(server, 'BTCUSDT', '50000');
      cup = await createCompetition(server, boss, { endTime: server.clock.now().getTime() + hourMs });
      [hedger, bull] = [await trader(server, '300'), await trader(server, '300')];
      for (const user of [hedger, bull]) expectOk(await join(server, user, cup.id));
      long = expectOk(await openPosition(server, hedger, { competitionId: cup.id, margin: '40', direction: 'long', takeProfit: '52000', stopLoss: '48000' })).body.result;
      short = expectOk(await openPosition(server, hedger, { competitionId: cup.id, margin: '40', direction: 'short', takeProfit: '48000', stopLoss: '52000' })).body.result;
      leveraged = expectOk(await openPosition(server, bull, { competitionId: cup.id, margin: '40', direction: 'long' })).body.result;
      expect(Number(leveraged.liquidationPrice)).toBeGreaterThan(40000);
      runtime = engineRuntime(server, errors);
      await runtime.init();
      await feed([await freshTick(server, 'BTCUSDT', '50500')]);
      // The end tick: the last recorded at or before the end instant.
      advanceTo(server, cup.endTime - 1000);
      endTick = await recordTick(server, 'BTCUSDT', '50200');
      await feed([endTick]);
      expect((await positionRows(server, cup.id)).map((row) => row.status)).toEqual(['running', 'running', 'running']);

      // Ten seconds after the end, before the engine has seen a tick after it: a fall and a rise.
      advanceTo(server, cup.endTime + 5000);
      const fall = await recordTick(server, 'BTCUSDT', '40000');
      advanceTo(server, cup.endTime + 10_000);
      const rise = await recordTick(server, 'BTCUSDT', '53000');
      const before = await moneySnapshot(server);
      expectRefused(await server.post(closePositionPath(long.id), {}, { token: hedger.token }), 409, 'position_competition_ended');
      expectRefused(await server.post(tradePaths.updateStopLoss, { id: short.id, stopLoss: '60000' }, { token: hedger.token }), 409,
        'position_competition_ended');
      expectRefused(await server.post(competitionPaths.exit, { id: cup.id }, { token: hedger.token }), 409, 'competition_ended');
      // The trigger engine's settlements, handed ticks that reach the long's take-profit, the short's stop-loss and the bull's liquidation.
      const deps = { db: server.db, clock: server.clock, userEvents: server.services.userEvents, competitions: server.services.ports.competitions };
      const fired = await settleFired(deps, [{ positionId: BigInt(long.id), tick: rise }, { positionId: BigInt(short.id), tick: rise },
        { positionId: BigInt(leveraged.id), tick: fall }]);
      expect(fired).toEqual({ settled: [], failed: [] });
      expect(await settleOnTick(deps, BigInt(leveraged.id), fall)).toBeUndefined();
      expect(await moneySnapshot(server)).toEqual(before);

      // The engine's first batch after the end: every competition position closes at the end tick, none at these prices.
      await feed([fall, rise]);
      expect(errors).toEqual([]);
      const closed = await positionRows(server, cup.id);
      expect(closed).toEqual([long, short, leveraged].map((position) => ({
        id: position.id, status: 'closed', exit_tick_id: String(endTick.id), close_reason: 'competition_end',
      })));
      const [retained] = await server.query<{ retained: boolean }>(sql`select retained from market_ticks where id = ${endTick.id}`);
      expect(retained.retained).toBe(true);
      const receipt = expectOk(await server.get(tradePaths.getPosition, { id: long.id }, { token: hedger.token })).body.result as Position;
      expect(receipt.receipt).toMatchObject({ reason: 'competition_end', exitTick: { id: String(endTick.id), price: '50200.00' } });
      // Settlement and prizes followed at once: ranked, funds back, both prizes paid.
      boss = await admin(server);
      const settled = expectOk(await server.get(competitionAdminPaths.competition.replace(':id', cup.id), {}, { token: boss.token })).body.result;
      expect(settled).toMatchObject({ state: 'settled', payout: { state: 'done', targetsPosted: 2 } });
      for (const user of [hedger, bull]) {
        expect(await balance(server, user.userId, 'competition')).toBe(0n);
        expect((await transfersOfKind(server, user.userId, 'competition_prize')).n).toBe(1);
      }
      expectRefused(await server.post(closePositionPath(short.id), {}, { token: hedger.token }), 409, 'position_closed');
      await expectLedgerSound(server);
    });

    test('the daily job a day later, with the ticks since pruned, finds the same end tick and pays nobody twice', async () => {
      server.clock.advance(24 * hourMs);
      for (const price of ['41000', '59000']) await feed([await freshTick(server, 'BTCUSDT', price)]);
      await pruneTicks(server.db, server.clock.now().getTime() - 6 * hourMs);
      expect((await lastTickAt(server.db, 'BTCUSDT', cup.endTime))?.id).toBe(endTick.id);
      const before = await moneySnapshot(server);
      await settleCompetitions(server.db, server.clock);
      expect(await moneySnapshot(server)).toEqual(before);
      expect((await positionRows(server, cup.id)).map((row) => row.exit_tick_id)).toEqual([String(endTick.id), String(endTick.id), String(endTick.id)]);
      for (const user of [hedger, bull]) expect((await transfersOfKind(server, user.userId, 'competition_prize')).n).toBe(1);
      await runtime.stop();
      await expectLedgerSound(server);
    });

    test('an engine that starts after the end closes a hedged pair at the end tick, not at the prices since', async () => {
      boss = await admin(server);
      await freshTick(server, 'BTCUSDT', '50000');
      const later = await createCompetition(server, boss, { endTime: server.clock.now().getTime() + hourMs });
      const user = await trader(server, '300');
      expectOk(await join(server, user, later.id));
      const pair = [
        expectOk(await openPosition(server, user, { competitionId: later.id, margin: '40', direction: 'long' })).body.result as Position,
        expectOk(await openPosition(server, user, { competitionId: later.id, margin: '40', direction: 'short' })).body.result as Position,
      ];
      advanceTo(server, later.endTime);
      const atEnd = await recordTick(server, 'BTCUSDT', '50100');
      server.clock.advance(60_000);
      await recordTick(server, 'BTCUSDT', '58000');
      expectRefused(await server.post(closePositionPath(pair[0].id), {}, { token: user.token }), 409, 'position_competition_ended');
      const restarted = engineRuntime(server, errors);
      await restarted.init();
      await restarted.drained();
      expect(errors).toEqual([]);
      expect(await positionRows(server, later.id)).toEqual(pair.map((position) => ({
        id: position.id, status: 'closed', exit_tick_id: String(atEnd.id), close_reason: 'competition_end',
      })));
      const entry = expectOk(await server.get(competitionPaths.mine, {}, { token: user.token })).body.result.records[0];
      expect(entry).toMatchObject({ competitionId: later.id, status: -2, state: 'ended' });
      await restarted.stop();
      await expectLedgerSound(server);
    });

    test('a competition ending while its market is closed closes at the last tick before the close, which pruning keeps', async () => {
      // The next Friday 21:00 UTC: gold trades until 22:00, then not before Sunday 22:00.
      const friday = new Date(server.clock.now());
      friday.setUTCHours(21, 0, 0, 0);
      while (friday.getUTCDay() !== 5 || friday.getTime() <= server.clock.now().getTime()) friday.setUTCDate(friday.getUTCDate() + 1);
      advanceTo(server, friday.getTime());
      boss = await admin(server);
      await recordTick(server, 'XAUUSD', '2350.00');
      const endTime = friday.getTime() + 15 * hourMs;
      const weekend = await createCompetition(server, boss, { symbols: ['XAUUSD'], endTime });
      const user = await trader(server, '300');
      expectOk(await join(server, user, weekend.id));
      const gold = expectOk(await openPosition(server, user, { competitionId: weekend.id, symbol: 'XAUUSD', margin: '40', leverage: 10 })).body.result as Position;
      advanceTo(server, friday.getTime() + 59 * 60_000);
      const lastBeforeClose = await recordTick(server, 'XAUUSD', '2360.00');
      const engine = engineRuntime(server, errors);
      await engine.init();
      // Saturday, ten seconds after the end: the feed has pruned everything older than six hours but each symbol's newest tick.
      advanceTo(server, endTime + 10_000);
      await pruneTicks(server.db, server.clock.now().getTime() - 6 * hourMs);
      await engine.enqueue([await recordTick(server, 'BTCUSDT', '50000')]);
      await engine.drained();
      expect(errors).toEqual([]);
      expect(await positionRows(server, weekend.id)).toEqual([{
        id: gold.id, status: 'closed', exit_tick_id: String(lastBeforeClose.id), close_reason: 'competition_end',
      }]);
      await engine.stop();
      await expectLedgerSound(server);
    });
  });
});
