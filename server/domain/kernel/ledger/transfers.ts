// postTransfers: the one way money moves. A batch lands whole or not at all, and each batch gets
// its own answer. Batches posted on the database itself are group-committed (groupCommit.ts): the
// batches of concurrent callers share one transaction. A batch posted in a caller's transaction runs
// alone in a savepoint of it, as it always did.
//
// A transaction, for one batch or a group: the accounts of all its batches are locked with
// SELECT ... FOR UPDATE in ascending id order, every transaction the same order, so two never wait
// on each other in a cycle; each batch's rules (rules.ts) run in turn on the locked rows, on a copy
// of the accounts it touches, so a refused batch leaves nothing behind and its neighbours go on; then
// one statement inserts every accepted transfer and writes the accounts' totals and chain heads.
// Columns travel as arrays (unnest), so the statements keep one text whatever the size. On
// node-postgres a group costs two round trips whatever its size (BEGIN with the locking read, the
// write with COMMIT; groupCommit.ts); in a caller's transaction and on PGlite, one per statement.
//
// Idempotency: a transfer's id is its primary key. The insert says ON CONFLICT (id) DO NOTHING;
// if any id was taken (a retry, or the same request racing itself) the transaction is rolled back
// and run once more, now looking the ids up first: the same transfers answer as the first result
// (`replayed`), different ones as exists_with_different_fields. A refused batch also looks its ids
// up before answering, so a retry whose first attempt went through is never refused for a balance
// it spent itself. Batches of one group that share an id, and every batch of a group whose
// transaction failed for another reason, run again one at a time: correctness over speed. A caller
// that passes its own transaction keeps PostgreSQL's default READ COMMITTED: the look-ups after the
// locks must see what other transactions committed meanwhile.
import type { Db, Executor } from '../../../db/client.ts';
import { assert } from '../../../lib/errors.ts';
import { systemClock, type Clock } from '../../../lib/time.ts';
import {
  GroupCommitter, driverTransaction, drizzleTransaction, isTransaction, onPool, type GroupCommitLimits, type GroupCommitStats,
  type Query, type QueuedRequest, type Transaction,
} from './groupCommit.ts';
import {
  applyBatch, batchShapeRefusal, isResolve, sameTransfer, type AccountState, type BatchContext, type BatchOutcome,
  type NewTransferRow, type PostResult, type PendingTransfer, type TransferRequest, type TransferRow,
} from './rules.ts';
import { arrayLiteral, tokenArrayLiteral } from '../../../db/arrays.ts';
import { isoTime } from './chain.ts';

/** Transfers in one batch at most (and so rows in one insert). */
export const transferBatchSizeMax = 1000;

// What postTransfers answers (rules.ts: the group committer answers it too, so it lives below both).
export type { PostResult };

/** An id was taken between the look-up and the insert: roll back and look again. */
class IdTaken extends Error {}

/** One batch of a transaction, with the time its caller posted it. */
interface Posting {
  batch: readonly TransferRequest[];
  now: Date;
}

export async function postTransfers(db: Executor, batch: readonly TransferRequest[], clock: Clock = systemClock): Promise<PostResult> {
  assert(batch.length >= 1 && batch.length <= transferBatchSizeMax, `a batch holds 1 to ${transferBatchSizeMax} transfers`);
  const shape = batchShapeRefusal(batch);
  if (shape) return { ok: false, ...shape };
  const now = clock.now();
  if (isTransaction(db)) return postAlone(drizzleTransaction(db), { batch, now });
  return committerOf(db as Db).submit(batch, now);
}

const defaultLimits = (db: Db): GroupCommitLimits => ({
  transfersPerGroupMax: transferBatchSizeMax,
  // PGlite runs one transaction at a time; on a pool two groups overlap one's commit with the
  // other's work when enough waits (measured in test/bench/ledger.ts; see parallelGroupTransfersMin).
  groupsInFlightMax: onPool(db) ? 2 : 1,
  parallelGroupTransfersMin: 64,
  transfersQueuedMax: 200_000,
});

const committers = new WeakMap<Db, GroupCommitter>();

