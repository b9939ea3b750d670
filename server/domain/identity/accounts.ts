// Accounts: registration by e-mail or phone code, the four ways to log in (password, e-mail code,
// phone code, guest), password reset and change, personal data. Every write is one transaction;
// every user error is an AppError with a stable code and changes nothing. Requests about an
// e-mail or phone answer alike whether an account uses it or not (only its mailbox learns which),
// every password guess is taken from an atomic throttle before argon2 checks it, and a password
// is hashed only once every cheaper check (limits, code) has passed.
import { randomInt } from 'node:crypto';
import { and, count, eq, type SQL } from 'drizzle-orm';
import {
  birthdayAgeYears, birthdayRange,
  type AccountType, type CodePurpose, type GuestLoginResult, type PersonalDataBody, type RegisterBody, type ResetPasswordBody,
  type UserInfo,
} from '../../src/api/contract/accounts.ts';
import { sessions, users, withdrawPasswords } from '../db/schema.ts';
import type { Executor } from '../db/client.ts';
import type { Limits } from '../config.ts';
import { AppError, badRequest, conflict, unauthorized } from '../lib/errors.ts';
import type { ThrottlePolicy } from '../lib/rateLimiter.ts';
import { formatServerTime } from '../lib/time.ts';
import { invalidCode, sendCode, transactionWithCode, type CodeDeps, type CodeTarget } from './codes.ts';
import {
  assertStrongPassword, decoyPasswordHash, generatePassword, hashPassword, lookAlikeFreeAlphabet, verifyPassword,
} from './passwords.ts';
import { normalisePhone, type NormalisedPhone } from './phoneNumbers.ts';
import { recordFailedLogin, startSession, tokenOrSecondStep } from './identity/login.ts';
import { requireGoogleCode, requireSecondFactorIn } from './identity/twoFactor.ts';
import { revokeSession, revokeUserSessions, type ActiveSession } from './sessions.ts';
import { userKycLevel } from './identity/kycLevels.ts';

export type AccountDeps = CodeDeps;
type UserRow = typeof users.$inferSelect;

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const phonePattern = /^[0-9]{4,15}$/;
const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
/** How long an address that logged in to an account stays known to the account-wide ceiling. */
const knownClientMs = 30 * dayMs;

interface Identity { target: CodeTarget; where: SQL; phone?: NormalisedPhone }

/**
 * Normalises an e-mail or phone account to the stored form and the condition that finds it:
 * e-mail in lower case without the root dot of its domain ("a@b.com." is "a@b.com"), phone in
 * E.164 (phoneNumbers.ts).
 */
function identify(accountType: AccountType, account: string, countryCode?: string): Identity {
  if (accountType === 'email') {
    const email = account.trim().toLowerCase().replace(/\.+$/, '');
    if (!emailPattern.test(email) || email.length > 254) {
      throw badRequest('invalid_request', 'Please enter a valid e-mail address.');
    }
    return { target: { channel: 'email', target: email, address: email }, where: eq(users.email, email) };
  }
  if (!countryCode) throw badRequest('invalid_request', 'Please choose the country code of the phone number.');
  const phone = normalisePhone(account, countryCode);
  if (!phone) throw badRequest('invalid_request', 'Please enter a valid phone number.');
  return {
    target: { channel: 'sms', target: `+${phone.countryCode} ${phone.nationalNumber}`, address: phone.e164 },
    where: and(eq(users.phone, phone.nationalNumber), eq(users.phoneCountryCode, phone.countryCode))!,
    phone,
  };
}

/** Guest names are stored and compared in lower case: "Bob" and "bob" are one account. */
const guestName = (account: string) => account.trim().toLowerCase();

/**
 * Resolves what a password-login form sends: an e-mail, a phone number (with country code) or a
 * guest name. `key` names the account the way it is looked up, so every spelling of one account
 * (case, spaces, trunk prefix) shares one throttle.
 */
function identifyLogin(account: string, countryCode?: string): { where: SQL; key: string } {
  const trimmed = account.trim();
  if (trimmed.includes('@')) return loginIdentity(identify('email', trimmed));
  if (phonePattern.test(trimmed) && countryCode) return loginIdentity(identify('phone', trimmed, countryCode));
  return { where: eq(users.username, guestName(trimmed)), key: `guest:${guestName(trimmed)}` };
}

const loginIdentity = (identity: Identity) => ({ where: identity.where, key: `${identity.target.channel}:${identity.target.target}` });

async function findUser(db: Executor, where: SQL) {
  const [row] = await db.select().from(users).where(where).limit(1);
  return row;
}

/** The account a login form names (e-mail, phone with country code, or guest name), if any. */
export const findLoginUser = (deps: AccountDeps, account: string, countryCode?: string) =>
  findUser(deps.db, identifyLogin(account, countryCode).where);

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

