// What each verification level unlocks (issue 11): level 0 (unverified), 1 (basic approved) and
// 2 (advanced approved). The back office edits the settings (kyc_level_settings); a level without
// a row has the defaults below. Identity keeps the levels and each user's level; the wallet asks
// them when it enforces the daily withdrawal limit (wallet/withdrawalLimit.ts).
import { and, eq, sql } from 'drizzle-orm';
import type { KycLevel } from '../../../../src/api/contract/identity.ts';
import type { Db, Executor } from '../../../db/client.ts';
import { kycApplications, kycLevelSettings, ledgerAssets } from '../../../db/schema.ts';
import { AppError, badRequest } from '../../../lib/errors.ts';
import type { Clock } from '../../../lib/time.ts';
import { formatAmount, parseAmount } from '../../kernel/ledger/amounts.ts';
import { recordAudit } from '../../kernel/audit.ts';

export const kycLevelNumbers = [0, 1, 2] as const;
export type KycLevelNumber = (typeof kycLevelNumbers)[number];

/** The scale USDT amounts are kept in when the ledger has no USDT asset (it always has). */
const usdtScaleDefault = 6;

export interface LevelSetting { level: KycLevelNumber; withdrawDailyLimit: bigint | null; loanLimit: bigint; productsOpen: boolean }

/** Defaults in whole USDT: unverified 1 000 a day, no loans, no products; basic 50 000 a day; advanced no limit. */
const defaults: Record<KycLevelNumber, { withdrawDailyLimit: string | null; loanLimit: string; productsOpen: boolean }> = {
  0: { withdrawDailyLimit: '1000', loanLimit: '0', productsOpen: false },
  1: { withdrawDailyLimit: '50000', loanLimit: '10000', productsOpen: true },
  2: { withdrawDailyLimit: null, loanLimit: '100000', productsOpen: true },
};

export async function usdtScale(db: Executor): Promise<number> {
  const [row] = await db.select({ scale: ledgerAssets.scale }).from(ledgerAssets).where(eq(ledgerAssets.code, 'USDT')).limit(1);
  return row?.scale ?? usdtScaleDefault;
}

const wholeUsdt = (text: string, scale: number) => BigInt(text) * 10n ** BigInt(scale);

/** What each level unlocks, in USDT atomic units of `scale`: the stored row, else the defaults. */
export async function levelSettings(db: Executor, scale: number): Promise<LevelSetting[]> {
  const rows = await db.select().from(kycLevelSettings);
  return kycLevelNumbers.map((level) => {
    const row = rows.find((found) => found.level === level);
    if (row) {
      return {
        level, withdrawDailyLimit: row.withdrawDailyLimit === null ? null : BigInt(row.withdrawDailyLimit),
        loanLimit: BigInt(row.loanLimit), productsOpen: row.productsOpen,
      };
    }
    const fallback = defaults[level];
    return {
      level, withdrawDailyLimit: fallback.withdrawDailyLimit === null ? null : wholeUsdt(fallback.withdrawDailyLimit, scale),
      loanLimit: wholeUsdt(fallback.loanLimit, scale), productsOpen: fallback.productsOpen,
    };
  });
}

const toWire = (setting: LevelSetting, scale: number): KycLevel => ({
  level: setting.level,
  ...(setting.withdrawDailyLimit === null ? {} : { withdrawDailyLimit: formatAmount(setting.withdrawDailyLimit, scale) }),
  loanLimit: formatAmount(setting.loanLimit, scale),
  productsOpen: setting.productsOpen,
});

/** Levels 0, 1 and 2 with what each unlocks (public). */
export async function listKycLevels(db: Executor): Promise<KycLevel[]> {
  const scale = await usdtScale(db);
  return (await levelSettings(db, scale)).map((setting) => toWire(setting, scale));
}

/** The user's level: 1 when basic is approved, 2 when advanced is approved too, else 0. */
export async function userKycLevel(db: Executor, userId: bigint): Promise<KycLevelNumber> {
  const rows = await db.select({ level: kycApplications.level }).from(kycApplications)
    .where(and(eq(kycApplications.userId, userId), eq(kycApplications.status, 'approved')));
  const approved = new Set(rows.map((row) => row.level));
  if (!approved.has(1)) return 0;
  return approved.has(2) ? 2 : 1;
}

export interface LevelChange { withdrawDailyLimit?: string | null; loanLimit: string; productsOpen: boolean }

/**
 * Sets what a level unlocks, audited with before and after in the same transaction. Amounts are
 * USDT; a higher level may not unlock less than a lower one (a smaller daily limit or loan limit,
 * products closed that a lower level opens), or verifying would take something away.
 */
export async function setKycLevel(db: Db, clock: Clock, operatorId: bigint,
  level: KycLevelNumber, change: LevelChange): Promise<KycLevel> {
  const scale = await usdtScale(db);
  const amount = (text: string, field: string) => {
    const parsed = parseAmount(text, scale);
    if (!parsed.ok) throw new AppError(400, 'kyc_settings_invalid', `The ${field} must be a plain amount of USDT with at most ${scale} decimals.`, { field });
    return parsed.atomic;
  };
  const limit = change.withdrawDailyLimit === undefined || change.withdrawDailyLimit === null ? null
    : amount(change.withdrawDailyLimit, 'daily withdrawal limit');
  const loan = amount(change.loanLimit, 'loan limit');
  return db.transaction(async (tx) => {
    // One change at a time: the ordering check reads the other levels.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('kyc_level_settings'))`);
    const settings = await levelSettings(tx, scale);
    const before = settings[level];
    const after: LevelSetting = { level, withdrawDailyLimit: limit, loanLimit: loan, productsOpen: change.productsOpen };
    const next = settings.map((setting) => (setting.level === level ? after : setting));
    for (let index = 1; index < next.length; index += 1) {
      const lower = next[index - 1];
      const higher = next[index];
      const limitLess = higher.withdrawDailyLimit !== null
        && (lower.withdrawDailyLimit === null || higher.withdrawDailyLimit < lower.withdrawDailyLimit);
      if (limitLess || higher.loanLimit < lower.loanLimit || (lower.productsOpen && !higher.productsOpen)) {
        throw new AppError(400, 'kyc_settings_invalid',
          `Level ${higher.level} may not unlock less than level ${lower.level}: its daily withdrawal limit and loan limit must be at least as high, and products open at a lower level stay open.`,
          { level: higher.level });
      }
    }
    const now = clock.now();
    const values = { withdrawDailyLimit: limit === null ? null : limit.toString(), loanLimit: loan.toString(), productsOpen: change.productsOpen, updatedAt: now };
    await tx.insert(kycLevelSettings).values({ level, ...values })
      .onConflictDoUpdate({ target: kycLevelSettings.level, set: values });
    await recordAudit(tx, {
      operatorId, action: 'kyc.level', targetType: 'kyc_level', targetId: String(level),
      before: toWire(before, scale), after: toWire(after, scale),
    }, clock);
    return toWire(after, scale);
  });
}

/** Whether a level number is one of 0, 1, 2 (route params arrive as text). */
export function parseLevel(text: string): KycLevelNumber {
  const level = Number(text);
  if (text !== String(level) || !kycLevelNumbers.includes(level as KycLevelNumber)) {
    throw badRequest('kyc_settings_invalid', 'The level must be 0, 1 or 2.');
  }
  return level as KycLevelNumber;
}