function committerOf(db: Db): GroupCommitter {
  let committer = committers.get(db);
  if (!committer) {
    const transaction = driverTransaction(db);
    committer = new GroupCommitter(defaultLimits(db), (requests) => runGroup(transaction, requests, committer!));
    committers.set(db, committer);
  }
  return committer;
}

/** Sets the group limits of a database (tests and benchmarks); the ones not given stay. */
export function configureGroupCommit(db: Db, limits: Partial<GroupCommitLimits>) {
  Object.assign(committerOf(db).limits, limits);
}

export const groupCommitStats = (db: Db): GroupCommitStats => committerOf(db).current();

/**
 * Runs one group and answers each of its callers. Batches sharing an id with another batch of the
 * group wait for the group, then run one at a time, so the second finds the first; when the group's
 * transaction fails for any reason but a taken id, every batch runs again alone, so one bad batch
 * fails on its own and its neighbours go through.
 */
async function runGroup(transaction: Transaction, requests: QueuedRequest[], committer: GroupCommitter) {
  const { together, alone } = splitSharedIds(requests);
  if (together.length > 0) {
    const results = await postGroup(transaction, together).catch((error: unknown) => {
      if (together.length > 1 || alone.length > 0) return undefined;
      together[0].reject(error);
      return null;
    });
    if (results) together.forEach((request, index) => request.resolve(results[index]));
    else if (results === undefined) alone.unshift(...together);
  }
  committer.stats.requestsAlone += alone.length;
  for (const request of alone) {
    await postAlone(transaction, request).then(request.resolve, request.reject);
  }
}

function splitSharedIds(requests: QueuedRequest[]) {
  const owners = new Map<string, number>();
  for (const [index, request] of requests.entries()) {
    for (const transfer of request.batch) owners.set(transfer.id, owners.has(transfer.id) ? -1 : index);
  }
  const together: QueuedRequest[] = [];
  const alone: QueuedRequest[] = [];
  for (const [index, request] of requests.entries()) {
    (request.batch.every((transfer) => owners.get(transfer.id) === index) ? together : alone).push(request);
  }
  return { together, alone };
}

/** A group's transaction; when an id was taken meanwhile, once more looking the ids up first. */
async function postGroup(transaction: Transaction, postings: readonly Posting[]): Promise<PostResult[]> {
  try {
    return await transaction((query) => postInTransaction(query, postings, false));
  } catch (error) {
    if (!(error instanceof IdTaken)) throw error;
    return transaction((query) => postInTransaction(query, postings, true));
  }
}

const postAlone = (transaction: Transaction, posting: Posting): Promise<PostResult> =>
  postGroup(transaction, [posting]).then(([result]) => result);

async function postInTransaction(query: Query, postings: readonly Posting[], idsFirst: boolean): Promise<PostResult[]> {
  const storedPendingIds = new Set<string>();
  const accountIds = new Set<bigint>();
  for (const { batch } of postings) {
    const batchIds = new Set(batch.map((request) => request.id));
    for (const request of batch) {
      if (!isResolve(request)) accountIds.add(request.debitAccountId).add(request.creditAccountId);
      else if (!batchIds.has(request.pendingId)) storedPendingIds.add(request.pendingId);
    }
  }
  // Transfers never change, so a pending transfer's accounts can be read before they are locked.
  const pendings = await loadPendings(query, [...storedPendingIds]);
  for (const pending of pendings.values()) accountIds.add(pending.debitAccountId).add(pending.creditAccountId);
  const accounts = await lockAccounts(query, [...accountIds]);
  const before = new Map([...accounts].map(([id, account]) => [id, { ...account }]));
  const results: Array<PostResult | undefined> = postings.map(() => undefined);
  if (idsFirst) {
    const stored = await loadStored(query, postings.flatMap(({ batch }) => batch.map((request) => request.id)));
    postings.forEach(({ batch }, index) => { results[index] = replayOf(batch, stored); });
  }
  // Read under the locks: a resolution committed by another transaction is visible now.
  const resolutions = await loadResolutions(query, [...pendings.keys()]);
  const group: BatchContext = { accounts, pendings, resolutions, now: new Date(0) };
  const refused: number[] = [];
  const accepted: Array<[number, NewTransferRow[]]> = [];
  postings.forEach(({ batch, now }, index) => {
    if (results[index]) return;
    const outcome = applyOnCopy(batch, group, now);
    if (outcome.ok) accepted.push([index, outcome.rows]);
    else {
      results[index] = outcome;
      refused.push(index);
    }
  });
  if (refused.length > 0) {
    const stored = await loadStored(query, refused.flatMap((index) => postings[index].batch.map((request) => request.id)));
    for (const index of refused) results[index] = replayOf(postings[index].batch, stored) ?? results[index];
  }
  if (accepted.length > 0) {
    const sequence = await writeRows(query, accepted.flatMap(([, rows]) => rows), accounts, before);
    for (const [index, rows] of accepted) {
      results[index] = { ok: true, replayed: false, transfers: rows.map((row) => ({ ...row, seq: sequence.get(row.id)! })) };
    }
  }
  return results.map((result) => result!);
}

