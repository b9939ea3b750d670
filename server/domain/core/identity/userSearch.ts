// Back-office user search (issue 11): find a user by the start of an e-mail, phone number or user
// name (any case), by exact user id or by exact wallet address, and read each match's security
// state — verification level, what second factors and other logins are bound and how many, live
// sessions, the last login and the failures of the last 24 hours. Counts and names only: no hash,
// no secret, no credential ever leaves this module. Each search is in the audit trail (who looked
// for what), written in the same transaction as the reads.
import { and, count, desc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import {
  kycApplications, loginHistory, sessions, userOidcIdentities, userPasskeys, userRecoveryCodes, userTotp, userWallets, users,
} from '../../../db/schema.ts';
import type { Db, Executor } from '../../../db/client.ts';
import type { Clock } from '../../../lib/time.ts';
import type { Limits } from '../../../lib/config.ts';
import type { AdminUserSecurity } from '../../../../src/api/contract/identity.ts';
import type { PageOf } from '../../../../src/api/contract/wallet.ts';
import { recordAudit } from '../../kernel/audit.ts';

export interface UserSearchDeps { db: Db; clock: Clock; limits: Limits }
export interface UserSearchQuery { q: string; pageNo?: number; pageSize?: number }

const dayMs = 24 * 3_600_000;

/** `text` as a LIKE prefix pattern: its own %, _ and \ match themselves. */
const prefixPattern = (text: string) => `${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** What `q` can name: the conditions on users (and a wallet address's owner). */
function matchOf(q: string): SQL {
  const text = q.trim();
  const lower = text.toLowerCase();
  const conditions: SQL[] = [
    sql`${users.email} like ${prefixPattern(lower)}`,
    sql`lower(${users.username}) like ${prefixPattern(lower)}`,
  ];
  // A phone number as typed ("+44 7700 900", "7700900"): its digits, with or without the country code.
  if (/^\+?[0-9][0-9 ()-]*$/.test(text)) {
    const digits = text.replace(/\D/g, '');
    conditions.push(sql`${users.phone} like ${prefixPattern(digits)}`);
    conditions.push(sql`(${users.phoneCountryCode} || ${users.phone}) like ${prefixPattern(digits)}`);
  }
  if (/^[0-9]{1,19}$/.test(text) && BigInt(text) <= 9_223_372_036_854_775_807n) conditions.push(eq(users.id, BigInt(text)));
  if (/^0x[0-9a-f]{40}$/.test(lower)) {
    conditions.push(inArray(users.id, sql`(select ${userWallets.userId} from ${userWallets} where ${userWallets.address} = ${lower})`));
  }
  return or(...conditions)!;
}

const accountOf = (row: { email: string | null; phone: string | null; code: string | null; username: string | null }) =>
  row.email ?? (row.phone ? `+${row.code} ${row.phone}` : row.username ?? '');

/** The security state of each of `ids` (users that exist), in that order. */
async function securityOf(db: Executor, clock: Clock, limits: Limits, ids: bigint[]) {
  const now = clock.now();
  const idleSince = new Date(now.getTime() - limits.sessionIdleMs);
  const daySince = new Date(now.getTime() - dayMs);
  const [kyc, totp, recovery, passkeys, wallets, oidc, active, lastLogins, failures] = await Promise.all([
    db.select({ userId: kycApplications.userId, level: kycApplications.level, status: kycApplications.status })
      .from(kycApplications).where(and(inArray(kycApplications.userId, ids), inArray(kycApplications.status, ['approved', 'pending']))),
    db.select({ userId: userTotp.userId }).from(userTotp).where(inArray(userTotp.userId, ids)),
    db.select({ userId: userRecoveryCodes.userId, n: count() }).from(userRecoveryCodes)
      .where(and(inArray(userRecoveryCodes.userId, ids), isNull(userRecoveryCodes.usedAt))).groupBy(userRecoveryCodes.userId),
    db.select({ userId: userPasskeys.userId, n: count() }).from(userPasskeys).where(inArray(userPasskeys.userId, ids)).groupBy(userPasskeys.userId),
    db.select({ userId: userWallets.userId, address: userWallets.address }).from(userWallets)
      .where(inArray(userWallets.userId, ids)).orderBy(userWallets.createdAt),
    db.selectDistinct({ userId: userOidcIdentities.userId, provider: userOidcIdentities.provider }).from(userOidcIdentities)
      .where(inArray(userOidcIdentities.userId, ids)).orderBy(userOidcIdentities.userId, userOidcIdentities.provider),
    db.select({ userId: sessions.userId, n: count() }).from(sessions)
      .where(and(inArray(sessions.userId, ids), isNull(sessions.revokedAt), gt(sessions.expiresAt, now), gt(sessions.lastUsedAt, idleSince)))
      .groupBy(sessions.userId),
    db.selectDistinctOn([loginHistory.userId], { userId: loginHistory.userId, at: loginHistory.createdAt, ip: loginHistory.ip })
      .from(loginHistory).where(and(inArray(loginHistory.userId, ids), eq(loginHistory.success, true)))
      .orderBy(loginHistory.userId, desc(loginHistory.createdAt), desc(loginHistory.id)),
    db.select({ userId: loginHistory.userId, n: count() }).from(loginHistory)
      .where(and(inArray(loginHistory.userId, ids), eq(loginHistory.success, false), gt(loginHistory.createdAt, daySince)))
      .groupBy(loginHistory.userId),
  ]);
  const countOf = (rows: Array<{ userId: bigint; n: number }>, id: bigint) => Number(rows.find((row) => row.userId === id)?.n ?? 0);
  return (id: bigint) => {
    const mine = kyc.filter((row) => row.userId === id);
    const last = lastLogins.find((row) => row.userId === id);
    return {
      kycLevel: Math.max(0, ...mine.filter((row) => row.status === 'approved').map((row) => row.level)),
      kycPending: mine.some((row) => row.status === 'pending'),
      googleBound: totp.some((row) => row.userId === id),
      recoveryCodesLeft: countOf(recovery, id),
      passkeys: countOf(passkeys, id),
      wallets: wallets.filter((row) => row.userId === id).map((row) => row.address),
      oidcProviders: oidc.filter((row) => row.userId === id).map((row) => row.provider),
      activeSessions: countOf(active, id),
      ...(last ? { lastLoginAt: last.at.getTime(), ...(last.ip ? { lastLoginIp: last.ip } : {}) } : {}),
      failedLogins24h: countOf(failures, id),
    };
  };
}

/** One page of the users `q` names, newest account first, with their security state; audited. */
export async function searchUsers(deps: UserSearchDeps, operatorId: bigint, query: UserSearchQuery): Promise<PageOf<AdminUserSecurity>> {
  const pageNo = query.pageNo ?? 1;
  const pageSize = query.pageSize ?? 20;
  const q = query.q.trim();
  return deps.db.transaction(async (tx) => {
    const where = q ? matchOf(q) : sql`false`;
    const [{ total }] = await tx.select({ total: count() }).from(users).where(where);
    const rows = await tx.select({
      id: users.id, email: users.email, phone: users.phone, code: users.phoneCountryCode, username: users.username, createdAt: users.createdAt,
    }).from(users).where(where).orderBy(desc(users.id)).limit(pageSize).offset((pageNo - 1) * pageSize);
    const state = rows.length ? await securityOf(tx, deps.clock, deps.limits, rows.map((row) => row.id)) : undefined;
    const records: AdminUserSecurity[] = rows.map((row) => ({
      userId: row.id.toString(), account: accountOf(row), createdAt: row.createdAt.getTime(), ...state!(row.id),
    }));
    await recordAudit(tx, {
      operatorId, action: 'user.search', targetType: 'user', targetId: records.length === 1 ? records[0].userId : null,
      userId: records.length === 1 ? BigInt(records[0].userId) : null, after: { q, pageNo, total },
    }, deps.clock);
    return { records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
  });
}
