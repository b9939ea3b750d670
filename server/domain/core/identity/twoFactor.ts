// Google Authenticator (issue 11): a user's TOTP second factor. A secret is offered sealed in
// user_totp_pending for ten minutes and becomes the binding once the user confirms it with a code;
// binding hands out ten single-use recovery codes (only their peppered hashes are kept) and ends
// the user's other sessions, as unbinding does. A code is accepted one step either side of the
// server's time and only once: the step it matched is stored, and a later code must match a later
// step (one conditional UPDATE, so two requests with the same code cannot both pass). Every guess,
// wherever it is made (binding, login, unbinding, withdrawal, password change), is taken from one
// escalating throttle per user before it is checked. The Google code is never a login of its own:
// googleSecretLogin checks the password first, under the password login's throttles.
import { createHmac, randomInt } from 'node:crypto';
import { and, count, eq, gt, isNull, lt, or } from 'drizzle-orm';
import { generateURI } from 'otplib';
import type {
  CheckGoogleAuthResult, GoogleAuthState, GoogleKey, GoogleSecretLoginBody, LoginMethod, LoginSecondStepBody, UnbindGoogleAuthBody,
} from '../../../../src/api/contract/security.ts';
import { loginSecondSteps, userRecoveryCodes, users, userTotp, userTotpPending } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { AppError, badRequest, conflict, unauthorized } from '../../../lib/errors.ts';
import { openText, sealText } from '../../../lib/secretBox.ts';
import { formatServerTime } from '../../../lib/time.ts';
import { transactionWithCode } from '../../kernel/codes.ts';
import { lookAlikeFreeAlphabet } from '../../kernel/passwords.ts';
import { revokeUserSessions, type ActiveSession } from '../../kernel/sessions.ts';
import { matchTotp, newTotpSecret } from '../../kernel/totp.ts';
import { accountNotices, sendAccountNotice } from './accountNotice.ts';
import { contactOf, type AccountDeps } from './contacts.ts';
import {
  googleAuthBound, googleCodeRequired, hashLoginTicket, recordFailedLogin, startSessionAfterSecondFactor, type LoginOrigin,
} from './login.ts';
import { checkLoginPassword, findLoginUser, passwordPolicy, tooManyAttempts } from './passwordLogin.ts';

const boxPurpose = 'user-totp';
const pendingLifetimeMs = 10 * 60_000;
const recoveryCodeCount = 10;
const hourMs = 3_600_000;
const throttleKey = (userId: bigint) => `throttle:google-code:${userId}`;

const googleCodeInvalid = () => badRequest('google_code_invalid',
  'The Google Authenticator code is wrong or was already used. Please wait for the next code.');
const recoveryCodeInvalid = () => badRequest('recovery_code_invalid', 'The recovery code is wrong or was already used.');
const notBound = () => badRequest('google_not_bound', 'Google Authenticator is not bound to this account.');
const alreadyBound = () => conflict('google_already_bound', 'Google Authenticator is already bound. Unbind it first.');

async function bindingOf(db: Executor, userId: bigint) {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId)).limit(1);
  return row;
}

export { googleAuthBound, googleCodeRequired };

async function requireUser(db: Executor, userId: bigint) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw unauthorized();
  return user;
}

/** How the account is named in the authenticator app: its e-mail, phone or guest name. */
function accountLabel(user: typeof users.$inferSelect): string {
  if (user.email) return user.email;
  if (user.phone) return `+${user.phoneCountryCode} ${user.phone}`;
  return user.username ?? `user ${user.id}`;
}

/** Recovery codes are compared without case, spaces or dashes. */
const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const recoveryDigest = (pepper: Buffer, userId: bigint, code: string) =>
  createHmac('sha256', pepper).update(`recovery|${userId}|${normaliseRecoveryCode(code)}`).digest('hex');

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i += 1) code += lookAlikeFreeAlphabet[randomInt(lookAlikeFreeAlphabet.length)].toLowerCase();
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Takes one guess of the user's code throttle (refused while a lockout runs, with the wait). */
async function takeGuess(deps: AccountDeps, userId: bigint) {
  const taken = await deps.limiter.takeAttempt(throttleKey(userId), passwordPolicy(deps.limits));
  if (!taken.allowed) throw tooManyAttempts(taken.retryAfterMs);
}

