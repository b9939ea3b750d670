// Identity verification (KYC, issue 11). A user applies for level 1 (basic: name, ID type and
// number, front and back photos uploaded with purpose 'identity') and, once it is approved, for
// level 2 (advanced: address and an emergency contact). An application stays 'pending' until an
// operator approves it or rejects it with a reason; a rejected level may be applied for again. One
// pending application per user and level is guarded by a partial unique index, so two requests at
// once leave one. Operators read every field and the photos (each view audited); users read
// their own applications with the ID number masked.
import { createHash } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type {
  AdminKycApplication, ApplyAdvancedBody, ApplyBasicBody, KycApplication, KycDone, KycState, KycStatus,
} from '../../../../src/api/contract/identity.ts';
import type { PageOf } from '../../../../src/api/contract/wallet.ts';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import { kycApplications, uploads, users } from '../../../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../../../lib/errors.ts';
import type { Clock } from '../../../lib/time.ts';
import type { RateLimiter } from '../../../lib/rateLimiter.ts';
import { recordAudit } from '../../kernel/audit.ts';
import { uploadAnswer, type UploadRow, type UploadStorage } from '../../kernel/uploads.ts';
import { userKycLevel } from './kycLevels.ts';
import { writeMessage, type WrittenMessage } from '../../kernel/messages.ts';

export interface KycDeps { db: Db; clock: Clock; limiter: RateLimiter }

type ApplicationRow = typeof kycApplications.$inferSelect;

/** Applications one user may send a day (each one is a review for an operator). */
export const kycApplicationsPerUserPerDay = 20;
const dayMs = 86_400_000;

const photoInvalid = () => badRequest('kyc_photo_invalid',
  'Please take the front and the back photo of your document again: each must be a photo you uploaded for identity verification.');

/** Both photos: two different identity uploads of the caller. Another user's, a deposit proof, an unknown id: refused alike. */
async function requirePhotos(db: Executor, userId: bigint, frontFileId: string, backFileId: string) {
  if (frontFileId === backFileId) throw photoInvalid();
  const rows = await db.select({ id: uploads.id }).from(uploads).where(and(
    inArray(uploads.id, [frontFileId, backFileId]), eq(uploads.ownerUserId, userId), eq(uploads.purpose, 'identity'),
  ));
  if (rows.length !== 2) throw photoInvalid();
}

/** PostgreSQL's unique_violation on the one-pending index, as node-postgres and PGlite report it (wrapped by Drizzle). */
function isPendingViolation(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const { code, constraint } = cause as Error & { code?: string; constraint?: string };
    if (code === '23505') return constraint === undefined || constraint === 'kyc_applications_one_pending';
  }
  return false;
}

const pendingRefusal = () => conflict('kyc_pending', 'Your application is being reviewed. You will see the result here when it is decided.');

/** The latest application of each level. */
async function latestByLevel(db: Executor, userId: bigint): Promise<Map<number, ApplicationRow>> {
  const rows = await db.select().from(kycApplications).where(eq(kycApplications.userId, userId))
    .orderBy(desc(kycApplications.createdAt), desc(kycApplications.id));
  const latest = new Map<number, ApplicationRow>();
  for (const row of rows) if (!latest.has(row.level)) latest.set(row.level, row);
  return latest;
}

/** Refuses a level that is pending or approved already; the application is inserted in the same transaction. */
async function insertApplication(deps: KycDeps, userId: bigint, level: 1 | 2, values: Partial<ApplicationRow>,
  precondition: (tx: Tx) => Promise<void>): Promise<KycApplication> {
  try {
    const row = await deps.db.transaction(async (tx) => {
      await precondition(tx);
      const states = await tx.select({ status: kycApplications.status }).from(kycApplications)
        .where(and(eq(kycApplications.userId, userId), eq(kycApplications.level, level), sql`${kycApplications.status} <> 'rejected'`));
      if (states.some((state) => state.status === 'approved')) {
        throw conflict('kyc_already_approved', level === 1 ? 'Your identity is verified already.' : 'Your advanced verification is approved already.');
      }
      if (states.length > 0) throw pendingRefusal();
      const [inserted] = await tx.insert(kycApplications).values({
        userId, level, status: 'pending', details: values.details!, frontUploadId: values.frontUploadId ?? null,
        backUploadId: values.backUploadId ?? null, createdAt: deps.clock.now(),
      }).returning();
      return inserted;
    });
    return toOwnerView(row);
  } catch (error) {
    if (isPendingViolation(error)) throw pendingRefusal();
    throw error;
  }
}

