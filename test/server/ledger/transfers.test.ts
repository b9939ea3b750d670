// postTransfers, the one way money moves: every rule, every refusal (each moving nothing), the
// idempotent retry, linked batches, two-phase transfers, demo funds kept apart, and the database's
// own guards below the code. Conservation of every asset is asserted after every batch.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ledgerAssets } from '../../../server/db/schema.ts';
import { atomicMax } from '../../../server/domain/kernel/ledger/amounts.ts';
import { openAccounts, systemAccountShardCount, systemShard } from '../../../server/domain/kernel/ledger/accounts.ts';
import { transferRefusals, type NewTransferRequest } from '../../../server/domain/kernel/ledger/rules.ts';
import { chainGenesis } from '../../../server/domain/kernel/ledger/chain.ts';
import { forEachLedgerDatabase, type LedgerTestDb } from './ledgerHelpers.ts';

const usdt = (whole: number) => BigInt(whole) * 1_000_000n;

/** A withdrawal-like transfer from `from` to withdrawal clearing. */
async function spend(ledger: LedgerTestDb, from: bigint, amountAtomic: bigint, extra: Partial<NewTransferRequest> = {}): Promise<NewTransferRequest> {
  return {
    id: ledger.id('withdrawal'), debitAccountId: from, creditAccountId: await ledger.systemAccount('USDT', 'withdrawal_clearing'),
    amountAtomic, kind: 'withdrawal', reference: ledger.id('withdrawal'), ...extra,
  };
}

