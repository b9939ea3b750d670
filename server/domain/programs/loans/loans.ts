// Credit and pledge loans (issue 22): apply with a signed agreement, review, pay out, charge
// interest for the days used, repay, add collateral. Every change is one transaction with its
// ledger transfers and its internal message; a refusal throws before commit, so nothing moves.
//
// Ledger: the user's 'loan' account carries the debt (debited at payout and by every charge,
// credited by repayments: it can never be repaid beyond what it owes); interest and penalties go to
// the loan_interest system account; pledged collateral sits in the user's 'collateral' account.
// Transfer ids derive from the loan and its figures, so a replay can never move money twice.
import { and, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type {
  AgreementQuery, CreditApplyBody, Loan, LoanInfo, LoanStatus, LoanType, MyLoansQuery, PledgeApplyBody,
} from '../../../../src/api/contract/loans.ts';
import type { MessageKind } from '../../../../src/api/contract/content.ts';
import type { PageOf } from '../../../../src/api/contract/wallet.ts';
import type { Executor, Tx } from '../../../db/client.ts';
import { loans, users, vipLevels } from '../../../db/schema.ts';
import { AppError, assert, badRequest, conflict, notFound, rateLimited } from '../../../lib/errors.ts';
import type { Clock } from '../../../lib/time.ts';
import type { Services } from '../../kernel/services.ts';
import { writeMessage, type WrittenMessage } from '../../kernel/messages.ts';
import { levelSettings, userKycLevel } from '../../core/identity/kycLevels.ts';
import { userVipLevel } from '../../core/levels/levels.ts';
import { formatAmount, parseAmount } from '../../kernel/ledger/amounts.ts';
import { openAccounts, systemShard } from '../../kernel/ledger/accounts.ts';
import { postTransfers } from '../../kernel/ledger/transfers.ts';
import type { NewTransferRequest } from '../../kernel/ledger/rules.ts';
import { symbolByCode } from '../../core/market/symbols.ts';
import { lastTickAt } from '../../core/market/ticks.ts';
import { agreementTerms, sha256Hex, type Borrower } from './agreement.ts';
import {
  bpToPercent, chargesBetween, daysCharged, dayMs, loanDayDate, ltvAbove, ltvBp, ltvReached, ppmToPercent, startedDays, totalInterest,
  type CollateralScales, type LoanTerms,
} from './math.ts';
import { assetScales, loanSettingById, type LoanSettingRow } from './settings.ts';
import { checkSignature } from './signature.ts';

export type LoanRow = typeof loans.$inferSelect;

/** A feed price: what the market view holds for a symbol now. */
export interface FeedPrice { symbol: string; priceUnits: bigint; pricePrecision: number; timeMs: number; source: string }
export type PriceOf = (symbol: string) => FeedPrice | undefined;

/** The feed symbol a collateral asset is priced by (BTC → BTCUSDT), or undefined when none. */
export const collateralSymbol = (asset: string | null | undefined) =>
  (asset && symbolByCode.has(`${asset}USDT`) ? `${asset}USDT` : undefined);

/** A price older than this is no price to lend against: the feed has stalled. */
export const priceFreshnessMs = 60_000;

export const termsOf = (row: Pick<LoanRow, 'amount' | 'days' | 'dailyRatePpm' | 'penaltyRatePpm'>): LoanTerms => ({
  amount: row.amount, days: row.days, dailyRatePpm: row.dailyRatePpm, penaltyRatePpm: row.penaltyRatePpm,
});

/** What the loan owes now: amount + interest and penalty charged − repaid (0 unless active). */
export const owedOf = (row: Pick<LoanRow, 'status' | 'amount' | 'interest' | 'repaid'>) =>
  (row.status === 'active' ? row.amount + row.interest - row.repaid : 0n);

export function scalesOf(scales: Map<string, number>, row: Pick<LoanRow, 'asset' | 'collateralAsset'>, symbol: string): CollateralScales {
  const collateralScale = scales.get(row.collateralAsset ?? '');
  const loanScale = scales.get(row.asset);
  assert(collateralScale !== undefined && loanScale !== undefined, `scales of ${row.asset} and ${row.collateralAsset}`);
  return { collateralScale, loanScale, pricePrecision: symbolByCode.get(symbol)!.pricePrecision };
}

// ─── Wire ────────────────────────────────────────────────────────────────────────────────────────

export function loanToWire(row: LoanRow, scales: Map<string, number>, now: Date, priceOf?: PriceOf): Loan {
  const scale = scales.get(row.asset) ?? 6;
  const money = (value: bigint) => formatAmount(value, scale);
  const owed = owedOf(row);
  const wire: Loan = {
    id: String(row.id), type: row.type as LoanType, settingId: String(row.settingId), clientOrderId: row.clientOrderId,
    asset: row.asset, amount: money(row.amount), days: row.days, dailyRate: ppmToPercent(row.dailyRatePpm),
    penaltyRate: ppmToPercent(row.penaltyRatePpm), totalInterest: money(totalInterest(termsOf(row))),
    status: row.status as LoanStatus, interest: money(row.interest), repaid: money(row.repaid), owed: money(owed),
    overdue: row.status === 'active' && row.dueAt !== null && now.getTime() >= row.dueAt.getTime(),
    termsHash: row.termsHash, signedAt: row.signedAt.getTime(), createdAt: row.createdAt.getTime(),
    ...(row.rejectReason ? { rejectReason: row.rejectReason } : {}),
    ...(row.startsAt ? { startsAt: row.startsAt.getTime() } : {}),
    ...(row.dueAt ? { dueAt: row.dueAt.getTime() } : {}),
    ...(row.closedAt ? { closedAt: row.closedAt.getTime() } : {}),
  };
  if (row.type === 'pledge' && row.collateralAsset) {
    wire.collateralAsset = row.collateralAsset;
    wire.collateral = formatAmount(row.collateral ?? 0n, scales.get(row.collateralAsset) ?? 8);
    wire.marginCalled = row.marginCalledAt !== null;
    if (row.marginCallLtvBp !== null) wire.marginCallLtv = bpToPercent(row.marginCallLtvBp);
    if (row.liquidationLtvBp !== null) wire.liquidationLtv = bpToPercent(row.liquidationLtvBp);
    if (row.liquidationFeeBp !== null) wire.liquidationFee = bpToPercent(row.liquidationFeeBp);
    const symbol = collateralSymbol(row.collateralAsset);
    const price = symbol ? priceOf?.(symbol) : undefined;
    if (price && symbol) {
      const debt = row.status === 'pending' ? row.amount : owed;
      wire.price = formatAmount(price.priceUnits, price.pricePrecision);
      wire.ltv = formatAmount(ltvBp(debt, row.collateral ?? 0n, price.priceUnits, scalesOf(scales, row, symbol)), 2);
    }
    if (row.liquidation) wire.liquidation = row.liquidation;
  }
  return wire;
}

// ─── Reads ───────────────────────────────────────────────────────────────────────────────────────

export interface CreditLimit { kycLevel: number; vipLevel: number; limit: bigint; used: bigint; available: bigint }

/** The verification level's loan limit plus the VIP level's credit limit, minus open credit loans. */
export async function creditLimit(db: Executor, userId: bigint, scale: number): Promise<CreditLimit> {
  const kycLevel = await userKycLevel(db, userId);
  const kycLimit = (await levelSettings(db, scale)).find((setting) => setting.level === kycLevel)?.loanLimit ?? 0n;
  const vipLevel = await userVipLevel(db, userId);
  const [vip] = await db.select({ creditLimit: vipLevels.creditLimit }).from(vipLevels).where(eq(vipLevels.level, vipLevel)).limit(1);
  const limit = kycLimit + (vip?.creditLimit ?? 0n);
  const [row] = await db.select({ used: sql<string>`coalesce(sum(${loans.amount}), 0)::text` }).from(loans)
    .where(and(eq(loans.userId, userId), eq(loans.type, 'credit'), inArray(loans.status, ['pending', 'active'])));
  const used = BigInt(row?.used ?? '0');
  return { kycLevel, vipLevel, limit, used, available: limit > used ? limit - used : 0n };
}

export async function loanInfo(db: Executor, userId: bigint): Promise<LoanInfo> {
  const scales = await assetScales(db);
  const usdtScale = scales.get('USDT') ?? 6;
  const limit = await creditLimit(db, userId, usdtScale);
  const open = await db.select().from(loans).where(and(eq(loans.userId, userId), inArray(loans.status, ['pending', 'active'])));
  const owed = new Map<string, bigint>();
  for (const row of open) if (row.status === 'active') owed.set(row.asset, (owed.get(row.asset) ?? 0n) + owedOf(row));
  return {
    kycLevel: limit.kycLevel, vipLevel: limit.vipLevel, creditLimit: formatAmount(limit.limit, usdtScale),
    creditUsed: formatAmount(limit.used, usdtScale), creditAvailable: formatAmount(limit.available, usdtScale),
    owed: [...owed].map(([asset, amount]) => ({ asset, amount: formatAmount(amount, scales.get(asset) ?? 6) })),
    activeLoans: open.filter((row) => row.status === 'active').length,
    pendingLoans: open.filter((row) => row.status === 'pending').length,
  };
}

export async function listUserLoans(db: Executor, conditions: SQL[], pageNo: number, pageSize: number) {
  const where = and(...conditions);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(loans).where(where);
  const rows = await db.select().from(loans).where(where).orderBy(desc(loans.id)).limit(pageSize).offset((pageNo - 1) * pageSize);
  return { rows, total: Number(total) };
}

export async function myLoans(db: Executor, userId: bigint, query: Static<typeof MyLoansQuery>, now: Date, priceOf?: PriceOf): Promise<PageOf<Loan>> {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 20;
  const conditions = [eq(loans.userId, userId), ...(query.status ? [eq(loans.status, query.status)] : [])];
  const { rows, total } = await listUserLoans(db, conditions, pageNo, pageSize);
  const scales = await assetScales(db);
  return {
    records: rows.map((row) => loanToWire(row, scales, now, priceOf)), total, size: pageSize, current: pageNo,
    pages: Math.ceil(total / pageSize),
  };
}

const loanNotFound = () => notFound('loan_not_found', 'This loan was not found.');

/** The user's own loan; another user's id answers exactly as a missing one. */
export async function ownLoan(db: Executor, userId: bigint, id: bigint, lock = false): Promise<LoanRow> {
  const query = db.select().from(loans).where(and(eq(loans.id, id), eq(loans.userId, userId))).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw loanNotFound();
  return row;
}

export async function loanById(db: Executor, id: bigint, lock = false): Promise<LoanRow> {
  const query = db.select().from(loans).where(eq(loans.id, id)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw loanNotFound();
  return row;
}

// ─── The agreement ───────────────────────────────────────────────────────────────────────────────

async function borrowerOf(db: Executor, userId: bigint): Promise<Borrower> {
  const [user] = await db.select({ email: users.email, phone: users.phone, cc: users.phoneCountryCode, username: users.username })
    .from(users).where(eq(users.id, userId)).limit(1);
  assert(user, `user ${userId} exists`);
  const contact = user.email ?? (user.phone ? `+${user.cc ?? ''} ${user.phone}` : user.username ?? 'no contact');
  return { id: userId, contact };
}

function parseMoney(text: string, scale: number, what: string): bigint {
  const parsed = parseAmount(text, scale);
  if (!parsed.ok) {
    const messages: Record<string, string> = {
      amount_too_many_decimals: `The ${what} has more than ${scale} decimals.`,
    };
    throw badRequest(parsed.refusal, messages[parsed.refusal] ?? `The ${what} is not a valid amount.`);
  }
  if (parsed.atomic <= 0n) throw badRequest('amount_not_positive', `The ${what} must be more than zero.`);
  return parsed.atomic;
}

interface CheckedFigures { setting: LoanSettingRow; amount: bigint; days: number; collateral?: bigint; scales: Map<string, number> }

/** The offer and the figures, checked in order: offer, enabled, amount, days, collateral's form. */
async function checkFigures(db: Executor, type: LoanType | undefined, query: { settingId: string; amount: string; days: number; collateral?: string }, lock = false): Promise<CheckedFigures> {
  const setting = await loanSettingById(db, BigInt(query.settingId), lock);
  if (!setting || (type === 'credit' && setting.type !== 'credit')) {
    throw notFound('loan_setting_not_found', type === 'credit' && setting ? 'This offer is not a credit loan.' : 'There is no such loan offer.');
  }
  if (type === 'pledge' && (setting.type !== 'pledge' || !collateralSymbol(setting.collateralAsset))) {
    throw badRequest('collateral_unsupported', 'This offer takes no collateral: choose a BTC or ETH pledge offer.');
  }
  if (!setting.enabled) throw conflict('loan_disabled', 'This loan offer is closed for now.');
  const scales = await assetScales(db);
  const scale = scales.get(setting.asset)!;
  const amount = parseMoney(query.amount, scale, 'loan amount');
  if (amount < setting.minAmount || amount > setting.maxAmount) {
    throw badRequest('loan_amount_out_of_range',
      `The amount must be from ${formatAmount(setting.minAmount, scale)} to ${formatAmount(setting.maxAmount, scale)} ${setting.asset}.`);
  }
  if (query.days < setting.minDays || query.days > setting.maxDays) {
    throw badRequest('loan_days_out_of_range', `The term must be from ${setting.minDays} to ${setting.maxDays} days.`);
  }
  let collateral: bigint | undefined;
  if (setting.type === 'pledge') {
    if (query.collateral === undefined) throw badRequest('invalid_request', 'A pledge loan needs the collateral amount.');
    collateral = parseMoney(query.collateral, scales.get(setting.collateralAsset!)!, 'collateral');
  }
  return { setting, amount, days: query.days, collateral, scales };
}

export async function agreementFor(db: Executor, userId: bigint, query: Static<typeof AgreementQuery>) {
  const figures = await checkFigures(db, undefined, query);
  const terms = agreementTerms(await borrowerOf(db, userId), figures.setting, figures, {
    loan: figures.scales.get(figures.setting.asset)!, collateral: figures.setting.collateralAsset ? figures.scales.get(figures.setting.collateralAsset) : undefined,
  });
  return { terms, termsHash: sha256Hex(terms) };
}

// ─── Transfers ───────────────────────────────────────────────────────────────────────────────────

/** Posts a batch in the caller's transaction; a balance the user lacks is their error, anything else a bug. */
export async function post(tx: Tx, batch: NewTransferRequest[], clock: Clock, lacking: () => string) {
  const result = await postTransfers(tx, batch, clock);
  if (result.ok) return result;
  if (result.refusal === 'exceeds_credits') throw new AppError(400, 'balance_insufficient', lacking());
  throw new Error(`loan transfer ${batch[result.index].id} refused: ${result.refusal}`);
}

export async function userAccount(tx: Executor, userId: bigint, asset: string, kind: 'spot' | 'loan' | 'collateral') {
  const [id] = await openAccounts(tx, [{ ledger: 'real', asset, kind, ownerUserId: userId }]);
  return id;
}

export async function systemAccount(tx: Executor, asset: string, kind: 'loan_interest' | 'house' | 'fees', loanId: bigint) {
  const [id] = await openAccounts(tx, [{ ledger: 'real', asset, kind, shard: systemShard(`loan:${loanId}`) }]);
  return id;
}

/**
 * Charges loan days charged+1..target (interest, and the penalty for days past the term) in the
 * caller's transaction, the loan row locked; answers the row as updated. Transfer ids carry the
 * last day charged, so the same days can never be charged twice.
 */
export async function chargeThrough(tx: Tx, row: LoanRow, target: number, clock: Clock): Promise<LoanRow> {
  assert(row.status === 'active' && row.startsAt, `loan ${row.id} is active`);
  const charged = daysCharged(row.startsAt, row.lastAccruedDay);
  if (target <= charged) return row;
  const { interest, penalty } = chargesBetween(termsOf(row), charged, target);
  const batch = await chargeTransfers(tx, row, target, interest, penalty);
  if (batch.length > 0) await post(tx, batch, clock, () => 'unreachable');
  const lastAccruedDay = loanDayDate(row.startsAt, target);
  const [updated] = await tx.update(loans).set({ interest: row.interest + interest + penalty, lastAccruedDay })
    .where(eq(loans.id, row.id)).returning();
  return updated;
}

export async function chargeTransfers(tx: Executor, row: LoanRow, target: number, interest: bigint, penalty: bigint): Promise<NewTransferRequest[]> {
  if (interest === 0n && penalty === 0n) return [];
  const debt = await userAccount(tx, row.userId, row.asset, 'loan');
  const income = await systemAccount(tx, row.asset, 'loan_interest', row.id);
  const reference = `loan:${row.id}`;
  return [
    ...(interest > 0n ? [{ id: `loan-int:${row.id}:${target}`, kind: 'loan_interest' as const, reference, amountAtomic: interest, debitAccountId: debt, creditAccountId: income, remark: `days to ${target}` }] : []),
    ...(penalty > 0n ? [{ id: `loan-pen:${row.id}:${target}`, kind: 'loan_penalty' as const, reference, amountAtomic: penalty, debitAccountId: debt, creditAccountId: income, remark: `days to ${target}` }] : []),
  ];
}

// ─── Messages ────────────────────────────────────────────────────────────────────────────────────

/**
 * Loan events' internal messages. The kinds are new to the content contract's list (messageKinds):
 * the column is text and the wire's kind a string, so they are written now and the app words them
 * once the list names them.
 */
export type LoanMessageKind = Extract<MessageKind, `loan_${string}`>;

export async function loanMessage(tx: Tx, row: LoanRow, kind: LoanMessageKind, params: Record<string, string>, now: Date, dedupeSuffix = params.at) {
  return writeMessage(tx, {
    userId: row.userId, kind, category: 'money', route: '/jiedaiOrder',
    params: { id: String(row.id), type: row.type, asset: row.asset, ...params }, dedupeKey: `loan:${row.id}:${kind}${dedupeSuffix ? `:${dedupeSuffix}` : ''}`,
  }, now);
}

// ─── Applying ────────────────────────────────────────────────────────────────────────────────────

type ApplyBody = Static<typeof CreditApplyBody> | Static<typeof PledgeApplyBody>;

/** Loan applications one user may file in 24 hours, of both types together. */
export const loanApplicationsPerUserPerDay = 10;

/**
 * Application attempts one user may make in an hour, refused ones and retries included (issue 38:
 * the ten a day count filed applications only, so an attempt refused late, on the collateral's
 * balance, cost the server a signature check and a transaction for free). Counted first, before
 * the signature is read. Thirty leaves an honest user room for a few refusals a day and their
 * retries; it is counted by the app's limiter (per instance, or in Redis shared by all).
 */
export const loanApplyAttemptsPerUserPerHour = 30;
const hourMs = 3_600_000;

async function countApplyAttempt(services: Services, userId: bigint) {
  try {
    await services.limiter.hit(`loan-apply:${userId}`, loanApplyAttemptsPerUserPerHour, hourMs);
  } catch (error) {
    if (!(error instanceof AppError) || error.errorCode !== 'rate_limited') throw error;
    throw rateLimited(Number(error.extra.retryAfterSeconds) || 60,
      `You have tried to apply for a loan ${loanApplyAttemptsPerUserPerHour} times in the last hour; please try again later.`);
  }
}

/**
 * Files an application (status pending). A retry with the same clientOrderId answers the first
 * loan whatever changed since. The checks run in this order, the first failing answers: attempts
 * in the hour, the signature (both before the transaction: reading and decoding an image never
 * holds the user's lock or a connection); then, under the user's lock, the applications filed in
 * 24 hours, offer, enabled, amount, days, one open loan per type, credit limit, terms, collateral's
 * LTV at the feed price, the spot balance (collateral locked at once).
 */
export async function applyLoan(services: Services, userId: bigint, type: LoanType, body: ApplyBody, priceOf: PriceOf): Promise<{ row: LoanRow; replayed: boolean }> {
  const { db, clock } = services;
  await countApplyAttempt(services, userId);
  // A retry of a filed application answers it at once, whatever its signature is by today's rules
  // (read again under the lock below, in case the first attempt is still in flight).
  const [filed] = await db.select().from(loans).where(and(eq(loans.userId, userId), eq(loans.clientOrderId, body.clientOrderId))).limit(1);
  if (filed) return { row: filed, replayed: true };
  await checkSignature(db, services.uploads, userId, body.signatureFileId);
  return db.transaction(async (tx) => {
    // One application of a user at a time: the open-loan and limit checks hold until commit.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [existing] = await tx.select().from(loans).where(and(eq(loans.userId, userId), eq(loans.clientOrderId, body.clientOrderId))).limit(1);
    if (existing) return { row: existing, replayed: true };
    // Each application filed is a review for an operator: at most so many in 24 hours, counted from
    // the filed rows under the user's lock (a refused attempt files nothing and does not count).
    const since = new Date(clock.now().getTime() - dayMs);
    const recent = await tx.select({ createdAt: loans.createdAt }).from(loans)
      .where(and(eq(loans.userId, userId), gt(loans.createdAt, since))).orderBy(loans.createdAt);
    if (recent.length >= loanApplicationsPerUserPerDay) {
      const retryAfterMs = recent[recent.length - loanApplicationsPerUserPerDay].createdAt.getTime() + dayMs - clock.now().getTime();
      throw rateLimited(Math.max(1, Math.ceil(retryAfterMs / 1000)),
        `You have sent ${loanApplicationsPerUserPerDay} loan applications in the last 24 hours; please try again later.`);
    }
    const collateralText = 'collateral' in body ? body.collateral : undefined;
    const figures = await checkFigures(tx, type, { ...body, collateral: collateralText }, true);
    const { setting, amount, days, collateral, scales } = figures;
    const scale = scales.get(setting.asset)!;
    const [open] = await tx.select({ id: loans.id }).from(loans)
      .where(and(eq(loans.userId, userId), eq(loans.type, type), inArray(loans.status, ['pending', 'active']))).limit(1);
    if (open) throw conflict('loan_already_open', `You have a ${type} loan under review or running (${open.id}); repay it before applying again.`);
    if (type === 'credit') {
      const limit = await creditLimit(tx, userId, scale);
      if (amount > limit.available) {
        throw badRequest('loan_over_limit', `You may borrow up to ${formatAmount(limit.available, scale)} ${setting.asset} now (limit ${formatAmount(limit.limit, scale)}).`);
      }
    }
    const terms = agreementTerms(await borrowerOf(tx, userId), setting, figures, {
      loan: scale, collateral: setting.collateralAsset ? scales.get(setting.collateralAsset) : undefined,
    });
    const termsHash = sha256Hex(terms);
    if (termsHash !== body.termsHash) {
      throw conflict('loan_terms_changed', 'The terms changed since you read them: please read the agreement again and sign it.');
    }
    if (type === 'pledge') checkInitialLtv(setting, amount, collateral!, scales, priceOf, clock.now().getTime());
    const now = clock.now();
    const [row] = await tx.insert(loans).values({
      userId, settingId: setting.id, type, clientOrderId: body.clientOrderId, asset: setting.asset, amount, days,
      dailyRatePpm: setting.dailyRatePpm, penaltyRatePpm: setting.penaltyRatePpm, status: 'pending',
      collateralAsset: setting.collateralAsset, collateral: collateral ?? null, signatureUploadId: body.signatureFileId,
      // The thresholds and fee the borrower signed stay the loan's, whatever the offer says later.
      ...(type === 'pledge' ? {
        marginCallLtvBp: setting.marginCallLtvBp, liquidationLtvBp: setting.liquidationLtvBp, liquidationFeeBp: setting.liquidationFeeBp,
      } : {}),
      terms, termsHash, signedAt: now, createdAt: now,
    }).returning();
    if (type === 'pledge') {
      const asset = setting.collateralAsset!;
      await post(tx, [{
        id: `loan-collateral:${row.id}`, kind: 'collateral_lock', reference: `loan:${row.id}`, amountAtomic: collateral!,
        debitAccountId: await userAccount(tx, userId, asset, 'spot'), creditAccountId: await userAccount(tx, userId, asset, 'collateral'),
      }], clock, () => `The balance does not cover ${formatAmount(collateral!, scales.get(asset)!)} ${asset} of collateral.`);
    }
    return { row, replayed: false };
  });
}

function checkInitialLtv(setting: LoanSettingRow, amount: bigint, collateral: bigint, scales: Map<string, number>, priceOf: PriceOf, nowMs: number) {
  const symbol = collateralSymbol(setting.collateralAsset)!;
  const price = priceOf(symbol);
  if (!price || nowMs - price.timeMs > priceFreshnessMs || price.priceUnits <= 0n) {
    throw new AppError(503, 'market_unavailable', `There is no current ${symbol} price to value the collateral; try again in a moment.`);
  }
  const collateralScales = scalesOf(scales, { asset: setting.asset, collateralAsset: setting.collateralAsset }, symbol);
  if (ltvAbove(amount, collateral, price.priceUnits, setting.initialLtvBp!, collateralScales)) {
    const ltv = formatAmount(ltvBp(amount, collateral, price.priceUnits, collateralScales), 2);
    throw badRequest('collateral_insufficient',
      `At ${formatAmount(price.priceUnits, price.pricePrecision)} USDT the loan would be ${ltv} % of the collateral's value; at most ${bpToPercent(setting.initialLtvBp!)} % is allowed. Add collateral or borrow less.`);
  }
}

// ─── Review ──────────────────────────────────────────────────────────────────────────────────────

export interface Decided { before: LoanRow; after: LoanRow; messages: WrittenMessage[] }

/**
 * Pays the loan out: the user's loan account debited, spot credited, the term starts now. A pledge
 * loan is paid out only while its collateral still covers it (checkApprovalLtv).
 */
export async function approveLoan(tx: Tx, id: bigint, operatorId: bigint, clock: Clock): Promise<Decided> {
  const before = await loanById(tx, id, true);
  if (before.status !== 'pending') throw conflict('loan_decided', `This loan was decided already (${before.status}).`);
  const now = clock.now();
  if (before.type === 'pledge') await checkApprovalLtv(tx, before, now.getTime());
  await post(tx, [{
    id: `loan-disburse:${id}`, kind: 'loan_disbursal', reference: `loan:${id}`, amountAtomic: before.amount,
    debitAccountId: await userAccount(tx, before.userId, before.asset, 'loan'), creditAccountId: await userAccount(tx, before.userId, before.asset, 'spot'),
  }], clock, () => 'unreachable');
  const [after] = await tx.update(loans).set({
    status: 'active', reviewedBy: operatorId, reviewedAt: now, startsAt: now, dueAt: new Date(now.getTime() + before.days * dayMs),
  }).where(eq(loans.id, id)).returning();
  const scale = (await assetScales(tx)).get(before.asset) ?? 6;
  const message = await loanMessage(tx, after, 'loan_approved', {
    amount: formatAmount(after.amount, scale), dueAt: after.dueAt!.toISOString(),
  }, now);
  return { before, after, messages: message ? [message] : [] };
}

/**
 * The collateral was valued when the user applied; the review may come hours later, after the
 * price fell (issue 38). So the LTV of the amount is computed again at the last recorded tick of
 * the collateral's symbol (the feed's stored price, the same on every instance) against the
 * offer's initial LTV as it stands now, and the approval is refused above it: nothing is paid out,
 * the application stays pending, and the operator may reject it or wait for the price.
 */
async function checkApprovalLtv(tx: Tx, row: LoanRow, nowMs: number) {
  const symbol = collateralSymbol(row.collateralAsset);
  const offer = await loanSettingById(tx, row.settingId);
  assert(symbol && offer && offer.initialLtvBp !== null && row.collateral !== null, `pledge loan ${row.id} has its collateral and offer`);
  const tick = await lastTickAt(tx, symbol, nowMs);
  if (!tick || nowMs - tick.timeMs > priceFreshnessMs || tick.priceUnits <= 0n) {
    throw new AppError(503, 'market_unavailable', `There is no current ${symbol} price to value the collateral; try again in a moment.`);
  }
  const scales = scalesOf(await assetScales(tx), row, symbol);
  if (!ltvAbove(row.amount, row.collateral, tick.priceUnits, offer.initialLtvBp, scales)) return;
  const ltv = formatAmount(ltvBp(row.amount, row.collateral, tick.priceUnits, scales), 2);
  const price = formatAmount(tick.priceUnits, scales.pricePrecision);
  const initialLtv = bpToPercent(offer.initialLtvBp);
  throw new AppError(409, 'loan_ltv_above_initial',
    `At ${price} USDT (tick ${tick.id}) the loan is ${ltv} % of the collateral's value, above the offer's initial ${initialLtv} %: it cannot be paid out now. Reject it, or approve it when the price allows.`,
    { ltv, initialLtv, price, symbol, tickId: String(tick.id), tickTime: tick.timeMs });
}

/** Refuses the application with a reason the user reads; pledged collateral goes back to spot. */
export async function rejectLoan(tx: Tx, id: bigint, operatorId: bigint, reason: string, clock: Clock): Promise<Decided> {
  const before = await loanById(tx, id, true);
  if (before.status !== 'pending') throw conflict('loan_decided', `This loan was decided already (${before.status}).`);
  const now = clock.now();
  if (before.type === 'pledge' && before.collateral && before.collateral > 0n) await releaseCollateral(tx, before, clock);
  const [after] = await tx.update(loans).set({
    status: 'rejected', rejectReason: reason, reviewedBy: operatorId, reviewedAt: now, closedAt: now,
  }).where(eq(loans.id, id)).returning();
  const message = await loanMessage(tx, after, 'loan_rejected', { reason }, now);
  return { before, after, messages: message ? [message] : [] };
}

async function releaseCollateral(tx: Tx, row: LoanRow, clock: Clock) {
  const asset = row.collateralAsset!;
  await post(tx, [{
    id: `loan-collateral-release:${row.id}`, kind: 'collateral_release', reference: `loan:${row.id}`, amountAtomic: row.collateral!,
    debitAccountId: await userAccount(tx, row.userId, asset, 'collateral'), creditAccountId: await userAccount(tx, row.userId, asset, 'spot'),
  }], clock, () => 'unreachable');
}

// ─── Repaying and collateral ─────────────────────────────────────────────────────────────────────

/**
 * Repays `amountText` (everything owed when absent): first the interest of the days used (a
 * started day counts) not charged yet, then spot → loan. Fully repaid: status repaid and a
 * pledge's collateral back to spot.
 */
export async function repayLoan(services: Services, userId: bigint, id: bigint, amountText: string | undefined, priceOf?: PriceOf): Promise<LoanRow> {
  const { db, clock } = services;
  return db.transaction(async (tx) => {
    let row = await ownLoan(tx, userId, id, true);
    if (row.status !== 'active') throw conflict('loan_not_active', `This loan is ${row.status}: there is nothing to repay.`);
    const now = clock.now();
    row = await chargeThrough(tx, row, startedDays(row.startsAt!, now), clock);
    const owed = owedOf(row);
    const scale = (await assetScales(tx)).get(row.asset)!;
    const amount = amountText === undefined ? owed : parseMoney(amountText, scale, 'repayment');
    if (amount > owed) {
      throw badRequest('repay_exceeds_owed', `The loan owes ${formatAmount(owed, scale)} ${row.asset} now (interest for the days used included).`);
    }
    const repaid = row.repaid + amount;
    await post(tx, [{
      id: `loan-repay:${row.id}:${repaid}`, kind: 'loan_repayment', reference: `loan:${row.id}`, amountAtomic: amount,
      debitAccountId: await userAccount(tx, userId, row.asset, 'spot'), creditAccountId: await userAccount(tx, userId, row.asset, 'loan'),
    }], clock, () => `The balance does not cover ${formatAmount(amount, scale)} ${row.asset}.`);
    const full = amount === owed;
    const [after] = await tx.update(loans).set({ repaid, ...(full ? { status: 'repaid', closedAt: now } : {}) })
      .where(eq(loans.id, row.id)).returning();
    if (full && after.type === 'pledge' && after.collateral && after.collateral > 0n) await releaseCollateral(tx, after, clock);
    return full ? after : rearmMarginCall(tx, after, priceOf);
  });
}

/** Moves more collateral from spot into the pledge (active loans only). */
export async function addCollateral(services: Services, userId: bigint, id: bigint, amountText: string, priceOf?: PriceOf): Promise<LoanRow> {
  const { db, clock } = services;
  return db.transaction(async (tx) => {
    const row = await ownLoan(tx, userId, id, true);
    if (row.type !== 'pledge' || !row.collateralAsset) throw badRequest('collateral_unsupported', 'A credit loan takes no collateral.');
    if (row.status !== 'active') throw conflict('loan_not_active', `This loan is ${row.status}: collateral can be added to a running loan only.`);
    const asset = row.collateralAsset;
    const scale = (await assetScales(tx)).get(asset)!;
    const amount = parseMoney(amountText, scale, 'collateral');
    const total = (row.collateral ?? 0n) + amount;
    await post(tx, [{
      id: `loan-collateral:${row.id}:${total}`, kind: 'collateral_lock', reference: `loan:${row.id}`, amountAtomic: amount,
      debitAccountId: await userAccount(tx, userId, asset, 'spot'), creditAccountId: await userAccount(tx, userId, asset, 'collateral'),
    }], clock, () => `The balance does not cover ${formatAmount(amount, scale)} ${asset}.`);
    const [after] = await tx.update(loans).set({ collateral: total }).where(eq(loans.id, row.id)).returning();
    return rearmMarginCall(tx, after, priceOf);
  });
}

/**
 * The margin-call and liquidation LTVs and the fee a loan was signed with (stored on the loan since
 * migration 0018); a loan made before that falls back to its offer's figures.
 */
export function signedThresholds(row: LoanRow, offer: LoanSettingRow) {
  return {
    marginCallLtvBp: row.marginCallLtvBp ?? offer.marginCallLtvBp,
    liquidationLtvBp: row.liquidationLtvBp ?? offer.liquidationLtvBp,
    liquidationFeeBp: row.liquidationFeeBp ?? offer.liquidationFeeBp,
  };
}

/**
 * After collateral is added or part of a pledge loan repaid: when the LTV at the feed's price is
 * back under the margin-call threshold the loan was signed with, a margin call made earlier is
 * cleared, so the next time the LTV reaches it the borrower is told again. Without a price the
 * call stays (the monitor then watches only the liquidation threshold, as before).
 */
async function rearmMarginCall(tx: Tx, row: LoanRow, priceOf: PriceOf | undefined): Promise<LoanRow> {
  if (row.type !== 'pledge' || row.status !== 'active' || row.marginCalledAt === null || !priceOf) return row;
  const symbol = collateralSymbol(row.collateralAsset);
  const price = symbol ? priceOf(symbol) : undefined;
  if (!symbol || !price) return row;
  const offer = await loanSettingById(tx, row.settingId);
  const marginCallLtvBp = offer ? signedThresholds(row, offer).marginCallLtvBp : row.marginCallLtvBp;
  if (marginCallLtvBp === null) return row;
  const scales = scalesOf(await assetScales(tx), row, symbol);
  if (ltvReached(owedOf(row), row.collateral ?? 0n, price.priceUnits, marginCallLtvBp, scales)) return row;
  const [after] = await tx.update(loans).set({ marginCalledAt: null }).where(eq(loans.id, row.id)).returning();
  return after;
}
