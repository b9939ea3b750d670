// Group commit (issue 20): concurrent postTransfers calls on the database share one transaction,
// yet each caller gets its own answer. Each test first posts a lone "opener" and then, in the same
// tick, the requests under test: with one group in flight at a time the opener's group starts at
// once, alone, and the requests queued behind it form the next group, so they are known to share a
// transaction. No test measures time: a lone caller is shown to start at once by the committer's
// state right after the call, before anything was awaited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TransferRequest } from '../../../server/domain/kernel/ledger/rules.ts';
import { configureGroupCommit, groupCommitStats, postTransfers, type PostResult } from '../../../server/domain/kernel/ledger/transfers.ts';
import { verifyLedger } from '../../../server/domain/kernel/ledger/verify.ts';
import { expectConserved, forEachLedgerDatabase } from './ledgerHelpers.ts';
import { GroupCommitter } from '../../../server/domain/kernel/ledger/groupCommit.ts';

const usdt = (whole: number) => BigInt(whole) * 1_000_000n;

describe('postTransfers: group commit', () => {
  forEachLedgerDatabase((ledger) => {
    let clearing: bigint;
    const post = (batch: TransferRequest[]) => postTransfers(ledger.db, batch, ledger.clock);
    const deposit = (to: bigint, amountAtomic: bigint, id = ledger.id('deposit')): TransferRequest => ({
      id, debitAccountId: clearing, creditAccountId: to, amountAtomic, kind: 'deposit', reference: 'group',
    });
    const move = (from: bigint, to: bigint, amountAtomic: bigint, id = ledger.id('move')): TransferRequest => ({
      id, debitAccountId: from, creditAccountId: to, amountAtomic, kind: 'correction', reference: 'group',
    });
    /** Posts an opener, then `batches` in the same tick: they ride together in the next group. */
    async function inOneGroup(batches: TransferRequest[][]): Promise<PostResult[]> {
      const groupsBefore = groupCommitStats(ledger.db).groups;
      const opener = post([deposit(await ledger.userAccount(await ledger.newUser()), 1n)]);
      const results = await Promise.all(batches.map((batch) => post(batch)));
      expect((await opener).ok).toBe(true);
      expect(groupCommitStats(ledger.db).groups).toBeGreaterThanOrEqual(groupsBefore + 2);
      return results;
    }

    beforeAll(async () => {
      configureGroupCommit(ledger.db, { groupsInFlightMax: 1 });
      clearing = await ledger.systemAccount();
    });
    afterAll(async () => {
      await expectConserved(ledger.db);
      expect(await verifyLedger(ledger.db)).toMatchObject({ chainValid: true, balancesValid: true, conserved: true });
    });

    it('starts a lone caller\'s transaction at once, without waiting for company', async () => {
      const account = await ledger.userAccount(await ledger.newUser());
      const before = groupCommitStats(ledger.db);
      expect(before).toMatchObject({ groupsInFlight: 0, requestsQueued: 0 });
      const posting = post([deposit(account, usdt(1))]);
      // Nothing has been awaited yet: the group holding this one request is already in flight.
      expect(groupCommitStats(ledger.db)).toMatchObject({ groupsInFlight: 1, requestsQueued: 0, groups: before.groups + 1 });
      expect((await posting).ok).toBe(true);
      expect(groupCommitStats(ledger.db)).toMatchObject({ requestsQueued: 0, groups: before.groups + 1 });
    });

    it('answers concurrent callers each with their own transfers, in one group', async () => {
      const accounts = await Promise.all(Array.from({ length: 10 }, async () => ledger.userAccount(await ledger.newUser())));
      const before = groupCommitStats(ledger.db);
      const batches = accounts.map((account, i) => [deposit(account, usdt(i + 1))]);
      const results = await inOneGroup(batches);
      expect(groupCommitStats(ledger.db).groups).toBe(before.groups + 2);
      results.forEach((result, i) => {
        expect(result).toMatchObject({ ok: true, replayed: false, transfers: [{ id: batches[i][0].id, creditAccountId: accounts[i], amount: usdt(i + 1) }] });
      });
      const seqs = results.map((result) => (result.ok ? result.transfers[0].seq : 0n));
      expect(new Set(seqs).size).toBe(10);
      for (const [i, account] of accounts.entries()) expect((await ledger.balance(account)).postedAtomic).toBe(usdt(i + 1));
    });

    it('refuses a request for insufficient funds or a wrong asset on its own: its neighbours go through and it moves nothing', async () => {
      const [rich, poor, other] = await Promise.all([ledger.fundedAccount(usdt(100)), ledger.fundedAccount(usdt(5)), ledger.fundedAccount(usdt(1))]);
      const btcClearing = await ledger.systemAccount('BTC', 'withdrawal_clearing');
      const results = await inOneGroup([
        [move(rich, other, usdt(10))],
        [move(poor, other, usdt(6))],
        [move(rich, btcClearing, usdt(1))],
        [move(poor, other, usdt(5))],
      ]);
      expect(results.map((result) => result.ok)).toEqual([true, false, false, true]);
      expect(results[1]).toEqual({ ok: false, index: 0, refusal: 'exceeds_credits' });
      expect(results[2]).toEqual({ ok: false, index: 0, refusal: 'assets_must_match' });
      expect((await ledger.balance(rich)).postedAtomic).toBe(usdt(90));
      expect((await ledger.balance(poor)).postedAtomic).toBe(0n);
      expect((await ledger.balance(other)).postedAtomic).toBe(usdt(16));
      expect((await ledger.balance(btcClearing)).postedAtomic).toBe(0n);
    });

    it('keeps a request\'s linked transfers all or nothing inside a group', async () => {
      const from = await ledger.fundedAccount(usdt(10));
      const [to1, to2, to3] = await Promise.all(Array.from({ length: 3 }, async () => ledger.userAccount(await ledger.newUser())));
      // The first request's first transfer would fit, its second not: neither lands, and the next
      // request in the group sees the whole balance.
      const results = await inOneGroup([
        [move(from, to1, usdt(6)), move(from, to2, usdt(6))],
        [move(from, to3, usdt(10))],
      ]);
      expect(results[0]).toEqual({ ok: false, index: 1, refusal: 'exceeds_credits' });
      expect(results[1].ok).toBe(true);
      expect((await ledger.balance(to1)).postedAtomic).toBe(0n);
      expect((await ledger.balance(to2)).postedAtomic).toBe(0n);
      expect((await ledger.balance(to3)).postedAtomic).toBe(usdt(10));
      expect((await ledger.balance(from)).postedAtomic).toBe(0n);
    });

    it('lands the same id posted twice at once once, and answers the copy as replayed', async () => {
      const from = await ledger.fundedAccount(usdt(10));
      const to = await ledger.userAccount(await ledger.newUser());
      const request = move(from, to, usdt(7));
      const before = groupCommitStats(ledger.db);
      const [first, second] = await inOneGroup([[request], [{ ...request }]]);
      expect(groupCommitStats(ledger.db).requestsAlone).toBe(before.requestsAlone + 2);
      expect(first).toMatchObject({ ok: true, replayed: false });
      expect(second).toMatchObject({ ok: true, replayed: true });
      expect(first.ok && second.ok && first.transfers[0].seq === second.transfers[0].seq).toBe(true);
      expect((await ledger.balance(to)).postedAtomic).toBe(usdt(7));
    });

    it('refuses the same id with different fields as exists_with_different_fields, moving money once', async () => {
      const from = await ledger.fundedAccount(usdt(10));
      const [to1, to2] = await Promise.all([ledger.newUser(), ledger.newUser()].map(async (user) => ledger.userAccount(await user)));
      const id = ledger.id('clash');
      const [first, second] = await inOneGroup([[move(from, to1, usdt(1), id)], [move(from, to2, usdt(1), id)]]);
      expect(first).toMatchObject({ ok: true, replayed: false });
      expect(second).toEqual({ ok: false, index: 0, refusal: 'exists_with_different_fields' });
      expect((await ledger.balance(from)).postedAtomic).toBe(usdt(9));
      expect((await ledger.balance(to2)).postedAtomic).toBe(0n);
    });

    it('answers a retry of a stored transfer inside a group as replayed, and its neighbours as new', async () => {
      const from = await ledger.fundedAccount(usdt(10));
      const to = await ledger.userAccount(await ledger.newUser());
      const stored = move(from, to, usdt(2));
      const [original] = await ledger.posted([stored]);
      const fresh = move(from, to, usdt(3));
      const [retry, next] = await inOneGroup([[stored], [fresh]]);
      expect(retry).toEqual({ ok: true, replayed: true, transfers: [original] });
      expect(next).toMatchObject({ ok: true, replayed: false, transfers: [{ id: fresh.id }] });
      expect((await ledger.balance(to)).postedAtomic).toBe(usdt(5));
    });

    it('resolves a pending transfer once when a post and a void ride in one group', async () => {
      const spot = await ledger.fundedAccount(usdt(10));
      const [pending] = await ledger.posted([{ ...move(spot, await ledger.systemAccount('USDT', 'withdrawal_clearing'), usdt(4)), pending: true }]);
      const [posted, voided] = await inOneGroup([
        [{ id: ledger.id(), pendingId: pending.id, action: 'post' }],
        [{ id: ledger.id(), pendingId: pending.id, action: 'void' }],
      ]);
      expect(posted.ok).toBe(true);
      expect(voided).toEqual({ ok: false, index: 0, refusal: 'pending_transfer_already_posted' });
      expect(await ledger.balance(spot)).toMatchObject({ postedAtomic: usdt(6), debitsPendingAtomic: 0n });
    });

    it('splits the queue into groups under the size cap, never splitting one caller\'s batch', async () => {
      configureGroupCommit(ledger.db, { transfersPerGroupMax: 4 });
      try {
        const accounts = await Promise.all(Array.from({ length: 10 }, async () => ledger.userAccount(await ledger.newUser())));
        const before = groupCommitStats(ledger.db);
        const batches = [0, 2, 4, 6, 8].map((i) => [deposit(accounts[i], usdt(1)), deposit(accounts[i + 1], usdt(1))]);
        const results = await inOneGroup(batches);
        expect(results.every((result) => result.ok)).toBe(true);
        // The opener alone, then 2 + 2, 2 + 2 and 2 transfers.
        expect(groupCommitStats(ledger.db).groups).toBe(before.groups + 4);
        for (const account of accounts) expect((await ledger.balance(account)).postedAtomic).toBe(usdt(1));
      } finally {
        configureGroupCommit(ledger.db, { transfersPerGroupMax: 1000 });
      }
    });

    it('runs each request alone when the group\'s transaction fails, so one bad request fails by itself', async () => {
      // A trigger stands for any failure the rules cannot foresee: it refuses one reference.
      await ledger.db.execute(sql.raw(`create function test_refuse_poison() returns trigger language plpgsql as $$
        begin raise exception 'poisoned transfer'; end $$`));
      await ledger.db.execute(sql.raw(`create trigger test_refuse_poison before insert on ledger_transfers
        for each row when (new.reference = 'poison') execute function test_refuse_poison()`));
      try {
        const accounts = await Promise.all(Array.from({ length: 3 }, async () => ledger.userAccount(await ledger.newUser())));
        const before = groupCommitStats(ledger.db);
        const settled = await (async () => {
          const groupsBefore = groupCommitStats(ledger.db).groups;
          const opener = post([deposit(await ledger.userAccount(await ledger.newUser()), 1n)]);
          const all = await Promise.allSettled([
            post([deposit(accounts[0], usdt(1))]),
            post([{ ...deposit(accounts[1], usdt(1)), reference: 'poison' }]),
            post([deposit(accounts[2], usdt(1))]),
          ]);
          expect((await opener).ok).toBe(true);
          expect(groupCommitStats(ledger.db).groups).toBe(groupsBefore + 2);
          return all;
        })();
        expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/poisoned transfer/);
        expect(groupCommitStats(ledger.db).requestsAlone).toBe(before.requestsAlone + 3);
        expect((await ledger.balance(accounts[0])).postedAtomic).toBe(usdt(1));
        expect((await ledger.balance(accounts[1])).postedAtomic).toBe(0n);
        expect((await ledger.balance(accounts[2])).postedAtomic).toBe(usdt(1));
      } finally {
        await ledger.db.execute(sql.raw('drop trigger test_refuse_poison on ledger_transfers'));
        await ledger.db.execute(sql.raw('drop function test_refuse_poison()'));
      }
    });

    it('stores texts holding dollar signs and quotes exactly, whatever the write path inlines', async () => {
      // On node-postgres a group's values ride as dollar-quoted literals; a remark ending in the tag's
      // first part, or holding it whole, must neither end the literal early nor run as SQL.
      const account = await ledger.userAccount(await ledger.newUser());
      const remarks = ["x$bourse_ledger", "$bourse_ledger$); drop table ledger_transfers; --", "it's \\ \"quoted\" {a,b} NULL $1 $$"];
      const batches = remarks.map((remark) => [{ ...deposit(account, usdt(1)), remark }]);
      const results = await inOneGroup(batches);
      expect(results.every((result) => result.ok)).toBe(true);
      for (const [i, batch] of batches.entries()) {
        const stored = await ledger.db.execute(sql`select remark from ledger_transfers where id = ${batch[0].id}`);
        expect((stored as unknown as { rows: Array<{ remark: string }> }).rows[0].remark).toBe(remarks[i]);
      }
      expect((await ledger.balance(account)).postedAtomic).toBe(usdt(3));
    });

    it('keeps a transfer posted in a caller\'s transaction out of any group', async () => {
      const account = await ledger.userAccount(await ledger.newUser());
      const before = groupCommitStats(ledger.db);
      const result = await ledger.db.transaction((tx) => postTransfers(tx, [deposit(account, usdt(2))], ledger.clock));
      expect(result.ok).toBe(true);
      expect(groupCommitStats(ledger.db).groups).toBe(before.groups);
    });
  });
});

