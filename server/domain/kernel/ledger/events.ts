// The account ledger as business events (issue 19): the raw entries (entries.ts) of one reference
// in one currency folded into one record, so a withdrawal reads as one hold that is paid out or
// returned rather than two withdrawals, and a contract as one line rather than its margin moves.
// Paging is by event: the page's keys (reference, currency) come first, ordered by their newest
// entry that passes the filters, then every entry of those keys is read and folded here; a filter
// chooses events, it never cuts one in half. Nothing is written for it, like entries.ts.
import { eq, inArray, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { ledgerAccounts, ledgerTransfers } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { assert } from '../../../lib/errors.ts';
import { entryFilters, entryPageSizeMax, sideQuery, toEntry, type EntryQuery, type LedgerEntry, type Page } from './entries.ts';
import { ledgers } from './accounts.ts';

export type EventState = 'done' | 'held' | 'released' | 'returned';

export interface LedgerEvent {
  reference: string;
  /** What the user did (deposit, withdrawal, contract, ...), from the entries' kinds. */
  type: string;
  currency: string;
  scale: number;
  state: EventState;
  /** Net change of the spot balance (posted) over the event. */
  amountAtomic: bigint;
  /** What the event holds, or held before its release or return; never negative. */
  heldAtomic: bigint;
  /** The spot balance after its last posted spot entry; null when the spot balance never moved. */
  balanceAfterAtomic: bigint | null;
  startTime: Date;
  time: Date;
  remark: string | null;
  entryCount: number;
}

/** The user's account that money is spent from and paid into; every other kind is internal. */
const fundsAccount = 'spot';

/** Transfer kinds that name one business together: the event is called after it. */
const businessOfKind: Readonly<Record<string, string>> = {
  withdrawal: 'withdrawal', withdrawal_fee: 'withdrawal',
  trade_margin: 'contract', trade_fee: 'contract', trade_pnl: 'contract',
  second_stake: 'options', second_payout: 'options',
  swap: 'swap', swap_fee: 'swap',
};

/**
 * Entries read for one page of events at most: a reference has a handful of entries (a contract
 * six, a withdrawal two), so this is far above a page of real events; past it the page's events
 * are folded from the entries that fit, newest kept.
 */
const entriesPerPageMax = entryPageSizeMax * 50;

export async function listLedgerEvents(db: Executor, query: EntryQuery): Promise<Page<LedgerEvent>> {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 10;
  assert(Number.isInteger(pageNo) && pageNo >= 1, 'page numbers start at 1');
  assert(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= entryPageSizeMax, `page size 1 to ${entryPageSizeMax}`);
  const filters = entryFilters(query);
  const matching = () => unionAll(sideQuery(db, 'debit', filters), sideQuery(db, 'credit', filters)).as('entries');
  const keys = () => {
    const entries = matching();
    return db.select({ reference: entries.reference, currency: entries.currency, lastSeq: sql<string>`max(${entries.seq})`.as('last_seq') })
      .from(entries).groupBy(entries.reference, entries.currency);
  };
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(keys().as('event_keys'));
  const page = await keys().orderBy(sql`last_seq desc`).limit(pageSize).offset((pageNo - 1) * pageSize);
  const pageInfo = { total: Number(total), size: pageSize, current: pageNo, pages: Math.ceil(Number(total) / pageSize) };
  if (page.length === 0) return { records: [], ...pageInfo };

  // Every entry of the page's references on the user's accounts, whatever the type and time filters.
  const scope = [
    eq(ledgerAccounts.ownerUserId, query.userId), eq(ledgerAccounts.ledger, ledgers[query.ledger ?? 'real']),
    inArray(ledgerTransfers.reference, [...new Set(page.map((key) => key.reference))]),
    inArray(ledgerTransfers.asset, [...new Set(page.map((key) => key.currency))]),
  ];
  const rows = await unionAll(sideQuery(db, 'debit', scope), sideQuery(db, 'credit', scope))
    .orderBy(sql`seq desc`, sql`side desc`).limit(entriesPerPageMax);
  const byKey = new Map<string, LedgerEntry[]>();
  for (const entry of rows.map(toEntry).reverse()) {
    const key = eventKey(entry.reference, entry.currency);
    byKey.set(key, [...(byKey.get(key) ?? []), entry]);
  }
  const records = page.flatMap((key) => {
    const entries = byKey.get(eventKey(key.reference, key.currency));
    return entries ? [foldEvent(entries)] : [];
  });
  return { records, ...pageInfo };
}

export const eventKey = (reference: string, currency: string) => `${reference}|${currency}`;

/**
 * Folds the entries of one event (one reference, one currency), oldest first. Only single and post
 * entries move a posted balance: a pending entry reserves, a void gives the reservation back. What
 * sits in an internal account (frozen, position margin) or in an unresolved reservation is held.
 */
export function foldEvent(entries: readonly LedgerEntry[]): LedgerEvent {
  assert(entries.length > 0, 'an event has entries');
  const first = entries[0];
  assert(entries.every((entry) => entry.reference === first.reference && entry.currency === first.currency), 'one reference, one currency');
  const moves = (entry: LedgerEntry) => entry.phase === 'single' || entry.phase === 'post';
  const resolved = new Set(entries.flatMap((entry) => (entry.pendingId ? [entry.pendingId] : [])));
  const pendings = entries.filter((entry) => entry.phase === 'pending');
  const reserved = sum(pendings.filter((entry) => !resolved.has(entry.transferId)).map((entry) => abs(entry.amountAtomic)));
  const internal = entries.filter((entry) => entry.accountKind !== fundsAccount && moves(entry));
  const inside = sum(internal.map((entry) => entry.amountAtomic));
  const spotMoves = entries.filter((entry) => entry.accountKind === fundsAccount && moves(entry));
  const voided = entries.some((entry) => entry.phase === 'void');
  const everHeld = sum(pendings.map((entry) => abs(entry.amountAtomic))) + sum(internal.filter((entry) => entry.amountAtomic > 0n).map((entry) => entry.amountAtomic));
  const state: EventState = reserved > 0n || inside !== 0n ? 'held'
    : voided && spotMoves.length === 0 ? 'returned'
      : everHeld > 0n ? 'released' : 'done';
  const last = entries[entries.length - 1];
  return {
    reference: first.reference, type: businessOfKind[first.type] ?? first.type, currency: first.currency, scale: first.scale, state,
    amountAtomic: sum(spotMoves.map((entry) => entry.amountAtomic)),
    heldAtomic: state === 'held' ? reserved + abs(inside) : everHeld,
    balanceAfterAtomic: spotMoves.length > 0 ? spotMoves[spotMoves.length - 1].balanceAfterAtomic : null,
    startTime: first.time, time: last.time,
    remark: [...entries].reverse().find((entry) => entry.remark !== null)?.remark ?? null,
    entryCount: entries.length,
  };
}

const sum = (values: bigint[]) => values.reduce((total, value) => total + value, 0n);
const abs = (value: bigint) => (value < 0n ? -value : value);
