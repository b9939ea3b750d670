// The harness of the ledger's domain tests: a migrated, seeded database per suite (PGlite always,
// PostgreSQL too when TEST_DATABASE_URL is set), users inserted directly, and the checks every
// test repeats: conservation after every batch, and balances unchanged by a refusal.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../../../server/db/client.ts';
import { seed } from '../../../server/seed.ts';
import { ledgerAccounts, users } from '../../../server/db/schema.ts';
import {
  accountBalances, openAccounts, systemShard, type AccountBalance, type LedgerName, type SystemAccountKind,
  type UserAccountKind,
} from '../../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers, type PostResult } from '../../../server/domain/kernel/ledger/transfers.ts';
import type { TransferRequest } from '../../../server/domain/kernel/ledger/rules.ts';
import { databaseKinds, openTestDatabase, TestClock, type DatabaseKind } from '../helpers.ts';

export class LedgerTestDb {
  database!: Database;
  readonly clock = new TestClock();
  #drop!: () => Promise<void>;
  #counter = 0;

  constructor(readonly kind: DatabaseKind) {}

  get db(): Db { return this.database.db; }

  async start() {
    const opened = await openTestDatabase(this.kind);
    this.database = opened.database;
    this.#drop = opened.drop;
    await seed(this.db, { demo: false });
  }

  async stop() {
    await this.database?.close();
    await this.#drop?.();
  }

  /** A unique transfer id (or any unique text) for this suite. */
  id(prefix = 't'): string {
    this.#counter += 1;
    return `${prefix}-${this.#counter}-${randomBytes(4).toString('hex')}`;
  }

  async newUser(): Promise<bigint> {
    const [user] = await this.db.insert(users).values({
      email: `${this.id('ledger')}@example.com`, passwordHash: 'not-a-login', inviteCode: randomBytes(5).toString('hex').toUpperCase(),
    }).returning({ id: users.id });
    return user.id;
  }

  async userAccount(userId: bigint, asset = 'USDT', kind: UserAccountKind = 'spot', ledger: LedgerName = kind === 'demo' ? 'demo' : 'real') {
    const [id] = await openAccounts(this.db, [{ ledger, asset, kind, ownerUserId: userId }]);
    return id;
  }

  async systemAccount(asset = 'USDT', kind: SystemAccountKind = 'deposit_clearing', shardKey = 'tests', ledger: LedgerName = 'real') {
    const [id] = await openAccounts(this.db, [{ ledger, asset, kind, shard: systemShard(shardKey) }]);
    return id;
  }

  /** Posts a batch and asserts conservation of every asset right after it. */
  async post(batch: TransferRequest[]): Promise<PostResult> {
    const result = await postTransfers(this.db, batch, this.clock);
    await expectConserved(this.db);
    return result;
  }

  /** Posts a batch that must go through; returns its transfers. */
  async posted(batch: TransferRequest[]) {
    const result = await this.post(batch);
    if (!result.ok) throw new Error(`transfer ${result.index} refused: ${result.refusal}`);
    return result.transfers;
  }

  /** A user's spot account credited with `amountAtomic` from deposit clearing. */
  async fundedAccount(amountAtomic: bigint, asset = 'USDT', userId?: bigint): Promise<bigint> {
    const account = await this.userAccount(userId ?? await this.newUser(), asset);
    await this.posted([{
      id: this.id('deposit'), debitAccountId: await this.systemAccount(asset), creditAccountId: account,
      amountAtomic, kind: 'deposit', reference: this.id('recharge'),
    }]);
    return account;
  }

  async balance(accountId: bigint): Promise<AccountBalance> {
    const [balance] = await accountBalances(this.db, [accountId]);
    return balance;
  }

  /** Every account's totals and chain head, to show that a refusal changed nothing. */
  async snapshot() {
    const rows = await this.db.select().from(ledgerAccounts).orderBy(ledgerAccounts.id);
    const [{ transfers }] = await this.query<{ transfers: number }>(sql`select count(*)::int as transfers from ledger_transfers`);
    return { rows, transfers };
  }

  async query<T>(query: ReturnType<typeof sql>): Promise<T[]> {
    return (await this.db.execute(query) as unknown as { rows: T[] }).rows;
  }
}

/** Every asset of every ledger sums to zero over all accounts, posted and pending. */
export async function expectConserved(db: Db) {
  const result = await db.execute(sql`select ledger, asset,
      sum(credits_posted - debits_posted)::text as posted, sum(credits_pending - debits_pending)::text as pending
    from ledger_accounts group by ledger, asset having sum(credits_posted - debits_posted) <> 0
      or sum(credits_pending - debits_pending) <> 0`);
  expect((result as unknown as { rows: unknown[] }).rows).toEqual([]);
}

/** Runs `suite` once per database kind, each on a fresh seeded database of its own. */
export function forEachLedgerDatabase(suite: (ledger: LedgerTestDb) => void, kinds: DatabaseKind[] = databaseKinds) {
  for (const kind of kinds) {
    describe(`on ${kind}`, () => {
      const ledger = new LedgerTestDb(kind);
      beforeAll(() => ledger.start());
      afterAll(() => ledger.stop());
      suite(ledger);
    });
  }
}
