// The user's own sessions and devices, ending them, and the login history. Every call is
// scoped to the session's user: an id of another user's session is refused as not found and
// changes nothing. Addresses are shown as they are (no geolocation database runs offline).
import { and, count, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { LoginHistoryPage, LoginMethod, SessionInfo, SessionsEnded } from '../../../../src/api/contract/security.ts';
import { loginHistory, sessions } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import type { Limits } from '../../../lib/config.ts';
import type { Clock } from '../../../lib/time.ts';
import { notFound } from '../../../lib/errors.ts';
import type { ActiveSession } from '../../kernel/sessions.ts';
import { deviceOf } from './sessionDevices.ts';

export interface SessionDeps { db: Executor; clock: Clock; limits: Limits }

const sessionNotFound = () => notFound('session_not_found', 'This session was not found or has already ended.');

/** Live sessions: not revoked, before the absolute expiry, used within the idle period. */
const liveOf = (deps: SessionDeps, userId: bigint) => {
  const now = deps.clock.now();
  return and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now),
    gt(sessions.lastUsedAt, new Date(now.getTime() - deps.limits.sessionIdleMs)));
};

/** The user's live sessions, the current one first, then by last use. */
export async function listSessions(deps: SessionDeps, session: ActiveSession): Promise<SessionInfo[]> {
  const rows = await deps.db.select().from(sessions).where(liveOf(deps, session.userId))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.id)).limit(200);
  const list = rows.map((row): SessionInfo => ({
    id: String(row.id), current: row.id === session.sessionId, ...deviceOf(row.userAgent),
    userAgent: row.userAgent ?? '', method: (row.method ?? '') as LoginMethod | '',
    createdAt: row.createdAt.getTime(), lastUsedAt: row.lastUsedAt.getTime(),
    ip: row.lastIp ?? row.createdIp ?? '', createdIp: row.createdIp ?? '',
  }));
  return [...list.filter((item) => item.current), ...list.filter((item) => !item.current)];
}

/** Ends one of the user's live sessions; ending the current one is a logout. */
export async function endSession(deps: SessionDeps, session: ActiveSession, id: string): Promise<void> {
  const sessionId = BigInt(id);
  const ended = await deps.db.update(sessions).set({ revokedAt: deps.clock.now() })
    .where(and(eq(sessions.id, sessionId), liveOf(deps, session.userId)))
    .returning({ id: sessions.id });
  if (ended.length !== 1) throw sessionNotFound();
}

/** Ends every session of the user but the current one. */
export async function endOtherSessions(deps: SessionDeps, session: ActiveSession): Promise<SessionsEnded> {
  const ended = await deps.db.update(sessions).set({ revokedAt: deps.clock.now() })
    .where(and(eq(sessions.userId, session.userId), isNull(sessions.revokedAt), ne(sessions.id, session.sessionId)))
    .returning({ id: sessions.id });
  return { ended: ended.length };
}

/** The user's login attempts, newest first. */
export async function loginHistoryPage(deps: SessionDeps, userId: bigint, query: { pageNo?: number; pageSize?: number }):
  Promise<LoginHistoryPage> {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 20;
  const [{ total }] = await deps.db.select({ total: count() }).from(loginHistory).where(eq(loginHistory.userId, userId));
  const rows = await deps.db.select().from(loginHistory).where(eq(loginHistory.userId, userId))
    .orderBy(desc(loginHistory.createdAt), desc(loginHistory.id)).limit(pageSize).offset((pageNo - 1) * pageSize);
  return {
    records: rows.map((row) => ({
      id: String(row.id), method: row.method as LoginMethod, success: row.success, ip: row.ip ?? '',
      ...deviceOf(row.userAgent), newDevice: row.newDevice, createdAt: row.createdAt.getTime(),
    })),
    total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize),
  };
}