export const passwordPolicy = (limits: Limits): ThrottlePolicy => ({
  attemptsFree: limits.passwordAttemptsFree,
  lockoutBaseMs: limits.passwordLockoutBaseMs,
  lockoutMaxMs: limits.passwordLockoutMaxMs,
  forgetAfterMs: dayMs,
});

const throttleKey = (accountKey: string, callerIp: string) => `throttle:login:${accountKey}|${callerIp}`;
/** The user's password-change throttle, which the fresh proof of stepUp.ts shares: one budget of guesses per session holder. */
export const passwordChangeKey = (userId: bigint) => `throttle:password-change:${userId}`;

export function tooManyAttempts(retryAfterMs: number) {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const wait = retryAfterSeconds < 120 ? `${retryAfterSeconds} seconds` : `${Math.ceil(retryAfterSeconds / 60)} minutes`;
  return new AppError(429, 'too_many_attempts',
    `Too many wrong passwords. Please try again in ${wait}, or reset your password.`, { retryAfterSeconds });
}

const isRateLimited = (error: unknown): error is AppError => error instanceof AppError && error.statusCode === 429;

/**
 * Takes one password guess on an account from an address, before the password is checked. The
 * lockout is per account and address, so an attacker slows only their own address and the owner
 * logs in from theirs; an address also has a ceiling across accounts, and an account one across
 * addresses past which only addresses that logged in to it before may guess. Each step is one
 * atomic hit, so guesses in parallel cannot all pass a check and then all be counted.
 */
async function takeLoginAttempt(deps: AccountDeps, accountKey: string, callerIp: string) {
  const { limiter, limits } = deps;
  const taken = await limiter.takeAttempt(throttleKey(accountKey, callerIp), passwordPolicy(limits));
  if (!taken.allowed) throw tooManyAttempts(taken.retryAfterMs);
  await limiter.hit(`login-fail-ip:${callerIp}`, limits.loginFailuresPerIpPerHour, hourMs);
  try {
    await limiter.hit(`login-fail-account:${accountKey}`, limits.loginFailuresPerAccountPerHour, hourMs);
  } catch (error) {
    if (!isRateLimited(error)) throw error;
    const known = await limiter.count(`login-known:${accountKey}|${callerIp}`, knownClientMs) > 0;
    if (!known) throw tooManyAttempts(Number(error.extra.retryAfterSeconds ?? 3600) * 1000);
  }
}

/** A right password: the guess is given back to every ceiling and the address becomes known. */
async function loginSucceeded(deps: AccountDeps, accountKey: string, callerIp: string) {
  const { limiter } = deps;
  await limiter.reset(throttleKey(accountKey, callerIp));
  await limiter.release(`login-fail-ip:${callerIp}`);
  await limiter.release(`login-fail-account:${accountKey}`);
  await limiter.hit(`login-known:${accountKey}|${callerIp}`, Number.MAX_SAFE_INTEGER, knownClientMs);
}

/**
 * The password step of a password login (and of the Google-code login, identity/twoFactor.ts),
 * under the login throttles: answers the user whose password this is.
 */
export async function checkLoginPassword(deps: AccountDeps, account: string, password: string,
  countryCode: string | undefined, callerIp: string, userAgent?: string): Promise<UserRow> {
  await deps.limiter.hit(`login-ip:${callerIp}`, deps.limits.loginAttemptsPerIpPerMinute, 60_000);
  const identity = identifyLogin(account, countryCode);
  await takeLoginAttempt(deps, identity.key, callerIp);
  const user = await findUser(deps.db, identity.where);
  const valid = await verifyPassword(user?.passwordHash ?? await decoyPasswordHash(), password);
  if (!user || !valid) {
    if (user) await recordFailedLogin(deps, user.id, 'password', { callerIp, userAgent });
    throw badRequest('credentials_invalid', 'The account or password is wrong.');
  }
  await loginSucceeded(deps, identity.key, callerIp);
  return user;
}

/**
 * An account with Google Authenticator bound is answered google_code_required once the password
 * is right, with no session but a login ticket (login.ts): the form then completes it with
 * loginSecondStep, or (a client of the spec alone) calls googleSecretLogin with the password and a code.
 */
export async function passwordLogin(deps: AccountDeps, account: string, password: string,
  countryCode: string | undefined, callerIp: string, userAgent?: string) {
  const user = await checkLoginPassword(deps, account, password, countryCode, callerIp, userAgent);
  return tokenOrSecondStep(await startSession(deps, deps.db, user.id, 'password', { callerIp, userAgent }));
}

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
      await tx.update(users).set({ passwordHash, hasInitialPassword: false }).where(eq(users.id, user.id));
      await revokeUserSessions(tx, deps.clock, user.id);
      return user.id;
    }, () => hashPassword(body.password));
  const accountKey = loginIdentity(identity).key;
  await deps.limiter.reset(throttleKey(accountKey, callerIp));
  await deps.limiter.reset(`login-fail-account:${accountKey}`);
  await deps.limiter.reset(passwordChangeKey(userId));
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
