// Where every way of logging in ends (issue 11): password, code, Google code, wallet, OpenID
// Connect, passkey, guest and registration all open their session here, so the session records
// how and from where it began, the login history gets its line, and a login from a device the
// account has not used before sends the owner a notice. Failed attempts on a known account are
// recorded through `recordFailedLogin`.
import { sql } from 'drizzle-orm';
import type { LoginMethod } from '../../../src/api/contract/security.ts';
import { loginHistory } from '../../db/schema.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { CodeDeps } from '../codes.ts';
import { openSession } from '../sessions.ts';
import { accountNotices, sendAccountNotice } from './accountNotice.ts';
import { deviceOf } from './sessionDevices.ts';

/** Where a login comes from: the caller's address and user agent (from the request). */
export interface LoginOrigin { callerIp: string; userAgent?: string }

const hourMs = 3_600_000;
/** Failed attempts recorded per account per hour; past it a flood of guesses adds no rows. */
export const failedLoginsRecordedPerHour = 20;

/**
 * Opens a session for `userId` in `tx` (the caller's transaction, so a login that fails later in
 * it leaves no session, no history line) and returns its token. A login from a device (browser
 * family and system) this account never logged in from successfully is marked new; when the
 * account had logged in before from elsewhere, the owner is told at its e-mail or phone. The
 * notice goes out before the caller's transaction commits: a login that then fails still tells
 * the owner, which errs on the side of telling.
 */
export async function startSession(deps: CodeDeps, tx: Executor, userId: bigint, method: LoginMethod,
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