/**
 * Marks `code` used if it matches the binding's secret at a step later than the last one used;
 * throws google_code_invalid otherwise. In `tx`, so the caller's work and the use are one.
 */
async function consumeGoogleCode(deps: AccountDeps, tx: Executor, userId: bigint, code: string) {
  const binding = await bindingOf(tx, userId);
  if (!binding) throw notBound();
  const secret = openText(deps.pepper, boxPurpose, binding.secretEncrypted);
  const step = await matchTotp(secret, code, deps.clock.now().getTime(), binding.lastStep ?? undefined);
  if (step === undefined) throw googleCodeInvalid();
  const used = await tx.update(userTotp).set({ lastStep: step })
    .where(and(eq(userTotp.userId, userId), or(isNull(userTotp.lastStep), lt(userTotp.lastStep, step))))
    .returning({ userId: userTotp.userId });
  if (used.length !== 1) throw googleCodeInvalid();
}

async function consumeRecoveryCode(deps: AccountDeps, tx: Executor, userId: bigint, code: string) {
  const used = await tx.update(userRecoveryCodes).set({ usedAt: deps.clock.now() })
    .where(and(eq(userRecoveryCodes.userId, userId), eq(userRecoveryCodes.codeHash, recoveryDigest(deps.pepper, userId, code)),
      isNull(userRecoveryCodes.usedAt)))
    .returning({ id: userRecoveryCodes.id });
  if (used.length !== 1) throw recoveryCodeInvalid();
}

interface SecondFactor { googleCode?: string; recoveryCode?: string }

/**
 * Checks a Google code or a recovery code as one guess of the user's throttle, runs `work` in the
 * transaction that uses the code, and gives the guess back on success.
 */
async function withSecondFactor<T>(deps: AccountDeps, userId: bigint, proof: SecondFactor,
  work: (tx: Executor) => Promise<T>, onWrong?: () => Promise<void>): Promise<T> {
  if (!proof.googleCode && !proof.recoveryCode) throw googleCodeRequired();
  await takeGuess(deps, userId);
  let result: T;
  try {
    result = await deps.db.transaction(async (tx) => {
      if (proof.googleCode) await consumeGoogleCode(deps, tx, userId, proof.googleCode);
      else await consumeRecoveryCode(deps, tx, userId, proof.recoveryCode!);
      return work(tx);
    });
  } catch (error) {
    if (onWrong && error instanceof AppError && ['google_code_invalid', 'recovery_code_invalid'].includes(error.errorCode)) await onWrong();
    throw error;
  }
  await deps.limiter.reset(throttleKey(userId));
  return result;
}

/**
 * For work that already runs in `tx` (a password reset, whose mailed code is spent there): nothing
 * when the user has no binding; otherwise a Google or recovery code is required and is used in
 * `tx`, so a refusal anywhere in it leaves both codes unused.
 */
export async function requireSecondFactorIn(deps: AccountDeps, tx: Executor, userId: bigint, proof: SecondFactor) {
  if (!(await googleAuthBound(tx, userId))) return;
  if (!proof.googleCode && !proof.recoveryCode) throw googleCodeRequired();
  await takeGuess(deps, userId);
  if (proof.googleCode) await consumeGoogleCode(deps, tx, userId, proof.googleCode);
  else await consumeRecoveryCode(deps, tx, userId, proof.recoveryCode!);
}

/**
 * For withdrawals and password changes: nothing when the user has no binding; otherwise a valid
 * Google code is required (google_code_required / google_code_invalid) and is used up.
 */
export async function requireGoogleCode(deps: AccountDeps, userId: bigint, googleCode: string | undefined) {
  if (!(await googleAuthBound(deps.db, userId))) return;
  if (!googleCode) throw googleCodeRequired();
  await withSecondFactor(deps, userId, { googleCode }, async () => undefined);
}

