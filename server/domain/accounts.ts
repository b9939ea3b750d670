// Accounts: registration by e-mail or phone code, the four ways to log in (password, e-mail code,
// phone code, guest), password reset and change, personal data. Every write is one transaction;
// every user error is an AppError with a stable code and changes nothing.
import { randomInt } from 'node:crypto';
import { and, eq, type SQL } from 'drizzle-orm';
import type {
  AccountType, CodePurpose, GuestLoginResult, PersonalDataBody, RegisterBody, ResetPasswordBody, UserInfo,
} from '../../src/api/contract/accounts.ts';
import { users } from '../db/schema.ts';
import type { Executor } from '../db/client.ts';
import { AppError, badRequest, conflict, notFound, unauthorized } from '../lib/errors.ts';
import { formatServerTime } from '../lib/time.ts';
import { sendCode, transactionWithCode, type CodeDeps, type CodeTarget } from './codes.ts';
import {
  assertStrongPassword, decoyPasswordHash, generatePassword, hashPassword, lookAlikeFreeAlphabet, verifyPassword,
} from './passwords.ts';
import { createSession, revokeSession, revokeUserSessions, type ActiveSession } from './sessions.ts';

export type AccountDeps = CodeDeps;
type UserRow = typeof users.$inferSelect;

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const phonePattern = /^[0-9]{4,15}$/;
const windowMs15Min = 15 * 60_000;

interface Identity { target: CodeTarget; where: SQL }

/** Normalises an e-mail or phone account to the stored form and the condition that finds it. */
function identify(accountType: AccountType, account: string, countryCode?: string): Identity {
  if (accountType === 'email') {
    const email = account.trim().toLowerCase();
    if (!emailPattern.test(email) || email.length > 254) {
      throw badRequest('invalid_request', 'Please enter a valid e-mail address.');
    }
    return { target: { channel: 'email', target: email, address: email }, where: eq(users.email, email) };
  }
  const phone = account.trim().replace(/^0+/, '');
  if (!phonePattern.test(phone)) throw badRequest('invalid_request', 'Please enter a valid phone number.');
  if (!countryCode) throw badRequest('invalid_request', 'Please choose the country code of the phone number.');
  return {
    target: { channel: 'sms', target: `+${countryCode} ${phone}`, address: `+${countryCode}${phone}` },
    where: and(eq(users.phone, phone), eq(users.phoneCountryCode, countryCode))!,
  };
}

/**
 * Resolves what a password-login form sends: an e-mail, a phone number (with country code) or a
 * guest name. `key` names the account the way it is looked up, so every spelling of one account
 * (case, spaces, trunk zeros) shares one failed-login counter.
 */
function identifyLogin(account: string, countryCode?: string): { where: SQL; key: string } {
  const trimmed = account.trim();
  if (trimmed.includes('@')) return loginIdentity(identify('email', trimmed));
  if (phonePattern.test(trimmed) && countryCode) return loginIdentity(identify('phone', trimmed, countryCode));
  return { where: eq(users.username, trimmed), key: `guest:${trimmed}` };
}

const loginIdentity = (identity: Identity) => ({ where: identity.where, key: `${identity.target.channel}:${identity.target.target}` });

async function findUser(db: Executor, where: SQL) {
  const [row] = await db.select().from(users).where(where).limit(1);
  return row;
}

export async function accountExists(deps: AccountDeps, account: string, countryCode?: string) {
  return (await findUser(deps.db, identifyLogin(account, countryCode).where)) !== undefined;
}

export async function requestCode(deps: AccountDeps, accountType: AccountType, account: string,
  countryCode: string | undefined, purpose: CodePurpose, callerIp: string) {
  const identity = identify(accountType, account, countryCode);
  const existing = await findUser(deps.db, identity.where);
  if (purpose === 'register' && existing) {
    throw conflict('account_exists', 'This account already exists, please log in with your password.');
  }
  if (purpose !== 'register' && !existing) {
    throw notFound('account_not_found', 'No account was found for this address. Please register first.');
  }
  return sendCode(deps, identity.target, purpose, callerIp);
}

