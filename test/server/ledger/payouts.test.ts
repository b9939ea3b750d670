// Payout jobs (issue 20): one system account credits or debits many accounts in batches, with
// transfer ids derived from (job, target). A job credits every target exactly once; a run stopped
// after k batches and resumed pays nobody twice; progress is reported to the caller and kept on
// the job row; a debit beyond a target's balance is refused for that target alone, recorded and
// counted, never dropped. Conservation and the chains are checked after every run.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  createPayoutJob, payoutJob, payoutJobRefusals, payoutTransferId, postGroups, runPayoutJob, unfinishedPayoutJobs,
  type PayoutProgress, type PayoutTarget,
} from '../../../server/domain/kernel/ledger/payouts.ts';
import { accountBalances, openAccounts } from '../../../server/domain/kernel/ledger/accounts.ts';
import { verifyLedger } from '../../../server/domain/kernel/ledger/verify.ts';
import { expectConserved, forEachLedgerDatabase, type LedgerTestDb } from './ledgerHelpers.ts';

/** `count` fresh users' spot accounts, each with `funded` from deposit clearing (none when 0). */
async function spotAccounts(ledger: LedgerTestDb, count: number, funded = 0n): Promise<bigint[]> {
  const accounts: bigint[] = [];
  for (let i = 0; i < count; i += 1) accounts.push(funded > 0n ? await ledger.fundedAccount(funded) : await ledger.userAccount(await ledger.newUser()));
  return accounts;
}

async function transfersOf(ledger: LedgerTestDb, jobId: string) {
  return ledger.query<{ id: string; credit: string; debit: string; amount: string }>(sql`select id, credit_account_id::text as credit,
    debit_account_id::text as debit, amount::text as amount from ledger_transfers where id like ${`${jobId}:%`} order by seq`);
}

async function expectLedgerVerifies(ledger: LedgerTestDb) {
  await expectConserved(ledger.db);
  expect(await verifyLedger(ledger.db)).toMatchObject({ chainValid: true, balancesValid: true, conserved: true, problems: [] });
}

