// What the KYC server tests share: identity photos uploaded as the app uploads them (multipart,
// purpose identity), a basic application with both photos, and an operator's decision through
// the real back-office login.
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { kycAdminPaths, kycPaths } from '../../../src/api/contract/identity.ts';
import { kycApplications } from '../../../server/db/schema.ts';
import { createOperator, operatorLogin, type TestOperator } from '../adminHelpers.ts';
import { expectOk, type Reply, type TestServer } from '../helpers.ts';
import { upload } from '../wallet/walletHelpers.ts';

/** A small document-like PNG: a light card with a dark band (distinct pixels per seed). */
export async function documentPhoto(seed = 0): Promise<Buffer> {
  const band = await sharp({ create: { width: 60, height: 8, channels: 3, background: { r: 20 + seed, g: 30, b: 40 } } }).png().toBuffer();
  return sharp({ create: { width: 80, height: 50, channels: 3, background: { r: 230, g: 225 - seed, b: 210 } } })
    .composite([{ input: band, top: 30, left: 10 }]).png().toBuffer();
}

export async function uploadIdentity(server: TestServer, token: string, seed = 0): Promise<string> {
  return expectOk(await upload(server, token, { bytes: await documentPhoto(seed), filename: 'id.png', contentType: 'image/png' }, 'identity'))
    .body.result.id as string;
}

export const basicFields = { surname: 'Lovelace', firstName: 'Ada', idType: 'passport', idNumber: 'X1234-5678' } as const;

export async function applyBasic(server: TestServer, token: string, fields: Record<string, unknown> = {}): Promise<Reply> {
  const front = fields.frontFileId ?? await uploadIdentity(server, token, 1);
  const back = fields.backFileId ?? await uploadIdentity(server, token, 2);
  return server.post(kycPaths.applyBasic, { ...basicFields, ...fields, frontFileId: front, backFileId: back }, { token });
}

export const advancedFields = {
  currentAddress: '12 Rue de Rivoli, Paris', emergencySurname: 'Byron', emergencyName: 'Anne', emergencyRelationship: 'mother',
  emergencyPhone: '+33 1 23 45 67 89', emergencyAddress: '3 Piccadilly, London',
} as const;

export interface Reviewer { operator: TestOperator; token: string; id: string }

export async function reviewer(server: TestServer, role: 'admin' | 'finance' = 'admin'): Promise<Reviewer> {
  const operator = await createOperator(server, role);
  const token = await operatorLogin(server, operator);
  const [row] = await server.query<{ id: string }>(sql`select id::text from operators where email = ${operator.email}`);
  return { operator, token, id: row.id };
}

const withId = (path: string, id: string) => path.replace(':id', id);

export const approve = (server: TestServer, op: Reviewer, id: string) => server.post(withId(kycAdminPaths.approve, id), {}, { token: op.token });
export const reject = (server: TestServer, op: Reviewer, id: string, reason = 'The photo of the back is unreadable.') =>
  server.post(withId(kycAdminPaths.reject, id), { reason }, { token: op.token });

/** A user verified to `level` (1 or 2) by an operator. */
export async function verifyTo(server: TestServer, token: string, op: Reviewer, level: 1 | 2) {
  const basic = expectOk(await applyBasic(server, token)).body.result.id as string;
  expectOk(await approve(server, op, basic));
  if (level === 2) {
    const advanced = expectOk(await server.post(kycPaths.applyAdvanced, advancedFields, { token })).body.result.id as string;
    expectOk(await approve(server, op, advanced));
  }
}

/**
 * Marks a user verified to `level` straight in the database (as `fund` credits money without a
 * deposit): for tests about something else that need a verified user (a large withdrawal, say).
 */
export async function markVerified(server: TestServer, userId: bigint, level: 1 | 2 = 1) {
  const now = server.clock.now();
  for (const at of level === 2 ? [1, 2] : [1]) {
    await server.db.insert(kycApplications).values({
      userId, level: at, status: 'approved', details: { note: 'verified by the test harness' }, decidedAt: now, createdAt: now,
    });
  }
}
