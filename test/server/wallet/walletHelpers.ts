// What the wallet's server tests share: uploads sent as the browser sends them (multipart, not
// encrypted), test images made with sharp (one with a GPS position in its EXIF), deposit
// addresses set as the demo seeds them, and the ledger check every test ends with.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { apiPrefix } from '../../../src/api/contract/paths.ts';
import { walletPaths } from '../../../src/api/contract/wallet.ts';
import { verifyLedger } from '../../../server/domain/kernel/ledger/verify.ts';
import { seedDemoDepositAddresses } from '../../../server/domain/core/wallet/currencies.ts';
import { approveRecharge, type AuditEntry } from '../../../server/domain/core/wallet/deposits.ts';
import { expectOk, type Reply, type TestServer } from '../helpers.ts';

export interface UploadPart { bytes: Buffer; filename?: string; contentType?: string }

/** A multipart/form-data body with a `file` part and the given text fields, as a form sends it. */
export function multipartBody(file: UploadPart | undefined, fields: Record<string, string>) {
  const boundary = `----bourse${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename ?? 'proof.jpg'}"\r\n`
      + `Content-Type: ${file.contentType ?? 'image/jpeg'}\r\n\r\n`));
    chunks.push(file.bytes, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function upload(server: TestServer, token: string | undefined, file: UploadPart | undefined,
  purpose: string | null = 'deposit_proof'): Promise<Reply> {
  const body = multipartBody(file, purpose === null ? {} : { purpose });
  const response = await server.app.inject({
    method: 'POST', url: `${apiPrefix}${walletPaths.upload}`, payload: body.payload,
    headers: { 'content-type': body.contentType, ...(token ? { 'x-access-token': token } : {}) },
    remoteAddress: '10.200.0.1',
  });
  let parsed: unknown;
  try { parsed = JSON.parse(response.body); } catch { parsed = response.body; }
  return { status: response.statusCode, headers: response.headers, body: parsed };
}

/** GETs a path under /api and keeps the raw bytes (for files). */
export async function getRaw(server: TestServer, pathUnderApi: string, token?: string) {
  const response = await server.app.inject({
    method: 'GET', url: `${apiPrefix}${pathUnderApi}`, headers: token ? { 'x-access-token': token } : {},
  });
  return { status: response.statusCode, headers: response.headers, bytes: response.rawPayload };
}

/** The GPS position a phone writes into a photo: what the server must never keep. */
export const secretPlace = 'Bourse test location 48.8584N 2.2945E';

/** A JPEG photo with EXIF (camera, artist, GPS), as phones take them. */
export async function photoWithExif(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 15', Artist: secretPlace },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 35/1 2/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 17/1 40/1' },
    })
    .toBuffer();
}

export async function pngImage(width = 32, height = 32): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 80, b: 160, alpha: 1 } } }).png().toBuffer();
}

export async function webpImage(): Promise<Buffer> {
  return sharp({ create: { width: 20, height: 20, channels: 3, background: '#336699' } }).webp().toBuffer();
}

export const pdfDocument = () => Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** Gives the seeded networks the demo's deposit addresses (a real install's operator sets its own). */
export async function withDepositAddresses(server: TestServer) {
  await seedDemoDepositAddresses(server.db);
}

export async function userIdOf(server: TestServer, email: string): Promise<bigint> {
  return (await server.userByEmail(email)).id;
}

/** Uploads a proof and applies for a deposit; answers the record. */
export async function applyDeposit(server: TestServer, token: string, fields: Record<string, unknown> = {}) {
  const proof = expectOk(await upload(server, token, { bytes: await pngImage() }));
  return expectOk(await server.post(walletPaths.rechargeApply, {
    currency: 'USDT', network: 'TRC20', amount: '100', proofFileId: proof.body.result.id, ...fields,
  }, { token })).body.result;
}

/**
 * The id of an operator to decide as: a fresh row of the operators table (a decision names a real
 * operator). The row cannot log in; tests of the operator API log in through adminHelpers.
 */
export async function operatorIdFor(server: TestServer): Promise<bigint> {
  const [row] = await server.query<{ id: string }>(sql`insert into operators (email, role, password_hash, totp_secret)
    values (${`${server.unique('decider')}@bourse.test`}, 'finance', 'not-a-login', 'JBSWY3DPEHPK3PXP') returning id::text as id`);
  return BigInt(row.id);
}

/** Approves a deposit as an operator through the domain, as the route does (the balanceMoved port wired), the audit entries kept in `audit`. */
export async function approveAsOperator(server: TestServer, id: string, operatorId?: bigint, audit: AuditEntry[] = []) {
  return approveRecharge(server.db, BigInt(id), {
    operatorId: operatorId ?? await operatorIdFor(server), clock: server.clock, audit: async (_tx, entry) => { audit.push(entry); },
    balanceMoved: server.services.ports.balanceMoved,
  });
}

/** The ledger check: chains valid, balances recompute, every asset sums to zero. */
export async function expectLedgerSound(server: TestServer) {
  const check = await verifyLedger(server.db);
  expect(check.problems).toEqual([]);
  expect(check.chainValid && check.balancesValid && check.conserved).toBe(true);
}

export async function balanceOf(server: TestServer, token: string, currency = 'USDT') {
  const answer = expectOk(await server.get(walletPaths.userBalance, {}, { token }));
  return (answer.body.result as Array<{ currency: string; available: string; frozen: string }>).find((row) => row.currency === currency)!;
}
