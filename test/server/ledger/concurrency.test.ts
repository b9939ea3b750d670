// Concurrency on PostgreSQL (PGlite runs one transaction at a time, so there is nothing to race):
// many requests at once against one balance never overdraw it, the same transfer id sent at once
// moves money once, a pending transfer resolves once, and batches locking the same accounts in
// opposite orders all go through without a deadlock.
import { describe, expect, it } from 'vitest';
import type { TransferRequest } from '../../../server/domain/kernel/ledger/rules.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';
import { verifyLedger } from '../../../server/domain/kernel/ledger/verify.ts';
import { expectConserved, forEachLedgerDatabase, type LedgerTestDb } from './ledgerHelpers.ts';

const usdt = (whole: number) => BigInt(whole) * 1_000_000n;
const postgresOnly = process.env.TEST_DATABASE_URL ? ['postgres' as const] : [];

const at = (ledger: LedgerTestDb, batch: TransferRequest[]) => postTransfers(ledger.db, batch, ledger.clock);

describe.skipIf(postgresOnly.length === 0)('concurrent transfers', () => {
  forEachLedgerDatabase((ledger) => {
    it('50 simultaneous withdrawals against one balance reserve at most the balance, and refuse the rest', async () => {
      const spot = await ledger.fundedAccount(usdt(10) + 500_000n);
      const clearing = await ledger.systemAccount('USDT', 'withdrawal_clearing');
      const results = await Promise.all(Array.from({ length: 50 }, () => at(ledger, [{
        id: ledger.id('withdrawal'), debitAccountId: spot, creditAccountId: clearing, amountAtomic: usdt(1),
        kind: 'withdrawal', reference: 'race', pending: true,
      }])));
      expect(results.filter((result) => result.ok)).toHaveLength(10);
      for (const result of results.filter((other) => !other.ok)) expect(result).toEqual({ ok: false, index: 0, refusal: 'exceeds_credits' });
      expect(await ledger.balance(spot)).toMatchObject({ postedAtomic: usdt(10) + 500_000n, debitsPendingAtomic: usdt(10), availableAtomic: 500_000n });
      await expectConserved(ledger.db);
    });

    it('50 simultaneous withdrawals of mixed amounts never reserve more than the balance', async () => {
      const balance = usdt(100);
      const spot = await ledger.fundedAccount(balance);
      const clearing = await ledger.systemAccount('USDT', 'withdrawal_clearing');
      const amounts = Array.from({ length: 50 }, (_, i) => usdt(1 + ((i * 7) % 9)));
      const results = await Promise.all(amounts.map((amountAtomic) => at(ledger, [{
        id: ledger.id('withdrawal'), debitAccountId: spot, creditAccountId: clearing, amountAtomic, kind: 'withdrawal', reference: 'race', pending: true,
      }])));
      const reserved = amounts.filter((_amount, i) => results[i].ok).reduce((sum, amount) => sum + amount, 0n);
      const after = await ledger.balance(spot);
      expect(after.debitsPendingAtomic).toBe(reserved);
      expect(reserved).toBeLessThanOrEqual(balance);
      // Every refusal was for a real shortfall: the smallest refused amount did not fit what was left.
      const refused = amounts.filter((_amount, i) => !results[i].ok);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.every((amount) => amount > after.availableAtomic)).toBe(true);
    });

    it('moves money once when the same transfer id arrives several times at once', async () => {
      // With 10 USDT the copies after the first are refused for the balance and then find the first;
      // with 100 they pass the rules and find the id taken at the insert. Both answer the first result.
      for (let round = 0; round < 10; round += 1) {
        const funded = round % 2 === 0 ? usdt(10) : usdt(100);
        const spot = await ledger.fundedAccount(funded);
        const request: TransferRequest = {
          id: ledger.id('twice'), debitAccountId: spot, creditAccountId: await ledger.systemAccount('USDT', 'withdrawal_clearing'),
          amountAtomic: usdt(7), kind: 'withdrawal', reference: 'retry',
        };
        const results = await Promise.all(Array.from({ length: 4 }, () => at(ledger, [request])));
        expect(results.every((result) => result.ok)).toBe(true);
        expect(results.filter((result) => result.ok && !result.replayed)).toHaveLength(1);
        const transfers = results.map((result) => (result.ok ? result.transfers[0] : undefined));
        expect(new Set(transfers.map((transfer) => transfer?.seq))).toHaveLength(1);
        expect((await ledger.balance(spot)).postedAtomic).toBe(funded - usdt(7));
      }
      await expectConserved(ledger.db);
    });

    it('lets one of two different transfers sent at once under one id through, and refuses the other', async () => {
      for (let round = 0; round < 5; round += 1) {
        const spot = await ledger.fundedAccount(usdt(10));
        const id = ledger.id('clash');
        const [first, second] = await Promise.all([ledger.systemAccount('USDT', 'fees'), ledger.systemAccount('USDT', 'house')].map(async (target) => at(ledger, [{
          id, debitAccountId: spot, creditAccountId: await target, amountAtomic: usdt(1), kind: 'correction', reference: 'clash',
        }])));
        expect([first.ok, second.ok].sort()).toEqual([false, true]);
        expect([first, second].find((result) => !result.ok)).toEqual({ ok: false, index: 0, refusal: 'exists_with_different_fields' });
        expect((await ledger.balance(spot)).postedAtomic).toBe(usdt(9));
      }
    });

    it('resolves a pending transfer once when a post and a void arrive at once', async () => {
      for (let round = 0; round < 5; round += 1) {
        const spot = await ledger.fundedAccount(usdt(10));
        const [pending] = await ledger.posted([{
          id: ledger.id(), debitAccountId: spot, creditAccountId: await ledger.systemAccount('USDT', 'withdrawal_clearing'),
          amountAtomic: usdt(4), kind: 'withdrawal', reference: 'review', pending: true,
        }]);
        const results = await Promise.all((['post', 'void', 'post', 'void'] as const).map((action) => at(ledger, [{ id: ledger.id(), pendingId: pending.id, action }])));
        expect(results.filter((result) => result.ok)).toHaveLength(1);
        const winner = results.findIndex((result) => result.ok) % 2 === 0 ? 'post' : 'void';
        for (const result of results.filter((other) => !other.ok)) {
          expect(result).toMatchObject({ ok: false, refusal: winner === 'post' ? 'pending_transfer_already_posted' : 'pending_transfer_already_voided' });
        }
        expect(await ledger.balance(spot)).toMatchObject({ postedAtomic: winner === 'post' ? usdt(6) : usdt(10), debitsPendingAtomic: 0n });
      }
    });

    it('runs batches that touch the same accounts in opposite orders at once without a deadlock', async () => {
      const accounts = await Promise.all(Array.from({ length: 4 }, () => ledger.fundedAccount(usdt(1000))));
      const batches = Array.from({ length: 40 }, (_, i) => {
        const order = i % 2 === 0 ? accounts : [...accounts].reverse();
        return order.slice(0, 3).map((from, j): TransferRequest => ({
          id: ledger.id('cross'), debitAccountId: from, creditAccountId: order[j + 1], amountAtomic: usdt(1), kind: 'correction', reference: 'cross',
        }));
      });
      const results = await Promise.all(batches.map((batch) => at(ledger, batch)));
      expect(results.every((result) => result.ok)).toBe(true);
      const check = await verifyLedger(ledger.db);
      expect(check).toMatchObject({ chainValid: true, balancesValid: true, conserved: true });
    });
  }, postgresOnly);
});
