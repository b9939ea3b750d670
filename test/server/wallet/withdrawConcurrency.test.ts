// Fifty withdrawal requests at once against one balance, through the real protocol: the balance
// limit is checked under the spot account's row lock, so exactly as many as the balance covers
// go through and the rest are refused as balance_insufficient, never overdrawing. On PostgreSQL
// the requests really overlap (a pool of connections); PGlite runs them one at a time.
// The password throttle is widened for this suite: fifty right passwords at once would otherwise
// meet the guess lockout, which is tested on its own (withdrawPassword.test.ts).
import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { expectOk, forEachDatabase } from '../helpers.ts';
import { apply, expectLedgerSound, spotOf, usdt, withdrawer } from './withdrawHelpers.ts';

const requests = 50;

forEachDatabase((server) => {
  it(`${requests} simultaneous withdrawals never overdraw one balance`, async () => {
    // 100 USDT; each request takes 10 + the 1 USDT fee, so 9 fit and 1 USDT stays.
    const user = await withdrawer(server, '100');
    const answers = await Promise.all(Array.from({ length: requests }, () => apply(server, user, { amount: '10' })));
    const accepted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(accepted).toHaveLength(9);
    expect(refused.map((answer) => `${answer.status} ${answer.body.result?.error}`)).toEqual(Array(requests - 9).fill('400 balance_insufficient'));
    expect(await spotOf(server, user.userId)).toEqual({ posted: usdt(100), held: usdt(99), available: usdt(1) });
    const [{ withdrawals, holds }] = await server.query<{ withdrawals: number; holds: number }>(sql`select
      (select count(*)::int from withdrawals where user_id = ${String(user.userId)}::bigint) as withdrawals,
      (select count(*)::int from ledger_transfers where phase = 'pending' and reference like 'withdrawal:%') as holds`);
    expect({ withdrawals, holds }).toEqual({ withdrawals: 9, holds: 9 });
    expect(accepted.every((answer) => expectOk(answer).body.result.status === 0)).toBe(true);
    await expectLedgerSound(server);
  });
}, { limits: { passwordAttemptsFree: requests * 2 } });
