// Property-based (issue 23): random joins, exits, competition trades, refusals and price moves
// keep every asset conserved across all ledger accounts; a refusal moves nothing; the live ranking
// is the stated formula (competition account balance + margin + unrealised P/L of the open
// competition positions at the last tick; return = (equity − entry) / entry in ppm, truncated;
// by return, ties by the earlier join), recomputed here independently; and once every
// competition is settled no competition account holds anything.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { competitionPaths } from '../../../src/api/contract/competitions.ts';
import * as math from '../../../src/api/contract/tradingMath.ts';
import type { Direction } from '../../../src/api/contract/trading.ts';
import { settleCompetitions } from '../../../server/domain/programs/competitions/jobs.ts';
import { unitsOf } from '../../../server/domain/core/trading/positionWire.ts';
import { lastTickAt } from '../../../server/domain/core/market/ticks.ts';
import { expectOk, forEachDatabase, type TestServer } from '../helpers.ts';
import { admin, balance } from '../products/productHelpers.ts';
import { expectLedgerSound, freshTick, moneySnapshot, openPosition, trader, type Trader } from '../trading/positionHelpers.ts';
import { createCompetition, join } from './competitionHelpers.ts';

type Step =
  | { type: 'join'; user: number; retry: boolean }
  | { type: 'exit'; user: number }
  | { type: 'trade'; user: number; long: boolean; margin: number }
  | { type: 'price'; movePermille: number }
  | { type: 'refused'; user: number; kind: 'twice' | 'symbol' | 'unknown' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ type: fc.constant('join' as const), user: fc.integer({ min: 0, max: 2 }), retry: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('exit' as const), user: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('trade' as const), user: fc.integer({ min: 0, max: 2 }), long: fc.boolean(), margin: fc.integer({ min: 10, max: 40 }) }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('price' as const), movePermille: fc.integer({ min: -80, max: 80 }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('refused' as const), user: fc.integer({ min: 0, max: 2 }), kind: fc.constantFrom('twice' as const, 'symbol' as const, 'unknown' as const) }) },
);

async function expectConserved(server: TestServer) {
  const unbalanced = await server.query(sql`select ledger, asset from ledger_accounts group by ledger, asset
    having sum(credits_posted - debits_posted) <> 0 or sum(credits_pending - debits_pending) <> 0`);
  expect(unbalanced).toEqual([]);
}

/** The formula, recomputed from the rows: equity and return of each joined entry, then the order. */
async function expectRankingByFormula(server: TestServer, competitionId: string, users: Trader[]) {
  const detail = expectOk(await server.get(competitionPaths.detail, { id: competitionId })).body.result;
  const entries = await server.query<{ user_id: string; entry_amount: string; joined_at: Date; id: string }>(sql`select user_id::text,
    entry_amount::text, joined_at, id::text from competition_entries where competition_id = ${BigInt(competitionId)} and status = 'joined' order by id`);
  const nowMs = server.clock.now().getTime();
  const expected: Array<{ equity: bigint; ppm: bigint; joined: number; id: bigint }> = [];
  for (const entry of entries) {
    let equity = await balance(server, BigInt(entry.user_id), 'competition');
    const open = await server.query<{ symbol: string; direction: string; quantity: string; open_price: string; margin: string; open_fee: string;
      fee_ppm: number; spread_units: string }>(sql`select symbol, direction, quantity::text, open_price::text, margin::text, open_fee::text,
      fee_ppm, spread_units::text from trade_positions where competition_id = ${BigInt(competitionId)} and user_id = ${BigInt(entry.user_id)}
      and status = 'running'`);
    for (const row of open) {
      const tick = await lastTickAt(server.db, row.symbol, nowMs);
      const direction = row.direction as Direction;
      equity += BigInt(row.margin) + math.settle(unitsOf(row.symbol), {
        direction, quantity: BigInt(row.quantity), entryPrice: BigInt(row.open_price), margin: BigInt(row.margin),
        openFee: BigInt(row.open_fee), feePpm: row.fee_ppm,
      }, math.exitPrice(direction, tick!.priceUnits, BigInt(row.spread_units))).pnl;
    }
    const entryAmount = BigInt(entry.entry_amount);
    expected.push({ equity, ppm: ((equity - entryAmount) * 1_000_000n) / entryAmount, joined: new Date(entry.joined_at).getTime(), id: BigInt(entry.id) });
  }
  expected.sort((a, b) => (a.ppm === b.ppm ? a.joined - b.joined || (a.id < b.id ? -1 : 1) : a.ppm > b.ppm ? -1 : 1));
  const ranking = detail.ranking as Array<{ rank: number; equity: string; returnRate: string }>;
  expect(ranking.map((row) => row.rank)).toEqual(expected.map((_, index) => index + 1));
  const ppmText = (ppm: bigint) => {
    const abs = ppm < 0n ? -ppm : ppm;
    return `${ppm < 0n ? '-' : ''}${abs / 10_000n}.${(abs % 10_000n).toString().padStart(4, '0')}`;
  };
  expect(ranking.map((row) => row.returnRate)).toEqual(expected.map((row) => ppmText(row.ppm)));
  void users;
}