/** generateGoogleKey: a new secret, pending for ten minutes (replacing any earlier offer). */
export async function generateGoogleKey(deps: AccountDeps, userId: bigint): Promise<GoogleKey> {
  const user = await requireUser(deps.db, userId);
  if (await googleAuthBound(deps.db, userId)) throw alreadyBound();
  const secret = newTotpSecret();
  const secretEncrypted = sealText(deps.pepper, boxPurpose, secret);
  const expiresAt = new Date(deps.clock.now().getTime() + pendingLifetimeMs);
  await deps.db.insert(userTotpPending).values({ userId, secretEncrypted, expiresAt })
    .onConflictDoUpdate({ target: userTotpPending.userId, set: { secretEncrypted, expiresAt } });
  return { secret, otpauthUri: generateURI({ issuer: 'Bourse', label: accountLabel(user), secret }) };
}

/**
 * bindGoogleAuth: the secret must be this user's pending one (not expired) and the code must
 * match it. One transaction writes the binding (its step used), replaces the recovery codes,
 * drops the offer and ends the user's other sessions.
 */
export async function bindGoogleAuth(deps: AccountDeps, session: ActiveSession, secret: string, code: string) {
  const { userId } = session;
  const user = await requireUser(deps.db, userId);
  if (!user.email && !user.phone) {
    throw badRequest('google_no_contact',
      'Unbinding Google Authenticator needs a code sent to your e-mail or phone; add one to your account before binding it.');
  }
  if (await googleAuthBound(deps.db, userId)) throw alreadyBound();
  await takeGuess(deps, userId);
  const now = deps.clock.now();
  const [pending] = await deps.db.select().from(userTotpPending)
    .where(and(eq(userTotpPending.userId, userId), gt(userTotpPending.expiresAt, now))).limit(1);
  const unknownSecret = () => badRequest('google_secret_unknown', 'This key has expired or is not yours. Please start again.');
  if (!pending || openText(deps.pepper, boxPurpose, pending.secretEncrypted) !== secret.replace(/\s/g, '').toUpperCase()) {
    throw unknownSecret();
  }
  const step = await matchTotp(secret.replace(/\s/g, '').toUpperCase(), code, now.getTime());
  if (step === undefined) throw googleCodeInvalid();
  const recoveryCodes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
  await deps.db.transaction(async (tx) => {
    const taken = await tx.delete(userTotpPending)
      .where(and(eq(userTotpPending.userId, userId), eq(userTotpPending.secretEncrypted, pending.secretEncrypted)))
      .returning({ userId: userTotpPending.userId });
    if (taken.length !== 1) throw unknownSecret();
    const inserted = await tx.insert(userTotp).values({ userId, secretEncrypted: pending.secretEncrypted, lastStep: step, boundAt: now })
      .onConflictDoNothing().returning({ userId: userTotp.userId });
    if (inserted.length !== 1) throw alreadyBound();
    await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
    await tx.insert(userRecoveryCodes).values(recoveryCodes.map((recoveryCode) => ({
      userId, codeHash: recoveryDigest(deps.pepper, userId, recoveryCode), createdAt: now,
    })));
    await revokeUserSessions(tx, deps.clock, userId, session.sessionId);
  });
  await deps.limiter.reset(throttleKey(userId));
  await sendAccountNotice(deps, deps.db, userId, accountNotices.googleBound(now));
  return { recoveryCodes };
}

/**
 * checkGoogleAuth: whether the login form must ask this account for a code. An account nobody
 * uses answers false, like one without a binding (the caller's address is limited by the route).
 */
export async function checkGoogleAuth(deps: AccountDeps, account: string, countryCode?: string): Promise<CheckGoogleAuthResult> {
  const user = await findLoginUser(deps, account, countryCode);
  return { bound: user !== undefined && await googleAuthBound(deps.db, user.id) };
}

/**
 * googleSecretLogin: the password (required, under the password login's throttles), then a Google
 * code or a recovery code (single use, under the user's code throttle); the session is opened in
 * the transaction that uses the code.
 */
export async function googleSecretLogin(deps: AccountDeps, body: GoogleSecretLoginBody, origin: LoginOrigin): Promise<string> {
  if (!body.password) throw badRequest('credentials_invalid', 'Enter your password and the code.');
  if (!body.googleCode && !body.recoveryCode) throw googleCodeRequired();
  const user = await checkLoginPassword(deps, body.account, body.password, body.countryCode, origin.callerIp);
  if (!(await googleAuthBound(deps.db, user.id))) throw notBound();
  return withSecondFactor(deps, user.id, body, (tx) => startSessionAfterSecondFactor(deps, tx, user.id, 'google', origin),
    () => recordFailedLogin(deps, user.id, 'google', origin));
}

