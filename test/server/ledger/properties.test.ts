// Property-based: random sequences of deposits, withdrawals (a linked pending pair: amount and
// fee), approvals, rejections, partial payouts, transfers between users, second resolutions and
// retries of earlier batches, run against a model of what each should do. After every step the
// balances equal the model's, no user balance is negative and every asset sums to zero; after
// every sequence the chains verify. fast-check shrinks a failure to a shorter sequence; the suite
// shares one database, so after a failure read the first counterexample's seed and path as well.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { verifyLedger } from '../../../server/domain/kernel/ledger/verify.ts';
import { accountBalances } from '../../../server/domain/kernel/ledger/accounts.ts';
import type { TransferRequest } from '../../../server/domain/kernel/ledger/rules.ts';
import { expectConserved, forEachLedgerDatabase, type LedgerTestDb } from './ledgerHelpers.ts';

const userCount = 3;

type Step =
  | { type: 'deposit'; user: number; amount: number }
  | { type: 'withdraw'; user: number; amount: number; fee: number }
  | { type: 'approve' | 'reject' | 'payHalf' | 'resolveAgain' | 'retry'; which: number }
  | { type: 'transfer'; from: number; to: number; amount: number };

const user = fc.integer({ min: 0, max: userCount - 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ type: fc.constant('deposit' as const), user, amount: fc.integer({ min: 1, max: 1000 }) }),
  fc.record({ type: fc.constant('withdraw' as const), user, amount: fc.integer({ min: 1, max: 600 }), fee: fc.integer({ min: 0, max: 30 }) }),
  ...(['approve', 'reject', 'payHalf', 'resolveAgain', 'retry'] as const).map((type) => fc.record({ type: fc.constant(type), which: fc.nat() })),
  fc.record({ type: fc.constant('transfer' as const), from: user, to: user, amount: fc.integer({ min: 1, max: 800 }) }),
);

interface Withdrawal { user: number; holdId: string; feeId?: string; amount: bigint; fee: bigint }

/** What the ledger should hold: per user, posted balance and reserved (pending debits). */
class Model {
  posted = Array.from({ length: userCount }, () => 0n);
  reserved = Array.from({ length: userCount }, () => 0n);
  open: Withdrawal[] = [];
  resolved: Array<{ withdrawal: Withdrawal; action: 'post' | 'void' }> = [];
  accepted: TransferRequest[][] = [];
  available = (user: number) => this.posted[user] - this.reserved[user];
}

class World {
  readonly model = new Model();
  constructor(readonly ledger: LedgerTestDb, readonly spots: bigint[], readonly clearing: { deposit: bigint; withdrawal: bigint; fees: bigint }) {}

  static async create(ledger: LedgerTestDb) {
    const spots = await Promise.all(Array.from({ length: userCount }, async () => ledger.userAccount(await ledger.newUser())));
    const shard = ledger.id('shard');
    return new World(ledger, spots, {
      deposit: await ledger.systemAccount('USDT', 'deposit_clearing', shard),
      withdrawal: await ledger.systemAccount('USDT', 'withdrawal_clearing', shard),
      fees: await ledger.systemAccount('USDT', 'fees', shard),
    });
  }

  async run(current: Step) {
    const { model } = this;
    if (current.type === 'deposit') {
      await this.expectPosted([this.single(this.clearing.deposit, this.spots[current.user], current.amount, 'deposit')]);
      model.posted[current.user] += BigInt(current.amount);
    } else if (current.type === 'withdraw') {
      await this.withdraw(current.user, BigInt(current.amount), BigInt(current.fee));
    } else if (current.type === 'transfer') {
      await this.transfer(current.from, current.to, BigInt(current.amount));
    } else if (current.type === 'retry') {
      if (model.accepted.length === 0) return;
      const batch = model.accepted[current.which % model.accepted.length];
      expect(await this.ledger.post(batch)).toMatchObject({ ok: true, replayed: true });
    } else if (current.type === 'resolveAgain') {
      if (model.resolved.length === 0) return;
      const { withdrawal, action } = model.resolved[current.which % model.resolved.length];
      const again = await this.ledger.post([{ id: this.ledger.id(), pendingId: withdrawal.holdId, action: 'post' }]);
      expect(again).toEqual({ ok: false, index: 0, refusal: action === 'post' ? 'pending_transfer_already_posted' : 'pending_transfer_already_voided' });
    } else {
      await this.resolve(current.type, current.which);
    }
  }

