// Sessions: opaque 256-bit tokens handed to the client once and stored only as SHA-256 hashes.
// A session ends when revoked, after an idle period, or at an absolute expiry.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { sessions } from '../../db/schema.ts';
import type { Executor } from '../../db/client.ts';
import type { Limits } from '../../lib/config.ts';
import type { Clock } from '../../lib/time.ts';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Last-use times are written at most this often, so reads do not all become writes. */
const touchIntervalMs = 60_000;

/** How and from where a session begins (identity/login.ts fills it in). */
export interface SessionOrigin { userAgent?: string; method?: string; ip?: string }

/** Opens a session; returns its token (given to the client once). Logins go through identity/login.ts. */
export async function createSession(tx: Executor, clock: Clock, limits: Limits, userId: bigint, origin: SessionOrigin = {}) {
  return (await openSession(tx, clock, limits, userId, origin)).token;
}

/** Opens a session; returns its token and its id. */
export async function openSession(tx: Executor, clock: Clock, limits: Limits, userId: bigint, origin: SessionOrigin = {}) {
  const token = randomBytes(32).toString('base64url');
  const now = clock.now();
  const ip = origin.ip?.slice(0, 64);
  const [row] = await tx.insert(sessions).values({
    userId, tokenHash: hashToken(token), userAgent: origin.userAgent?.slice(0, 200), method: origin.method,
    createdIp: ip, lastIp: ip,
    lastUsedAt: now, expiresAt: new Date(now.getTime() + limits.sessionAbsoluteMs), createdAt: now,
  }).returning({ id: sessions.id });
  return { token, sessionId: row.id };
}

export interface ActiveSession { sessionId: bigint; userId: bigint }

/**
 * The live session of a token, or undefined. The last use (time and caller address `ip`) is
 * written at most once a minute.
 */
export async function resolveSession(db: Executor, clock: Clock, limits: Limits, token: string, ip?: string): Promise<ActiveSession | undefined> {
  if (token.length < 20 || token.length > 100) return undefined;
  const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(token))).limit(1);
  const nowMs = clock.now().getTime();
  if (!row || row.revokedAt || row.expiresAt.getTime() <= nowMs) return undefined;
  if (nowMs - row.lastUsedAt.getTime() > limits.sessionIdleMs) return undefined;
  if (nowMs - row.lastUsedAt.getTime() > touchIntervalMs) {
    await db.update(sessions).set({ lastUsedAt: clock.now(), ...(ip ? { lastIp: ip.slice(0, 64) } : {}) }).where(eq(sessions.id, row.id));
  }
  return { sessionId: row.id, userId: row.userId };
}

export async function revokeSession(db: Executor, clock: Clock, sessionId: bigint) {
  await db.update(sessions).set({ revokedAt: clock.now() }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Ends every session of a user, except `keepSessionId` when given (a password change). */
export async function revokeUserSessions(db: Executor, clock: Clock, userId: bigint, keepSessionId?: bigint) {
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (keepSessionId !== undefined) conditions.push(ne(sessions.id, keepSessionId));
  await db.update(sessions).set({ revokedAt: clock.now() }).where(and(...conditions));
}