/**
 * Applies one batch to copies of what it touches in the group's state, and keeps the copies only
 * when the whole batch went through: a refused batch (linked transfers, all or nothing) leaves the
 * group's accounts, pending transfers and resolutions as they were.
 */
function applyOnCopy(batch: readonly TransferRequest[], group: BatchContext, now: Date): BatchOutcome {
  const own: BatchContext = { accounts: new Map(), pendings: new Map(), resolutions: new Map(), now };
  const copyAccount = (id: bigint) => {
    const account = group.accounts.get(id);
    if (account && !own.accounts.has(id)) own.accounts.set(id, { ...account });
  };
  for (const request of batch) {
    if (!isResolve(request)) {
      copyAccount(request.debitAccountId);
      copyAccount(request.creditAccountId);
      continue;
    }
    const pending = group.pendings.get(request.pendingId);
    if (!pending) continue;
    own.pendings.set(pending.id, pending);
    const resolution = group.resolutions.get(pending.id);
    if (resolution) own.resolutions.set(pending.id, resolution);
    copyAccount(pending.debitAccountId);
    copyAccount(pending.creditAccountId);
  }
  const outcome = applyBatch(batch, own);
  if (outcome.ok) {
    for (const [id, account] of own.accounts) group.accounts.set(id, account);
    for (const [id, pending] of own.pendings) group.pendings.set(id, pending);
    for (const [id, resolution] of own.resolutions) group.resolutions.set(id, resolution);
  }
  return outcome;
}


async function loadPendings(query: Query, ids: string[]): Promise<Map<string, PendingTransfer>> {
  if (ids.length === 0) return new Map();
  const rows = await query(`select id, ledger, asset, debit_account_id::text as "debitAccountId",
      credit_account_id::text as "creditAccountId", amount::text as amount, kind, phase, reference
    from ledger_transfers where id = any($1::text[])`, [arrayLiteral(ids)], { name: 'ledger_load_pendings' });
  return new Map(rows.map((row) => [String(row.id), {
    id: String(row.id), ledger: Number(row.ledger), asset: String(row.asset), debitAccountId: BigInt(row.debitAccountId as string),
    creditAccountId: BigInt(row.creditAccountId as string), amount: BigInt(row.amount as string), kind: String(row.kind),
    phase: String(row.phase), reference: String(row.reference),
  }]));
}

async function loadResolutions(query: Query, pendingIds: string[]): Promise<Map<string, 'post' | 'void'>> {
  if (pendingIds.length === 0) return new Map();
  const rows = await query('select pending_id as "pendingId", phase from ledger_transfers where pending_id = any($1::text[])',
    [arrayLiteral(pendingIds)], { name: 'ledger_load_resolutions' });
  return new Map(rows.map((row) => [String(row.pendingId), row.phase as 'post' | 'void']));
}

