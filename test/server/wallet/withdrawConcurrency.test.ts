// Fifty withdrawal requests at once against one balance, through the real protocol: the balance
// limit is checked under the spot account's row lock, so exactly as many as the balance covers
// go through and the rest are refused as balance_insufficient, never overdrawing. On PostgreSQL
// the requests really overlap (a pool of connections); PGlite runs them one at a time.
// Operators' decisions sent at once are ordered by the request's row lock: one wins.
// The password throttle is widened for this suite: fifty right passwords at once would otherwise
// meet the guess lockout, which is tested on its own (withdrawPassword.test.ts).
import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { expectOk, forEachDatabase } from '../helpers.ts';
import { createOperator, operatorLogin } from '../adminHelpers.ts';
import { apply, expectLedgerSound, fund, spotOf, usdt, withdrawer } from './withdrawHelpers.ts';
import { markVerified } from '../identity/kycHelpers.ts';

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

  it('decisions sent at once: two operators\' approvals both count, and of two payouts and a rejection one wins, moving money once', async () => {
    const user = await withdrawer(server, '0');
    await fund(server, user.userId, '20000');
    await markVerified(server, user.userId); // above the unverified daily limit (KYC)
    const id = expectOk(await apply(server, user, { amount: '15000' })).body.result.id;
    const first = await operatorLogin(server, await createOperator(server, 'finance'));
    const second = await operatorLogin(server, await createOperator(server, 'finance'));
    const approvals = await Promise.all([first, second].map((token) => server.post(`/admin/withdrawals/${id}/approve`, {}, { token })));
    expect(approvals.map((answer) => answer.status)).toEqual([200, 200]);
    const decisions = await Promise.all([
      server.post(`/admin/withdrawals/${id}/paid`, { reference: 'one' }, { token: first }),
      server.post(`/admin/withdrawals/${id}/paid`, { reference: 'two' }, { token: second }),
      server.post(`/admin/withdrawals/${id}/reject`, { reason: 'three' }, { token: second }),
    ]);
    const won = decisions.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(1);
    expect(decisions.filter((answer) => answer.status !== 200).map((answer) => answer.body.result.error))
      .toEqual(['record_already_decided', 'record_already_decided']);
    const spot = await spotOf(server, user.userId);
    expect(spot.held).toBe(0n);
    expect(spot.posted).toBe(won[0].body.result.status === 2 ? usdt(20000 - 15001) : usdt(20000));
    const [{ resolutions }] = await server.query<{ resolutions: number }>(sql`select count(*)::int as resolutions from ledger_transfers
      where reference = ${`withdrawal:${id}`} and phase in ('post', 'void')`);
    expect(resolutions).toBe(1);
    await expectLedgerSound(server);
  });
}, { limits: { passwordAttemptsFree: requests * 2 } });
