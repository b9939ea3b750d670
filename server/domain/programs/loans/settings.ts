// Loan offers (issue 22): the credit offer (USDT, limit by verification and VIP level) and the
// pledge offers (USDT against BTC or ETH at initial, margin-call and liquidation LTVs). Seeded once
// on an empty table; operators edit them (audited). Rates are kept in ppm per day, LTVs and the
// liquidation fee in basis points; the wire shows percents.
import { asc, eq } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { LoanSetting, UpdateLoanSettingBody } from '../../../../src/api/contract/loans.ts';
import type { Executor } from '../../../db/client.ts';
import { ledgerAssets, loanSettings } from '../../../db/schema.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import { formatAmount, parseAmount } from '../../kernel/ledger/amounts.ts';
import { bpToPercent, percentToBp, percentToPpm, ppmToPercent } from './math.ts';

export type LoanSettingRow = typeof loanSettings.$inferSelect;

const usdt = (whole: bigint) => whole * 10n ** 6n;

/** Writes the default credit and pledge offers when there are none (run by seed at every start). */
export async function seedLoanSettings(db: Executor): Promise<void> {
  const [existing] = await db.select({ id: loanSettings.id }).from(loanSettings).limit(1);
  if (existing) return;
  const [usdtAsset] = await db.select({ scale: ledgerAssets.scale }).from(ledgerAssets).where(eq(ledgerAssets.code, 'USDT')).limit(1);
  const scale = BigInt(usdtAsset?.scale ?? 6);
  const whole = (units: bigint) => (scale === 6n ? usdt(units) : units * 10n ** scale);
  const now = new Date();
  const pledge = (collateralAsset: string, initialLtvBp: number, marginCallLtvBp: number, liquidationLtvBp: number) => ({
    type: 'pledge', asset: 'USDT', collateralAsset, dailyRatePpm: 300, penaltyRatePpm: 1000, minDays: 7, maxDays: 365,
    minAmount: whole(100n), maxAmount: whole(500_000n), initialLtvBp, marginCallLtvBp, liquidationLtvBp, liquidationFeeBp: 200,
    enabled: true, updatedAt: now,
  });
  await db.insert(loanSettings).values([
    {
      type: 'credit', asset: 'USDT', dailyRatePpm: 500, penaltyRatePpm: 1000, minDays: 7, maxDays: 180,
      minAmount: whole(100n), maxAmount: whole(50_000n), enabled: true, updatedAt: now,
    },
    pledge('BTC', 6500, 8000, 9000),
    pledge('ETH', 5500, 7500, 8500),
  ]);
}

export async function listLoanSettings(db: Executor, enabledOnly = false): Promise<LoanSettingRow[]> {
  const rows = await db.select().from(loanSettings).orderBy(asc(loanSettings.id));
  return enabledOnly ? rows.filter((row) => row.enabled) : rows;
}

