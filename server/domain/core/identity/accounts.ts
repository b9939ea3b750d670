// Accounts: registration by e-mail or phone code, logging in by e-mail or phone code and as a
// guest (the password login is passwordLogin.ts), password reset and change, personal data. Every
// write is one transaction; every user error is an AppError with a stable code and changes nothing.
// Requests about an e-mail or phone answer alike whether an account uses it or not (only its
// mailbox learns which), every password guess is taken from an atomic throttle before argon2
// checks it, and a password is hashed only once every cheaper check (limits, code) has passed.
import { randomInt } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import {
  birthdayAgeYears, birthdayRange,
  type AccountType, type CodePurpose, type GuestLoginResult, type PersonalDataBody, type RegisterBody, type ResetPasswordBody,
  type UserInfo,
} from '../../../../src/api/contract/accounts.ts';
import { sessions, users, withdrawPasswords } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { AppError, badRequest, conflict, unauthorized } from '../../../lib/errors.ts';
import { formatServerTime } from '../../../lib/time.ts';
import { invalidCode, sendCode, transactionWithCode } from '../../kernel/codes.ts';
import { assertStrongPassword, generatePassword, hashPassword, lookAlikeFreeAlphabet, verifyPassword } from '../../kernel/passwords.ts';
import { revokeSession, revokeUserSessions, type ActiveSession } from '../../kernel/sessions.ts';
import { findUser, guestName, identify, identifyLogin, type AccountDeps, type UserRow } from './contacts.ts';
import { userKycLevel } from './kycLevels.ts';
import { startSession, recordFailedLogin, tokenOrSecondStep } from './login.ts';
import { liftLoginLockout, passwordPolicy, tooManyAttempts } from './passwordLogin.ts';
import { requireGoogleCode, requireSecondFactorIn } from './twoFactor.ts';

const hourMs = 3_600_000;

export async function accountExists(deps: AccountDeps, account: string, countryCode?: string) {
  return (await findUser(deps.db, identifyLogin(account, countryCode).where)) !== undefined;
}

const accountExistsError = () => conflict('account_exists', 'This account already exists, please log in with your password.');

/**
 * What is sent instead of a code when the request does not fit the account's existence: a
 * register code for an address in use, a login or reset code for an address nobody uses.
 */
function noticeInsteadOfCode(purpose: CodePurpose, exists: boolean): string | undefined {
  if (purpose === 'register' && exists) {
    return 'Someone asked to register a Bourse account with this address, but you already have one. '
      + 'Log in with your password, or reset it if you have forgotten it. If it was not you, ignore this message.';
  }
  if (purpose !== 'register' && !exists) {
    return 'Someone asked for a Bourse code for this address, but no Bourse account uses it. '
      + 'If it was you, register first or use the address you registered with. If it was not you, ignore this message.';
  }
  return undefined;
}

/**
 * Sends a code, or a notice in its place, and answers the same either way: the same limits,
 * intervals and stored row, so the answer says nothing about the account.
 */
export async function requestCode(deps: AccountDeps, accountType: AccountType, account: string,
  countryCode: string | undefined, purpose: CodePurpose, callerIp: string) {
  const identity = identify(accountType, account, countryCode);
  const exists = (await findUser(deps.db, identity.where)) !== undefined;
  return sendCode(deps, identity.target, purpose, callerIp, noticeInsteadOfCode(purpose, exists));
}

/** Counts one presented code against the caller's address, before anything else is looked at. */
const limitCodeChecks = (deps: AccountDeps, callerIp: string) =>
  deps.limiter.hit(`code-check-ip:${callerIp}`, deps.limits.codeChecksPerIpPerHour, hourMs);

export async function newInviteCode(db: Executor): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    let code = '';
    for (let i = 0; i < 8; i += 1) code += lookAlikeFreeAlphabet[randomInt(lookAlikeFreeAlphabet.length)].toUpperCase();
    if (!(await findUser(db, eq(users.inviteCode, code)))) return code;
  }
  throw new Error('could not allocate an invite code');
}