/** Every attempt counts, refused ones too: photo ids are not to be probed. */
const limitApplications = (deps: KycDeps, userId: bigint) =>
  deps.limiter.hit(`kyc-apply:${userId}`, kycApplicationsPerUserPerDay, dayMs);

export async function applyBasic(deps: KycDeps, userId: bigint, body: ApplyBasicBody): Promise<KycApplication> {
  await limitApplications(deps, userId);
  const surname = body.surname.trim();
  const firstName = body.firstName.trim();
  const idNumber = body.idNumber.trim().toUpperCase();
  if (!surname || !firstName) throw badRequest('invalid_request', 'Please enter your surname and first name as on the document.');
  if (idNumber.replace(/[ -]/g, '').length < 4) throw badRequest('invalid_request', 'Please enter the document number as printed on it.');
  await requirePhotos(deps.db, userId, body.frontFileId, body.backFileId);
  return insertApplication(deps, userId, 1, {
    details: { surname, firstName, idType: body.idType, idNumber },
    frontUploadId: body.frontFileId, backUploadId: body.backFileId,
  }, async () => {});
}

export async function applyAdvanced(deps: KycDeps, userId: bigint, body: ApplyAdvancedBody): Promise<KycApplication> {
  await limitApplications(deps, userId);
  const details: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    const trimmed = String(value).trim();
    if (!trimmed) throw badRequest('invalid_request', 'Please fill in every field of the form.');
    details[key] = trimmed;
  }
  return insertApplication(deps, userId, 2, { details }, async (tx) => {
    const [basic] = await tx.select({ id: kycApplications.id }).from(kycApplications)
      .where(and(eq(kycApplications.userId, userId), eq(kycApplications.level, 1), eq(kycApplications.status, 'approved'))).limit(1);
    if (!basic) throw badRequest('kyc_basic_required', 'Please complete basic identity verification first; advanced verification opens once it is approved.');
  });
}

/** The ID number's last 4 characters, the rest as asterisks. */
export function maskIdNumber(idNumber: string): string {
  const plain = idNumber.replace(/[ -]/g, '');
  return `${'*'.repeat(Math.max(plain.length - 4, 4))}${plain.slice(-4)}`;
}

function toOwnerView(row: ApplicationRow): KycApplication {
  const details = row.details as Record<string, string>;
  return {
    id: row.id.toString(),
    level: row.level as 1 | 2,
    status: row.status as KycApplication['status'],
    ...(row.reason ? { reason: row.reason } : {}),
    createdAt: row.createdAt.getTime(),
    ...(row.decidedAt ? { decidedAt: row.decidedAt.getTime() } : {}),
    ...(row.level === 1 ? {
      surname: details.surname, firstName: details.firstName, idType: details.idType as KycApplication['idType'],
      idNumberMasked: maskIdNumber(details.idNumber ?? ''),
      ...(row.frontUploadId ? { frontFileId: row.frontUploadId } : {}),
      ...(row.backUploadId ? { backFileId: row.backUploadId } : {}),
    } : {}),
  };
}

export async function kycState(db: Executor, userId: bigint): Promise<KycState> {
  const latest = await latestByLevel(db, userId);
  const statusOf = (level: number): KycStatus => (latest.get(level)?.status as KycStatus | undefined) ?? 'none';
  const reasonOf = (level: number) => {
    const row = latest.get(level);
    return row?.status === 'rejected' && row.reason ? row.reason : undefined;
  };
  const basicReason = reasonOf(1);
  const advancedReason = reasonOf(2);
  return {
    basic: statusOf(1), advanced: statusOf(2), level: await userKycLevel(db, userId),
    ...(basicReason ? { basicReason } : {}), ...(advancedReason ? { advancedReason } : {}),
  };
}

/**
 * The verified person behind an approved basic verification, as one key (issue 38): a SHA-256 of
 * the document number as printed (upper case, spaces and dashes dropped, the document type left
 * out), so two accounts verified with one document are recognised as one person whatever type
 * was chosen. Rewards pay a level's bonus once per person and an IEO takes one application per
 * person with it. An approval without a document number (written by a test harness, never by
 * applyBasic) stands for its own account alone.
 */
