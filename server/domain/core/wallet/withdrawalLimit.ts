// The daily withdrawal limit of each verification level (issue 11): a withdrawal whose USDT value
// plus the value of the user's withdrawals of the same UTC day (every one not rejected and not
// failed) exceeds the limit of the user's level is refused with kyc_level_required. The levels
// and the user's level are identity's (identity/kycLevels.ts); valuing a currency is the wallet's.
//
// Values in USDT: USDT and USDC count 1:1; another currency at the last recorded tick of
// <CODE>USDT (market_ticks), else at the operator's USDT rate of the currency; a currency with
// neither cannot be valued, so a user with a limit is refused (conservatively) until verified to
// a level without one. Values are rounded up, so a limit is never passed by rounding.
import { and, eq, gte, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { ledgerAssets, users, withdrawals } from '../../../db/schema.ts';
import { AppError } from '../../../lib/errors.ts';
import type { Clock } from '../../../lib/time.ts';
import { levelSettings, usdtScale, userKycLevel } from '../identity/kycLevels.ts';
import { formatAmount, parseAmount } from '../../kernel/ledger/amounts.ts';
import { symbolByCode } from '../market/symbols.ts';
import { lastTickAt } from '../market/ticks.ts';
import { loadCurrency } from './currencies.ts';

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/**
 * The USDT value (atomic units of `usdtDigits`) of `amount` atomic units of `currency` (of
 * `scale`), rounded up; undefined when the currency has no price (see the file's head).
 */
export async function usdtValue(db: Executor, currency: string, scale: number, amount: bigint, nowMs: number,
  usdtDigits: number): Promise<bigint | undefined> {
  if (currency === 'USDT' || currency === 'USDC') {
    return usdtDigits >= scale ? amount * 10n ** BigInt(usdtDigits - scale) : ceilDiv(amount, 10n ** BigInt(scale - usdtDigits));
  }
  const symbol = `${currency}USDT`;
  const spec = symbolByCode.get(symbol);
  let units: bigint | undefined;
  let precision = 0;
  if (spec) {
    const tick = await lastTickAt(db, symbol, nowMs);
    if (tick && tick.priceUnits > 0n) { units = tick.priceUnits; precision = spec.pricePrecision; }
  }
  if (units === undefined) {
    const row = await loadCurrency(db, currency);
    const parsed = row?.usdtRate ? parseAmount(row.usdtRate, 18) : undefined;
    if (parsed?.ok && parsed.atomic > 0n) { units = parsed.atomic; precision = 18; }
  }
  if (units === undefined) return undefined;
  return ceilDiv(amount * units * 10n ** BigInt(usdtDigits), 10n ** BigInt(scale + precision));
}

const dayMs = 86_400_000;

/**
 * Refuses a withdrawal of `amount` (atomic units of `currency`, of `scale`) that would take the
 * user's withdrawals of this UTC day past their level's limit. Call inside the withdrawal's
 * transaction: the user's row is locked first, so two requests at once are counted one after
 * the other.
 */
export async function checkWithdrawalLimit(tx: Executor, userId: bigint, currency: string, scale: number, amount: bigint,
  clock: Clock): Promise<void> {
  const usdtDigits = await usdtScale(tx);
  const level = await userKycLevel(tx, userId);
  const setting = (await levelSettings(tx, usdtDigits))[level];
  if (setting.withdrawDailyLimit === null) return;
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  const now = clock.now();
  const dayStart = new Date(Math.floor(now.getTime() / dayMs) * dayMs);
  const today = await tx.select({ currency: withdrawals.currency, amount: sql<string>`sum(${withdrawals.amount})`, scale: ledgerAssets.scale })
    .from(withdrawals).innerJoin(ledgerAssets, eq(ledgerAssets.code, withdrawals.currency))
    .where(and(eq(withdrawals.userId, userId), gte(withdrawals.createdAt, dayStart),
      notInArray(withdrawals.status, [-1, -2])))
    .groupBy(withdrawals.currency, ledgerAssets.scale);
  const limit = formatAmount(setting.withdrawDailyLimit, usdtDigits);
  const refuse = (used: bigint | undefined, message: string) => new AppError(400, 'kyc_level_required', message,
    { level, limit, ...(used === undefined ? {} : { used: formatAmount(used, usdtDigits) }), verifyPath: '/shenfenRenzheng' });
  let used = 0n;
  for (const row of today) {
    const value = await usdtValue(tx, row.currency, row.scale, BigInt(row.amount), now.getTime(), usdtDigits);
    if (value === undefined) {
      throw refuse(undefined, `Your withdrawals today cannot be valued in USDT against your daily limit of ${limit} USDT. Please verify your identity to withdraw more.`);
    }
    used += value;
  }
  const value = await usdtValue(tx, currency, scale, amount, now.getTime(), usdtDigits);
  if (value === undefined) {
    throw refuse(used, `${currency} cannot be valued in USDT against your daily limit of ${limit} USDT. Please verify your identity to withdraw it.`);
  }
  if (used + value > setting.withdrawDailyLimit) {
    throw refuse(used, `Your daily withdrawal limit is ${limit} USDT and you have withdrawn ${formatAmount(used, usdtDigits)} USDT today. Please verify your identity to raise the limit.`);
  }
}