/**
 * Order of checks: address limit, form, invitation, code, and only then the password hash and
 * whether the address is taken. A register code never reaches an address already in use (it
 * gets a notice), so without its mailbox an existing address answers code_invalid like any
 * wrong code; account_exists is told only to whoever holds a valid code.
 */
export async function register(deps: AccountDeps, body: RegisterBody, callerIp: string, userAgent?: string) {
  await limitCodeChecks(deps, callerIp);
  const identity = identify(body.accountType, body.account, body.countryCode);
  assertStrongPassword(body.password, identity.target.target);
  let referrerId: bigint | undefined;
  if (body.inviteCode) {
    const referrer = await findUser(deps.db, eq(users.inviteCode, body.inviteCode.toUpperCase()));
    if (!referrer) throw badRequest('invite_code_invalid', 'The invitation code does not exist.');
    referrerId = referrer.id;
  }
  return tokenOrSecondStep(await transactionWithCode(deps, { target: identity.target.target, purpose: 'register', code: body.code },
    async (tx, passwordHash) => {
      if (await findUser(tx, identity.where)) throw accountExistsError();
      const [user] = await tx.insert(users).values({
        email: identity.target.channel === 'email' ? identity.target.target : null,
        phone: identity.phone?.nationalNumber ?? null, phoneCountryCode: identity.phone?.countryCode ?? null,
        passwordHash, inviteCode: await newInviteCode(tx), referrerId,
        createdAt: deps.clock.now(),
      }).returning({ id: users.id });
      return startSession(deps, tx, user.id, 'register', { callerIp, userAgent });
    }, () => hashPassword(body.password)));
}

/** The user's password-change throttle, which the fresh proof of stepUp.ts shares: one budget of guesses per session holder. */
export const passwordChangeKey = (userId: bigint) => `throttle:password-change:${userId}`;

/**
 * A login code reaches only an account's own address (a notice goes to an address nobody uses),
 * so an unknown address answers code_invalid like a wrong code.
 */
export async function codeLogin(deps: AccountDeps, accountType: AccountType, account: string,
  countryCode: string | undefined, code: string, callerIp: string, userAgent?: string) {
  await limitCodeChecks(deps, callerIp);
  const identity = identify(accountType, account, countryCode);
  const result = await transactionWithCode(deps, { target: identity.target.target, purpose: 'login', code }, async (tx) => {
    const user = await findUser(tx, identity.where);
    if (!user) throw invalidCode();
    return startSession(deps, tx, user.id, 'code', { callerIp, userAgent });
  }).catch(async (error: unknown) => {
    // A wrong code for an existing account goes into its login history.
    if (error instanceof AppError && error.errorCode === 'code_invalid') {
      const user = await findUser(deps.db, identity.where);
      if (user) await recordFailedLogin(deps, user.id, 'code', { callerIp, userAgent });
    }
    throw error;
  });
  // A bound account's code is spent and answered with a ticket for the Google code (login.ts).
  return tokenOrSecondStep(result);
}

export async function guestLogin(deps: AccountDeps, account: string, callerIp: string, userAgent?: string): Promise<GuestLoginResult> {
  await deps.limiter.hit(`guest-ip:${callerIp}`, deps.limits.guestCreationsPerIpPerHour, 3_600_000);
  const name = guestName(account);
  if (await findUser(deps.db, eq(users.username, name))) throw accountExistsError();
  const initialPassword = generatePassword();
  const passwordHash = await hashPassword(initialPassword);
  const result = await deps.db.transaction(async (tx) => {
    if (await findUser(tx, eq(users.username, name))) throw accountExistsError();
    const [user] = await tx.insert(users).values({
      username: name, passwordHash, isGuest: true, hasInitialPassword: true,
      inviteCode: await newInviteCode(tx), createdAt: deps.clock.now(),
    }).returning({ id: users.id });
    return startSession(deps, tx, user.id, 'guest', { callerIp, userAgent });
  }).catch((error: unknown) => {
    // Two requests for the same new name at once both find it free; the unique index admits one.
    if (violatesUniqueIndex(error, 'users_username_key')) throw accountExistsError();
    throw error;
  });
  // A new guest account has no authenticator, so this is always a token.
  return { token: tokenOrSecondStep(result), initialPassword };
}