export function personKeyOf(userId: bigint, details: unknown): string {
  const number = typeof details === 'object' && details !== null ? (details as Record<string, unknown>).idNumber : undefined;
  const plain = typeof number === 'string' ? number.replace(/[ -]/g, '').toUpperCase() : '';
  const subject = plain.length > 0 ? `document:${plain}` : `account:${userId}`;
  return createHash('sha256').update(`bourse-person-v1:${subject}`).digest('hex');
}

/** The person keys of those of the users whose basic verification is approved (the others are absent). */
export async function verifiedPersonKeys(db: Executor, userIds: readonly bigint[]): Promise<Map<bigint, string>> {
  const keys = new Map<bigint, string>();
  if (userIds.length === 0) return keys;
  const rows = await db.select({ userId: kycApplications.userId, details: kycApplications.details }).from(kycApplications)
    .where(and(inArray(kycApplications.userId, [...userIds]), eq(kycApplications.level, 1), eq(kycApplications.status, 'approved')))
    .orderBy(asc(kycApplications.id));
  // At most one approved basic application per user (insertApplication refuses a second); the latest wins.
  for (const row of rows) keys.set(row.userId, personKeyOf(row.userId, row.details));
  return keys;
}

/** The user's person key when their basic verification is approved, else null (unverified). */
export async function verifiedPersonKey(db: Executor, userId: bigint): Promise<string | null> {
  return (await verifiedPersonKeys(db, [userId])).get(userId) ?? null;
}

export async function kycDone(db: Executor, userId: bigint): Promise<KycDone> {
  const level = await userKycLevel(db, userId);
  return { done: level >= 1, level };
}

const pageOf = (query: { pageNo?: number; pageSize?: number }) => {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 20;
  return { pageNo, pageSize, offset: (pageNo - 1) * pageSize };
};

/** The user's own applications, newest first. */
export async function listMyApplications(db: Executor, userId: bigint, query: { pageNo?: number; pageSize?: number }): Promise<PageOf<KycApplication>> {
  const { pageNo, pageSize, offset } = pageOf(query);
  const where = eq(kycApplications.userId, userId);
  const rows = await db.select().from(kycApplications).where(where)
    .orderBy(desc(kycApplications.createdAt), desc(kycApplications.id)).limit(pageSize).offset(offset);
  const [{ total }] = await db.select({ total: count() }).from(kycApplications).where(where);
  return { records: rows.map(toOwnerView), total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
}

// ─── Back office ─────────────────────────────────────────────────────────────────────────────

interface UserNames { email: string | null; phone: string | null; code: string | null; username: string | null }
const accountOf = (user: UserNames) => user.email ?? (user.phone ? `+${user.code} ${user.phone}` : user.username ?? '');

function toAdminView(row: ApplicationRow, user: UserNames): AdminKycApplication {
  const details = Object.fromEntries(Object.entries(row.details as Record<string, unknown>).map(([key, value]) => [key, String(value)]));
  return {
    id: row.id.toString(), userId: row.userId.toString(), account: accountOf(user), level: row.level as 1 | 2,
    status: row.status as AdminKycApplication['status'], details, hasFront: row.frontUploadId !== null, hasBack: row.backUploadId !== null,
    ...(row.reason ? { reason: row.reason } : {}),
    ...(row.decidedBy !== null ? { decidedBy: row.decidedBy.toString() } : {}),
    ...(row.decidedAt ? { decidedAt: row.decidedAt.getTime() } : {}),
    createdAt: row.createdAt.getTime(),
  };
}

const userColumns = { email: users.email, phone: users.phone, code: users.phoneCountryCode, username: users.username };

export interface AdminKycQuery { status?: 'pending' | 'approved' | 'rejected'; level?: number; userId?: string; pageNo?: number; pageSize?: number }

/**
 * Applications for operators. Pending ones oldest first (the queue order); with another status,
 * or none, newest first — without a status, the pending ones come first.
 */
export async function listApplications(db: Executor, query: AdminKycQuery): Promise<PageOf<AdminKycApplication>> {
  const { pageNo, pageSize, offset } = pageOf(query);
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(kycApplications.status, query.status));
  if (query.level) conditions.push(eq(kycApplications.level, query.level));
  if (query.userId) conditions.push(eq(kycApplications.userId, BigInt(query.userId)));
  const where = conditions.length ? and(...conditions) : undefined;
  const order = query.status === 'pending' ? [asc(kycApplications.createdAt), asc(kycApplications.id)]
    : query.status ? [desc(kycApplications.createdAt), desc(kycApplications.id)]
      : [sql`(${kycApplications.status} = 'pending') desc`,
        sql`case when ${kycApplications.status} = 'pending' then ${kycApplications.createdAt} end asc`,
        desc(kycApplications.createdAt), desc(kycApplications.id)];
  const rows = await db.select({ application: kycApplications, user: userColumns }).from(kycApplications)
    .innerJoin(users, eq(users.id, kycApplications.userId)).where(where).orderBy(...order).limit(pageSize).offset(offset);
  const [{ total }] = await db.select({ total: count() }).from(kycApplications).where(where);
  return {
    records: rows.map((row) => toAdminView(row.application, row.user)), total, size: pageSize, current: pageNo,
    pages: Math.ceil(total / pageSize),
  };
}