  single(debitAccountId: bigint, creditAccountId: bigint, amount: number | bigint, kind: 'deposit' | 'correction'): TransferRequest {
    return { id: this.ledger.id(), debitAccountId, creditAccountId, amountAtomic: BigInt(amount), kind, reference: 'property' };
  }

  async expectPosted(batch: TransferRequest[]) {
    const result = await this.ledger.post(batch);
    expect(result).toMatchObject({ ok: true, replayed: false });
    this.model.accepted.push(batch);
  }

  async withdraw(user: number, amount: bigint, fee: bigint) {
    const reference = this.ledger.id('withdrawal');
    const hold = { id: this.ledger.id(), debitAccountId: this.spots[user], creditAccountId: this.clearing.withdrawal, amountAtomic: amount, kind: 'withdrawal' as const, reference, pending: true };
    const feeHold = fee > 0n
      ? { id: this.ledger.id(), debitAccountId: this.spots[user], creditAccountId: this.clearing.fees, amountAtomic: fee, kind: 'withdrawal_fee' as const, reference, pending: true }
      : undefined;
    const batch = feeHold ? [hold, feeHold] : [hold];
    if (amount + fee > this.model.available(user)) {
      const index = amount > this.model.available(user) ? 0 : 1;
      expect(await this.ledger.post(batch)).toEqual({ ok: false, index, refusal: 'exceeds_credits' });
      return;
    }
    await this.expectPosted(batch);
    this.model.reserved[user] += amount + fee;
    this.model.open.push({ user, holdId: hold.id, feeId: feeHold?.id, amount, fee });
  }

  async transfer(from: number, to: number, amount: bigint) {
    const batch = [this.single(this.spots[from], this.spots[to], amount, 'correction')];
    if (from === to) {
      expect(await this.ledger.post(batch)).toEqual({ ok: false, index: 0, refusal: 'accounts_must_be_different' });
    } else if (amount > this.model.available(from)) {
      expect(await this.ledger.post(batch)).toEqual({ ok: false, index: 0, refusal: 'exceeds_credits' });
    } else {
      await this.expectPosted(batch);
      this.model.posted[from] -= amount;
      this.model.posted[to] += amount;
    }
  }

  /** Approve posts amount and fee; reject voids both; payHalf posts half the amount (the rest released) and voids the fee. */
  async resolve(type: 'approve' | 'reject' | 'payHalf', which: number) {
    const { model } = this;
    if (model.open.length === 0) return;
    const [withdrawal] = model.open.splice(which % model.open.length, 1);
    const paid = type === 'approve' ? withdrawal.amount + withdrawal.fee : type === 'payHalf' ? (withdrawal.amount + 1n) / 2n : 0n;
    const holdResolution: TransferRequest = type === 'reject'
      ? { id: this.ledger.id(), pendingId: withdrawal.holdId, action: 'void' }
      : { id: this.ledger.id(), pendingId: withdrawal.holdId, action: 'post', ...(type === 'payHalf' ? { amountAtomic: paid } : {}) };
    const batch = [holdResolution];
    if (withdrawal.feeId) batch.push({ id: this.ledger.id(), pendingId: withdrawal.feeId, action: type === 'approve' ? 'post' : 'void' });
    await this.expectPosted(batch);
    model.reserved[withdrawal.user] -= withdrawal.amount + withdrawal.fee;
    model.posted[withdrawal.user] -= paid;
    model.resolved.push({ withdrawal, action: type === 'reject' ? 'void' : 'post' });
  }

  async expectModel() {
    const balances = await accountBalances(this.ledger.db, this.spots);
    const byId = new Map(balances.map((balance) => [balance.id, balance]));
    const actual = this.spots.map((id) => [byId.get(id)!.postedAtomic, byId.get(id)!.debitsPendingAtomic]);
    expect(actual).toEqual(this.spots.map((_id, i) => [this.model.posted[i], this.model.reserved[i]]));
    for (const balance of balances) expect(balance.availableAtomic).toBeGreaterThanOrEqual(0n);
    await expectConserved(this.ledger.db);
  }
}

forEachLedgerDatabase((ledger) => {
  describe('random sequences of money movements', () => {
    it('keep balances as the model says, none below zero, every asset summing to zero, and the chains valid', async () => {
      await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        const world = await World.create(ledger);
        for (const current of steps) {
          await world.run(current);
          await world.expectModel();
        }
        const check = await verifyLedger(ledger.db);
        expect(check).toMatchObject({ chainValid: true, balancesValid: true, conserved: true, problems: [] });
      }), { numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 40) });
    }, 300_000);
  });
});