/** Locks the accounts in ascending id order (the one order every transaction uses) and reads them. */
async function lockAccounts(query: Query, ids: bigint[]): Promise<Map<bigint, AccountState>> {
  if (ids.length === 0) return new Map();
  ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rows = await query(`select a.id::text as id, a.ledger, a.asset,
      a.debits_must_not_exceed_credits as "debitsMustNotExceedCredits", a.credits_must_not_exceed_debits as "creditsMustNotExceedDebits",
      a.debits_pending::text as "debitsPending", a.debits_posted::text as "debitsPosted",
      a.credits_pending::text as "creditsPending", a.credits_posted::text as "creditsPosted",
      a.entry_count::text as "entryCount", a.chain_head as "chainHead", s.transfer_amount_max::text as "transferAmountMax"
    from ledger_accounts a join ledger_assets s on s.code = a.asset
    where a.id = any($1::bigint[]) order by a.id for update of a`, [arrayLiteral(ids)], { name: 'ledger_lock_accounts' });
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

/** The stored transfers among `ids`, whole. */
async function loadStored(query: Query, ids: string[]): Promise<Map<string, TransferRow>> {
  const rows = await query(`select id, seq::text as seq, ledger, asset, debit_account_id::text as "debitAccountId",
      credit_account_id::text as "creditAccountId", amount::text as amount, kind, phase, pending_id as "pendingId", reference,
      remark, created_at as "createdAt", debit_entry_no::text as "debitEntryNo", credit_entry_no::text as "creditEntryNo",
      debit_balance_after::text as "debitBalanceAfter", credit_balance_after::text as "creditBalanceAfter",
      debit_chain_hash as "debitChainHash", credit_chain_hash as "creditChainHash"
    from ledger_transfers where id = any($1::text[])`, [arrayLiteral(ids)], { name: 'ledger_load_stored' });
  return new Map(rows.map((row) => [String(row.id), {
    id: String(row.id), seq: BigInt(row.seq as string), ledger: Number(row.ledger), asset: String(row.asset),
    debitAccountId: BigInt(row.debitAccountId as string), creditAccountId: BigInt(row.creditAccountId as string),
    amount: BigInt(row.amount as string), kind: String(row.kind), phase: String(row.phase),
    pendingId: row.pendingId === null ? null : String(row.pendingId), reference: String(row.reference),
    remark: row.remark === null ? null : String(row.remark), createdAt: new Date(row.createdAt as string | Date),
    debitEntryNo: BigInt(row.debitEntryNo as string), creditEntryNo: BigInt(row.creditEntryNo as string),
    debitBalanceAfter: BigInt(row.debitBalanceAfter as string), creditBalanceAfter: BigInt(row.creditBalanceAfter as string),
    debitChainHash: String(row.debitChainHash), creditChainHash: String(row.creditChainHash),
  }]));
}

/**
 * When the batch's ids are stored already: the stored transfers if they are this batch (a
 * retry), else the refusal of the first that differs. Undefined when none of the ids is stored.
 */
function replayOf(batch: readonly TransferRequest[], stored: Map<string, TransferRow>): PostResult | undefined {
  if (!batch.some((request) => stored.has(request.id))) return undefined;
  const index = batch.findIndex((request) => {
    const row = stored.get(request.id);
    return row === undefined || !sameTransfer(request, row);
  });
  if (index >= 0) return { ok: false, index, refusal: 'exists_with_different_fields' };
  return { ok: true, replayed: true, transfers: batch.map((request) => stored.get(request.id)!) };
}

// One statement, one text whatever the number of rows: each column is one array parameter. A taken
// id fails the whole statement (the primary key's unique violation), so nothing of the transaction
// can be committed with it; the rows go in in order, so each account's entries take ascending seqs.
const writeText = `with input as (
    select * from unnest($1::text[], $2::smallint[], $3::text[], $4::bigint[], $5::bigint[], $6::numeric[], $7::text[],
      $8::text[], $9::text[], $10::text[], $11::text[], $12::timestamptz[], $13::bigint[], $14::bigint[], $15::numeric[],
      $16::numeric[], $17::text[], $18::text[]) with ordinality
      as t(id, ledger, asset, debit_account_id, credit_account_id, amount, kind, phase, pending_id, reference, remark,
        created_at, debit_entry_no, credit_entry_no, debit_balance_after, credit_balance_after, debit_chain_hash,
        credit_chain_hash, position)
  ), inserted as (
    insert into ledger_transfers (id, ledger, asset, debit_account_id, credit_account_id, amount, kind, phase,
      pending_id, reference, remark, created_at, debit_entry_no, credit_entry_no, debit_balance_after,
      credit_balance_after, debit_chain_hash, credit_chain_hash)
    select id, ledger, asset, debit_account_id, credit_account_id, amount, kind, phase, pending_id, reference, remark,
      created_at, debit_entry_no, credit_entry_no, debit_balance_after, credit_balance_after, debit_chain_hash,
      credit_chain_hash
    from input order by position
    returning id, seq
  ), updated as (
    update ledger_accounts as a set
      debits_pending = v.debits_pending, debits_posted = v.debits_posted,
      credits_pending = v.credits_pending, credits_posted = v.credits_posted,
      entry_count = v.entry_count, chain_head = v.chain_head
    from unnest($19::bigint[], $20::numeric[], $21::numeric[], $22::numeric[], $23::numeric[], $24::bigint[], $25::text[])
      as v(id, debits_pending, debits_posted, credits_pending, credits_posted, entry_count, chain_head)
    where a.id = v.id
    returning a.id
  )
  select id, seq::text as seq, (select count(*) from updated)::int as updated from inserted`;

/**
 * Inserts the transfers and writes the new totals and chain heads of every account they touched,
 * in one statement (one round trip, COMMIT included on node-postgres). When an id turned out to be
 * taken, IdTaken rolls the whole transaction back. Returns each transfer's seq.
 */
async function writeRows(query: Query, rows: NewTransferRow[], accounts: Map<bigint, AccountState>,
  before: Map<bigint, AccountState>): Promise<Map<string, bigint>> {
  const touched = [...new Set(rows.flatMap((row) => [row.debitAccountId, row.creditAccountId]))];
  assertConserved(touched.map((id) => [before.get(id)!, accounts.get(id)!]));
  const states = touched.map((id) => {
    const account = accounts.get(id)!;
    assertWithinLimits(account);
    return account;
  });
  // Free text (ids, references, remarks) is quoted; numbers, codes, hex hashes and ISO times are
  // plain tokens, written as they are (quoting every value was a tenth of a settlement's CPU).
  const text = (pick: (row: NewTransferRow) => string | null) => arrayLiteral(rows.map(pick));
  const tokens = (pick: (row: NewTransferRow) => string | bigint | number) => tokenArrayLiteral(rows.map(pick));
  const state = <T extends string | bigint>(pick: (account: AccountState) => T) => tokenArrayLiteral(states.map(pick));
  const inserted = await query(writeText, [
    text((row) => row.id), tokens((row) => row.ledger), tokens((row) => row.asset), tokens((row) => row.debitAccountId),
    tokens((row) => row.creditAccountId), tokens((row) => row.amount), tokens((row) => row.kind), tokens((row) => row.phase),
    text((row) => row.pendingId), text((row) => row.reference), text((row) => row.remark),
    tokens((row) => isoTime(row.createdAt)), tokens((row) => row.debitEntryNo), tokens((row) => row.creditEntryNo),
    tokens((row) => row.debitBalanceAfter), tokens((row) => row.creditBalanceAfter), tokens((row) => row.debitChainHash),
    tokens((row) => row.creditChainHash),
    state((account) => account.id), state((account) => account.debitsPending), state((account) => account.debitsPosted),
    state((account) => account.creditsPending), state((account) => account.creditsPosted), state((account) => account.entryCount),
    state((account) => account.chainHead),
  ], { name: 'ledger_write_transfers', last: true }).catch((error: unknown) => {
    throw isIdTaken(error) ? new IdTaken() : error;
  });
  assert(inserted.length === rows.length, 'every transfer was inserted');
  assert(inserted.every((row) => Number(row.updated) === touched.length), 'every touched account was updated');
  return new Map(inserted.map((row) => [String(row.id), BigInt(row.seq as string)]));
}

/** The primary key of ledger_transfers refused an id: another transaction stored it first. */
function isIdTaken(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const { code, constraint } = cause as { code?: string; constraint?: string };
    if (code === '23505') return constraint === 'ledger_transfers_pkey';
  }
  return false;
}

/** Per asset, a transaction adds to some accounts exactly what it takes from others, posted and pending. */
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
