// A user's account ledger (the "balance log"): one entry per transfer side on an account the
// user owns, read from the transfers themselves, which carry each side's balance after. Nothing
// is written for it, so it cannot disagree with the money that moved.
import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { unionAll, type PgColumn } from 'drizzle-orm/pg-core';
import { ledgerAccounts, ledgerAssets, ledgerTransfers } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { assert } from '../../../lib/errors.ts';
import { ledgers, type LedgerName } from './accounts.ts';
import type { EntrySide, TransferPhase } from './chain.ts';

export interface LedgerEntry {
  transferId: string;
  /** The transfer's kind ("deposit", "withdrawal"...). */
  type: string;
  currency: string;
  /** Decimal places of the currency, to format the atomic amounts. */
  scale: number;
  /** Which of the user's accounts moved (spot, frozen, ...). */
  accountKind: string;
  phase: TransferPhase;
  /** For a post or a void: the pending transfer it resolves. */
  pendingId: string | null;
  /**
   * Signed change for the account: + into it, - out of it. A pending transfer reserves (the
   * posted balance stays), its post moves, its void gives the reservation back (+ for the payer).
   */
  amountAtomic: bigint;
  /** The account's posted balance after the transfer. */
  balanceAfterAtomic: bigint;
  time: Date;
  reference: string;
  remark: string | null;
}

/** The paged answer of DESIGN §5. */
export interface Page<T> { records: T[]; total: number; size: number; current: number; pages: number }

export interface EntryQuery {
  userId: bigint;
  ledger?: LedgerName;
  /** Transfer kinds to include; all when absent. */
  types?: readonly string[];
  currency?: string;
  accountKinds?: readonly string[];
  /** Inclusive start and exclusive end of the time range. */
  fromTime?: Date;
  toTime?: Date;
  /** 1-based. */
  pageNo?: number;
  pageSize?: number;
}

export const entryPageSizeMax = 100;
const entryPageSizeDefault = 10;

export async function listLedgerEntries(db: Executor, query: EntryQuery): Promise<Page<LedgerEntry>> {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? entryPageSizeDefault;
  assert(Number.isInteger(pageNo) && pageNo >= 1, 'page numbers start at 1');
  assert(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= entryPageSizeMax, `page size 1 to ${entryPageSizeMax}`);
  const filters = entryFilters(query);
  const sides = () => unionAll(sideQuery(db, 'debit', filters), sideQuery(db, 'credit', filters));
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(sides().as('entries'));
  const rows = await sides().orderBy(sql`seq desc`, sql`side desc`).limit(pageSize).offset((pageNo - 1) * pageSize);
  return { records: rows.map(toEntry), total: Number(total), size: pageSize, current: pageNo, pages: Math.ceil(Number(total) / pageSize) };
}

type SideRow = Awaited<ReturnType<typeof sideQuery>>[number];

export function toEntry(row: SideRow): LedgerEntry {
  return {
    transferId: row.transferId, type: row.type, currency: row.currency, scale: row.scale, accountKind: row.accountKind,
    phase: row.phase as TransferPhase, pendingId: row.pendingId, amountAtomic: signedAmount(row.side as EntrySide, row.phase as TransferPhase, row.amount),
    balanceAfterAtomic: row.balanceAfter, time: row.time, reference: row.reference, remark: row.remark,
  };
}

function signedAmount(side: EntrySide, phase: TransferPhase, amount: bigint): bigint {
  const outOfAccount = side === 'debit' ? phase !== 'void' : phase === 'void';
  return outOfAccount ? -amount : amount;
}

export function entryFilters(query: EntryQuery): SQL[] {
  const filters: SQL[] = [
    eq(ledgerAccounts.ownerUserId, query.userId),
    eq(ledgerAccounts.ledger, ledgers[query.ledger ?? 'real']),
  ];
  if (query.currency !== undefined) filters.push(eq(ledgerAccounts.asset, query.currency));
  if (query.accountKinds !== undefined) filters.push(inArray(ledgerAccounts.kind, [...query.accountKinds]));
  if (query.types !== undefined) filters.push(inArray(ledgerTransfers.kind, [...query.types]));
  if (query.fromTime !== undefined) filters.push(gte(ledgerTransfers.createdAt, query.fromTime));
  if (query.toTime !== undefined) filters.push(lt(ledgerTransfers.createdAt, query.toTime));
  return filters;
}

/** The entries of one side: transfers whose debit (or credit) account is one of the user's. */
export function sideQuery(db: Executor, side: EntrySide, filters: SQL[]) {
  const accountColumn: PgColumn = side === 'debit' ? ledgerTransfers.debitAccountId : ledgerTransfers.creditAccountId;
  return db.select({
    seq: ledgerTransfers.seq,
    side: sql<string>`${side}::text`.as('side'),
    transferId: ledgerTransfers.id,
    type: ledgerTransfers.kind,
    currency: ledgerTransfers.asset,
    scale: ledgerAssets.scale,
    accountKind: ledgerAccounts.kind,
    phase: ledgerTransfers.phase,
    pendingId: ledgerTransfers.pendingId,
    amount: ledgerTransfers.amount,
    balanceAfter: side === 'debit' ? ledgerTransfers.debitBalanceAfter : ledgerTransfers.creditBalanceAfter,
    time: ledgerTransfers.createdAt,
    reference: ledgerTransfers.reference,
    remark: ledgerTransfers.remark,
  }).from(ledgerTransfers)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, accountColumn))
    .innerJoin(ledgerAssets, eq(ledgerAssets.code, ledgerTransfers.asset))
    .where(and(...filters));
}
