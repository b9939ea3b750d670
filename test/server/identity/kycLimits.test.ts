// The daily withdrawal limit of each verification level, enforced on a withdrawal request: the
// request's USDT value plus the same UTC day's requests (not rejected, not failed) may not pass
// the user's level's limit. A refusal moves nothing; approval of the user's verification raises
// the limit; other currencies count at the last recorded tick of <CODE>USDT.
import { afterEach, describe, expect, it } from 'vitest';
import { kycAdminPaths } from '../../../src/api/contract/identity.ts';
import { marketTicks } from '../../../server/db/schema.ts';
import { expectOk, expectRefused, forEachDatabase, type Reply } from '../helpers.ts';
import {
  addresses, apply, bindAddress, expectLedgerSound, fund, moneySnapshot, spotOf, usdt, withdrawer,
} from '../wallet/withdrawHelpers.ts';
import { reviewer, verifyTo } from './kycHelpers.ts';

const dayMs = 86_400_000;

forEachDatabase((server) => {
  afterEach(() => expectLedgerSound(server));

  async function refusedUnmoved(send: () => Promise<Reply>) {
    const before = await moneySnapshot(server);
    const answer = await send();
    expectRefused(answer, 400, 'kyc_level_required');
    expect(answer.body.message).toMatch(/verify your identity/i);
    expect(await moneySnapshot(server)).toEqual(before);
    return answer.body.result;
  }

  describe('an unverified user (level 0, 1 000 USDT a day)', () => {
    it('is refused past the limit with nothing moved, counts rejected requests out, and starts again the next UTC day', async () => {
      const user = await withdrawer(server, '5000');
      const first = expectOk(await apply(server, user, { amount: '900' })).body.result.id as string;
      const refusal = await refusedUnmoved(() => apply(server, user, { amount: '100.000001' }));
      expect(refusal).toMatchObject({ level: 0, limit: '1000.000000', used: '900.000000', verifyPath: '/shenfenRenzheng' });
      expect(await spotOf(server, user.userId)).toEqual({ posted: usdt(5000), held: usdt(901), available: usdt(5000 - 901) });
      // Exactly up to the limit is allowed (the fee is not counted).
      expectOk(await apply(server, user, { amount: '100' }));
      await refusedUnmoved(() => apply(server, user, { amount: '10' }));
      // A rejected request no longer counts.
      const op = await reviewer(server, 'finance');
      expectOk(await server.post(`/admin/withdrawals/${first}/reject`, { reason: 'Not today' }, { token: op.token }));
      expectOk(await apply(server, user, { amount: '900' }));
      await refusedUnmoved(() => apply(server, user, { amount: '10' }));
      // The next UTC day has its own limit.
      const now = server.clock.now().getTime();
      server.clock.advance(Math.ceil(now / dayMs) * dayMs - now);
      expectOk(await apply(server, user, { amount: '1000' }));
    });

    it('of requests sent at once, only as many as fit the limit are accepted', async () => {
      const user = await withdrawer(server, '5000');
      const answers = await Promise.all([1, 2, 3, 4].map(() => apply(server, user, { amount: '300' })));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
      for (const answer of answers.filter((found) => found.status !== 200)) expectRefused(answer, 400, 'kyc_level_required');
      expect(await spotOf(server, user.userId)).toMatchObject({ held: usdt(3 * 301) });
    });

    it('values BTC at the last recorded BTCUSDT tick, and refuses a currency with no price', async () => {
      const user = await withdrawer(server, '0');
      await fund(server, user.userId, '1', 'BTC');
      const btcAddress = await bindAddress(server, user.token, { currency: 'BTC', network: 'BTC', address: addresses.btcBech32 });
      const btc = (amount: string) => apply(server, user, { currency: 'BTC', amount, withdrawalInfoId: btcAddress });
      // No price yet for BTC: refused conservatively.
      const unpriced = await refusedUnmoved(() => btc('0.001'));
      expect(unpriced).toMatchObject({ limit: '1000.000000', used: '0.000000' });
      await server.db.insert(marketTicks).values({ symbol: 'BTCUSDT', price: 5_000_000n, volume: 1n, source: 'test', time: server.clock.now() });
      // 0.03 BTC at 50 000 is 1 500 USDT: too much; 0.02 is 1 000: allowed, then nothing more.
      await refusedUnmoved(() => btc('0.03'));
      expectOk(await btc('0.02'));
      const used = await refusedUnmoved(() => btc('0.001'));
      expect(used).toMatchObject({ used: '1000.000000' });
    });
  });

  it('verification raises the limit: level 1 (50 000 a day) after an operator approves basic verification', async () => {
    const user = await withdrawer(server, '0');
    await fund(server, user.userId, '60000');
    await refusedUnmoved(() => apply(server, user, { amount: '1500' }));
    const op = await reviewer(server);
    await verifyTo(server, user.token, op, 1);
    expectOk(await apply(server, user, { amount: '1500' }));
    expectOk(await apply(server, user, { amount: '48500' }));
    const refusal = await refusedUnmoved(() => apply(server, user, { amount: '20' }));
    expect(refusal).toMatchObject({ level: 1, limit: '50000.000000', used: '50000.000000' });
    // An operator's new limit applies to the next request.
    const changed = await server.post(kycAdminPaths.level.replace(':level', '1'), { withdrawDailyLimit: '50020', loanLimit: '10000', productsOpen: true },
      { token: op.token });
    expectOk(changed);
    expectOk(await apply(server, user, { amount: '20' }));
    expectOk(await server.post(kycAdminPaths.level.replace(':level', '1'), { withdrawDailyLimit: '50000', loanLimit: '10000', productsOpen: true },
      { token: op.token }));
  });
});
