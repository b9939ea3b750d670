// Where every way of logging in ends (issue 11): password, code, Google code, wallet, OpenID
// Connect, passkey, guest and registration all open their session here, so the session records
// how and from where it began, the login history gets its line, and a login from a device the
// account has not used before sends the owner a notice. Failed attempts on a known account are
// recorded through `recordFailedLogin`.
//
// It is also the one place that asks for the second factor (issue 18): an account with Google
// Authenticator bound gets no session from a first factor alone, whichever it was. `startSession`
// answers a login ticket instead, and only `loginSecondStep` (twoFactor.ts), with the code or a
// recovery code, turns the ticket into a session. A login path added later inherits the rule by
// ending here; only a passkey with user verification (already two factors) skips it.
import { createHash, randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { LoginMethod } from '../../../../src/api/contract/security.ts';
import { loginHistory, loginSecondSteps, userTotp } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import type { CodeDeps } from '../../kernel/codes.ts';
import { openSession } from '../../kernel/sessions.ts';
import { accountNotices, sendAccountNotice } from './accountNotice.ts';
import { deviceOf } from './sessionDevices.ts';

/** Where a login comes from: the caller's address and user agent (from the request). */
export interface LoginOrigin { callerIp: string; userAgent?: string }

const hourMs = 3_600_000;
/** How long a login ticket waits for its code: enough to open the authenticator app. */
export const loginTicketLifetimeMs = 5 * 60_000;
/** Failed attempts recorded per account per hour; past it a flood of guesses adds no rows. */
export const failedLoginsRecordedPerHour = 20;

/** What a first factor earns: a session, or (Google Authenticator bound) a ticket for the code. */
export type LoginResult = { token: string } | { loginTicket: string };

/**
 * Methods whose proof already holds two factors: a passkey login requires user verification (the
 * device's PIN or biometric, and the device itself), and a new registration has no binding yet.
 */
const twoFactorMethods: ReadonlySet<LoginMethod> = new Set<LoginMethod>(['passkey', 'register']);

export const hashLoginTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

export async function googleAuthBound(db: Executor, userId: bigint): Promise<boolean> {
  const [row] = await db.select({ userId: userTotp.userId }).from(userTotp).where(eq(userTotp.userId, userId)).limit(1);
  return row !== undefined;
}

/**
 * Where a first factor ends, in `tx` (the caller's transaction, so a login that fails later in it
 * leaves no session and no ticket): a session for an account without Google Authenticator, a
 * login ticket for one with it (the ticket is committed with the first factor's use, so a mailed
 * code is spent either way).
 */
export async function startSession(deps: CodeDeps, tx: Executor, userId: bigint, method: LoginMethod,
  origin: LoginOrigin): Promise<LoginResult> {
  if (!twoFactorMethods.has(method) && await googleAuthBound(tx, userId)) {
    const loginTicket = randomBytes(32).toString('base64url');
    const now = deps.clock.now();
    await tx.insert(loginSecondSteps).values({
      ticketHash: hashLoginTicket(loginTicket), userId, method, expiresAt: new Date(now.getTime() + loginTicketLifetimeMs), createdAt: now,
    });
    return { loginTicket };
  }
  return { token: await openLoginSession(deps, tx, userId, method, origin) };
}

/**
 * The session of a login whose second factor was checked in `tx` (twoFactor.ts: googleSecretLogin
 * and loginSecondStep). Nothing else may call it: every other login goes through startSession.
 */
export const startSessionAfterSecondFactor = (deps: CodeDeps, tx: Executor, userId: bigint, method: LoginMethod,
  origin: LoginOrigin): Promise<string> => openLoginSession(deps, tx, userId, method, origin);

export const googleCodeRequired = (loginTicket?: string) => new AppError(400, 'google_code_required',
  'Please enter the 6-digit code from Google Authenticator.', loginTicket ? { loginTicket } : {});

/**
 * What a login route answers: the token, or google_code_required carrying the ticket (thrown once
 * the first factor's transaction has committed, so the ticket exists when the client presents it).
 */
export function tokenOrSecondStep(result: LoginResult): string {
  if ('loginTicket' in result) throw googleCodeRequired(result.loginTicket);
  return result.token;
}

/**
 * Opens a session for `userId` in `tx` and returns its token. A login from a device (browser
 * family and system) this account never logged in from successfully is marked new; when the
 * account had logged in before from elsewhere, the owner is told at its e-mail or phone. The
 * notice goes out before the caller's transaction commits: a login that then fails still tells
 * the owner, which errs on the side of telling.
 */
async function openLoginSession(deps: CodeDeps, tx: Executor, userId: bigint, method: LoginMethod,
  origin: LoginOrigin): Promise<string> {
  const { device } = deviceOf(origin.userAgent);
  // Two probes of login_history_device_idx in one statement.
  const [seen] = await tx.select({
    before: sql<boolean>`exists (select 1 from ${loginHistory} where ${loginHistory.userId} = ${userId} and ${loginHistory.success})`,
    here: sql<boolean>`exists (select 1 from ${loginHistory} where ${loginHistory.userId} = ${userId} and ${loginHistory.success}
      and ${loginHistory.device} = ${device})`,
  }).from(sql`(select 1) as one`);
  const loggedInBefore = seen.before === true || String(seen.before) === 't';
  const newDevice = !(seen.here === true || String(seen.here) === 't');
  const { token, sessionId } = await openSession(tx, deps.clock, deps.limits, userId,
    { userAgent: origin.userAgent, method, ip: origin.callerIp });
  const now = deps.clock.now();
  await tx.insert(loginHistory).values({
    userId, method, success: true, ip: origin.callerIp.slice(0, 64), userAgent: origin.userAgent?.slice(0, 200),
    device, newDevice, sessionId, createdAt: now,
  });
  if (newDevice && loggedInBefore && method !== 'register') {
    await sendAccountNotice(deps, tx, userId, accountNotices.newDevice(device, origin.callerIp, now));
  }
  return token;
}

/**
 * A wrong password or code on an existing account, for its login history. At most
 * `failedLoginsRecordedPerHour` lines per account per hour, so guessing cannot bloat the table.
 */
export async function recordFailedLogin(deps: CodeDeps, userId: bigint, method: LoginMethod, origin: LoginOrigin): Promise<void> {
  try {
    await deps.limiter.hit(`login-history-fail:${userId}`, failedLoginsRecordedPerHour, hourMs);
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 429) return;
    throw error;
  }
  await deps.db.insert(loginHistory).values({
    userId, method, success: false, ip: origin.callerIp.slice(0, 64), userAgent: origin.userAgent?.slice(0, 200),
    device: deviceOf(origin.userAgent).device, newDevice: false, createdAt: deps.clock.now(),
  });
}
