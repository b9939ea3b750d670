// /api/finance/appBalanceLog/events (issue 19): the account ledger one record per business event.
// A withdrawal is one hold, held → paid out or returned, never two withdrawals; a contract is one
// line, its margin held while it runs and its net result once closed, its internal margin moves
// folded in; the balance is given only where the spot balance moved. The raw list is unchanged.
import { afterEach, describe, expect, it } from 'vitest';
import { walletPaths } from '../../../src/api/contract/wallet.ts';
import { closePositionPath, type Position } from '../../../src/api/contract/trading.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import { createOperator, operatorLogin } from '../adminHelpers.ts';
import { apply, expectLedgerSound, withdrawer } from './withdrawHelpers.ts';
import { freshTick, opened, usdt } from '../trading/positionHelpers.ts';

const adminPath = (id: string, action: string) => `/admin/withdrawals/${id}/${action}`;

async function events(server: TestServer, token: string, query: Record<string, string> = {}) {
  return expectOk(await server.get(walletPaths.balanceEvents, query, { token })).body.result;
}
async function entries(server: TestServer, token: string, query: Record<string, string> = {}) {
  return expectOk(await server.get(walletPaths.balanceLog, { pageSize: '100', ...query }, { token })).body.result;
}

forEachDatabase((server) => {
  afterEach(async () => { await expectLedgerSound(server); });

  describe('GET /finance/appBalanceLog/events', () => {
    it('shows a withdrawal as one hold: held, then paid out with the balance after; a rejected one as returned', async () => {
      const user = await withdrawer(server, '100');
      const operator = await operatorLogin(server, await createOperator(server, 'finance'));
      server.clock.advance(1000);
      const paidId = expectOk(await apply(server, user, { amount: '30' })).body.result.id as string;
      let list = await events(server, user.token);
      expect(list.records[0]).toMatchObject({
        id: `withdrawal:${paidId}|USDT`, reference: `withdrawal:${paidId}`, type: 'withdrawal', currency: 'USDT', state: 'held',
        amount: '0.000000', held: '31.000000', balanceAfter: null, entryCount: 1,
      });
      server.clock.advance(1000);
      expectOk(await server.post(adminPath(paidId, 'approve'), {}, { token: operator }));
      expectOk(await server.post(adminPath(paidId, 'paid'), { reference: 'tx-1' }, { token: operator }));
      server.clock.advance(1000);
      const returnedId = expectOk(await apply(server, user, { amount: '20' })).body.result.id as string;
      expectOk(await server.post(adminPath(returnedId, 'reject'), { reason: 'Address on a sanctions list' }, { token: operator }));

      list = await events(server, user.token);
      // The deposit, and each withdrawal once: the raw list has five entries for them.
      expect(list).toMatchObject({ total: 3, current: 1, pages: 1 });
      expect((await entries(server, user.token)).total).toBe(5);
      expect(list.records.map((event: { reference: string }) => event.reference)).toEqual([
        `withdrawal:${returnedId}`, `withdrawal:${paidId}`, expect.stringMatching(/^test-recharge-/),
      ]);
      expect(list.records[0]).toMatchObject({
        type: 'withdrawal', state: 'returned', amount: '0.000000', held: '21.000000', balanceAfter: null,
        remark: 'Address on a sanctions list', entryCount: 2,
      });
      expect(list.records[1]).toMatchObject({
        type: 'withdrawal', state: 'released', amount: '-31.000000', held: '31.000000', balanceAfter: '69.000000', entryCount: 2,
      });
      expect(list.records[1].time - list.records[1].startTime).toBe(1000);
      expect(list.records[2]).toMatchObject({ type: 'deposit', state: 'done', amount: '100.000000', held: '0.000000', balanceAfter: '100.000000' });

      // Filters choose whole events; paging is by event.
      const withdrawals = await events(server, user.token, { type: 'withdrawal' });
      expect(withdrawals.records.map((event: { state: string }) => event.state)).toEqual(['returned', 'released']);
      const second = await events(server, user.token, { pageNo: '2', pageSize: '2' });
      expect(second).toMatchObject({ total: 3, size: 2, current: 2, pages: 2 });
      expect(second.records.map((event: { type: string }) => event.type)).toEqual(['deposit']);
    });

    it('shows a contract as one line: margin held while it runs, its net result once closed', async () => {
      const user = await withdrawer(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const position = await opened(server, user, { margin: '200', leverage: 5 });
      let list = await events(server, user.token);
      expect(list.total).toBe(2);
      const running = list.records[0];
      expect(running).toMatchObject({ reference: `position:${position.id}`, type: 'contract', state: 'held', entryCount: 3 });
      // The margin and the opening fee (200 in all) left spot; the margin is held, the balance after is spot's.
      expect(usdt(running.held)).toBe(usdt(position.margin));
      expect(usdt(running.amount)).toBe(-usdt(position.margin) - usdt(position.openFee));
      expect(usdt(running.balanceAfter)).toBe(usdt('1000') + usdt(running.amount));

      await freshTick(server, 'BTCUSDT', '61234.56');
      const closed = expectOk(await server.post(closePositionPath(position.id), {}, { token: user.token })).body.result as Position;
      list = await events(server, user.token);
      expect(list.total).toBe(2);
      const line = list.records[0];
      expect(line).toMatchObject({ reference: `position:${position.id}`, type: 'contract', state: 'released', held: running.held });
      // Net of both fees: what the contract did to the spot balance, all told, as its receipt says.
      expect(usdt(line.amount)).toBe(usdt(closed.receipt!.balanceChange));
      expect(usdt(line.balanceAfter)).toBe(usdt('1000') + usdt(line.amount));
      // The raw list keeps every entry, the internal margin moves included.
      const raw = (await entries(server, user.token)).records.filter((entry: { reference: string }) => entry.reference === line.reference);
      expect(raw.length).toBe(line.entryCount);
      expect(raw.length).toBeGreaterThanOrEqual(5);
      expect(raw.some((entry: { account: string }) => entry.account === 'position_margin')).toBe(true);
    });

    it('refuses a reversed time range and an anonymous caller', async () => {
      const user = await withdrawer(server, '0');
      expect(await events(server, user.token)).toMatchObject({ total: 0, records: [], pages: 0 });
      expectRefused(await server.get(walletPaths.balanceEvents, { startTime: '5', endTime: '5' }, { token: user.token }), 400, 'invalid_request');
      expectRefused(await server.get(walletPaths.balanceEvents), 401, 'unauthorized');
    });
  });
});