forEachDatabase((server) => {
  describe('competitions under random steps', () => {
    test('conservation, refusals move nothing, and the ranking follows the stated formula', async () => {
      let price = 50_000;
      await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 10 }), async (steps) => {
        // Three registrations a run (and more while shrinking): each run from an address of its own.
        server.freshIp();
        const boss = await admin(server);
        await freshTick(server, 'BTCUSDT', String(price));
        const cup = await createCompetition(server, boss, { prizes: [] });
        const users = [await trader(server, '300'), await trader(server, '300'), await trader(server, '300')];
        const joinIds = users.map(() => server.unique('join-order-'));
        /** Users with an entry (joined or exited): a second entry is refused. */
        const entered = new Set<number>();
        for (const each of steps) {
          if (each.type === 'price') {
            price = Math.max(1000, Math.round(price * (1000 + each.movePermille) / 1000));
            await freshTick(server, 'BTCUSDT', String(price));
          } else if (each.type === 'join') {
            const reply = await join(server, users[each.user], cup.id, joinIds[each.user]);
            expect(reply.status === 200 || reply.body?.result?.error === 'competition_joined_already').toBe(true);
            if (reply.status === 200) entered.add(each.user);
            if (each.retry) {
              const before = await moneySnapshot(server);
              expect((await join(server, users[each.user], cup.id, joinIds[each.user])).status).toBe(reply.status);
              expect(await moneySnapshot(server)).toEqual(before);
            }
          } else if (each.type === 'exit') {
            const reply = await server.post(competitionPaths.exit, { id: cup.id }, { token: users[each.user].token });
            expect(reply.status === 200 || reply.body?.result?.error === 'competition_not_joined').toBe(true);
          } else if (each.type === 'trade') {
            await freshTick(server, 'BTCUSDT', String(price));
            const reply = await openPosition(server, users[each.user], { competitionId: cup.id, margin: String(each.margin), direction: each.long ? 'long' : 'short' });
            expect(reply.status === 200 || ['competition_not_joined', 'balance_insufficient'].includes(reply.body?.result?.error)).toBe(true);
          } else if (each.kind !== 'twice' || entered.has(each.user)) {
            const before = await moneySnapshot(server);
            const user = users[each.user];
            const reply = each.kind === 'twice' ? await join(server, user, cup.id)
              : each.kind === 'unknown' ? await join(server, user, '987654321')
                : await openPosition(server, user, { competitionId: cup.id, symbol: 'ETHUSDT', margin: '10' });
            expect(reply.status).toBeGreaterThanOrEqual(400);
            expect(await moneySnapshot(server)).toEqual(before);
          }
          await expectConserved(server);
        }
        await expectRankingByFormula(server, cup.id, users);
      }), { numRuns: 8 });
      server.clock.advance(2 * 86_400_000);
      await freshTick(server, 'BTCUSDT', String(price));
      await settleCompetitions(server.db, server.clock);
      const [held] = await server.query<{ total: string }>(sql`select coalesce(sum(credits_posted - debits_posted), 0)::text as total
        from ledger_accounts where kind = 'competition'`);
      expect(held.total).toBe('0');
      await expectConserved(server);
      await expectLedgerSound(server);
    }, 240_000);
  });
});