forEachLedgerDatabase((ledger) => {
  describe('postTransfers: a single transfer', () => {
    it('moves the amount, records each side\'s entry number and balance after, at the clock\'s time', async () => {
      const user = await ledger.newUser();
      const spot = await ledger.userAccount(user);
      const clearing = await ledger.systemAccount();
      const clearingBefore = await ledger.balance(clearing);
      const [transfer] = await ledger.posted([{
        id: ledger.id(), debitAccountId: clearing, creditAccountId: spot, amountAtomic: usdt(100), kind: 'deposit',
        reference: 'recharge:1', remark: 'Bank transfer',
      }]);
      expect(transfer).toMatchObject({
        ledger: 1, asset: 'USDT', debitAccountId: clearing, creditAccountId: spot, amount: usdt(100), kind: 'deposit',
        phase: 'single', pendingId: null, reference: 'recharge:1', remark: 'Bank transfer', createdAt: ledger.clock.now(),
        creditEntryNo: 1n, creditBalanceAfter: usdt(100), debitBalanceAfter: clearingBefore.postedAtomic - usdt(100),
      });
      expect(transfer.creditChainHash).toMatch(/^[0-9a-f]{64}$/);
      expect(await ledger.balance(spot)).toMatchObject({ postedAtomic: usdt(100), availableAtomic: usdt(100), debitsPendingAtomic: 0n });
      // Deposit clearing is a system account: it goes below zero by what came in.
      expect((await ledger.balance(clearing)).postedAtomic).toBe(clearingBefore.postedAtomic - usdt(100));
    });

    it('spends a user\'s balance down to exactly zero, and refuses one atomic unit more, moving nothing', async () => {
      const spot = await ledger.fundedAccount(usdt(5));
      const tooMuch = await spend(ledger, spot, usdt(5) + 1n);
      const before = await ledger.snapshot();
      const refused = await ledger.post([tooMuch]);
      expect(refused).toEqual({ ok: false, index: 0, refusal: 'exceeds_credits' });
      expect(await ledger.snapshot()).toEqual(before);
      await ledger.posted([await spend(ledger, spot, usdt(5))]);
      expect((await ledger.balance(spot)).postedAtomic).toBe(0n);
    });

    it('lets a loan account be lent to and repaid, and refuses a repayment beyond what is owed', async () => {
      const user = await ledger.newUser();
      const spot = await ledger.userAccount(user);
      const loan = await ledger.userAccount(user, 'USDT', 'loan');
      // Lending: the user's debt (loan, debited) funds their spot balance.
      await ledger.posted([{ id: ledger.id(), debitAccountId: loan, creditAccountId: spot, amountAtomic: usdt(50), kind: 'correction', reference: 'loan:1' }]);
      expect((await ledger.balance(loan)).postedAtomic).toBe(-usdt(50));
      const before = await ledger.snapshot();
      const over = await ledger.post([{ id: ledger.id(), debitAccountId: spot, creditAccountId: loan, amountAtomic: usdt(50) + 1n, kind: 'correction', reference: 'loan:1' }]);
      // The spot account holds 50 only, so that rule speaks first; fund it and the loan's own rule answers.
      expect(over).toEqual({ ok: false, index: 0, refusal: 'exceeds_credits' });
      await ledger.fundedAccount(usdt(10), 'USDT', user);
      const overRepaid = await ledger.post([{ id: ledger.id(), debitAccountId: spot, creditAccountId: loan, amountAtomic: usdt(50) + 1n, kind: 'correction', reference: 'loan:1' }]);
      expect(overRepaid).toEqual({ ok: false, index: 0, refusal: 'exceeds_debits' });
      expect((await ledger.balance(loan)).postedAtomic).toBe(-usdt(50));
      expect((await ledger.snapshot()).transfers).toBe(before.transfers + 1);
      await ledger.posted([{ id: ledger.id(), debitAccountId: spot, creditAccountId: loan, amountAtomic: usdt(50), kind: 'correction', reference: 'loan:1' }]);
      expect((await ledger.balance(loan)).postedAtomic).toBe(0n);
    });
  });

  describe('postTransfers: refusals', () => {
    it('lists its refusals in the order they are checked', () => {
      expect(transferRefusals.indexOf('id_invalid')).toBe(0);
      expect(transferRefusals.indexOf('exists_with_different_fields')).toBeLessThan(transferRefusals.indexOf('exceeds_credits'));
    });

    type Change = (ledger: LedgerTestDb, valid: NewTransferRequest) => Promise<Partial<NewTransferRequest>>;
    const cases: Array<{ name: string; change: Change; refusal: string }> = [
      { name: 'an empty id', change: async () => ({ id: '' }), refusal: 'id_invalid' },
      { name: 'an id of 65 characters', change: async () => ({ id: 'x'.repeat(65) }), refusal: 'id_invalid' },
      { name: 'an id with a space', change: async () => ({ id: 'a b' }), refusal: 'id_invalid' },
      { name: 'an unknown kind', change: async () => ({ kind: 'gift' as never }), refusal: 'kind_invalid' },
      { name: 'an empty reference', change: async () => ({ reference: '' }), refusal: 'reference_invalid' },
      { name: 'a reference with a newline', change: async () => ({ reference: 'a\nb' }), refusal: 'reference_invalid' },
      { name: 'a remark of 201 characters', change: async () => ({ remark: 'r'.repeat(201) }), refusal: 'remark_too_long' },
      { name: 'a zero amount', change: async () => ({ amountAtomic: 0n }), refusal: 'amount_must_be_positive' },
      { name: 'a negative amount', change: async () => ({ amountAtomic: -1n }), refusal: 'amount_must_be_positive' },
      { name: 'no amount', change: async () => ({ amountAtomic: undefined as never }), refusal: 'amount_must_be_positive' },
      { name: 'an amount that is not a bigint', change: async () => ({ amountAtomic: 5 as never }), refusal: 'amount_must_be_positive' },
      { name: 'the same account on both sides', change: async (_ledger, valid) => ({ creditAccountId: valid.debitAccountId }), refusal: 'accounts_must_be_different' },
      { name: 'an unknown debit account', change: async () => ({ debitAccountId: 987_654_321n }), refusal: 'debit_account_not_found' },
      { name: 'an unknown credit account', change: async () => ({ creditAccountId: 987_654_322n }), refusal: 'credit_account_not_found' },
      { name: 'a demo account paying a real one', change: async (ledger) => ({ debitAccountId: await demoFunded(ledger) }), refusal: 'ledgers_must_match' },
      { name: 'accounts of two assets', change: async (ledger) => ({ creditAccountId: await ledger.systemAccount('BTC', 'withdrawal_clearing') }), refusal: 'assets_must_match' },
      { name: 'more than the asset allows in one transfer', change: async () => ({ amountAtomic: usdt(1_000_000_000) + 1n }), refusal: 'amount_exceeds_asset_limit' },
      { name: 'more than the balance', change: async () => ({ amountAtomic: usdt(10) + 1n }), refusal: 'exceeds_credits' },
    ];

    it.each(cases)('refuses $name as $refusal and moves nothing', async ({ change, refusal }) => {
      const spot = await ledger.fundedAccount(usdt(10));
      const valid = await spend(ledger, spot, usdt(1));
      const request = { ...valid, ...await change(ledger, valid) };
      const before = await ledger.snapshot();
      expect(await ledger.post([request])).toEqual({ ok: false, index: 0, refusal });
      expect(await ledger.snapshot()).toEqual(before);
      // The valid transfer still goes through afterwards: the refusal left no lock or state behind.
      await ledger.posted([valid]);
    });

    it('answers the first rule a transfer breaks when it breaks several', async () => {
      const spot = await ledger.fundedAccount(usdt(1));
      const request = await spend(ledger, spot, 0n, { reference: '', remark: 'r'.repeat(300) });
      expect(await ledger.post([request])).toEqual({ ok: false, index: 0, refusal: 'reference_invalid' });
      const demo = await demoFunded(ledger);
      const crossAndTooMuch = await spend(ledger, demo, usdt(1_000_000));
      expect(await ledger.post([crossAndTooMuch])).toEqual({ ok: false, index: 0, refusal: 'ledgers_must_match' });
    });

    it('refuses a value that would pass NUMERIC(38,0), on either side', async () => {
      await ledger.db.insert(ledgerAssets).values({ code: 'HUGE', name: 'Test asset without a ceiling', scale: 0, transferAmountMax: atomicMax })
        .onConflictDoNothing();
      const user = await ledger.newUser();
      const spot = await ledger.userAccount(user, 'HUGE');
      const clearing = await ledger.systemAccount('HUGE');
      const deposit = (amountAtomic: bigint) => ({ id: ledger.id(), debitAccountId: clearing, creditAccountId: spot, amountAtomic, kind: 'deposit' as const, reference: 'huge' });
      await ledger.posted([deposit(atomicMax)]);
      const before = await ledger.snapshot();
      expect(await ledger.post([deposit(1n)])).toEqual({ ok: false, index: 0, refusal: 'overflow' });
      expect(await ledger.snapshot()).toEqual(before);
    });
  });

  describe('postTransfers: idempotency', () => {
    it('answers a retry with the first result and moves the money once', async () => {
      const spot = await ledger.fundedAccount(usdt(10));
      const request = await spend(ledger, spot, usdt(4));
      const first = await ledger.post([request]);
      ledger.clock.advance(5_000);
      const retry = await ledger.post([request]);
      expect(first.ok && retry.ok).toBe(true);
      if (!first.ok || !retry.ok) return;
      expect(first.replayed).toBe(false);
      expect(retry).toEqual({ ok: true, replayed: true, transfers: first.transfers });
      expect((await ledger.balance(spot)).postedAtomic).toBe(usdt(6));
    });

    it('answers a retry with the first result even after the balance it moved has been spent', async () => {
      const spot = await ledger.fundedAccount(usdt(10));
      const request = await spend(ledger, spot, usdt(10));
      await ledger.posted([request]);
      const retry = await ledger.post([request]);
      expect(retry).toMatchObject({ ok: true, replayed: true });
      expect((await ledger.balance(spot)).postedAtomic).toBe(0n);
    });

    it('refuses an id used before for another transfer, and moves nothing', async () => {
      const spot = await ledger.fundedAccount(usdt(10));
      const request = await spend(ledger, spot, usdt(1));
      await ledger.posted([request]);
      const before = await ledger.snapshot();
      for (const change of [{ amountAtomic: usdt(2) }, { reference: 'other' }, { remark: 'other' }, { pending: true }]) {
        expect(await ledger.post([{ ...request, ...change }])).toEqual({ ok: false, index: 0, refusal: 'exists_with_different_fields' });
      }
      expect(await ledger.snapshot()).toEqual(before);
    });

    it('refuses a batch that reuses one id of an earlier batch beside new ones', async () => {
      const spot = await ledger.fundedAccount(usdt(10));
      const first = await spend(ledger, spot, usdt(1));
      await ledger.posted([first]);
      const before = await ledger.snapshot();
      const mixed = await ledger.post([first, await spend(ledger, spot, usdt(1))]);
      expect(mixed).toEqual({ ok: false, index: 1, refusal: 'exists_with_different_fields' });
      expect(await ledger.snapshot()).toEqual(before);
    });
  });

  describe('postTransfers: linked batches', () => {
    it('applies a batch in order: a deposit can be spent by a later transfer of the same batch', async () => {
      const user = await ledger.newUser();
      const spot = await ledger.userAccount(user);
      const frozen = await ledger.userAccount(user, 'USDT', 'frozen');
      const transfers = await ledger.posted([
        { id: ledger.id(), debitAccountId: await ledger.systemAccount(), creditAccountId: spot, amountAtomic: usdt(3), kind: 'deposit', reference: 'r' },
        { id: ledger.id(), debitAccountId: spot, creditAccountId: frozen, amountAtomic: usdt(3), kind: 'withdrawal', reference: 'r' },
      ]);
      expect(transfers.map((transfer) => [transfer.creditEntryNo, transfer.creditBalanceAfter])).toEqual([[1n, usdt(3)], [1n, usdt(3)]]);
      expect(transfers[1]).toMatchObject({ debitEntryNo: 2n, debitBalanceAfter: 0n });
    });

    it('moves nothing when any transfer of the batch is refused, and names it', async () => {
      const spot = await ledger.fundedAccount(usdt(10));
      const before = await ledger.snapshot();
      const result = await ledger.post([
        await spend(ledger, spot, usdt(4)), await spend(ledger, spot, usdt(4)), await spend(ledger, spot, usdt(4)),
      ]);
      expect(result).toEqual({ ok: false, index: 2, refusal: 'exceeds_credits' });
      expect(await ledger.snapshot()).toEqual(before);
    });

    it('refuses one id twice in a batch', async () => {
      const spot = await ledger.fundedAccount(usdt(10));
      const request = await spend(ledger, spot, usdt(1));
      expect(await ledger.post([request, { ...request }])).toEqual({ ok: false, index: 1, refusal: 'id_duplicated_in_batch' });
    });

    it('throws on an empty batch or one above the batch limit (a programmer error)', async () => {
      await expect(ledger.post([])).rejects.toThrow(/batch/);
      const spot = await ledger.fundedAccount(usdt(10));
      const one = await spend(ledger, spot, 1n);
      await expect(ledger.post(Array.from({ length: 1001 }, (_, i) => ({ ...one, id: `big-${i}` })))).rejects.toThrow(/batch/);
    });
  });

  describe('postTransfers: two-phase transfers', () => {
    it('reserves with a pending transfer: available drops, the posted balance stays, and the reserve counts against later spending', async () => {
      const spot = await ledger.fundedAccount(usdt(10));
      const [pending] = await ledger.posted([await spend(ledger, spot, usdt(7), { pending: true })]);
      expect(pending).toMatchObject({ phase: 'pending', debitBalanceAfter: usdt(10) });
      expect(await ledger.balance(spot)).toMatchObject({ postedAtomic: usdt(10), debitsPendingAtomic: usdt(7), availableAtomic: usdt(3) });
      expect(await ledger.post([await spend(ledger, spot, usdt(3) + 1n)])).toMatchObject({ ok: false, refusal: 'exceeds_credits' });
      expect(await ledger.post([await spend(ledger, spot, usdt(3) + 1n, { pending: true })])).toMatchObject({ ok: false, refusal: 'exceeds_credits' });
    });

    it('posts a pending transfer once: the reserve becomes a movement; a second post or a void is refused', async () => {
      const spot = await ledger.fundedAccount(usdt(10));
      const [pending] = await ledger.posted([await spend(ledger, spot, usdt(7), { pending: true })]);
      const post = { id: ledger.id('post'), pendingId: pending.id, action: 'post' as const };
      const [posted] = await ledger.posted([post]);
      expect(posted).toMatchObject({
        phase: 'post', pendingId: pending.id, amount: usdt(7), kind: 'withdrawal', reference: pending.reference,
        debitAccountId: spot, creditAccountId: pending.creditAccountId, debitBalanceAfter: usdt(3),
      });
      expect(await ledger.balance(spot)).toMatchObject({ postedAtomic: usdt(3), debitsPendingAtomic: 0n, availableAtomic: usdt(3) });
      const before = await ledger.snapshot();
      expect(await ledger.post([{ ...post, id: ledger.id() }])).toEqual({ ok: false, index: 0, refusal: 'pending_transfer_already_posted' });
      expect(await ledger.post([{ id: ledger.id(), pendingId: pending.id, action: 'void' }])).toEqual({ ok: false, index: 0, refusal: 'pending_transfer_already_posted' });
      expect(await ledger.snapshot()).toEqual(before);
      // The same post again is a retry: the first result, nothing moved.
      expect(await ledger.post([post])).toEqual({ ok: true, replayed: true, transfers: [posted] });
    });

    it('voids a pending transfer once: the reserve is released and nothing moves', async () => {
      const spot = await ledger.fundedAccount(usdt(10));
      const [pending] = await ledger.posted([await spend(ledger, spot, usdt(7), { pending: true })]);
      const [voided] = await ledger.posted([{ id: ledger.id(), pendingId: pending.id, action: 'void', remark: 'Rejected: wrong address' }]);
      expect(voided).toMatchObject({ phase: 'void', amount: usdt(7), remark: 'Rejected: wrong address', debitBalanceAfter: usdt(10) });
      expect(await ledger.balance(spot)).toMatchObject({ postedAtomic: usdt(10), debitsPendingAtomic: 0n, availableAtomic: usdt(10) });
      expect(await ledger.post([{ id: ledger.id(), pendingId: pending.id, action: 'post' }])).toEqual({ ok: false, index: 0, refusal: 'pending_transfer_already_voided' });
    });

    it('posts less than was reserved and releases the rest; refuses to post more', async () => {
      const spot = await ledger.fundedAccount(usdt(10));
      const [pending] = await ledger.posted([await spend(ledger, spot, usdt(7), { pending: true })]);
      expect(await ledger.post([{ id: ledger.id(), pendingId: pending.id, action: 'post', amountAtomic: usdt(7) + 1n }]))
        .toEqual({ ok: false, index: 0, refusal: 'amount_exceeds_pending_amount' });
      await ledger.posted([{ id: ledger.id(), pendingId: pending.id, action: 'post', amountAtomic: usdt(5) }]);
      expect(await ledger.balance(spot)).toMatchObject({ postedAtomic: usdt(5), debitsPendingAtomic: 0n, availableAtomic: usdt(5) });
    });

    it('refuses to resolve an unknown transfer or one that is not pending', async () => {
      const spot = await ledger.fundedAccount(usdt(10));
      const [single] = await ledger.posted([await spend(ledger, spot, usdt(1))]);
      expect(await ledger.post([{ id: ledger.id(), pendingId: 'no-such-transfer', action: 'post' }])).toEqual({ ok: false, index: 0, refusal: 'pending_transfer_not_found' });
      expect(await ledger.post([{ id: ledger.id(), pendingId: 'not an id at all; '.repeat(10), action: 'void' }])).toEqual({ ok: false, index: 0, refusal: 'pending_transfer_not_found' });
      expect(await ledger.post([{ id: ledger.id(), pendingId: single.id, action: 'post', amountAtomic: 0n }])).toEqual({ ok: false, index: 0, refusal: 'amount_must_be_positive' });
      expect(await ledger.post([{ id: ledger.id(), pendingId: single.id, action: 'void' }])).toEqual({ ok: false, index: 0, refusal: 'pending_transfer_not_pending' });
    });

    it('resolves a pending transfer made earlier in the same batch, and refuses resolving it twice there', async () => {
      const spot = await ledger.fundedAccount(usdt(10));
      const pending = await spend(ledger, spot, usdt(2), { pending: true });
      const transfers = await ledger.posted([pending, { id: ledger.id(), pendingId: pending.id, action: 'post' }]);
      expect(transfers.map((transfer) => transfer.phase)).toEqual(['pending', 'post']);
      const again = await spend(ledger, spot, usdt(2), { pending: true });
      expect(await ledger.post([again, { id: ledger.id(), pendingId: again.id, action: 'void' }, { id: ledger.id(), pendingId: again.id, action: 'post' }]))
        .toEqual({ ok: false, index: 2, refusal: 'pending_transfer_already_voided' });
    });
  });

  describe('demo funds', () => {
    it('live in their own ledger: funded from the demo house, never paid into or out of real money', async () => {
      const user = await ledger.newUser();
      const demo = await ledger.userAccount(user, 'USDT', 'demo');
      const demoHouse = await ledger.systemAccount('USDT', 'house', 'demo', 'demo');
      await ledger.posted([{ id: ledger.id(), debitAccountId: demoHouse, creditAccountId: demo, amountAtomic: usdt(10_000), kind: 'demo_grant', reference: 'demo' }]);
      const spot = await ledger.userAccount(user);
      const house = await ledger.systemAccount('USDT', 'house');
      const before = await ledger.snapshot();
      for (const [debitAccountId, creditAccountId] of [[demo, spot], [spot, demo], [demoHouse, spot], [demo, house]]) {
        expect(await ledger.post([{ id: ledger.id(), debitAccountId, creditAccountId, amountAtomic: 1n, kind: 'correction', reference: 'x' }]))
          .toMatchObject({ ok: false, refusal: 'ledgers_must_match' });
      }
      expect(await ledger.snapshot()).toEqual(before);
    });

    it('cannot open a demo account in the real ledger (a programmer error), and the database refuses it too', async () => {
      const user = await ledger.newUser();
      await expect(openAccounts(ledger.db, [{ ledger: 'real', asset: 'USDT', kind: 'demo', ownerUserId: user }])).rejects.toThrow(/demo/);
      await expect(ledger.db.execute(sql`insert into ledger_accounts (ledger, owner_user_id, asset, kind, debits_must_not_exceed_credits,
        credits_must_not_exceed_debits, chain_head) values (1, ${user}, 'USDT', 'demo', true, false, ${chainGenesis})`)).rejects.toThrow();
    });

    it('the database refuses a transfer row that links a demo account to a real one, whatever the code does', async () => {
      const demo = await demoFunded(ledger);
      const real = await ledger.fundedAccount(usdt(1));
      await expect(ledger.db.execute(sql`insert into ledger_transfers (id, ledger, asset, debit_account_id, credit_account_id, amount, kind,
        phase, reference, created_at, debit_entry_no, credit_entry_no, debit_balance_after, credit_balance_after, debit_chain_hash,
        credit_chain_hash) values ('forged', 2, 'USDT', ${demo}, ${real}, 1, 'correction', 'single', 'x', now(), 1, 1, 0, 0, '', '')`))
        .rejects.toThrow();
    });
  });

  describe('accounts', () => {
    it('opens an account once: the same key gives the same id, also when asked at once', async () => {
      const user = await ledger.newUser();
      const key = { ledger: 'real' as const, asset: 'BTC', kind: 'spot' as const, ownerUserId: user };
      const ids = await Promise.all(Array.from({ length: 5 }, () => openAccounts(ledger.db, [key, { ...key, kind: 'frozen' }])));
      expect(new Set(ids.map((pair) => pair.join()))).toHaveLength(1);
      expect(ids[0][0]).not.toBe(ids[0][1]);
    });

    it('spreads a system account over its shards by the caller\'s key', () => {
      const shards = new Set(Array.from({ length: 400 }, (_, i) => systemShard(`user:${i}`)));
      expect(shards.size).toBe(systemAccountShardCount);
      expect(systemShard('user:1')).toBe(systemShard('user:1'));
    });
  });

  describe('the database below the code', () => {
    it('refuses to change, delete or truncate a transfer', async () => {
      const spot = await ledger.fundedAccount(usdt(1));
      const [{ id }] = await ledger.query<{ id: string }>(sql`select id from ledger_transfers where credit_account_id = ${spot}`);
      await expect(ledger.db.execute(sql`update ledger_transfers set amount = 2 where id = ${id}`)).rejects.toThrow();
      await expect(ledger.db.execute(sql`delete from ledger_transfers where id = ${id}`)).rejects.toThrow();
      await expect(ledger.db.execute(sql`truncate ledger_transfers cascade`)).rejects.toThrow();
    });

    it('refuses a user balance below zero written past the code', async () => {
      const spot = await ledger.fundedAccount(usdt(1));
      await expect(ledger.db.execute(sql`update ledger_accounts set debits_posted = credits_posted + 1 where id = ${spot}`)).rejects.toThrow();
    });
  });
});

/** A demo account holding 100 demo USDT. */
async function demoFunded(ledger: LedgerTestDb): Promise<bigint> {
  const demo = await ledger.userAccount(await ledger.newUser(), 'USDT', 'demo');
  await ledger.posted([{
    id: ledger.id(), debitAccountId: await ledger.systemAccount('USDT', 'house', 'demo', 'demo'), creditAccountId: demo,
    amountAtomic: usdt(100), kind: 'demo_grant', reference: 'demo',
  }]);
  return demo;
}
