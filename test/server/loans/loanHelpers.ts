// What the loan tests share: a borrower (verified to a level with a loan limit, funded), a drawn
// or blank signature uploaded as the app uploads it (purpose loan_signature) or stored as an older
// upload was, signature images of any size, the agreement's hash as the app reads it, an operator,
// feed prices published on the app's market bus (and recorded, so a liquidation can cite its
// tick), and a snapshot of everything a refusal must leave as it was.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { loanAdminPaths, loanPaths, type LoanSetting } from '../../../src/api/contract/loans.ts';
import { ledgerAccounts, uploads } from '../../../server/db/schema.ts';
import { saveUpload } from '../../../server/domain/kernel/uploads.ts';
import { insertTicks } from '../../../server/domain/core/market/store.ts';
import { parsePrice, symbolByCode } from '../../../server/domain/core/market/symbols.ts';
import { verifyLedger } from '../../../server/domain/kernel/ledger/verify.ts';
import { loanMonitors } from '../../../server/routes/loans.ts';
import { expectOk, type Account, type Reply, type TestServer } from '../helpers.ts';
import { createOperator, operatorLogin } from '../adminHelpers.ts';
import { fund } from '../wallet/withdrawHelpers.ts';
import { markVerified } from '../identity/kycHelpers.ts';

export interface Borrower extends Account { userId: bigint }

export async function borrower(server: TestServer, funds: Record<string, string> = {}, kycLevel: 0 | 1 | 2 = 1): Promise<Borrower> {
  const account = await server.registerByEmail();
  const userId = (await server.userByEmail(account.email!)).id;
  if (kycLevel > 0) await markVerified(server, userId, kycLevel as 1 | 2);
  for (const [currency, amount] of Object.entries(funds)) await fund(server, userId, amount, currency);
  return { ...account, userId };
}

/** A 120×40 PNG: a drawn stroke, or blank (every pixel the same). */
export async function signaturePng(blank = false): Promise<Buffer> {
  const width = 120;
  const height = 40;
  const pixels = Buffer.alloc(width * height * 4, 255);
  if (!blank) {
    for (let x = 10; x < 110; x += 1) {
      const y = 20 + Math.round(8 * Math.sin(x / 9));
      pixels.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 4 } }).png().toBuffer();
}

/**
 * A white `width` × `height` PNG with a dark stroke from 10 % to 90 % of its width, a third of its
 * height high (a pad's signature at that size), or with a 3 × 3 dot only (a tap).
 */
export async function drawnPng(width: number, height: number, ink: 'stroke' | 'dot' = 'stroke'): Promise<Buffer> {
  const marks = ink === 'dot'
    ? [{ left: Math.floor(width / 2), top: Math.floor(height / 2), width: 3, height: 3 }]
    : [{ left: Math.floor(width / 10), top: Math.floor(height / 3), width: Math.floor(width * 0.8), height: 3 },
      { left: Math.floor(width / 10), top: Math.floor(height / 3), width: 3, height: Math.max(3, Math.floor(height / 3)) }];
  return sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite(marks.map((mark) => ({ input: { create: { width: mark.width, height: mark.height, channels: 3, background: '#111827' } }, left: mark.left, top: mark.top })))
    .png({ compressionLevel: 1 }).toBuffer();
}

/** Stores `bytes` as a loan_signature upload of the user as it was before uploads bounded a signature's sides. */
export async function storeEarlierSignature(server: TestServer, userId: bigint, bytes: Buffer): Promise<string> {
  const id = randomBytes(16).toString('hex');
  const storedName = `${randomBytes(24).toString('hex')}.png`;
  await server.services.uploads.put(storedName, bytes);
  const { width, height } = await sharp(bytes).metadata();
  await server.db.insert(uploads).values({
    id, ownerUserId: userId, purpose: 'loan_signature', contentType: 'image/png', storedName, sizeBytes: bytes.length,
    width: width ?? null, height: height ?? null, createdAt: server.clock.now(),
  });
  return id;
}

export async function uploadSignature(server: TestServer, userId: bigint, options: { blank?: boolean; purpose?: 'loan_signature' | 'chat' } = {}) {
  const saved = await saveUpload(server.db, server.services.uploads, userId, options.purpose ?? 'loan_signature',
    await signaturePng(options.blank), server.clock.now());
  return saved.id;
}

export async function loanSettings(server: TestServer, token?: string): Promise<LoanSetting[]> {
  return expectOk(await server.get(loanPaths.settings, {}, token ? { token } : {})).body.result as LoanSetting[];
}

