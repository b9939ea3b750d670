// Back-office operators: creation (CLI and demo seed), login with password and TOTP, sessions.
// Operators are not users: their own table and sessions, shorter lives (30 minutes idle, 12 hours
// at most), and a second factor. Sessions follow the users' approach (sessions.ts): an opaque
// 256-bit token handed out once and stored only as its SHA-256. Logins are throttled like users'
// (per account and address before argon2, with ceilings per address and per account) and every
// refusal of a login answers alike, so an unknown account, a wrong password, a wrong or reused
// code and a disabled operator cannot be told apart.
import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import { operatorSessions, operators } from '../db/schema.ts';
import type { Db, Executor } from '../db/client.ts';
import type { Limits } from '../config.ts';
import { AppError, badRequest, conflict } from '../lib/errors.ts';
import type { Clock } from '../lib/time.ts';
import type { RateLimiter, ThrottlePolicy } from '../lib/rateLimiter.ts';
import type { OperatorRole } from '../../src/api/contract/admin.ts';
import { decoyPasswordHash, generatePassword, hashPassword, verifyPassword } from './passwords.ts';
import { hashToken } from './sessions.ts';
import { matchTotp, newTotpSecret } from './totp.ts';
import { recordAudit } from './audit.ts';

export const operatorSessionIdleMs = 30 * 60_000;
export const operatorSessionAbsoluteMs = 12 * 3_600_000;
/** Last-use times are written at most this often, so reads do not all become writes. */
const touchIntervalMs = 60_000;
const hourMs = 3_600_000;

export interface Operator { id: bigint; email: string; role: OperatorRole }
export interface OperatorCredentials { email: string; password: string; totpSecret: string }

export interface OperatorDeps { db: Db; clock: Clock; limits: Limits; limiter: RateLimiter }

export const normaliseOperatorEmail = (email: string) => email.trim().toLowerCase();

/** Creates an operator with a generated password and TOTP secret, shown to whoever creates it once. */
export async function createOperator(db: Executor, email: string, role: OperatorRole,
  credentials: { password?: string; totpSecret?: string } = {}): Promise<OperatorCredentials> {
  const normalised = normaliseOperatorEmail(email);
  const password = credentials.password ?? generatePassword(16);
  const totpSecret = credentials.totpSecret ?? newTotpSecret();
  const [row] = await db.insert(operators).values({ email: normalised, role, passwordHash: await hashPassword(password), totpSecret })
    .onConflictDoNothing().returning({ id: operators.id });
  if (!row) throw conflict('account_exists', `An operator with the e-mail ${normalised} exists already.`);
  return { email: normalised, password, totpSecret };
}

/** Creates an operator and records it in the audit trail (as the new operator's first entry), in one transaction. */
export async function addOperator(db: Db, email: string, role: OperatorRole, via: string,
  credentials: { password?: string; totpSecret?: string } = {}): Promise<OperatorCredentials> {
  return db.transaction(async (tx) => {
    const created = await createOperator(tx, email, role, credentials);
    const [row] = await tx.select({ id: operators.id }).from(operators).where(eq(operators.email, created.email));
    await recordAudit(tx, { operatorId: row.id, action: 'operator.create', targetType: 'operator', targetId: row.id,
      after: { email: created.email, role, via } });
    return created;
  });
}

/**
 * Disables an operator (a leaver, a lost phone): no login, and every open session ends now. The
 * audit record names the operator itself, with `via` saying who acted (the CLI has no operator).
 */
export async function disableOperator(db: Db, clock: Clock, email: string, via: string) {
  const normalised = normaliseOperatorEmail(email);
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(operators).where(eq(operators.email, normalised)).for('update');
    if (!row) throw new AppError(404, 'account_not_found', `No operator has the e-mail ${normalised}.`);
    await tx.update(operators).set({ disabled: true }).where(eq(operators.id, row.id));
    const ended = await tx.update(operatorSessions).set({ revokedAt: clock.now() })
      .where(and(eq(operatorSessions.operatorId, row.id), isNull(operatorSessions.revokedAt))).returning({ id: operatorSessions.id });
    await recordAudit(tx, { operatorId: row.id, action: 'operator.disable', targetType: 'operator', targetId: row.id,
      before: { disabled: row.disabled }, after: { disabled: true, sessionsEnded: ended.length, via } }, clock);
    return { email: normalised, sessionsEnded: ended.length };
  });
}

/**
 * The demo operator of SEED_DEMO installs: fixed, documented credentials (README), so anyone may
 * open the back office of a demo. Starting later without SEED_DEMO disables it, so a demo database
 * put to real use does not keep a login the whole world knows.
 */
export const demoOperator = {
  email: 'operator@bourse.local', password: 'Operator2026pass', totpSecret: 'JBSWY3DPEHPK3PXPBOURSEDEMO234567', role: 'admin',
} as const;

export async function seedDemoOperator(db: Db, demo: boolean) {
  if (!demo) {
    await db.update(operators).set({ disabled: true }).where(eq(operators.email, demoOperator.email));
    return undefined;
  }
  const [existing] = await db.select({ id: operators.id }).from(operators).where(eq(operators.email, demoOperator.email));
  if (existing) {
    await db.update(operators).set({ disabled: false }).where(eq(operators.id, existing.id));
  } else {
    await addOperator(db, demoOperator.email, demoOperator.role, 'demo seed', demoOperator);
  }
  return demoOperator;
}

const credentialsInvalid = () => badRequest('credentials_invalid', 'The account, password or code is wrong.');