/** Whether a query failed on the named unique index (PostgreSQL error 23505, wrapped by Drizzle). */
function violatesUniqueIndex(error: unknown, indexName: string): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const { code, constraint } = cause as Error & { code?: string; constraint?: string };
    if (code === '23505') return constraint === indexName;
  }
  return false;
}

/**
 * Reset codes reach only an account's own address, so an unknown address answers code_invalid
 * like a wrong code. Proving control of the address lifts the caller's own login lockout and the
 * account's password-change lockout, not the lockouts of other addresses. A mailbox alone does not
 * reset an account with Google Authenticator bound: once the code is right it answers
 * google_code_required and changes nothing (the mailed code stays usable), and with the Google or
 * a recovery code the reset uses both in one transaction.
 */
export async function resetPassword(deps: AccountDeps, body: ResetPasswordBody, callerIp: string) {
  await limitCodeChecks(deps, callerIp);
  const identity = identify(body.accountType, body.account, body.countryCode);
  assertStrongPassword(body.password, identity.target.target);
  const userId = await transactionWithCode(deps, { target: identity.target.target, purpose: 'reset', code: body.code },
    async (tx, passwordHash) => {
      const user = await findUser(tx, identity.where);
      if (!user) throw invalidCode();
      await requireSecondFactorIn(deps, tx, user.id, body);
      await refuseWithdrawPassword(tx, user.id, body.password);
      await tx.update(users).set({ passwordHash, hasInitialPassword: false }).where(eq(users.id, user.id));
      await revokeUserSessions(tx, deps.clock, user.id);
      return user.id;
    }, () => hashPassword(body.password));
  await liftLoginLockout(deps, identity, callerIp);
  await deps.limiter.reset(passwordChangeKey(userId));
}

/** A new login password must not be the withdrawal password (issue 19): the mirror of withdrawPassword.ts. */
async function refuseWithdrawPassword(db: Executor, userId: bigint, password: string) {
  const [row] = await db.select({ passwordHash: withdrawPasswords.passwordHash }).from(withdrawPasswords)
    .where(eq(withdrawPasswords.userId, userId)).limit(1);
  if (row && await verifyPassword(row.passwordHash, password)) {
    throw badRequest('password_same_as_withdraw_password', 'Your login password must differ from your withdrawal password.');
  }
}

async function requireUser(db: Executor, userId: bigint): Promise<UserRow> {
  const user = await findUser(db, eq(users.id, userId));
  if (!user) throw unauthorized();
  return user;
}

/**
 * Checks the new password first (no hashing), then takes a guess of the user's throttle, checks
 * the current password, and writes the new hash only if the stored one is still the one checked:
 * of two changes at once, the second is refused as a wrong current password.
 */
export async function changePassword(deps: AccountDeps, session: ActiveSession, oldPassword: string, newPassword: string,
  googleCode?: string) {
  const user = await requireUser(deps.db, session.userId);
  if (oldPassword === newPassword) throw badRequest('password_unchanged', 'The new password must differ from the current one.');
  assertStrongPassword(newPassword, user.email ?? user.username ?? user.phone ?? undefined);
  const taken = await deps.limiter.takeAttempt(passwordChangeKey(user.id), passwordPolicy(deps.limits));
  if (!taken.allowed) throw tooManyAttempts(taken.retryAfterMs);
  const wrongPassword = () => badRequest('credentials_invalid', 'The current password is wrong.');
  if (!(await verifyPassword(user.passwordHash, oldPassword))) throw wrongPassword();
  await requireGoogleCode(deps, user.id, googleCode);
  await deps.limiter.reset(passwordChangeKey(user.id));
  await refuseWithdrawPassword(deps.db, user.id, newPassword);
  const passwordHash = await hashPassword(newPassword);
  await deps.db.transaction(async (tx) => {
    const changed = await tx.update(users).set({ passwordHash, hasInitialPassword: false })
      .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)))
      .returning({ id: users.id });
    if (changed.length !== 1) throw wrongPassword();
    await revokeUserSessions(tx, deps.clock, user.id, session.sessionId);
  });
}

