// The harness of the withdrawal tests: a registered user with a bound address and a withdrawal
// password (both through the real protocol), funds credited by a deposit transfer of the ledger
// (deposit review has its own tests), and the checks every test repeats: nothing moved on a
// refusal, and the ledger sound after every test.
import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { paths } from '../../../src/api/contract/paths.ts';
import { withdrawalPaths } from '../../../src/api/contract/withdrawals.ts';
import { ledgerAccounts } from '../../../server/db/schema.ts';
import { systemAccountId, userAccountId, userBalances } from '../../../server/domain/kernel/ledger/accounts.ts';
import { parseAmount } from '../../../server/domain/kernel/ledger/amounts.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';
import { verifyLedger } from '../../../server/domain/kernel/ledger/verify.ts';
import { expectOk, type Account, type TestServer } from '../helpers.ts';

/** Valid mainnet addresses of each format (well-known contracts and BIP test vectors). */
export const addresses = {
  trc20: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  erc20: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  btcBech32: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  btcTaproot: 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297',
  btcP2pkh: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
  btcP2sh: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
} as const;

export const withdrawPassword = 'Payout2026key';

export interface Withdrawer extends Account { userId: bigint; destinationId: string }

export async function userIdOf(server: TestServer, account: Account): Promise<bigint> {
  return (await server.userByEmail(account.email!)).id;
}

/** Credits a user's spot account from deposit clearing, as an approved deposit does. */
export async function fund(server: TestServer, userId: bigint, amount: string, currency = 'USDT') {
  const [{ scale }] = await server.query<{ scale: number }>(sql`select scale from ledger_assets where code = ${currency}`);
  const parsed = parseAmount(amount, scale);
  if (!parsed.ok) throw new Error(`bad amount ${amount}`);
  const result = await postTransfers(server.db, [{
    id: server.unique('test-deposit-'), kind: 'deposit', reference: server.unique('test-recharge-'), amountAtomic: parsed.atomic,
    debitAccountId: await systemAccountId(server.db, currency, 'deposit_clearing', `user:${userId}`),
    creditAccountId: await userAccountId(server.db, userId, currency, 'spot'),
  }], server.clock);
  if (!result.ok) throw new Error(`funding refused: ${result.refusal}`);
}

/** Sets the withdrawal password through the real flow: a code to the user's own e-mail. */
export async function setWithdrawPassword(server: TestServer, account: Account, password = withdrawPassword) {
  expectOk(await server.get(paths.emailCaptcha, { email: account.email!, type: 'withdrawPassword' }, { token: account.token }));
  expectOk(await server.post(withdrawalPaths.setWithdrawPassword, { password, code: server.latestCode(account.email!) },
    { token: account.token }));
}

export async function bindAddress(server: TestServer, token: string, fields: Record<string, string> = {}): Promise<string> {
  const answer = expectOk(await server.post(withdrawalPaths.addDestination, {
    type: 'chain', currency: 'USDT', network: 'TRC20', address: addresses.trc20, ...fields,
  }, { token }));
  return answer.body.result.id as string;
}

/** A user with a TRC20 USDT address bound, a withdrawal password set, and `balance` USDT. */
export async function withdrawer(server: TestServer, balance = '100'): Promise<Withdrawer> {
  const account = await server.registerByEmail();
  const userId = await userIdOf(server, account);
  const destinationId = await bindAddress(server, account.token);
  await setWithdrawPassword(server, account);
  if (balance !== '0') await fund(server, userId, balance);
  return { ...account, userId, destinationId };
}

export function apply(server: TestServer, user: Withdrawer, fields: Record<string, unknown> = {}) {
  return server.post(withdrawalPaths.apply, {
    currency: 'USDT', amount: '20', withdrawalInfoId: user.destinationId, withdrawPassword, ...fields,
  }, { token: user.token });
}

/** Every account's totals, the transfers and the withdrawal rows: what a refusal must leave as it was. */
export async function moneySnapshot(server: TestServer) {
  const accounts = await server.db.select().from(ledgerAccounts).orderBy(ledgerAccounts.id);
  const [counts] = await server.query<{ transfers: number; withdrawals: number }>(sql`select
    (select count(*)::int from ledger_transfers) as transfers, (select count(*)::int from withdrawals) as withdrawals`);
  return { accounts, ...counts };
}

/** The user's spot balance: posted, and what pending withdrawals hold, in atomic units. */
export async function spotOf(server: TestServer, userId: bigint, currency = 'USDT') {
  const spot = (await userBalances(server.db, userId)).find((row) => row.asset === currency && row.kind === 'spot');
  return { posted: spot?.postedAtomic ?? 0n, held: spot?.debitsPendingAtomic ?? 0n, available: spot?.availableAtomic ?? 0n };
}

/** The ledger check: chains valid, balances recompute, every asset sums to zero, posted and pending. */
export async function expectLedgerSound(server: TestServer) {
  const check = await verifyLedger(server.db);
  expect(check.problems).toEqual([]);
  expect(check.chainValid && check.balancesValid && check.conserved).toBe(true);
}

export const usdt = (whole: number | string) => {
  const parsed = parseAmount(String(whole), 6);
  if (!parsed.ok) throw new Error(`bad amount ${whole}`);
  return parsed.atomic;
};
