// What the competition tests share: a competition made through the back-office call, a join,
// and the prize pool funded directly from the house (as an operator's funding does).
import { competitionAdminPaths, competitionPaths } from '../../../src/api/contract/competitions.ts';
import { openAccounts, systemShard } from '../../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';
import { expectOk, type Account, type TestServer } from '../helpers.ts';
import type { Admin } from '../products/productHelpers.ts';
import { usdt } from '../trading/positionHelpers.ts';

const hourMs = 3_600_000;

export async function createCompetition(server: TestServer, by: Admin, fields: Record<string, unknown> = {}) {
  const now = server.clock.now().getTime();
  return expectOk(await server.post(competitionAdminPaths.competitions, {
    name: 'Test cup', entryAmount: '100', symbols: ['BTCUSDT'], startTime: now, endTime: now + 24 * hourMs,
    prizes: [{ fromRank: 1, toRank: 1, amount: '50' }, { fromRank: 2, toRank: 3, amount: '20' }], ...fields,
  }, { token: by.token })).body.result;
}

export const join = (server: TestServer, user: Account, id: string, clientOrderId = server.unique('join-order-')) =>
  server.post(competitionPaths.join, { id, clientOrderId }, { token: user.token });

/** Funds the prize pool directly from the house (kind reward_funding), as an operator's funding does. */
export async function fundPrizes(server: TestServer, amount: string) {
  const [house, prizes] = await openAccounts(server.db, [
    { ledger: 'real', asset: 'USDT', kind: 'house', shard: systemShard('test-prizes') },
    { ledger: 'real', asset: 'USDT', kind: 'prizes', shard: systemShard('test-prizes') },
  ]);
  const result = await postTransfers(server.db, [{
    id: server.unique('test-prize-funding-'), kind: 'reward_funding', reference: server.unique('funding:'), amountAtomic: usdt(amount),
    debitAccountId: house, creditAccountId: prizes,
  }], server.clock);
  if (!result.ok) throw new Error(`funding refused: ${result.refusal}`);
}