export const logout = (deps: AccountDeps, session: ActiveSession) => revokeSession(deps.db, deps.clock, session.sessionId);

export async function userInfo(deps: AccountDeps, userId: bigint): Promise<UserInfo> {
  return withLoginCount(deps.db, userId, toUserInfo(await requireUser(deps.db, userId)));
}

/**
 * Adds how many times the account has logged in (every session ever opened, registration's
 * included), whether a withdrawal password is set, and the identity verification level reached.
 */
async function withLoginCount(db: Executor, userId: bigint, info: UserInfo): Promise<UserInfo> {
  const [row] = await db.select({ logins: count() }).from(sessions).where(eq(sessions.userId, userId));
  const [withdrawPassword] = await db.select({ userId: withdrawPasswords.userId }).from(withdrawPasswords)
    .where(eq(withdrawPasswords.userId, userId)).limit(1);
  return {
    ...info, loginCount: row?.logins ?? 0, hasWithdrawPassword: withdrawPassword !== undefined, kycLevel: await userKycLevel(db, userId),
  };
}

function toUserInfo(user: UserRow): UserInfo {
  const accountType = user.email ? 'email' : user.phone ? 'phone' : 'guest';
  return {
    id: user.id.toString(),
    account: user.email ?? (user.phone ? `+${user.phoneCountryCode} ${user.phone}` : user.username ?? ''),
    accountType,
    email: user.email, phone: user.phone, countryCode: user.phoneCountryCode,
    hasInitialPassword: user.hasInitialPassword,
    inviteCode: user.inviteCode,
    surname: user.surname, firstName: user.firstName,
    gender: user.gender as UserInfo['gender'], birthday: user.birthday, country: user.country,
    address: user.address, contactPhone: user.contactPhone,
    createTime: formatServerTime(user.createdAt),
  };
}

/**
 * A birthday must be a real date giving an age of 18 to 120 (contract birthdayRange). "Today"
 * is taken generously: the latest birthday on the calendar that is furthest ahead (UTC+14), the
 * earliest on the one furthest behind (UTC-12), so no user is refused for their time zone.
 */
function assertBirthday(birthday: string, now: Date) {
  const date = new Date(`${birthday}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== birthday) {
    throw badRequest('invalid_request', 'Please enter a valid birthday.');
  }
  const dayAt = (offsetHours: number) => new Date(now.getTime() + offsetHours * hourMs).toISOString().slice(0, 10);
  if (birthday > birthdayRange(dayAt(14)).latest || birthday < birthdayRange(dayAt(-12)).earliest) {
    throw badRequest('invalid_request',
      `The birthday must give an age of ${birthdayAgeYears.min} to ${birthdayAgeYears.max} years.`);
  }
}

/** Sets the fields given (trimmed, none blank) and empties those listed in `clear`, in one update. */
export async function updatePersonalData(deps: AccountDeps, userId: bigint, body: PersonalDataBody) {
  const { clear = [], ...given } = body;
  if (given.birthday) assertBirthday(given.birthday, deps.clock.now());
  const trimmed = Object.fromEntries(Object.entries(given).map(([key, value]) => [key, value.trim()]));
  if (Object.values(trimmed).some((value) => value === '')) throw badRequest('invalid_request', 'Fields must not be blank.');
  if (clear.some((field) => field in trimmed)) throw badRequest('invalid_request', 'A field cannot be both set and cleared.');
  const changes = { ...trimmed, ...Object.fromEntries(clear.map((field) => [field, null])) };
  if (Object.keys(changes).length === 0) throw badRequest('invalid_request', 'Nothing to change.');
  const [row] = await deps.db.update(users).set(changes).where(eq(users.id, userId)).returning();
  if (!row) throw unauthorized();
  return withLoginCount(deps.db, userId, toUserInfo(row));
}

export async function recordActivity(deps: AccountDeps, userId: bigint, field: 'lastActiveAt' | 'lastSeenAt') {
  await deps.db.update(users).set({ [field]: deps.clock.now() }).where(eq(users.id, userId));
}
