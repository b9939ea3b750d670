// postTransfers: the one way money moves. A batch is one database transaction (a savepoint when
// the caller is already in one), so it lands whole or not at all. Its accounts are locked with
// SELECT ... FOR UPDATE in ascending id order, every batch the same order, so two batches never
// wait on each other in a cycle; the rules (rules.ts) run on the locked rows, then one statement
// inserts the transfers and writes the accounts' totals and chain heads. A single transfer costs
// four round trips: BEGIN, the locking read, the write, COMMIT.
//
// Idempotency: a transfer's id is its primary key. The insert says ON CONFLICT (id) DO NOTHING;
// if any id was taken (a retry, or the same request racing itself) the transaction is rolled
// back and run once more, now looking the ids up first: the same transfers answer as the first
// result (`replayed`), different ones as exists_with_different_fields. A refused batch also looks
// its ids up before answering, so a retry whose first attempt went through is never refused for a
// balance it spent itself. A caller that passes its own transaction keeps PostgreSQL's default
// READ COMMITTED: the look-ups after the locks must see what other batches committed meanwhile.
import { inArray, sql } from 'drizzle-orm';
import { ledgerAccounts, ledgerAssets, ledgerTransfers } from '../../db/schema.ts';
import type { Executor, Tx } from '../../db/client.ts';
import { assert } from '../../lib/errors.ts';
import { systemClock, type Clock } from '../../lib/time.ts';
import {
  applyBatch, batchShapeRefusal, isResolve, sameTransfer, type AccountState, type BatchContext, type NewTransferRow,
  type PendingTransfer, type TransferRefusal, type TransferRequest, type TransferRow,
} from './rules.ts';

/** Transfers in one batch at most (and so rows in one insert). */
export const transferBatchSizeMax = 1000;

export type PostResult =
  | { ok: true; replayed: boolean; transfers: TransferRow[] }
  | { ok: false; index: number; refusal: TransferRefusal };

/** An id of the batch was taken between the look-up and the insert: roll back and look again. */
class IdTaken extends Error {}

export async function postTransfers(db: Executor, batch: readonly TransferRequest[], clock: Clock = systemClock): Promise<PostResult> {
  assert(batch.length >= 1 && batch.length <= transferBatchSizeMax, `a batch holds 1 to ${transferBatchSizeMax} transfers`);
  const shape = batchShapeRefusal(batch);
  if (shape) return { ok: false, ...shape };
  const now = clock.now();
  try {
    return await db.transaction((tx) => postInTransaction(tx, batch, now, false));
  } catch (error) {
    if (!(error instanceof IdTaken)) throw error;
    return db.transaction((tx) => postInTransaction(tx, batch, now, true));
  }
}

async function postInTransaction(tx: Tx, batch: readonly TransferRequest[], now: Date, idsFirst: boolean): Promise<PostResult> {
  const batchIds = new Set(batch.map((request) => request.id));
  const storedPendingIds = [...new Set(batch.filter(isResolve).map((request) => request.pendingId))]
    .filter((id) => !batchIds.has(id));
  // Transfers never change, so a pending transfer's accounts can be read before they are locked.
  const pendings = await loadPendings(tx, storedPendingIds);
  const accountIds = new Set<bigint>();
  for (const request of batch) {
    if (!isResolve(request)) accountIds.add(request.debitAccountId).add(request.creditAccountId);
  }
  for (const pending of pendings.values()) accountIds.add(pending.debitAccountId).add(pending.creditAccountId);
  const accounts = await lockAccounts(tx, [...accountIds]);
  const before = new Map([...accounts].map(([id, account]) => [id, { ...account }]));
  if (idsFirst) {
    const replay = await replayOf(tx, batch);
    if (replay) return replay;
  }
  // Read under the locks: a resolution committed by another batch is visible now.
  const resolutions = await loadResolutions(tx, [...pendings.keys()]);
  const context: BatchContext = { accounts, pendings, resolutions, now };
  const outcome = applyBatch(batch, context);
  if (!outcome.ok) return (await replayOf(tx, batch)) ?? outcome;
  const sequence = await writeBatch(tx, outcome.rows, accounts, before);
  return { ok: true, replayed: false, transfers: outcome.rows.map((row) => ({ ...row, seq: sequence.get(row.id)! })) };
}

