// The withdrawal password: a second secret, apart from the login password, asked for every
// withdrawal. It is set (or set again, when forgotten) with a code sent to the account's own
// e-mail or phone, so a stolen session alone cannot set one; it is changed with the old one.
// Every guess, at a withdrawal or a change, comes from one escalating throttle per user, taken
// before argon2 runs (like login passwords, identity/passwordLogin.ts).
import { and, eq } from 'drizzle-orm';
import { users, withdrawPasswords } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { AppError, badRequest, unauthorized } from '../../../lib/errors.ts';
import { sendCode, transactionWithCode } from '../../kernel/codes.ts';
import { assertStrongPassword, hashPassword, verifyPassword } from '../../kernel/passwords.ts';
import { normalisePhone } from '../../kernel/phoneNumbers.ts';
import { contactOf, type AccountDeps, type UserRow } from '../identity/contacts.ts';
import { passwordPolicy, tooManyAttempts } from '../identity/passwordLogin.ts';

const hourMs = 3_600_000;
const throttleKey = (userId: bigint) => `throttle:withdraw-password:${userId}`;

async function requireUser(db: Executor, userId: bigint): Promise<UserRow> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw unauthorized();
  return user;
}

const noContact = () => badRequest('withdraw_password_no_contact',
  'A withdrawal password is set with a code sent to your account\'s e-mail or phone; this account has neither.');
const notYourAddress = () => badRequest('invalid_request',
  'The code for the withdrawal password is sent to your account\'s own e-mail or phone only.');

/**
 * getEmailCaptcha / getPhoneCaptcha with type=withdrawPassword: a code to the logged-in user's own
 * address. The address in the request must be the account's (the form shows it); any other is
 * refused, so the call cannot send codes to strangers.
 */
export async function sendWithdrawPasswordCode(deps: AccountDeps, userId: bigint, request:
  { channel: 'email'; email: string } | { channel: 'sms'; phone: string; countryCode: string }, callerIp: string,
  purpose: 'withdrawPassword' | 'googleUnbind' | 'addLogin' = 'withdrawPassword') {
  const user = await requireUser(deps.db, userId);
  const contact = contactOf(user, request.channel);
  if (!contact) throw user.email || user.phone ? notYourAddress() : noContact();
  if (request.channel === 'email') {
    if (request.email.trim().toLowerCase().replace(/\.+$/, '') !== contact.target) throw notYourAddress();
  } else {
    const asked = normalisePhone(request.phone, request.countryCode);
    if (!asked || asked.e164 !== contact.address) throw notYourAddress();
  }
  return sendCode(deps, contact, purpose, callerIp);
}

export async function hasWithdrawPassword(db: Executor, userId: bigint): Promise<boolean> {
  const [row] = await db.select({ userId: withdrawPasswords.userId }).from(withdrawPasswords)
    .where(eq(withdrawPasswords.userId, userId)).limit(1);
  return row !== undefined;
}

/**
 * Sets the withdrawal password with a code from the user's e-mail (or phone, for a phone
 * account); also how a forgotten one is replaced. Proving the address lifts the guess lockout.
 */
export async function setWithdrawPassword(deps: AccountDeps, userId: bigint, password: string, code: string, callerIp: string) {
  await deps.limiter.hit(`code-check-ip:${callerIp}`, deps.limits.codeChecksPerIpPerHour, hourMs);
  const user = await requireUser(deps.db, userId);
  const contact = contactOf(user, 'email') ?? contactOf(user, 'sms');
  if (!contact) throw noContact();
  assertStrongPassword(password, contact.target);
  await transactionWithCode(deps, { target: contact.target, purpose: 'withdrawPassword', code }, async (tx, passwordHash) => {
    // Only once the code is right: before it, the answer would tell a stolen session whether a guess
    // is the login password, with no throttle.
    await refuseLoginPassword(user, password);
    const now = deps.clock.now();
    await tx.insert(withdrawPasswords).values({ userId, passwordHash, updatedAt: now })
      .onConflictDoUpdate({ target: withdrawPasswords.userId, set: { passwordHash, updatedAt: now } });
  }, () => hashPassword(password));
  await deps.limiter.reset(throttleKey(userId));
}

/** The error of a withdrawal password that is also the account's login password. */
export const sameAsLogin = () => new AppError(400, 'withdraw_password_same_as_login',
  'The withdrawal password must differ from your login password.', { setPath: '/user/appUser/setWithdrawPassword' });

/**
 * Refuses a withdrawal password equal to the login password: one stolen password must not both open
 * the account and take its money out. Compared with the login hash (argon2), never stored twice.
 */
async function refuseLoginPassword(user: UserRow, password: string) {
  if (await verifyPassword(user.passwordHash, password)) throw sameAsLogin();
}

/**
 * After a right withdrawal password: refuses it still if it is the login password too (set before
 * the two were compared, or a login password changed to it elsewhere), so the user sets a new one.
 */
export async function refuseIfLoginPassword(db: Executor, userId: bigint, password: string) {
  await refuseLoginPassword(await requireUser(db, userId), password);
}

const passwordRequired = () => new AppError(400, 'withdraw_password_required',
  'Please set a withdrawal password first.', { setPath: '/user/appUser/setWithdrawPassword' });
const wrongPassword = () => badRequest('withdraw_password_invalid', 'The withdrawal password is wrong.');

/**
 * Checks a withdrawal password: a guess is taken from the user's throttle first (refused while a
 * lockout runs, with the wait), and a right one gives the throttle back. Answers the stored hash
 * that was checked.
 */
export async function checkWithdrawPassword(deps: AccountDeps, userId: bigint, password: string): Promise<string> {
  const [row] = await deps.db.select().from(withdrawPasswords).where(eq(withdrawPasswords.userId, userId)).limit(1);
  if (!row) throw passwordRequired();
  const taken = await deps.limiter.takeAttempt(throttleKey(userId), passwordPolicy(deps.limits));
  if (!taken.allowed) throw tooManyAttempts(taken.retryAfterMs);
  if (!(await verifyPassword(row.passwordHash, password))) throw wrongPassword();
  await deps.limiter.reset(throttleKey(userId));
  return row.passwordHash;
}

/** Changes it with the old one; of two changes at once the second finds the hash changed and is refused. */
export async function changeWithdrawPassword(deps: AccountDeps, userId: bigint, oldPassword: string, newPassword: string) {
  if (oldPassword === newPassword) throw badRequest('password_unchanged', 'The new password must differ from the current one.');
  const user = await requireUser(deps.db, userId);
  assertStrongPassword(newPassword, user.email ?? user.username ?? user.phone ?? undefined);
  const checkedHash = await checkWithdrawPassword(deps, userId, oldPassword);
  await refuseLoginPassword(user, newPassword);
  const passwordHash = await hashPassword(newPassword);
  const changed = await deps.db.update(withdrawPasswords).set({ passwordHash, updatedAt: deps.clock.now() })
    .where(and(eq(withdrawPasswords.userId, userId), eq(withdrawPasswords.passwordHash, checkedHash)))
    .returning({ userId: withdrawPasswords.userId });
  if (changed.length !== 1) throw wrongPassword();
}

