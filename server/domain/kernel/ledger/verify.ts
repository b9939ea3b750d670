// The ledger check an operator runs (back office and CLI): recomputes every account's hash chain
// and running totals from its transfers, compares them with the stored heads, hashes and
// balances, and sums every asset over all accounts, which double entry keeps at exactly zero.
// It reads one snapshot (REPEATABLE READ, read-only), so it runs beside live writers and sees
// each batch whole or not at all; it streams transfers in pages and keeps only per-account state.
import { asc, gt } from 'drizzle-orm';
import { ledgerAccounts, ledgerTransfers } from '../../../db/schema.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { chainGenesis, entryHash, headsDigest, type EntrySide } from './chain.ts';
import { ledgerName, type LedgerName } from './accounts.ts';
import type { TransferRow } from './rules.ts';

export interface AssetSum {
  currency: string;
  ledger: LedgerName;
  /** Posted balances of every account of the asset added up: zero when conserved. */
  sum: bigint;
  /** The same over pending totals (credits - debits): zero as well. */
  pendingSum: bigint;
}

export interface LedgerCheck {
  /** Every entry's hash recomputes, entry numbers run without gaps, and every head matches. */
  chainValid: boolean;
  /** Every account's stored totals and every entry's balance after equal what the transfers add up to. */
  balancesValid: boolean;
  /** Every asset of every ledger sums to zero, posted and pending. */
  conserved: boolean;
  transfers: number;
  accounts: number;
  assets: AssetSum[];
  /** A digest of all account heads: record it elsewhere to prove later that nothing was rewritten. */
  headsDigest: string;
  /** The first problems found, each naming the account or transfer. */
  problems: string[];
}

const pageSize = 5000;
const problemsMax = 100;

interface Recomputed {
  head: string;
  entryCount: bigint;
  debitsPending: bigint;
  debitsPosted: bigint;
  creditsPending: bigint;
  creditsPosted: bigint;
}

type AccountRow = typeof ledgerAccounts.$inferSelect;