async function loadPendings(tx: Tx, ids: string[]): Promise<Map<string, PendingTransfer>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.select({
    id: ledgerTransfers.id, ledger: ledgerTransfers.ledger, asset: ledgerTransfers.asset,
    debitAccountId: ledgerTransfers.debitAccountId, creditAccountId: ledgerTransfers.creditAccountId,
    amount: ledgerTransfers.amount, kind: ledgerTransfers.kind, phase: ledgerTransfers.phase,
    reference: ledgerTransfers.reference,
  }).from(ledgerTransfers).where(inArray(ledgerTransfers.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

async function loadResolutions(tx: Tx, pendingIds: string[]): Promise<Map<string, 'post' | 'void'>> {
  if (pendingIds.length === 0) return new Map();
  const rows = await tx.select({ pendingId: ledgerTransfers.pendingId, phase: ledgerTransfers.phase })
    .from(ledgerTransfers).where(inArray(ledgerTransfers.pendingId, pendingIds));
  return new Map(rows.map((row) => [row.pendingId!, row.phase as 'post' | 'void']));
}

/**
 * Locks the accounts in ascending id order (the one order every batch uses) and reads them. Raw
 * SQL with totals as text: this is the hot path, and text reads the same from both drivers.
 */
async function lockAccounts(tx: Tx, ids: bigint[]): Promise<Map<bigint, AccountState>> {
  if (ids.length === 0) return new Map();
  ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const result = await tx.execute(sql`select a.id::text as id, a.ledger, a.asset,
      a.debits_must_not_exceed_credits as "debitsMustNotExceedCredits", a.credits_must_not_exceed_debits as "creditsMustNotExceedDebits",
      a.debits_pending::text as "debitsPending", a.debits_posted::text as "debitsPosted",
      a.credits_pending::text as "creditsPending", a.credits_posted::text as "creditsPosted",
      a.entry_count::text as "entryCount", a.chain_head as "chainHead", s.transfer_amount_max::text as "transferAmountMax"
    from ${ledgerAccounts} a join ${ledgerAssets} s on s.code = a.asset
    where a.id = any(${`{${ids.join(',')}}`}::bigint[]) order by a.id for update of a`);
  const rows = (result as unknown as { rows: Array<Record<keyof AccountState, string | number | boolean>> }).rows;
  return new Map(rows.map((row) => {
    const account: AccountState = {
      id: BigInt(row.id as string), ledger: Number(row.ledger), asset: String(row.asset),
      debitsMustNotExceedCredits: row.debitsMustNotExceedCredits === true,
      creditsMustNotExceedDebits: row.creditsMustNotExceedDebits === true,
      debitsPending: BigInt(row.debitsPending as string), debitsPosted: BigInt(row.debitsPosted as string),
      creditsPending: BigInt(row.creditsPending as string), creditsPosted: BigInt(row.creditsPosted as string),
      entryCount: BigInt(row.entryCount as string), chainHead: String(row.chainHead),
      transferAmountMax: BigInt(row.transferAmountMax as string),
    };
    return [account.id, account];
  }));
}

/**
 * When the batch's ids are stored already: the stored transfers if they are this batch (a
 * retry), else the refusal of the first that differs. Undefined when none of the ids is stored.
 */
async function replayOf(tx: Tx, batch: readonly TransferRequest[]): Promise<PostResult | undefined> {
  const stored = await tx.select().from(ledgerTransfers).where(inArray(ledgerTransfers.id, batch.map((request) => request.id)));
  if (stored.length === 0) return undefined;
  const byId = new Map(stored.map((row) => [row.id, row]));
  const index = batch.findIndex((request) => {
    const row = byId.get(request.id);
    return row === undefined || !sameTransfer(request, row);
  });
  if (index >= 0) return { ok: false, index, refusal: 'exists_with_different_fields' };
  return { ok: true, replayed: true, transfers: batch.map((request) => byId.get(request.id)!) };
}

/**
 * Inserts the transfers and writes the new totals and chain heads of every account they touched,
 * in one statement (one round trip). The update runs only if every transfer was inserted; when an
 * id turned out to be taken, IdTaken rolls the whole batch back. Returns each transfer's seq.
 */
async function writeBatch(tx: Tx, rows: NewTransferRow[], accounts: Map<bigint, AccountState>,
  before: Map<bigint, AccountState>): Promise<Map<string, bigint>> {
  const touched = [...new Set(rows.flatMap((row) => [row.debitAccountId, row.creditAccountId]))];
  assertConserved(touched.map((id) => [before.get(id)!, accounts.get(id)!]));
  const transferValues = rows.map((row) => sql`(${row.id}, ${row.ledger}::smallint, ${row.asset},
    ${String(row.debitAccountId)}::bigint, ${String(row.creditAccountId)}::bigint, ${String(row.amount)}::numeric,
    ${row.kind}, ${row.phase}, ${row.pendingId}, ${row.reference}, ${row.remark}, ${row.createdAt.toISOString()}::timestamptz,
    ${String(row.debitEntryNo)}::bigint, ${String(row.creditEntryNo)}::bigint, ${String(row.debitBalanceAfter)}::numeric,
    ${String(row.creditBalanceAfter)}::numeric, ${row.debitChainHash}, ${row.creditChainHash})`);
  const accountValues = touched.map((id) => {
    const account = accounts.get(id)!;
    assertWithinLimits(account);
    return sql`(${String(id)}::bigint, ${String(account.debitsPending)}::numeric, ${String(account.debitsPosted)}::numeric,
      ${String(account.creditsPending)}::numeric, ${String(account.creditsPosted)}::numeric,
      ${String(account.entryCount)}::bigint, ${account.chainHead})`;
  });
  const result = await tx.execute(sql`with inserted as (
      insert into ${ledgerTransfers} (id, ledger, asset, debit_account_id, credit_account_id, amount, kind, phase,
        pending_id, reference, remark, created_at, debit_entry_no, credit_entry_no, debit_balance_after,
        credit_balance_after, debit_chain_hash, credit_chain_hash)
      values ${sql.join(transferValues, sql`, `)}
      on conflict (id) do nothing
      returning id, seq
    ), updated as (
      update ${ledgerAccounts} as a set
        debits_pending = v.debits_pending, debits_posted = v.debits_posted,
        credits_pending = v.credits_pending, credits_posted = v.credits_posted,
        entry_count = v.entry_count, chain_head = v.chain_head
      from (values ${sql.join(accountValues, sql`, `)})
        as v(id, debits_pending, debits_posted, credits_pending, credits_posted, entry_count, chain_head)
      where a.id = v.id and (select count(*) from inserted) = ${rows.length}
      returning a.id
    )
    select id, seq::text as seq, (select count(*) from updated)::int as updated from inserted`);
  const inserted = (result as unknown as { rows: Array<{ id: string; seq: string; updated: number }> }).rows;
  if (inserted.length !== rows.length) throw new IdTaken();
  assert(inserted.every((row) => Number(row.updated) === touched.length), 'every touched account was updated');
  return new Map(inserted.map((row) => [row.id, BigInt(row.seq)]));
}

/** Per asset, a batch adds to some accounts exactly what it takes from others, posted and pending. */
function assertConserved(changes: Array<[AccountState, AccountState]>) {
  const net = new Map<string, { posted: bigint; pending: bigint }>();
  for (const [old, now] of changes) {
    const key = `${now.ledger}|${now.asset}`;
    const sums = net.get(key) ?? { posted: 0n, pending: 0n };
    sums.posted += (now.creditsPosted - now.debitsPosted) - (old.creditsPosted - old.debitsPosted);
    sums.pending += (now.creditsPending - now.debitsPending) - (old.creditsPending - old.debitsPending);
    net.set(key, sums);
  }
  for (const [key, sums] of net) assert(sums.posted === 0n && sums.pending === 0n, `batch conserves ${key}`);
}

/** The rules keep these; a failure here is a bug in them, and the batch must not be written. */
function assertWithinLimits(account: AccountState) {
  assert(account.debitsPending >= 0n && account.creditsPending >= 0n, `account ${account.id} pending totals not negative`);
  assert(!account.debitsMustNotExceedCredits || account.debitsPending + account.debitsPosted <= account.creditsPosted,
    `account ${account.id} debits within credits`);
  assert(!account.creditsMustNotExceedDebits || account.creditsPending + account.creditsPosted <= account.debitsPosted,
    `account ${account.id} credits within debits`);
}