function tooManyAttempts(retryAfterMs: number) {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const wait = retryAfterSeconds < 120 ? `${retryAfterSeconds} seconds` : `${Math.ceil(retryAfterSeconds / 60)} minutes`;
  return new AppError(429, 'too_many_attempts', `Too many failed logins. Please try again in ${wait}.`, { retryAfterSeconds });
}

const throttleKey = (email: string, callerIp: string) => `throttle:operator-login:${email}|${callerIp}`;
const policyOf = (limits: Limits): ThrottlePolicy => ({
  attemptsFree: limits.passwordAttemptsFree, lockoutBaseMs: limits.passwordLockoutBaseMs,
  lockoutMaxMs: limits.passwordLockoutMaxMs, forgetAfterMs: 24 * hourMs,
});

/**
 * Password, then TOTP. The attempt is taken from the throttles before argon2 runs; a code is
 * accepted once (the step it matched is stored with a compare-and-set, so two logins racing with
 * one code cannot both pass). A success gives the attempt back and opens a session, audited.
 */
export async function operatorLogin(deps: OperatorDeps, account: string, password: string, totpCode: string, callerIp: string) {
  const { limiter, limits, clock } = deps;
  const email = normaliseOperatorEmail(account);
  await limiter.hit(`operator-login-ip:${callerIp}`, limits.loginAttemptsPerIpPerMinute, 60_000);
  const taken = await limiter.takeAttempt(throttleKey(email, callerIp), policyOf(limits));
  if (!taken.allowed) throw tooManyAttempts(taken.retryAfterMs);
  await limiter.hit(`operator-login-fail-ip:${callerIp}`, limits.loginFailuresPerIpPerHour, hourMs);
  try {
    await limiter.hit(`operator-login-fail-account:${email}`, limits.loginFailuresPerAccountPerHour, hourMs);
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 429) throw tooManyAttempts(Number(error.extra.retryAfterSeconds ?? 3600) * 1000);
    throw error;
  }

  const [operator] = await deps.db.select().from(operators).where(eq(operators.email, email)).limit(1);
  const passwordValid = await verifyPassword(operator?.passwordHash ?? await decoyPasswordHash(), password);
  if (!operator || !passwordValid || operator.disabled) throw credentialsInvalid();
  const nowMs = clock.now().getTime();
  const step = await matchTotp(operator.totpSecret, totpCode, nowMs, operator.totpLastStep ?? undefined);
  if (step === undefined) throw credentialsInvalid();

  const token = await deps.db.transaction(async (tx) => {
    const [claimed] = await tx.update(operators).set({ totpLastStep: step })
      .where(and(eq(operators.id, operator.id), eq(operators.disabled, false),
        or(isNull(operators.totpLastStep), lt(operators.totpLastStep, step))))
      .returning({ id: operators.id });
    if (!claimed) return undefined;
    const issued = await createOperatorSession(tx, clock, operator.id);
    await recordAudit(tx, { operatorId: operator.id, action: 'operator.login', targetType: 'operator', targetId: operator.id,
      after: { sessionId: issued.sessionId, ip: callerIp } }, clock);
    return issued.token;
  });
  if (!token) throw credentialsInvalid();
  await limiter.reset(throttleKey(email, callerIp));
  await limiter.release(`operator-login-fail-ip:${callerIp}`);
  await limiter.release(`operator-login-fail-account:${email}`);
  return token;
}

async function createOperatorSession(tx: Executor, clock: Clock, operatorId: bigint) {
  const token = randomBytes(32).toString('base64url');
  const now = clock.now();
  const [row] = await tx.insert(operatorSessions).values({
    operatorId, tokenHash: hashToken(token), lastUsedAt: now,
    expiresAt: new Date(now.getTime() + operatorSessionAbsoluteMs), createdAt: now,
  }).returning({ id: operatorSessions.id });
  return { token, sessionId: row.id };
}

export interface ActiveOperator extends Operator { sessionId: bigint }

/** The operator a token belongs to, while the session lives and the operator is not disabled. */
export async function resolveOperatorSession(db: Executor, clock: Clock, token: string): Promise<ActiveOperator | undefined> {
  if (token.length < 20 || token.length > 100) return undefined;
  const [row] = await db.select({ session: operatorSessions, operator: operators }).from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(eq(operatorSessions.tokenHash, hashToken(token))).limit(1);
  const nowMs = clock.now().getTime();
  if (!row || row.session.revokedAt || row.operator.disabled || row.session.expiresAt.getTime() <= nowMs) return undefined;
  if (nowMs - row.session.lastUsedAt.getTime() > operatorSessionIdleMs) return undefined;
  if (nowMs - row.session.lastUsedAt.getTime() > touchIntervalMs) {
    await db.update(operatorSessions).set({ lastUsedAt: clock.now() })
      .where(and(eq(operatorSessions.id, row.session.id), gt(operatorSessions.expiresAt, clock.now())));
  }
  return { id: row.operator.id, email: row.operator.email, role: row.operator.role as OperatorRole, sessionId: row.session.id };
}

export async function operatorLogout(db: Db, clock: Clock, operator: ActiveOperator) {
  await db.transaction(async (tx) => {
    await tx.update(operatorSessions).set({ revokedAt: clock.now() })
      .where(and(eq(operatorSessions.id, operator.sessionId), isNull(operatorSessions.revokedAt)));
    await recordAudit(tx, { operatorId: operator.id, action: 'operator.logout', targetType: 'operator', targetId: operator.id,
      after: { sessionId: operator.sessionId } }, clock);
  });
}