class Findings {
  chainValid = true;
  balancesValid = true;
  problems: string[] = [];
  chain(problem: string) { this.chainValid = false; this.#note(problem); }
  balance(problem: string) { this.balancesValid = false; this.#note(problem); }
  #note(problem: string) { if (this.problems.length < problemsMax) this.problems.push(problem); }
}

export async function verifyLedger(db: Db): Promise<LedgerCheck> {
  return db.transaction(async (tx) => {
    const accountRows = await tx.select().from(ledgerAccounts).orderBy(asc(ledgerAccounts.id));
    const accounts = new Map(accountRows.map((row) => [row.id, row]));
    const states = new Map<bigint, Recomputed>(accountRows.map((row) => [row.id, {
      head: chainGenesis, entryCount: 0n, debitsPending: 0n, debitsPosted: 0n, creditsPending: 0n, creditsPosted: 0n,
    }]));
    const findings = new Findings();
    const transfers = await replayTransfers(tx, accounts, states, findings);
    for (const row of accountRows) compareAccount(row, states.get(row.id)!, findings);
    const assets = sumAssets(accountRows);
    return {
      chainValid: findings.chainValid, balancesValid: findings.balancesValid,
      conserved: assets.every((asset) => asset.sum === 0n && asset.pendingSum === 0n),
      transfers, accounts: accountRows.length, assets, headsDigest: headsDigest(accountRows), problems: findings.problems,
    };
  }, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

/** Runs every transfer in insertion order (each account's entry order) over the recomputed state. */
async function replayTransfers(tx: Tx, accounts: Map<bigint, AccountRow>, states: Map<bigint, Recomputed>,
  findings: Findings): Promise<number> {
  const pendingAmounts = new Map<string, bigint>();
  let count = 0;
  let afterSeq = -1n;
  for (;;) {
    const page = await tx.select().from(ledgerTransfers).where(gt(ledgerTransfers.seq, afterSeq))
      .orderBy(asc(ledgerTransfers.seq)).limit(pageSize);
    for (const transfer of page) {
      count += 1;
      const debit = states.get(transfer.debitAccountId);
      const credit = states.get(transfer.creditAccountId);
      if (!debit || !credit) {
        findings.chain(`transfer ${transfer.id}: an account of it is missing`);
        continue;
      }
      for (const id of [transfer.debitAccountId, transfer.creditAccountId]) {
        const account = accounts.get(id)!;
        if (account.ledger !== transfer.ledger || account.asset !== transfer.asset) {
          findings.balance(`transfer ${transfer.id}: account ${id} is of another ledger or asset`);
        }
      }
      applyTotals(transfer, debit, credit, pendingAmounts, findings);
      chainSide(transfer, 'debit', debit, findings);
      chainSide(transfer, 'credit', credit, findings);
    }
    if (page.length < pageSize) return count;
    afterSeq = page[page.length - 1].seq;
  }
}

function applyTotals(transfer: TransferRow, debit: Recomputed, credit: Recomputed, pendingAmounts: Map<string, bigint>,
  findings: Findings) {
  const { amount } = transfer;
  if (transfer.phase === 'single') {
    debit.debitsPosted += amount;
    credit.creditsPosted += amount;
  } else if (transfer.phase === 'pending') {
    debit.debitsPending += amount;
    credit.creditsPending += amount;
    pendingAmounts.set(transfer.id, amount);
  } else {
    const reserved = transfer.pendingId === null ? undefined : pendingAmounts.get(transfer.pendingId);
    if (reserved === undefined) {
      findings.balance(`transfer ${transfer.id}: resolves ${transfer.pendingId}, which is not an open pending transfer`);
      return;
    }
    pendingAmounts.delete(transfer.pendingId!);
    const posted = transfer.phase === 'post' ? amount : 0n;
    if (posted > reserved || (transfer.phase === 'void' && amount !== reserved)) {
      findings.balance(`transfer ${transfer.id}: amount ${amount} does not fit the pending ${reserved}`);
    }
    debit.debitsPending -= reserved;
    credit.creditsPending -= reserved;
    debit.debitsPosted += posted;
    credit.creditsPosted += posted;
  }
}

function chainSide(transfer: TransferRow, side: EntrySide, state: Recomputed, findings: Findings) {
  const accountId = side === 'debit' ? transfer.debitAccountId : transfer.creditAccountId;
  const entryNo = side === 'debit' ? transfer.debitEntryNo : transfer.creditEntryNo;
  const balanceAfter = side === 'debit' ? transfer.debitBalanceAfter : transfer.creditBalanceAfter;
  const storedHash = side === 'debit' ? transfer.debitChainHash : transfer.creditChainHash;
  state.entryCount += 1n;
  if (entryNo !== state.entryCount) {
    findings.chain(`account ${accountId}: entry ${state.entryCount} is missing (transfer ${transfer.id} says ${entryNo})`);
    state.entryCount = entryNo;
  }
  if (balanceAfter !== state.creditsPosted - state.debitsPosted) {
    findings.balance(`transfer ${transfer.id}: balance after of account ${accountId} is ${balanceAfter}, the transfers add up to ${state.creditsPosted - state.debitsPosted}`);
  }
  const expected = entryHash(state.head, { accountId, side, entryNo, balanceAfter }, transfer);
  if (expected !== storedHash) findings.chain(`account ${accountId}: the hash of entry ${entryNo} (transfer ${transfer.id}) does not recompute`);
  // Going on from the stored hash pins a change to the entry it was made in.
  state.head = storedHash;
}

function compareAccount(row: AccountRow, state: Recomputed, findings: Findings) {
  if (row.chainHead !== state.head || row.entryCount !== state.entryCount) {
    findings.chain(`account ${row.id}: the stored head is not the head of its ${state.entryCount} entries`);
  }
  const totals = ['debitsPending', 'debitsPosted', 'creditsPending', 'creditsPosted'] as const;
  for (const total of totals) {
    if (row[total] !== state[total]) findings.balance(`account ${row.id}: ${total} is ${row[total]}, its transfers add up to ${state[total]}`);
  }
}

function sumAssets(rows: AccountRow[]): AssetSum[] {
  const sums = new Map<string, AssetSum>();
  for (const row of rows) {
    const key = `${row.ledger}|${row.asset}`;
    const sum = sums.get(key) ?? { currency: row.asset, ledger: ledgerName(row.ledger), sum: 0n, pendingSum: 0n };
    sum.sum += row.creditsPosted - row.debitsPosted;
    sum.pendingSum += row.creditsPending - row.debitsPending;
    sums.set(key, sum);
  }
  return [...sums.values()].sort((a, b) => a.ledger.localeCompare(b.ledger) || a.currency.localeCompare(b.currency));
}
