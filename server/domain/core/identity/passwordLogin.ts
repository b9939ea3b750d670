// The password login and the attempt throttles every password guess goes through (login
// passwords here and in the Google-code login, twoFactor.ts; withdrawal passwords in wallet/).
// Every guess is taken from an atomic throttle before argon2 checks it, so guesses in parallel
// cannot all pass a check and then all be counted; a right password gives the guess back.
import type { Limits } from '../../../lib/config.ts';
import { AppError, badRequest } from '../../../lib/errors.ts';
import type { ThrottlePolicy } from '../../../lib/rateLimiter.ts';
import { decoyPasswordHash, verifyPassword } from '../../kernel/passwords.ts';
import { findUser, identifyLogin, loginIdentity, type AccountDeps, type Identity, type UserRow } from './contacts.ts';
import { recordFailedLogin, startSession, tokenOrSecondStep } from './login.ts';

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
/** How long an address that logged in to an account stays known to the account-wide ceiling. */
const knownClientMs = 30 * dayMs;

/** The account a login form names (e-mail, phone with country code, or guest name), if any. */
export const findLoginUser = (deps: AccountDeps, account: string, countryCode?: string) =>
  findUser(deps.db, identifyLogin(account, countryCode).where);

export const passwordPolicy = (limits: Limits): ThrottlePolicy => ({
  attemptsFree: limits.passwordAttemptsFree,
  lockoutBaseMs: limits.passwordLockoutBaseMs,
  lockoutMaxMs: limits.passwordLockoutMaxMs,
  forgetAfterMs: dayMs,
});

const throttleKey = (accountKey: string, callerIp: string) => `throttle:login:${accountKey}|${callerIp}`;

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
 * Proving control of the account's address (a password reset) lifts the caller's own login
 * lockout and the account-wide ceiling, not the lockouts of other addresses.
 */
export async function liftLoginLockout(deps: AccountDeps, identity: Identity, callerIp: string) {
  const accountKey = loginIdentity(identity).key;
  await deps.limiter.reset(throttleKey(accountKey, callerIp));
  await deps.limiter.reset(`login-fail-account:${accountKey}`);
}

/**
 * The password step of a password login (and of the Google-code login, twoFactor.ts), under the
 * login throttles: answers the user whose password this is.
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