async function newInviteCode(db: Executor): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    let code = '';
    for (let i = 0; i < 8; i += 1) code += lookAlikeFreeAlphabet[randomInt(lookAlikeFreeAlphabet.length)].toUpperCase();
    if (!(await findUser(db, eq(users.inviteCode, code)))) return code;
  }
  throw new Error('could not allocate an invite code');
}

export async function register(deps: AccountDeps, body: RegisterBody, userAgent?: string) {
  const identity = identify(body.accountType, body.account, body.countryCode);
  assertStrongPassword(body.password, identity.target.target);
  const passwordHash = await hashPassword(body.password);
  const accountExistsError = () => conflict('account_exists', 'This account already exists, please log in with your password.');
  // Checked before the code, so these answers do not spend one of its attempts.
  if (await findUser(deps.db, identity.where)) throw accountExistsError();
  let referrerId: bigint | undefined;
  if (body.inviteCode) {
    const referrer = await findUser(deps.db, eq(users.inviteCode, body.inviteCode.toUpperCase()));
    if (!referrer) throw badRequest('invite_code_invalid', 'The invitation code does not exist.');
    referrerId = referrer.id;
  }
  return transactionWithCode(deps, { target: identity.target.target, purpose: 'register', code: body.code }, async (tx) => {
    // Again inside the transaction: someone may have registered the address meanwhile.
    if (await findUser(tx, identity.where)) throw accountExistsError();
    const [user] = await tx.insert(users).values({
      email: identity.target.channel === 'email' ? identity.target.target : null,
      phone: identity.target.channel === 'sms' ? body.account.trim().replace(/^0+/, '') : null,
      phoneCountryCode: identity.target.channel === 'sms' ? body.countryCode : null,
      passwordHash, inviteCode: await newInviteCode(tx), referrerId,
      createdAt: deps.clock.now(),
    }).returning({ id: users.id });
    return createSession(tx, deps.clock, deps.limits, user.id, userAgent);
  });
}

export async function passwordLogin(deps: AccountDeps, account: string, password: string,
  countryCode: string | undefined, callerIp: string, userAgent?: string) {
  await deps.limiter.hit(`login-ip:${callerIp}`, deps.limits.loginAttemptsPerIpPerMinute, 60_000);
  const identity = identifyLogin(account, countryCode);
  const failureKey = `login-fail:${identity.key}`;
  if (await deps.limiter.count(failureKey, windowMs15Min) >= deps.limits.loginFailuresPerAccountPer15Min) {
    throw new AppError(429, 'rate_limited', 'Too many failed attempts. Please try again in 15 minutes or reset your password.',
      { retryAfterSeconds: 900 });
  }
  const user = await findUser(deps.db, identity.where);
  const valid = await verifyPassword(user?.passwordHash ?? await decoyPasswordHash(), password);
  if (!user || !valid) {
    await deps.limiter.hit(failureKey, Number.MAX_SAFE_INTEGER, windowMs15Min);
    throw badRequest('credentials_invalid', 'The account or password is wrong.');
  }
  await deps.limiter.reset(failureKey);
  return createSession(deps.db, deps.clock, deps.limits, user.id, userAgent);
}

export async function codeLogin(deps: AccountDeps, accountType: AccountType, account: string,
  countryCode: string | undefined, code: string, userAgent?: string) {
  const identity = identify(accountType, account, countryCode);
  const user = await findUser(deps.db, identity.where);
  if (!user) throw notFound('account_not_found', 'No account was found for this address. Please register first.');
  return transactionWithCode(deps, { target: identity.target.target, purpose: 'login', code },
    (tx) => createSession(tx, deps.clock, deps.limits, user.id, userAgent));
}

