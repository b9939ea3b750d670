// verifyLedger, the check an operator runs: on an honest ledger every chain and balance
// recomputes and every asset sums to zero; any edit made past the code (a changed amount or
// remark, a deleted transfer, a changed balance) is found and named.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { verifyLedger } from '../../../server/domain/kernel/ledger/verify.ts';
import { entryHash } from '../../../server/domain/kernel/ledger/chain.ts';
import { forEachLedgerDatabase, type LedgerTestDb } from './ledgerHelpers.ts';

const usdt = (whole: number) => BigInt(whole) * 1_000_000n;

/** Runs `edit` with the append-only trigger off, as an insider with database access could. */
async function pastTheTrigger(ledger: LedgerTestDb, edit: () => Promise<unknown>) {
  await ledger.db.execute(sql`alter table ledger_transfers disable trigger ledger_transfers_append_only`);
  try {
    await edit();
  } finally {
    await ledger.db.execute(sql`alter table ledger_transfers enable trigger ledger_transfers_append_only`);
  }
}

/** A small ledger of every phase: deposits, a pending withdrawal posted, one voided, a demo grant. */
async function busyLedger(ledger: LedgerTestDb) {
  const user = await ledger.newUser();
  const spot = await ledger.fundedAccount(usdt(100), 'USDT', user);
  const btc = await ledger.fundedAccount(50_000_000n, 'BTC', user);
  const clearing = await ledger.systemAccount('USDT', 'withdrawal_clearing');
  const [first, second] = await ledger.posted([
    { id: ledger.id(), debitAccountId: spot, creditAccountId: clearing, amountAtomic: usdt(30), kind: 'withdrawal', reference: 'w:1', pending: true },
    { id: ledger.id(), debitAccountId: spot, creditAccountId: clearing, amountAtomic: usdt(20), kind: 'withdrawal', reference: 'w:2', pending: true },
  ]);
  await ledger.posted([{ id: ledger.id(), pendingId: first.id, action: 'post' }, { id: ledger.id(), pendingId: second.id, action: 'void' }]);
  const demo = await ledger.userAccount(user, 'USDT', 'demo');
  await ledger.posted([{
    id: ledger.id(), debitAccountId: await ledger.systemAccount('USDT', 'house', 'demo', 'demo'), creditAccountId: demo,
    amountAtomic: usdt(10_000), kind: 'demo_grant', reference: 'demo',
  }]);
  return { spot, btc };
}

