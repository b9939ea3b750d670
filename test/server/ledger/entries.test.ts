// A user's account ledger is read from the transfers: each movement on one of their accounts,
// signed from the account's side, with the balance after, newest first, filtered and paged.
import { describe, expect, it } from 'vitest';
import { listLedgerEntries } from '../../../server/domain/kernel/ledger/entries.ts';
import { forEachLedgerDatabase } from './ledgerHelpers.ts';

const usdt = (whole: number) => BigInt(whole) * 1_000_000n;
const hourMs = 3_600_000;

forEachLedgerDatabase((ledger) => {
  describe('listLedgerEntries', () => {
    /** Deposit 100, withdraw 30 (pending, then posted), withdraw 20 (pending, then voided), BTC deposit, a demo grant. */
    async function history() {
      const user = await ledger.newUser();
      const spot = await ledger.userAccount(user);
      const clearing = await ledger.systemAccount('USDT', 'withdrawal_clearing');
      const start = ledger.clock.now();
      await ledger.posted([{ id: ledger.id(), debitAccountId: await ledger.systemAccount(), creditAccountId: spot, amountAtomic: usdt(100), kind: 'deposit', reference: 'recharge:7', remark: 'Approved' }]);
      ledger.clock.advance(hourMs);
      const [hold] = await ledger.posted([{ id: ledger.id(), debitAccountId: spot, creditAccountId: clearing, amountAtomic: usdt(30), kind: 'withdrawal', reference: 'withdrawal:8', pending: true }]);
      ledger.clock.advance(hourMs);
      await ledger.posted([{ id: ledger.id(), pendingId: hold.id, action: 'post', remark: 'Paid out' }]);
      ledger.clock.advance(hourMs);
      const [second] = await ledger.posted([{ id: ledger.id(), debitAccountId: spot, creditAccountId: clearing, amountAtomic: usdt(20), kind: 'withdrawal', reference: 'withdrawal:9', pending: true }]);
      ledger.clock.advance(hourMs);
      await ledger.posted([{ id: ledger.id(), pendingId: second.id, action: 'void', remark: 'Rejected: address of another network' }]);
      ledger.clock.advance(hourMs);
      await ledger.fundedAccount(25_000_000n, 'BTC', user);
      const demo = await ledger.userAccount(user, 'USDT', 'demo');
      await ledger.posted([{ id: ledger.id(), debitAccountId: await ledger.systemAccount('USDT', 'house', 'demo', 'demo'), creditAccountId: demo, amountAtomic: usdt(10_000), kind: 'demo_grant', reference: 'demo' }]);
      ledger.clock.advance(hourMs);
      return { user, start };
    }

    it('lists every movement of the user\'s real accounts, newest first, signed, with the balance after', async () => {
      const { user, start } = await history();
      const page = await listLedgerEntries(ledger.db, { userId: user, pageSize: 20 });
      expect(page).toMatchObject({ total: 6, size: 20, current: 1, pages: 1 });
      expect(page.records.map((entry) => [entry.type, entry.currency, entry.phase, entry.amountAtomic, entry.balanceAfterAtomic])).toEqual([
        ['deposit', 'BTC', 'single', 25_000_000n, 25_000_000n],
        ['withdrawal', 'USDT', 'void', usdt(20), usdt(70)],
        ['withdrawal', 'USDT', 'pending', -usdt(20), usdt(70)],
        ['withdrawal', 'USDT', 'post', -usdt(30), usdt(70)],
        ['withdrawal', 'USDT', 'pending', -usdt(30), usdt(100)],
        ['deposit', 'USDT', 'single', usdt(100), usdt(100)],
      ]);
      expect(page.records[5]).toMatchObject({ scale: 6, accountKind: 'spot', reference: 'recharge:7', remark: 'Approved', time: start });
      expect(page.records[1]).toMatchObject({ reference: 'withdrawal:9', remark: 'Rejected: address of another network' });
    });

    it('keeps demo funds in their own ledger\'s list', async () => {
      const { user } = await history();
      const demo = await listLedgerEntries(ledger.db, { userId: user, ledger: 'demo' });
      expect(demo.records.map((entry) => [entry.type, entry.accountKind, entry.amountAtomic])).toEqual([['demo_grant', 'demo', usdt(10_000)]]);
    });

    it('filters by type, currency and time range', async () => {
      const { user, start } = await history();
      const withdrawals = await listLedgerEntries(ledger.db, { userId: user, types: ['withdrawal'] });
      expect(withdrawals.total).toBe(4);
      expect((await listLedgerEntries(ledger.db, { userId: user, currency: 'BTC' })).records.map((entry) => entry.currency)).toEqual(['BTC']);
      const secondToFourthHour = await listLedgerEntries(ledger.db, { userId: user, fromTime: new Date(start.getTime() + hourMs), toTime: new Date(start.getTime() + 4 * hourMs) });
      expect(secondToFourthHour.records.map((entry) => entry.phase)).toEqual(['pending', 'post', 'pending']);
      expect((await listLedgerEntries(ledger.db, { userId: user, types: ['deposit'], currency: 'ETH' })).total).toBe(0);
    });

    it('pages: the pages together hold every entry once, and a page past the end is empty', async () => {
      const { user } = await history();
      const all = await listLedgerEntries(ledger.db, { userId: user, pageSize: 20 });
      const pages = await Promise.all([1, 2, 3].map((pageNo) => listLedgerEntries(ledger.db, { userId: user, pageNo, pageSize: 4 })));
      expect(pages.map((page) => [page.total, page.size, page.current, page.pages, page.records.length])).toEqual([[6, 4, 1, 2, 4], [6, 4, 2, 2, 2], [6, 4, 3, 2, 0]]);
      expect(pages.flatMap((page) => page.records)).toEqual(all.records);
    });

    it('shows both sides of a move between two of the user\'s own accounts, and nothing of another user', async () => {
      const { user } = await history();
      const other = await ledger.newUser();
      await ledger.fundedAccount(usdt(5), 'USDT', other);
      const spot = await ledger.userAccount(user);
      const frozen = await ledger.userAccount(user, 'USDT', 'frozen');
      await ledger.posted([{ id: ledger.id(), debitAccountId: spot, creditAccountId: frozen, amountAtomic: usdt(1), kind: 'correction', reference: 'move' }]);
      const page = await listLedgerEntries(ledger.db, { userId: user, pageSize: 2 });
      expect(page.records.map((entry) => [entry.accountKind, entry.amountAtomic, entry.balanceAfterAtomic])).toEqual([
        ['spot', -usdt(1), usdt(69)], ['frozen', usdt(1), usdt(1)],
      ]);
      expect((await listLedgerEntries(ledger.db, { userId: other })).records.map((entry) => entry.amountAtomic)).toEqual([usdt(5)]);
    });

    it('refuses a page size above the limit or a page number below 1 (programmer errors)', async () => {
      const user = await ledger.newUser();
      await expect(listLedgerEntries(ledger.db, { userId: user, pageSize: 101 })).rejects.toThrow(/page size/);
      await expect(listLedgerEntries(ledger.db, { userId: user, pageNo: 0 })).rejects.toThrow(/page/);
    });
  });
});