export async function guestLogin(deps: AccountDeps, account: string, callerIp: string, userAgent?: string): Promise<GuestLoginResult> {
  await deps.limiter.hit(`guest-ip:${callerIp}`, deps.limits.guestCreationsPerIpPerHour, 3_600_000);
  const initialPassword = generatePassword();
  const passwordHash = await hashPassword(initialPassword);
  const token = await deps.db.transaction(async (tx) => {
    if (await findUser(tx, identifyLogin(account).where)) {
      throw conflict('account_exists', 'This account already exists, please log in with your password.');
    }
    const [user] = await tx.insert(users).values({
      username: account.trim(), passwordHash, isGuest: true, hasInitialPassword: true,
      inviteCode: await newInviteCode(tx), createdAt: deps.clock.now(),
    }).returning({ id: users.id });
    return createSession(tx, deps.clock, deps.limits, user.id, userAgent);
  }).catch((error: unknown) => {
    // Two requests for the same new name at once both find it free; the unique index admits one.
    if (violatesUniqueIndex(error, 'users_username_key')) {
      throw conflict('account_exists', 'This account already exists, please log in with your password.');
    }
    throw error;
  });
  return { token, initialPassword };
}

/** Whether a query failed on the named unique index (PostgreSQL error 23505, wrapped by Drizzle). */
function violatesUniqueIndex(error: unknown, indexName: string): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const { code, constraint } = cause as Error & { code?: string; constraint?: string };
    if (code === '23505') return constraint === indexName;
  }
  return false;
}

export async function resetPassword(deps: AccountDeps, body: ResetPasswordBody) {
  const identity = identify(body.accountType, body.account, body.countryCode);
  assertStrongPassword(body.password, identity.target.target);
  const passwordHash = await hashPassword(body.password);
  const user = await findUser(deps.db, identity.where);
  if (!user) throw notFound('account_not_found', 'No account was found for this address. Please register first.');
  await transactionWithCode(deps, { target: identity.target.target, purpose: 'reset', code: body.code }, async (tx) => {
    await tx.update(users).set({ passwordHash, hasInitialPassword: false }).where(eq(users.id, user.id));
    await revokeUserSessions(tx, deps.clock, user.id);
  });
  // Whoever proved control of the address with a code is not kept locked out by earlier failures.
  await deps.limiter.reset(`login-fail:${loginIdentity(identity).key}`);
}

async function requireUser(db: Executor, userId: bigint): Promise<UserRow> {
  const user = await findUser(db, eq(users.id, userId));
  if (!user) throw unauthorized();
  return user;
}

export async function changePassword(deps: AccountDeps, session: ActiveSession, oldPassword: string, newPassword: string) {
  const user = await requireUser(deps.db, session.userId);
  if (!(await verifyPassword(user.passwordHash, oldPassword))) {
    throw badRequest('credentials_invalid', 'The current password is wrong.');
  }
  if (oldPassword === newPassword) throw badRequest('password_unchanged', 'The new password must differ from the current one.');
  assertStrongPassword(newPassword, user.email ?? user.username ?? user.phone ?? undefined);
  const passwordHash = await hashPassword(newPassword);
  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, hasInitialPassword: false }).where(eq(users.id, user.id));
    await revokeUserSessions(tx, deps.clock, user.id, session.sessionId);
  });
}

export const logout = (deps: AccountDeps, session: ActiveSession) => revokeSession(deps.db, deps.clock, session.sessionId);

export async function userInfo(deps: AccountDeps, userId: bigint): Promise<UserInfo> {
  return toUserInfo(await requireUser(deps.db, userId));
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

export async function updatePersonalData(deps: AccountDeps, userId: bigint, body: PersonalDataBody) {
  if (body.birthday) {
    const date = new Date(`${body.birthday}T00:00:00Z`);
    const today = deps.clock.now();
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== body.birthday
      || date.getTime() > today.getTime() || date.getUTCFullYear() < 1900) {
      throw badRequest('invalid_request', 'Please enter a valid birthday.');
    }
  }
  const trimmed = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, value.trim()]));
  if (Object.values(trimmed).some((value) => value === '')) throw badRequest('invalid_request', 'Fields must not be blank.');
  const [row] = await deps.db.update(users).set(trimmed).where(eq(users.id, userId)).returning();
  if (!row) throw unauthorized();
  return toUserInfo(row);
}

export async function recordActivity(deps: AccountDeps, userId: bigint, field: 'lastActiveAt' | 'lastSeenAt') {
  await deps.db.update(users).set({ [field]: deps.clock.now() }).where(eq(users.id, userId));
}
