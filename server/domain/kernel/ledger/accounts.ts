// Ledger accounts: one per (ledger, owner, asset, kind, shard), created on first use. The kind
// fixes the balance limit: a user's holding can never go below zero, a user's loan never below
// nothing owed, a system account has no limit. Real and demo funds are separate ledgers (1 and
// 2); the transfer rules and the foreign keys keep every transfer inside one.
import { createHash } from 'node:crypto';
import { and, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import { ledgerAccounts } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { assert } from '../../../lib/errors.ts';
import { chainGenesis } from './chain.ts';

export const ledgers = { real: 1, demo: 2 } as const;
export type LedgerName = keyof typeof ledgers;
export const ledgerName = (ledger: number): LedgerName => (ledger === ledgers.demo ? 'demo' : 'real');

/**
 * What a user holds, now and in later features: spot (free to use), frozen (withdrawals under
 * review, competition entries), position margin, product holdings, loan (what the user owes),
 * demo (simulated funds, only in the demo ledger) and collateral (locked by a pledge loan).
 */
export const userAccountKinds = ['spot', 'frozen', 'position_margin', 'product_holdings', 'loan', 'demo', 'collateral',
  // Issue 23: a trading competition's entry funds and the results of its contracts ("frozen by competition").
  'competition'] as const;
export type UserAccountKind = (typeof userAccountKinds)[number];

/**
 * The platform's side of every movement: money arriving and leaving through deposits and
 * withdrawals, fees earned, the house (the counterparty of contracts and the payer of product
 * returns, visible in the ledger), and the expense accounts of interest and rewards.
 */
export const systemAccountKinds = [
  'deposit_clearing', 'withdrawal_clearing', 'fees', 'house', 'interest_expense', 'reward_expense',
  // Issue 22: what operators fund for product returns (paid out of it, never out of other users'
  // principal), and the interest and penalties loans earn.
  'product_reserve', 'loan_interest',
  // Issue 23: the pools operators fund for welfare, VIP bonuses, red envelopes and team income
  // (rewards) and for competition prizes (prizes); an IEO's payments received (ieo_proceeds) and
  // the tokens it issues at listing (ieo_issuance, in the token's asset).
  'rewards', 'prizes', 'ieo_proceeds', 'ieo_issuance',
] as const;
export type SystemAccountKind = (typeof systemAccountKinds)[number];
export type AccountKind = UserAccountKind | SystemAccountKind;

/**
 * Every transfer locks both of its accounts, so one system account row would make every deposit
 * (or every trade against the house) wait for the one before. Each system account is therefore
 * this many rows; a caller picks one by a key of its own (the user, the order), and totals add
 * the shards up.
 */
export const systemAccountShardCount = 16;

export type AccountKey =
  | { ledger: LedgerName; asset: string; kind: UserAccountKind; ownerUserId: bigint }
  | { ledger: LedgerName; asset: string; kind: SystemAccountKind; shard: number };

export const isUserAccountKind = (kind: string): kind is UserAccountKind =>
  (userAccountKinds as readonly string[]).includes(kind);

function limitsOfKind(kind: AccountKind) {
  if (kind === 'loan') return { debitsMustNotExceedCredits: false, creditsMustNotExceedDebits: true };
  if (isUserAccountKind(kind)) return { debitsMustNotExceedCredits: true, creditsMustNotExceedDebits: false };
  return { debitsMustNotExceedCredits: false, creditsMustNotExceedDebits: false };
}

function assertKey(key: AccountKey) {
  if ('ownerUserId' in key) {
    assert(isUserAccountKind(key.kind), `${key.kind} is not a user account kind`);
    assert(key.kind !== 'demo' || key.ledger === 'demo', 'demo accounts live in the demo ledger');
  } else {
    assert((systemAccountKinds as readonly string[]).includes(key.kind), `${key.kind} is not a system account kind`);
    assert(Number.isInteger(key.shard) && key.shard >= 0 && key.shard < systemAccountShardCount, `shard ${key.shard}`);
  }
}

const ownerOf = (key: AccountKey) => ('ownerUserId' in key ? key.ownerUserId : null);
const shardOf = (key: AccountKey) => ('shard' in key ? key.shard : 0);
const keyText = (ledger: number, owner: bigint | null, asset: string, kind: string, shard: number) =>
  `${ledger}|${owner ?? ''}|${asset}|${kind}|${shard}`;

function keyCondition(key: AccountKey): SQL {
  const owner = ownerOf(key);
  return and(
    eq(ledgerAccounts.ledger, ledgers[key.ledger]),
    owner === null ? isNull(ledgerAccounts.ownerUserId) : eq(ledgerAccounts.ownerUserId, owner),
    eq(ledgerAccounts.asset, key.asset),
    eq(ledgerAccounts.kind, key.kind),
    eq(ledgerAccounts.shard, shardOf(key)),
  )!;
}

async function findAccountIds(db: Executor, keys: readonly AccountKey[]): Promise<Map<string, bigint>> {
  const rows = await db.select({
    id: ledgerAccounts.id, ledger: ledgerAccounts.ledger, ownerUserId: ledgerAccounts.ownerUserId,
    asset: ledgerAccounts.asset, kind: ledgerAccounts.kind, shard: ledgerAccounts.shard,
  }).from(ledgerAccounts).where(or(...keys.map(keyCondition)));
  return new Map(rows.map((row) => [keyText(row.ledger, row.ownerUserId, row.asset, row.kind, row.shard), row.id]));
}

/** At most this many accounts are opened or found in one call. */
export const accountKeysMax = 200;

/**
 * The ids of the accounts `keys` name, in the same order, opening those that do not exist yet.
 * Two callers opening the same account at once get the same row (the insert of the second does
 * nothing). An unknown asset is a programmer error here: callers check the currency first.
 */
export async function openAccounts(db: Executor, keys: readonly AccountKey[]): Promise<bigint[]> {
  assert(keys.length >= 1 && keys.length <= accountKeysMax, `between 1 and ${accountKeysMax} account keys`);
  keys.forEach(assertKey);
  const textOf = (key: AccountKey) => keyText(ledgers[key.ledger], ownerOf(key), key.asset, key.kind, shardOf(key));
  let found = await findAccountIds(db, keys);
  const missing = keys.filter((key) => !found.has(textOf(key)));
  if (missing.length > 0) {
    await db.insert(ledgerAccounts).values(missing.map((key) => ({
      ledger: ledgers[key.ledger], ownerUserId: ownerOf(key), asset: key.asset, kind: key.kind, shard: shardOf(key),
      ...limitsOfKind(key.kind), chainHead: chainGenesis,
    }))).onConflictDoNothing();
    found = new Map([...found, ...await findAccountIds(db, missing)]);
  }
  return keys.map((key) => {
    const id = found.get(textOf(key));
    assert(id !== undefined, `account ${textOf(key)} was opened`);
    return id;
  });
}

/** The shard of a system account that the caller's key (a user id, an order id) lands on. */
export function systemShard(shardKey: string): number {
  return createHash('sha256').update(shardKey).digest().readUInt32BE(0) % systemAccountShardCount;
}

export async function userAccountId(db: Executor, ownerUserId: bigint, asset: string, kind: UserAccountKind,
  ledger: LedgerName = kind === 'demo' ? 'demo' : 'real'): Promise<bigint> {
  const [id] = await openAccounts(db, [{ ledger, asset, kind, ownerUserId }]);
  return id;
}

export async function systemAccountId(db: Executor, asset: string, kind: SystemAccountKind, shardKey: string,
  ledger: LedgerName = 'real'): Promise<bigint> {
  const [id] = await openAccounts(db, [{ ledger, asset, kind, shard: systemShard(shardKey) }]);
  return id;
}

export interface AccountBalance {
  id: bigint;
  ledger: LedgerName;
  ownerUserId: bigint | null;
  asset: string;
  kind: string;
  shard: number;
  /** credits - debits, posted only: what the account holds (negative for a debt or a clearing account). */
  postedAtomic: bigint;
  /** What pending transfers reserve against the account (debits) and will add to it (credits). */
  debitsPendingAtomic: bigint;
  creditsPendingAtomic: bigint;
  /** What can be spent now: posted minus pending debits. */
  availableAtomic: bigint;
}

type AccountRow = typeof ledgerAccounts.$inferSelect;

export function balanceOf(row: AccountRow): AccountBalance {
  const postedAtomic = row.creditsPosted - row.debitsPosted;
  return {
    id: row.id, ledger: ledgerName(row.ledger), ownerUserId: row.ownerUserId, asset: row.asset, kind: row.kind,
    shard: row.shard, postedAtomic, debitsPendingAtomic: row.debitsPending, creditsPendingAtomic: row.creditsPending,
    availableAtomic: postedAtomic - row.debitsPending,
  };
}

/** Balances of the given accounts, in no particular order (a read, no lock). */
export async function accountBalances(db: Executor, ids: readonly bigint[]): Promise<AccountBalance[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(ledgerAccounts).where(inArray(ledgerAccounts.id, [...ids]));
  return rows.map(balanceOf);
}

/** Every account of a user in one ledger, ordered by asset and kind. */
export async function userBalances(db: Executor, ownerUserId: bigint, ledger: LedgerName = 'real'): Promise<AccountBalance[]> {
  const rows = await db.select().from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.ownerUserId, ownerUserId), eq(ledgerAccounts.ledger, ledgers[ledger])))
    .orderBy(ledgerAccounts.asset, ledgerAccounts.kind);
  return rows.map(balanceOf);
}