forEachLedgerDatabase((ledger) => {
  describe('verifyLedger', () => {
    it('finds an honest ledger valid: chains, balances, and every asset of each ledger summing to zero', async () => {
      await busyLedger(ledger);
      const check = await verifyLedger(ledger.db);
      const [{ count }] = await ledger.query<{ count: number }>(sql`select count(*)::int as count from ledger_transfers`);
      expect(check).toMatchObject({ chainValid: true, balancesValid: true, conserved: true, transfers: count, problems: [] });
      expect(check.headsDigest).toMatch(/^[0-9a-f]{64}$/);
      expect(check.assets).toEqual(expect.arrayContaining([
        { currency: 'USDT', ledger: 'real', sum: 0n, pendingSum: 0n },
        { currency: 'BTC', ledger: 'real', sum: 0n, pendingSum: 0n },
        { currency: 'USDT', ledger: 'demo', sum: 0n, pendingSum: 0n },
      ]));
    });

    it('gives the same heads digest while nothing moves, and another after any transfer', async () => {
      const spot = await ledger.fundedAccount(usdt(1));
      const first = await verifyLedger(ledger.db);
      expect((await verifyLedger(ledger.db)).headsDigest).toBe(first.headsDigest);
      await ledger.posted([{ id: ledger.id(), debitAccountId: spot, creditAccountId: await ledger.systemAccount('USDT', 'fees'), amountAtomic: 1n, kind: 'correction', reference: 'x' }]);
      expect((await verifyLedger(ledger.db)).headsDigest).not.toBe(first.headsDigest);
    });

    it('finds a transfer whose amount was changed in the database, and names it', async () => {
      const { spot } = await busyLedger(ledger);
      const [{ id }] = await ledger.query<{ id: string }>(sql`select id from ledger_transfers where credit_account_id = ${spot} and phase = 'single'`);
      await pastTheTrigger(ledger, () => ledger.db.execute(sql`update ledger_transfers set amount = amount * 2 where id = ${id}`));
      const check = await verifyLedger(ledger.db);
      expect(check).toMatchObject({ chainValid: false, balancesValid: false });
      expect(check.problems.join('\n')).toContain(id);
      await pastTheTrigger(ledger, () => ledger.db.execute(sql`update ledger_transfers set amount = amount / 2 where id = ${id}`));
      expect(await verifyLedger(ledger.db)).toMatchObject({ chainValid: true, balancesValid: true, conserved: true });
    });

    it('finds a remark rewritten after the fact, though no balance changed', async () => {
      const { spot } = await busyLedger(ledger);
      const [{ id, remark }] = await ledger.query<{ id: string; remark: string | null }>(sql`select id, remark from ledger_transfers where credit_account_id = ${spot}`);
      await pastTheTrigger(ledger, () => ledger.db.execute(sql`update ledger_transfers set remark = 'approved by the boss' where id = ${id}`));
      const check = await verifyLedger(ledger.db);
      expect(check).toMatchObject({ chainValid: false, balancesValid: true, conserved: true });
      expect(check.problems).toEqual([expect.stringContaining(id), expect.stringContaining(id)]);
      await pastTheTrigger(ledger, () => ledger.db.execute(sql`update ledger_transfers set remark = ${remark} where id = ${id}`));
      expect((await verifyLedger(ledger.db)).chainValid).toBe(true);
    });

    it('finds a deleted transfer: a gap in both accounts\' chains', async () => {
      const { btc } = await busyLedger(ledger);
      const [row] = await ledger.query<Record<string, unknown>>(sql`select * from ledger_transfers where credit_account_id = ${btc}`);
      await pastTheTrigger(ledger, () => ledger.db.execute(sql`delete from ledger_transfers where id = ${row.id as string}`));
      const check = await verifyLedger(ledger.db);
      expect(check).toMatchObject({ chainValid: false, balancesValid: false });
      expect(check.problems.join('\n')).toMatch(new RegExp(`account ${btc}: the stored head`));
      const columns = Object.keys(row);
      await ledger.db.execute(sql`insert into ledger_transfers (${sql.raw(columns.join(', '))})
        values (${sql.join(columns.map((column) => sql`${row[column] as string}`), sql`, `)})`);
      expect(await verifyLedger(ledger.db)).toMatchObject({ chainValid: true, balancesValid: true });
    });

    it('finds a balance changed past the code: the account is named and the asset no longer sums to zero', async () => {
      await busyLedger(ledger);
      const house = await ledger.systemAccount('USDT', 'house');
      await ledger.db.execute(sql`update ledger_accounts set credits_posted = credits_posted + 1 where id = ${house}`);
      const check = await verifyLedger(ledger.db);
      expect(check).toMatchObject({ chainValid: true, balancesValid: false, conserved: false });
      expect(check.assets).toContainEqual({ currency: 'USDT', ledger: 'real', sum: 1n, pendingSum: 0n });
      expect(check.problems).toEqual([expect.stringContaining(`account ${house}: creditsPosted`)]);
      await ledger.db.execute(sql`update ledger_accounts set credits_posted = credits_posted - 1 where id = ${house}`);
      expect(await verifyLedger(ledger.db)).toMatchObject({ balancesValid: true, conserved: true });
    });
  });
});

// The entry encoding is what every stored chain was hashed with: a change to it (a cheaper way to
// build the same JSON, say) must give the same hashes, or every existing ledger stops verifying.
describe('the chain entry encoding', () => {
  it('hashes an entry exactly as ledgers already stored it (quotes, backslashes, commas, new lines, nulls, a negative balance)', () => {
    const transfer = {
      id: 'a"b\\c:1', ledger: 1, asset: 'USDT', debitAccountId: 12n, creditAccountId: 34n, amount: 5n, kind: 'k', phase: 'single',
      pendingId: null, reference: 'r,é"', remark: 'x\n"y"', createdAt: new Date(1780000000123),
    };
    expect(entryHash('0'.repeat(64), { accountId: 12n, side: 'debit', entryNo: 7n, balanceAfter: -99n }, transfer))
      .toBe('19ef9289ebd9032a35f0950c808e31017e34d17172d37370af8fadd33afc67a3');
    expect(entryHash('0'.repeat(64), { accountId: 12n, side: 'credit', entryNo: 7n, balanceAfter: -99n }, transfer))
      .toBe('ecdba04d966001b9719d985f7d6781c253211aa847071cced5ac9dae5984a46c');
  });
});