export async function loanSettingById(db: Executor, id: bigint, lock = false): Promise<LoanSettingRow | undefined> {
  const query = db.select().from(loanSettings).where(eq(loanSettings.id, id)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function assetScales(db: Executor): Promise<Map<string, number>> {
  const rows = await db.select({ code: ledgerAssets.code, scale: ledgerAssets.scale }).from(ledgerAssets);
  return new Map(rows.map((row) => [row.code, row.scale]));
}

export function settingToWire(row: LoanSettingRow, scale: number, available?: bigint): LoanSetting {
  return {
    id: String(row.id), type: row.type as LoanSetting['type'], asset: row.asset,
    ...(row.collateralAsset ? { collateralAsset: row.collateralAsset } : {}),
    dailyRate: ppmToPercent(row.dailyRatePpm), penaltyRate: ppmToPercent(row.penaltyRatePpm),
    minDays: row.minDays, maxDays: row.maxDays, minAmount: formatAmount(row.minAmount, scale), maxAmount: formatAmount(row.maxAmount, scale),
    ...(row.type === 'pledge' ? {
      initialLtv: bpToPercent(row.initialLtvBp ?? 0), marginCallLtv: bpToPercent(row.marginCallLtvBp ?? 0),
      liquidationLtv: bpToPercent(row.liquidationLtvBp ?? 0), liquidationFee: bpToPercent(row.liquidationFeeBp ?? 0),
    } : {}),
    enabled: row.enabled,
    ...(available === undefined ? {} : { available: formatAmount(available, scale) }),
  };
}

type SettingChange = Static<typeof UpdateLoanSettingBody>;

/**
 * The setting after `change`, checked: days and amounts in order, rates within 0–100 % a day, and
 * for a pledge offer initial < margin call < liquidation < 100 %. Answers the before and after rows
 * (written by the caller with its audit row).
 */
export async function updateLoanSetting(db: Executor, id: bigint, change: SettingChange, now: Date) {
  const before = await loanSettingById(db, id, true);
  if (!before) throw notFound('loan_setting_not_found', 'There is no such loan offer.');
  const scale = (await assetScales(db)).get(before.asset) ?? 6;
  const amount = (text: string | undefined, current: bigint, name: string) => {
    if (text === undefined) return current;
    const parsed = parseAmount(text, scale);
    if (!parsed.ok || parsed.atomic <= 0n) throw badRequest('invalid_request', `The ${name} is not a positive amount with at most ${scale} decimals.`);
    return parsed.atomic;
  };
  const rate = (text: string | undefined, current: number, name: string) => {
    if (text === undefined) return current;
    const ppm = percentToPpm(text);
    if (ppm > 1_000_000) throw badRequest('invalid_request', `The ${name} must be at most 100 % a day.`);
    return ppm;
  };
  const bp = (text: string | undefined, current: number | null, name: string) => {
    if (text === undefined) return current;
    const value = percentToBp(text);
    if (value === undefined || value <= 0 || value >= 10_000) {
      throw badRequest('invalid_request', `The ${name} must be a percent above 0 and below 100 with at most 2 decimals.`);
    }
    return value;
  };
  const after: LoanSettingRow = {
    ...before,
    dailyRatePpm: rate(change.dailyRate, before.dailyRatePpm, 'daily rate'),
    penaltyRatePpm: rate(change.penaltyRate, before.penaltyRatePpm, 'penalty rate'),
    minDays: change.minDays ?? before.minDays, maxDays: change.maxDays ?? before.maxDays,
    minAmount: amount(change.minAmount, before.minAmount, 'minimum amount'),
    maxAmount: amount(change.maxAmount, before.maxAmount, 'maximum amount'),
    enabled: change.enabled ?? before.enabled, updatedAt: now,
  };
  if (before.type === 'pledge') {
    after.initialLtvBp = bp(change.initialLtv, before.initialLtvBp, 'initial LTV');
    after.marginCallLtvBp = bp(change.marginCallLtv, before.marginCallLtvBp, 'margin-call LTV');
    after.liquidationLtvBp = bp(change.liquidationLtv, before.liquidationLtvBp, 'liquidation LTV');
    const fee = change.liquidationFee === undefined ? before.liquidationFeeBp : percentToBp(change.liquidationFee);
    if (fee === undefined || fee === null || fee < 0 || fee >= 10_000) {
      throw badRequest('invalid_request', 'The liquidation fee must be a percent from 0 to below 100 with at most 2 decimals.');
    }
    after.liquidationFeeBp = fee;
    if (!(after.initialLtvBp! < after.marginCallLtvBp! && after.marginCallLtvBp! < after.liquidationLtvBp! && after.liquidationLtvBp! < 10_000)) {
      throw badRequest('invalid_request', 'The LTVs must rise: initial below margin call, margin call below liquidation, liquidation below 100 %.');
    }
  } else if (change.initialLtv !== undefined || change.marginCallLtv !== undefined || change.liquidationLtv !== undefined
    || change.liquidationFee !== undefined) {
    throw badRequest('invalid_request', 'A credit loan offer has no LTVs or liquidation fee.');
  }
  if (after.minDays > after.maxDays) throw badRequest('invalid_request', 'The minimum days must not exceed the maximum days.');
  if (after.minAmount > after.maxAmount) throw badRequest('invalid_request', 'The minimum amount must not exceed the maximum amount.');
  const { id: _id, ...values } = after;
  await db.update(loanSettings).set(values).where(eq(loanSettings.id, id));
  return { before, after, scale };
}