const loginTicketInvalid = () => badRequest('login_ticket_invalid',
  'This login has expired or was already completed. Please log in again.');

/**
 * loginSecondStep: the Google code (or a recovery code) that completes a login whose first factor
 * answered google_code_required with a ticket (login.ts startSession). The ticket is spent in the
 * transaction that uses the code and opens the session, under the first factor's method; a wrong
 * code leaves the ticket alive for another try, within the user's code throttle and the ticket's
 * five minutes.
 */
export async function loginSecondStep(deps: AccountDeps, body: LoginSecondStepBody, origin: LoginOrigin): Promise<string> {
  await deps.limiter.hit(`code-check-ip:${origin.callerIp}`, deps.limits.codeChecksPerIpPerHour, hourMs);
  const ticketHash = hashLoginTicket(body.loginTicket);
  const live = () => and(eq(loginSecondSteps.ticketHash, ticketHash), isNull(loginSecondSteps.usedAt),
    gt(loginSecondSteps.expiresAt, deps.clock.now()));
  const [ticket] = await deps.db.select().from(loginSecondSteps).where(live()).limit(1);
  if (!ticket) throw loginTicketInvalid();
  const method = ticket.method as LoginMethod;
  return withSecondFactor(deps, ticket.userId, body, async (tx) => {
    const taken = await tx.update(loginSecondSteps).set({ usedAt: deps.clock.now() }).where(live())
      .returning({ userId: loginSecondSteps.userId });
    if (taken.length !== 1) throw loginTicketInvalid();
    return startSessionAfterSecondFactor(deps, tx, ticket.userId, method, origin);
  }, () => recordFailedLogin(deps, ticket.userId, method, origin));
}

/**
 * unbindGoogleAuth: a code sent to the account's own e-mail or phone (purpose googleUnbind) and a
 * Google code or recovery code. Removes the binding and the recovery codes and ends the other
 * sessions, in the transaction that uses both codes.
 */
export async function unbindGoogleAuth(deps: AccountDeps, session: ActiveSession, body: UnbindGoogleAuthBody, callerIp: string) {
  const { userId } = session;
  await deps.limiter.hit(`code-check-ip:${callerIp}`, deps.limits.codeChecksPerIpPerHour, hourMs);
  const user = await requireUser(deps.db, userId);
  if (!(await googleAuthBound(deps.db, userId))) throw notBound();
  const contact = body.emailCode ? contactOf(user, 'email') : body.phoneCode ? contactOf(user, 'sms') : undefined;
  if (!contact) {
    throw badRequest('code_invalid', 'Please enter the code sent to your account\'s e-mail or phone.');
  }
  if (!body.googleCode && !body.recoveryCode) throw googleCodeRequired();
  await takeGuess(deps, userId);
  const codeTx = (work: (tx: Executor) => Promise<void>) => transactionWithCode(deps,
    { target: contact.target, purpose: 'googleUnbind', code: (body.emailCode ?? body.phoneCode)! }, work);
  await codeTx(async (tx) => {
    if (body.googleCode) await consumeGoogleCode(deps, tx, userId, body.googleCode);
    else await consumeRecoveryCode(deps, tx, userId, body.recoveryCode!);
    await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
    await tx.delete(userTotp).where(eq(userTotp.userId, userId));
    await revokeUserSessions(tx, deps.clock, userId, session.sessionId);
  });
  await deps.limiter.reset(throttleKey(userId));
  await sendAccountNotice(deps, deps.db, userId, accountNotices.googleUnbound(deps.clock.now()));
}

export async function googleAuthState(deps: AccountDeps, userId: bigint): Promise<GoogleAuthState> {
  const binding = await bindingOf(deps.db, userId);
  if (!binding) return { bound: false, recoveryCodesLeft: 0 };
  const [row] = await deps.db.select({ left: count() }).from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
  return { bound: true, boundAt: formatServerTime(binding.boundAt), recoveryCodesLeft: row?.left ?? 0 };
}