export async function settingOf(server: TestServer, type: 'credit' | 'pledge', collateralAsset?: string): Promise<LoanSetting> {
  const found = (await loanSettings(server)).find((setting) => setting.type === type && (collateralAsset === undefined || setting.collateralAsset === collateralAsset));
  if (!found) throw new Error(`no ${type} offer ${collateralAsset ?? ''}`);
  return found;
}

export async function termsHash(server: TestServer, user: Account, settingId: string, amount: string, days: number, collateral?: string) {
  const query: Record<string, string> = { settingId, amount, days: String(days), ...(collateral ? { collateral } : {}) };
  return expectOk(await server.get(loanPaths.agreement, query, { token: user.token })).body.result.termsHash as string;
}

/** Applies with a fresh signature and the terms' hash, unless `fields` say otherwise. */
export async function applyCredit(server: TestServer, user: Borrower, amount: string, days: number, fields: Record<string, unknown> = {}): Promise<Reply> {
  const setting = await settingOf(server, 'credit');
  const settingId = (fields.settingId as string | undefined) ?? setting.id;
  const hash = fields.termsHash ?? await termsHash(server, user, settingId, amount, days).catch(() => '0'.repeat(64));
  return server.post(loanPaths.creditApply, {
    settingId, amount, days, signatureFileId: fields.signatureFileId ?? await uploadSignature(server, user.userId),
    termsHash: hash, clientOrderId: fields.clientOrderId ?? server.unique('loan-order-'), ...fields,
  }, { token: user.token });
}

export async function applyPledge(server: TestServer, user: Borrower, collateralAsset: string, amount: string, collateral: string, days: number,
  fields: Record<string, unknown> = {}): Promise<Reply> {
  const setting = await settingOf(server, 'pledge', collateralAsset);
  const hash = fields.termsHash ?? await termsHash(server, user, setting.id, amount, days, collateral);
  return server.post(loanPaths.pledgeApply, {
    settingId: setting.id, amount, collateral, days, signatureFileId: fields.signatureFileId ?? await uploadSignature(server, user.userId),
    termsHash: hash, clientOrderId: server.unique('loan-order-'), ...fields,
  }, { token: user.token });
}

export async function operatorToken(server: TestServer): Promise<string> {
  return operatorLogin(server, await createOperator(server, 'admin'));
}

export const approve = (server: TestServer, token: string, id: string) =>
  server.post(loanAdminPaths.approve.replace(':id', id), {}, { token });
export const reject = (server: TestServer, token: string, id: string, reason: string) =>
  server.post(loanAdminPaths.reject.replace(':id', id), { reason }, { token });

/** Records a tick of `symbol` at the clock's now and publishes it as the feed does; waits for the LTV monitor. */
export async function publishPrice(server: TestServer, symbol: string, price: string) {
  const spec = symbolByCode.get(symbol)!;
  const priceUnits = parsePrice(price, spec.pricePrecision);
  const timeMs = server.clock.now().getTime();
  await insertTicks(server.db, [{ symbol, priceUnits, volumeUnits: 1n, timeMs }], 'test');
  await server.marketBus.publish({
    timeMs, candles: [],
    tickers: [{
      symbol, timeMs, last: priceUnits, open24h: priceUnits, high24h: priceUnits, low24h: priceUnits, volume24h: 0n, quoteVolume24h: 0n,
      open: true, source: 'test',
    }],
  });
  await monitorDrained(server);
}

export async function monitorDrained(server: TestServer) {
  const started = loanMonitors.get(server.services);
  if (!started) throw new Error('the loan routes started no LTV monitor');
  await started.ready;
  // Settling a fired loan refreshes the index, which may queue nothing more; twice covers a chain.
  await started.monitor.drained();
  await started.monitor.drained();
}

/** Every account's totals and the count of transfers and loans: what a refusal leaves as it was. */
export async function moneySnapshot(server: TestServer) {
  const accounts = await server.db.select().from(ledgerAccounts).orderBy(ledgerAccounts.id);
  const [counts] = await server.query<{ transfers: number; loans: number }>(sql`select
    (select count(*)::int from ledger_transfers) as transfers, (select count(*)::int from loans) as loans`);
  return { accounts, ...counts };
}

/** A user's posted balance of one account kind, atomic. */
export async function balanceOf(server: TestServer, userId: bigint, asset: string, kind: string): Promise<bigint> {
  const [row] = await server.query<{ balance: string }>(sql`select (credits_posted - debits_posted)::text as balance
    from ledger_accounts where owner_user_id = ${userId} and asset = ${asset} and kind = ${kind} and ledger = 1`);
  return row ? BigInt(row.balance) : 0n;
}

export async function expectLedgerSound(server: TestServer) {
  const check = await verifyLedger(server.db);
  expect(check.problems).toEqual([]);
  expect(check.chainValid && check.balancesValid && check.conserved).toBe(true);
}
