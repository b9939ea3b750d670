// The audit trail of operator actions. `recordAudit` writes in the caller's transaction, so an
// action and its record commit or roll back together: there is no action without its record.
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { auditLog, operators } from '../../db/schema.ts';
import type { Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/time.ts';
import type { AuditQuery, AuditRecord } from '../../../src/api/contract/admin.ts';

export interface AuditEntry {
  operatorId: bigint;
  /** A dotted verb: "ledger.check", "withdrawal.approve". */
  action: string;
  targetType: string;
  targetId: string | bigint | null;
  userId?: bigint | null;
  /** The target's state before and after; bigints and dates are stored as strings. */
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

/** Bigints become decimal strings and dates ISO strings: jsonb holds neither. */
function jsonSafe(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)));
}

export async function recordAudit(tx: Executor, entry: AuditEntry, clock?: Clock) {
  const [row] = await tx.insert(auditLog).values({
    operatorId: entry.operatorId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId === null ? null : String(entry.targetId),
    userId: entry.userId ?? null,
    before: jsonSafe(entry.before),
    after: jsonSafe(entry.after),
    reason: entry.reason?.slice(0, 500) ?? null,
    createdAt: clock?.now() ?? new Date(),
  }).returning({ id: auditLog.id });
  return row.id;
}

/** Newest first, filtered by operator, user and action. */
export async function listAudit(db: Executor, query: AuditQuery) {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 20;
  const conditions: SQL[] = [];
  if (query.operatorId) conditions.push(eq(auditLog.operatorId, BigInt(query.operatorId)));
  if (query.userId) conditions.push(eq(auditLog.userId, BigInt(query.userId)));
  if (query.action) conditions.push(eq(auditLog.action, query.action));
  const where = conditions.length ? and(...conditions) : undefined;
  const [{ total }] = await db.select({ total: count() }).from(auditLog).where(where);
  const rows = await db.select({ entry: auditLog, operatorEmail: operators.email }).from(auditLog)
    .innerJoin(operators, eq(operators.id, auditLog.operatorId))
    .where(where).orderBy(desc(auditLog.id)).limit(pageSize).offset((pageNo - 1) * pageSize);
  const records: AuditRecord[] = rows.map(({ entry, operatorEmail }) => ({
    id: entry.id.toString(),
    operatorId: entry.operatorId.toString(),
    operatorEmail,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    userId: entry.userId?.toString() ?? null,
    before: entry.before,
    after: entry.after,
    reason: entry.reason,
    time: entry.createdAt.getTime(),
  }));
  return { records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
}
