// Tamper evidence: a hash chain per account. Each transfer is an entry in the chains of both of
// its accounts; the entry's hash covers the account's previous head, its position, its balance
// after, and every field of the transfer. The head lives on the account row, which postTransfers
// already holds locked to update the balance, so chaining costs no lock of its own and transfers
// on unrelated accounts never wait for each other (one global chain would make every writer in
// the system queue on its head). Editing, inserting or deleting a transfer, or changing a
// balance, breaks at least one chain; verify.ts recomputes them all. The heads digest it reports
// lets an operator anchor the whole ledger outside the database at a point in time.
import { createHash, hash } from 'node:crypto';

/** The head of an account with no entries yet. */
export const chainGenesis = '0'.repeat(64);
/** Bumped if the hashed encoding ever changes, so old and new entries cannot be confused. */
const chainVersion = 'bourse-ledger-entry-v1';

export type TransferPhase = 'single' | 'pending' | 'post' | 'void';
export type EntrySide = 'debit' | 'credit';

/** The fields of a transfer that its entries hash (everything but the entries' own data). */
export interface HashedTransfer {
  id: string;
  ledger: number;
  asset: string;
  debitAccountId: bigint;
  creditAccountId: bigint;
  amount: bigint;
  kind: string;
  phase: string;
  pendingId: string | null;
  reference: string;
  remark: string | null;
  createdAt: Date;
}

export interface EntryPosition {
  accountId: bigint;
  side: EntrySide;
  entryNo: bigint;
  balanceAfter: bigint;
}

/**
 * The transfer's part of an entry's encoding: the JSON array of its fields without the opening
 * bracket. Both entries of a transfer share it, so a transfer encodes its fields once.
 */
export function transferEncoding(transfer: HashedTransfer): string {
  return JSON.stringify([
    transfer.id, String(transfer.ledger), transfer.asset,
    transfer.debitAccountId.toString(), transfer.creditAccountId.toString(), transfer.amount.toString(),
    transfer.kind, transfer.phase, transfer.pendingId, transfer.reference, transfer.remark,
    isoTime(transfer.createdAt),
  ]).slice(1);
}

let lastTime: Date | undefined;
let lastIso = '';
/**
 * `date.toISOString()`, remembered for the last Date seen: the transfers of a batch share one
 * `now`, which the encoding and the write would otherwise format twice per transfer.
 */
export function isoTime(date: Date): string {
  if (date !== lastTime || lastTime.getTime() !== date.getTime()) {
    lastIso = date.toISOString();
    lastTime = date;
  }
  return lastIso;
}

/**
 * SHA-256 (hex) of an account's entry, chained on the account's previous head. The encoding is the
 * JSON of one array of strings and nulls (an unambiguous encoding: no field can run into the
 * next): the version, the previous head, the entry's position, then the transfer's fields
 * (`transferEncoding`, passed in when the caller has it already).
 */
export function entryHash(previousHead: string, entry: EntryPosition, transfer: HashedTransfer, encoded = transferEncoding(transfer)): string {
  const head = JSON.stringify([
    chainVersion, previousHead, entry.accountId.toString(), entry.side, entry.entryNo.toString(), entry.balanceAfter.toString(),
  ]);
  return hash('sha256', `${head.slice(0, -1)},${encoded}`, 'hex');
}

/** One digest over every account's head, in id order: a fingerprint of the whole ledger. */
export function headsDigest(heads: Iterable<{ id: bigint; entryCount: bigint; chainHead: string }>): string {
  const hash = createHash('sha256').update(chainVersion);
  for (const head of heads) hash.update(`|${head.id}:${head.entryCount}:${head.chainHead}`);
  return hash.digest('hex');
}