forEachLedgerDatabase((ledger) => {
  describe('payout jobs', () => {
    it('credits every target once, in batches on several house shards, and reports progress on the row and to the caller', async () => {
      const accounts = await spotAccounts(ledger, 23);
      const targets: PayoutTarget[] = accounts.map((accountId, i) => ({ accountId, amountAtomic: BigInt(1000 + i) }));
      const id = ledger.id('prize');
      const made = await createPayoutJob(ledger.db, {
        id, ledger: 'real', asset: 'USDT', sourceKind: 'reward_expense', direction: 'credit', kind: 'correction',
        reference: `prize:${id}`.slice(0, 64), batchSize: 5,
      }, targets, ledger.clock);
      expect(made).toMatchObject({ state: 'running', targetCount: 23, batchCount: 5, targetsPosted: 0, amountPosted: 0n });
      const amountTotal = targets.reduce((total, target) => total + target.amountAtomic, 0n);
      expect(made.amountTotal).toBe(amountTotal);

      const reported: PayoutProgress[] = [];
      const job = await runPayoutJob(ledger.db, id, { clock: ledger.clock, concurrency: ledger.kind === 'postgres' ? 4 : 1, onProgress: (progress) => reported.push(progress) });
      expect(job).toMatchObject({ state: 'done', targetsPosted: 23, amountPosted: amountTotal, targetsRefused: 0, batchesDone: 5 });
      expect(job.finishedAt).not.toBeNull();
      // Once at the start, then once per batch, each adding to the last.
      expect(reported.map((progress) => progress.batchesDone)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(reported.at(-1)).toMatchObject({ targetsPosted: 23, amountPosted: amountTotal });

      const balances = new Map((await accountBalances(ledger.db, accounts)).map((balance) => [balance.id, balance.postedAtomic]));
      for (const target of targets) expect(balances.get(target.accountId)).toBe(target.amountAtomic);
      const transfers = await transfersOf(ledger, id);
      expect(transfers.map((transfer) => transfer.id).sort()).toEqual(accounts.map((account) => payoutTransferId(id, account)).sort());
      // Five batches, five shards of reward_expense (batch n on shard n mod 16).
      expect(new Set(transfers.map((transfer) => transfer.debit)).size).toBe(5);
      await expectLedgerVerifies(ledger);

      // Running a done job again, or making it again, pays nothing more.
      expect(await runPayoutJob(ledger.db, id, { clock: ledger.clock })).toMatchObject({ state: 'done', targetsPosted: 23 });
      expect(await createPayoutJob(ledger.db, {
        id, ledger: 'real', asset: 'USDT', sourceKind: 'reward_expense', direction: 'credit', kind: 'correction',
        reference: `prize:${id}`.slice(0, 64), batchSize: 5,
      }, targets, ledger.clock)).toMatchObject({ state: 'done' });
      expect(await transfersOf(ledger, id)).toHaveLength(23);
    });

    it('stopped after two batches and resumed, pays everybody once and nobody twice', async () => {
      const accounts = await spotAccounts(ledger, 20);
      const targets = accounts.map((accountId) => ({ accountId, amountAtomic: 700n }));
      const id = ledger.id('interest');
      await createPayoutJob(ledger.db, {
        id, ledger: 'real', asset: 'USDT', sourceKind: 'interest_expense', direction: 'credit', kind: 'correction', reference: 'interest-day', batchSize: 4,
      }, targets, ledger.clock);
      await expect(runPayoutJob(ledger.db, id, {
        clock: ledger.clock, onProgress: (progress) => { if (progress.batchesDone === 2) throw new Error('the process dies here'); },
      })).rejects.toThrow('the process dies here');
      const stopped = await payoutJob(ledger.db, id);
      expect(stopped).toMatchObject({ state: 'failed', error: 'the process dies here', batchesDone: 2, targetsPosted: 8, amountPosted: 5600n });
      expect(await transfersOf(ledger, id)).toHaveLength(8);
      expect(await unfinishedPayoutJobs(ledger.db, ['failed'])).toContain(id);
      await expectLedgerVerifies(ledger);

      const reported: PayoutProgress[] = [];
      const resumed = await runPayoutJob(ledger.db, id, { clock: ledger.clock, onProgress: (progress) => reported.push(progress) });
      expect(resumed).toMatchObject({ state: 'done', error: null, targetsPosted: 20, amountPosted: 14_000n, batchesDone: 5 });
      expect(reported[0]).toMatchObject({ batchesDone: 2, targetsPosted: 8 });
      expect(reported.map((progress) => progress.batchesDone)).toEqual([2, 3, 4, 5]);
      const transfers = await transfersOf(ledger, id);
      expect(new Set(transfers.map((transfer) => transfer.credit)).size).toBe(20);
      expect(transfers).toHaveLength(20);
      for (const balance of await accountBalances(ledger.db, accounts)) expect(balance.postedAtomic).toBe(700n);
      expect(await unfinishedPayoutJobs(ledger.db, ['running', 'failed'])).not.toContain(id);
      await expectLedgerVerifies(ledger);
    });

    it('a debit job refuses a target beyond its balance alone, records and counts it, and posts the rest of its batch', async () => {
      const rich = await spotAccounts(ledger, 5, 10_000n);
      const poor = await spotAccounts(ledger, 2, 100n);
      // The poor ones sit inside batches, between rich ones.
      const accounts = [rich[0], poor[0], rich[1], rich[2], poor[1], rich[3], rich[4]];
      const id = ledger.id('fee');
      await createPayoutJob(ledger.db, {
        id, ledger: 'real', asset: 'USDT', sourceKind: 'fees', direction: 'debit', kind: 'correction', reference: 'monthly-fee', batchSize: 3,
      }, accounts.map((accountId) => ({ accountId, amountAtomic: 1_000n })), ledger.clock);
      const job = await runPayoutJob(ledger.db, id, { clock: ledger.clock });
      expect(job).toMatchObject({ state: 'done', targetsPosted: 5, amountPosted: 5_000n, targetsRefused: 2, amountRefused: 2_000n });
      expect(await payoutJobRefusals(ledger.db, id)).toEqual([
        { ordinal: 1, accountId: poor[0], amountAtomic: 1_000n, refusal: 'exceeds_credits' },
        { ordinal: 4, accountId: poor[1], amountAtomic: 1_000n, refusal: 'exceeds_credits' },
      ]);
      const balances = new Map((await accountBalances(ledger.db, [...rich, ...poor])).map((balance) => [balance.id, balance.postedAtomic]));
      for (const account of rich) expect(balances.get(account)).toBe(9_000n);
      for (const account of poor) expect(balances.get(account)).toBe(100n);
      expect(await transfersOf(ledger, id)).toHaveLength(5);
      await expectLedgerVerifies(ledger);
    });

    it('refuses to make a job with a target of another asset, twice the same account, or a clashing id, and makes nothing', async () => {
      const [usdt] = await spotAccounts(ledger, 1);
      const btc = await ledger.userAccount(await ledger.newUser(), 'BTC');
      const spec = { id: ledger.id('bad'), ledger: 'real' as const, asset: 'USDT', sourceKind: 'house' as const, direction: 'credit' as const, kind: 'correction' as const, reference: 'bad' };
      await expect(createPayoutJob(ledger.db, spec, [{ accountId: usdt, amountAtomic: 1n }, { accountId: btc, amountAtomic: 1n }], ledger.clock))
        .rejects.toThrow('every target is an account of real USDT');
      expect(await payoutJob(ledger.db, spec.id)).toBeUndefined();
      await expect(createPayoutJob(ledger.db, spec, [{ accountId: usdt, amountAtomic: 1n }, { accountId: usdt, amountAtomic: 2n }], ledger.clock))
        .rejects.toThrow('is a target once');
      await createPayoutJob(ledger.db, spec, [{ accountId: usdt, amountAtomic: 1n }], ledger.clock);
      await expect(createPayoutJob(ledger.db, spec, [{ accountId: usdt, amountAtomic: 2n }], ledger.clock)).rejects.toThrow('exists with other fields');
    });
  });

  describe('postGroups', () => {
    it('posts the groups the ledger takes and sets aside each refused group whole', async () => {
      const funded = await ledger.fundedAccount(500n);
      const empty = await ledger.userAccount(await ledger.newUser());
      const [house] = await openAccounts(ledger.db, [{ ledger: 'real', asset: 'USDT', kind: 'house', shard: 3 }]);
      const before = await ledger.snapshot();
      const outcome = await postGroups(ledger.db, [
        { target: 'a', transfers: [{ id: ledger.id('g'), debitAccountId: funded, creditAccountId: house, amountAtomic: 100n, kind: 'correction', reference: 'groups' }] },
        // Linked: the credit would cover the debit only if it went first; the group is refused whole.
        { target: 'b', transfers: [
          { id: ledger.id('g'), debitAccountId: house, creditAccountId: empty, amountAtomic: 50n, kind: 'correction', reference: 'groups' },
          { id: ledger.id('g'), debitAccountId: empty, creditAccountId: house, amountAtomic: 80n, kind: 'correction', reference: 'groups' },
        ] },
        { target: 'c', transfers: [{ id: ledger.id('g'), debitAccountId: funded, creditAccountId: house, amountAtomic: 100n, kind: 'correction', reference: 'groups' }] },
      ], ledger.clock);
      expect(outcome.posted).toEqual(['a', 'c']);
      expect(outcome.refused).toMatchObject([{ target: 'b', refusal: 'exceeds_credits' }]);
      expect(outcome.transfers).toHaveLength(2);
      const [fundedBalance, emptyBalance] = await accountBalances(ledger.db, [funded, empty]).then((rows) => [funded, empty].map((id) => rows.find((row) => row.id === id)!));
      expect(fundedBalance.postedAtomic).toBe(300n);
      expect(emptyBalance.postedAtomic).toBe(0n);
      expect((await ledger.snapshot()).transfers).toBe(before.transfers + 2);
      await expectConserved(ledger.db);
    });
  });
});