const applicationNotFound = () => notFound('kyc_not_found', 'No such verification application.');

export async function applicationDetail(db: Executor, id: bigint): Promise<AdminKycApplication> {
  const [row] = await db.select({ application: kycApplications, user: userColumns }).from(kycApplications)
    .innerJoin(users, eq(users.id, kycApplications.userId)).where(eq(kycApplications.id, id)).limit(1);
  if (!row) throw applicationNotFound();
  return toAdminView(row.application, row.user);
}

export interface KycDecision {
  operatorId: bigint; clock: Clock;
  /** Receives the internal message the decision wrote (issue 21), to deliver after commit. */
  messages?: WrittenMessage[];
}

/** Decides a pending application once, in one transaction with its audit entry. */
async function decide(db: Db, id: bigint, decision: KycDecision, status: 'approved' | 'rejected', reason: string | null) {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(kycApplications).where(eq(kycApplications.id, id)).for('update');
    if (!row) throw applicationNotFound();
    if (row.status !== 'pending') throw conflict('record_already_decided', 'This application was decided already.');
    const [updated] = await tx.update(kycApplications)
      .set({ status, reason, decidedBy: decision.operatorId, decidedAt: decision.clock.now() })
      .where(eq(kycApplications.id, id)).returning();
    const message = await writeMessage(tx, {
      userId: row.userId, kind: status === 'approved' ? 'kyc_approved' : 'kyc_rejected', category: 'security', route: '/renzhengResult',
      params: { id: String(row.id), level: String(row.level), ...(reason ? { reason } : {}) },
      dedupeKey: `kyc:${row.id}:${status}`,
    }, decision.clock.now());
    if (message) decision.messages?.push(message);
    await recordAudit(tx, {
      operatorId: decision.operatorId, action: status === 'approved' ? 'kyc.approve' : 'kyc.reject',
      targetType: 'kyc_application', targetId: id, userId: row.userId,
      before: { status: row.status, level: row.level }, after: { status, level: row.level }, reason,
    }, decision.clock);
    const [user] = await tx.select(userColumns).from(users).where(eq(users.id, row.userId));
    return toAdminView(updated, user);
  });
}

export const approveApplication = (db: Db, id: bigint, decision: KycDecision) => decide(db, id, decision, 'approved', null);
export const rejectApplication = (db: Db, id: bigint, reason: string, decision: KycDecision) => {
  const trimmed = reason.trim();
  if (trimmed.length < 2) throw new AppError(400, 'invalid_request', 'Please give the user a reason they can act on.');
  return decide(db, id, decision, 'rejected', trimmed);
};

/**
 * An application's photo for an operator, opened from its sealed file. The view is audited
 * ('kyc_photo_viewed') before the bytes leave: no view without its record.
 */
export async function applicationPhoto(db: Db, storage: UploadStorage, pepper: Buffer, id: bigint, side: 'front' | 'back',
  decision: KycDecision) {
  const [row] = await db.select().from(kycApplications).where(eq(kycApplications.id, id)).limit(1);
  if (!row) throw applicationNotFound();
  const uploadId = side === 'front' ? row.frontUploadId : row.backUploadId;
  if (!uploadId) throw notFound('file_not_found', 'This application has no such photo.');
  const [file] = await db.select().from(uploads).where(and(eq(uploads.id, uploadId), eq(uploads.purpose, 'identity'))).limit(1);
  if (!file) throw notFound('file_not_found', 'This application has no such photo.');
  const answer = await uploadAnswer(storage, file as UploadRow, pepper);
  await recordAudit(db, {
    operatorId: decision.operatorId, action: 'kyc_photo_viewed', targetType: 'kyc_application', targetId: id,
    userId: row.userId, after: { side, uploadId },
  }, decision.clock);
  return answer;
}