// The committer's policy alone, with groups that finish when the test says: a second group starts
// beside the one in flight only when enough transfers wait (parallelGroupTransfersMin).
describe('GroupCommitter: when a second group starts', () => {
  const request = (id: string, size = 1): TransferRequest[] => Array.from({ length: size }, (_, i) => ({
    id: `${id}:${i}`, debitAccountId: 1n, creditAccountId: 2n, amountAtomic: 1n, kind: 'correction', reference: 'policy',
  }));
  function committer() {
    const started: number[] = [];
    const finish: Array<() => void> = [];
    const made = new GroupCommitter({ transfersPerGroupMax: 1000, groupsInFlightMax: 2, parallelGroupTransfersMin: 64, transfersQueuedMax: 10_000 },
      (group) => new Promise<void>((resolve) => {
        started.push(group.reduce((sum, queued) => sum + queued.batch.length, 0));
        finish.push(() => {
          for (const queued of group) queued.resolve({ ok: true, replayed: false, transfers: [] });
          resolve();
        });
      }));
    return { made, started, finish };
  }

  it('lets single transfers gather behind the group in flight into one group', async () => {
    const { made, started, finish } = committer();
    const answers = [made.submit(request('a'), new Date())];
    for (let i = 0; i < 7; i += 1) answers.push(made.submit(request(`b${i}`), new Date()));
    // The first started alone at once; seven wait (fewer than 64), so no second group yet.
    expect(started).toEqual([1]);
    expect(made.current()).toMatchObject({ groupsInFlight: 1, requestsQueued: 7 });
    finish[0]();
    await answers[0];
    // The finished group's slot goes to the seven once its promise has settled.
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 7]);
    finish[1]();
    await Promise.all(answers);
  });

  it('starts a second group at once when a batch of 64 or more waits', async () => {
    const { made, started, finish } = committer();
    const answers = [made.submit(request('a'), new Date()), made.submit(request('big', 100), new Date())];
    expect(started).toEqual([1, 100]);
    expect(made.current().groupsInFlight).toBe(2);
    finish[0]();
    finish[1]();
    await Promise.all(answers);
  });
});
