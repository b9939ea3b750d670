// Demo funds (issue 10, spec §2 /demotrading): virtual USDT in the demo ledger (ledger 2), which the
// ledger keeps apart from real money (a transfer between ledgers is refused). The first call opens
// the user's demo account with `demoGrant` USDT from the demo ledger's house, once (the grant's
// transfer id is demo:<userId>:grant). A reset, refused while a demo position runs or a demo second
// contract is open, moves the whole demo balance back to the demo house and grants `demoGrant`
// again, in one transaction (demo_reset transfers, ids unique per reset).
import { randomBytes } from 'node:crypto';
import { and, count, eq, inArray } from 'drizzle-orm';
import { demoGrant, type DemoAccount } from '../../../../src/api/contract/trading.ts';
import { formatAmount } from '../../../../src/api/contract/amounts.ts';
import { marginScale } from '../../../../src/api/contract/tradingMath.ts';
import { ledgerAccounts, ledgerTransfers, secondContractOrders, tradePositions } from '../../../db/schema.ts';
import type { Db, Executor } from '../../../db/client.ts';
import { AppError, assert } from '../../../lib/errors.ts';
import type { Clock } from '../../../lib/time.ts';
import { accountBalances, ledgers } from '../../kernel/ledger/accounts.ts';
import { parseAmount } from '../../kernel/ledger/amounts.ts';
import { postTransfers } from '../../kernel/ledger/transfers.ts';
import { tradingAccounts } from './accounts.ts';

const grantParsed = parseAmount(demoGrant, marginScale);
assert(grantParsed.ok, 'demoGrant is an amount');
/** The virtual USDT a demo account starts with and returns to on reset, atomic. */
export const demoGrantAtomic = grantParsed.atomic;

export const demoGrantTransferId = (userId: bigint) => `demo:${userId}:grant`;
const demoReference = (userId: bigint) => `demo:${userId}`;

const demoAccountsOf = (db: Executor, userId: bigint) => tradingAccounts(db, userId, 'demo', `demo:${userId}`);

/** Grants the first demo funds if they were never granted (idempotent by the transfer id). */
export async function ensureDemoGrant(db: Executor, clock: Clock, userId: bigint) {
  const id = demoGrantTransferId(userId);
  const [granted] = await db.select({ id: ledgerTransfers.id }).from(ledgerTransfers).where(eq(ledgerTransfers.id, id)).limit(1);
  const accounts = await demoAccountsOf(db, userId);
  if (granted) return accounts;
  const result = await postTransfers(db, [{
    id, kind: 'demo_grant', reference: demoReference(userId), amountAtomic: demoGrantAtomic,
    debitAccountId: accounts.house, creditAccountId: accounts.funds,
  }], clock);
  if (!result.ok) throw new Error(`demo grant of user ${userId} refused: ${result.refusal}`);
  return accounts;
}

async function openDemoCounts(db: Executor, userId: bigint) {
  const [{ positions }] = await db.select({ positions: count() }).from(tradePositions).where(and(
    eq(tradePositions.userId, userId), eq(tradePositions.ledger, ledgers.demo), inArray(tradePositions.status, ['running', 'settling'])));
  const [{ orders }] = await db.select({ orders: count() }).from(secondContractOrders).where(and(
    eq(secondContractOrders.userId, userId), eq(secondContractOrders.ledger, ledgers.demo), eq(secondContractOrders.status, 'open')));
  return { positions, orders };
}

/** The user's demo funds, opened with `demoGrant` on the first call. */
export async function demoAccount(db: Executor, clock: Clock, userId: bigint): Promise<DemoAccount> {
  const accounts = await ensureDemoGrant(db, clock, userId);
  const balances = new Map((await accountBalances(db, [accounts.funds, accounts.held])).map((balance) => [balance.id, balance]));
  const { positions, orders } = await openDemoCounts(db, userId);
  return {
    balance: formatAmount(balances.get(accounts.funds)?.availableAtomic ?? 0n, marginScale),
    inUse: formatAmount(balances.get(accounts.held)?.postedAtomic ?? 0n, marginScale),
    openPositions: positions, openOrders: orders,
  };
}

/**
 * Returns the whole demo balance to the demo house and grants `demoGrant` again. The demo funds
 * account is locked first, so a demo trade opened meanwhile waits for the reset (and then trades
 * the fresh funds) rather than racing it.
 */
export async function resetDemo(db: Db, clock: Clock, userId: bigint): Promise<DemoAccount> {
  const accounts = await ensureDemoGrant(db, clock, userId);
  await db.transaction(async (tx) => {
    const [locked] = await tx.select({ debitsPosted: ledgerAccounts.debitsPosted, creditsPosted: ledgerAccounts.creditsPosted,
      debitsPending: ledgerAccounts.debitsPending }).from(ledgerAccounts).where(eq(ledgerAccounts.id, accounts.funds)).for('update');
    assert(locked, 'the demo account exists');
    const { positions, orders } = await openDemoCounts(tx, userId);
    if (positions > 0 || orders > 0) {
      throw new AppError(409, 'demo_positions_open',
        'Close your demo positions and wait for your demo contracts to settle before resetting the demo funds.',
        { openPositions: positions, openOrders: orders });
    }
    const available = locked.creditsPosted - locked.debitsPosted - locked.debitsPending;
    const reset = `demo:${userId}:reset:${randomBytes(8).toString('hex')}`;
    const reference = demoReference(userId);
    const batch = [];
    if (available > 0n) {
      batch.push({ id: `${reset}:out`, kind: 'demo_reset' as const, reference, amountAtomic: available,
        debitAccountId: accounts.funds, creditAccountId: accounts.house });
    }
    batch.push({ id: `${reset}:in`, kind: 'demo_reset' as const, reference, amountAtomic: demoGrantAtomic,
      debitAccountId: accounts.house, creditAccountId: accounts.funds });
    const result = await postTransfers(tx, batch, clock);
    if (!result.ok) throw new Error(`demo reset of user ${userId} refused: ${result.refusal}`);
  });
  return demoAccount(db, clock, userId);
}
