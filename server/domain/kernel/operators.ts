// Back-office operators: creation (CLI and demo seed), login with password and TOTP, sessions.
// Operators are not users: their own table and sessions, shorter lives (30 minutes idle, 12 hours
// at most), and a second factor. Sessions follow the users' approach (sessions.ts): an opaque
// 256-bit token handed out once and stored only as its SHA-256. Logins are throttled like users'
// (per account and address before argon2, with ceilings per address and per account) and every
// refusal of a login answers alike, so an unknown account, a wrong password, a wrong or reused
// code and a disabled operator cannot be told apart.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, ne, or } from 'drizzle-orm';
import { operatorSessions, operators } from '../../db/schema.ts';
import type { Db, Executor } from '../../db/client.ts';
import type { Limits } from '../../lib/config.ts';
import { AppError, badRequest, conflict } from '../../lib/errors.ts';
import type { Clock } from '../../lib/time.ts';
import type { RateLimiter, ThrottlePolicy } from '../../lib/rateLimiter.ts';
import type { OperatorRole } from '../../../src/api/contract/admin.ts';
import { decoyPasswordHash, generatePassword, hashPassword, verifyPassword } from './passwords.ts';
import { hashToken } from './sessions.ts';
import { matchTotp, newTotpSecret, totpUri } from './totp.ts';
import { openText, sealText } from '../../lib/secretBox.ts';
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

/**
 * A second demo operator (finance), so a demo shows what two different operators approve: a
 * deposit or a withdrawal above the currency's threshold (domain/core/wallet/approvals.ts).
 */
export const demoSecondOperator = {
  email: 'reviewer@bourse.local', password: 'Reviewer2026pass', totpSecret: 'JBSWY3DPEHPK3PXPBOURSEREVIEWER23', role: 'finance',
} as const;

export async function seedDemoOperator(db: Db, demo: boolean) {
  for (const seeded of [demoOperator, demoSecondOperator]) {
    if (!demo) {
      await db.update(operators).set({ disabled: true }).where(eq(operators.email, seeded.email));
      continue;
    }
    const [existing] = await db.select({ id: operators.id }).from(operators).where(eq(operators.email, seeded.email));
    if (existing) {
      await db.update(operators).set({ disabled: false }).where(eq(operators.id, existing.id));
    } else {
      await addOperator(db, seeded.email, seeded.role, 'demo seed', seeded);
    }
  }
  return demo ? demoOperator : undefined;
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
    if (!await claimTotpStep(tx, operator.id, step)) return undefined;
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

/**
 * Spends `step` of an enabled operator's authenticator: stored only when later than the last step
 * used, so of two requests with one code only one gets through. False when it was not.
 */
async function claimTotpStep(tx: Executor, operatorId: bigint, step: bigint): Promise<boolean> {
  const [claimed] = await tx.update(operators).set({ totpLastStep: step })
    .where(and(eq(operators.id, operatorId), eq(operators.disabled, false),
      or(isNull(operators.totpLastStep), lt(operators.totpLastStep, step))))
    .returning({ id: operators.id });
  return claimed !== undefined;
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

// ── The operator's own authenticator: rotation ──

export const totpRotationTicketMs = 10 * 60_000;
const ticketPurpose = 'operator totp rotation';
const secretDigest = (secret: string) => createHash('sha256').update(secret).digest('base64url').slice(0, 22);

export interface RotationDeps extends OperatorDeps { pepper: Buffer }

/**
 * A new secret for `operator`, not yet active. Nothing is stored: the answer's ticket seals the
 * secret with the operator, a digest of the current secret (so a ticket serves one rotation) and
 * its expiry, under the server's key; only the server can open or forge one.
 */
export async function startTotpRotation(deps: RotationDeps, operator: ActiveOperator) {
  const [row] = await deps.db.select({ totpSecret: operators.totpSecret }).from(operators).where(eq(operators.id, operator.id));
  const secret = newTotpSecret();
  const expiresAt = deps.clock.now().getTime() + totpRotationTicketMs;
  const ticket = sealText(deps.pepper, ticketPurpose,
    JSON.stringify({ operatorId: operator.id.toString(), secret, current: secretDigest(row.totpSecret), expiresAt }));
  return { secret, otpauthUri: totpUri(secret, operator.email), ticket, expiresAt };
}

function openTicket(pepper: Buffer, ticket: string): { operatorId: string; secret: string; current: string; expiresAt: number } | undefined {
  try {
    return JSON.parse(openText(pepper, ticketPurpose, ticket)) as { operatorId: string; secret: string; current: string; expiresAt: number };
  } catch {
    return undefined;
  }
}

/**
 * Replaces the operator's secret with the ticket's, given a code of each: the new one (the
 * authenticator holds it) and the current one (whoever rotates holds the old factor too; a code
 * used before is refused). Attempts are limited per operator. The swap is a compare-and-set on the
 * current secret and its last step, so two confirmations cannot both pass; the operator's other
 * sessions end, and the audit trail records it — all in one transaction.
 */
export async function confirmTotpRotation(deps: RotationDeps, operator: ActiveOperator,
  body: { ticket: string; code: string; currentCode: string }) {
  const attemptsKey = `operator-totp-rotate:${operator.id}`;
  await deps.limiter.hit(attemptsKey, deps.limits.passwordAttemptsFree, 15 * 60_000);
  const nowMs = deps.clock.now().getTime();
  const [row] = await deps.db.select().from(operators).where(eq(operators.id, operator.id));
  const ticket = openTicket(deps.pepper, body.ticket);
  if (!ticket || ticket.operatorId !== operator.id.toString() || ticket.expiresAt <= nowMs || ticket.current !== secretDigest(row.totpSecret)) {
    throw badRequest('operator_totp_ticket_invalid', 'This new secret has expired or was already used. Please start again.');
  }
  const newStep = await matchTotp(ticket.secret, body.code, nowMs);
  if (newStep === undefined) throw badRequest('operator_totp_code_invalid', 'The code of the new secret is wrong.');
  const currentStep = await matchTotp(row.totpSecret, body.currentCode, nowMs, row.totpLastStep ?? undefined);
  if (currentStep === undefined) throw badRequest('operator_totp_current_invalid', 'The code of your current authenticator is wrong or was used already.');

  const ended = await deps.db.transaction(async (tx) => {
    const [swapped] = await tx.update(operators).set({ totpSecret: ticket.secret, totpLastStep: newStep > currentStep ? newStep : currentStep })
      .where(and(eq(operators.id, operator.id), eq(operators.totpSecret, row.totpSecret),
        or(isNull(operators.totpLastStep), lt(operators.totpLastStep, currentStep))))
      .returning({ id: operators.id });
    if (!swapped) return undefined;
    const revoked = await tx.update(operatorSessions).set({ revokedAt: deps.clock.now() })
      .where(and(eq(operatorSessions.operatorId, operator.id), isNull(operatorSessions.revokedAt), ne(operatorSessions.id, operator.sessionId)))
      .returning({ id: operatorSessions.id });
    await recordAudit(tx, { operatorId: operator.id, action: 'operator.totp_rotate', targetType: 'operator', targetId: operator.id,
      after: { sessionsEnded: revoked.length, sessionId: operator.sessionId } }, deps.clock);
    return revoked.length;
  });
  if (ended === undefined) {
    throw badRequest('operator_totp_current_invalid', 'The code of your current authenticator is wrong or was used already.');
  }
  await deps.limiter.release(attemptsKey);
  return { sessionsEnded: ended };
}

// ── Step-up: a fresh code for one sensitive action ──

export const stepUpAttemptsKey = (operatorId: bigint) => `operator-step-up:${operatorId}`;
const stepUpInvalid = () => badRequest('operator_totp_current_invalid',
  'The code of your current authenticator is wrong or was used already.');

/**
 * Checks a code of the operator's own authenticator for one sensitive action and spends its time
 * step in `tx` (a compare-and-set on the last step used), so a code serves one action and never a
 * login after it. Attempts are limited per operator; the caller releases the limit after commit.
 */
export async function takeOperatorCode(deps: OperatorDeps, tx: Executor, operatorId: bigint, code: string) {
  await deps.limiter.hit(stepUpAttemptsKey(operatorId), deps.limits.passwordAttemptsFree, 15 * 60_000);
  const [row] = await tx.select({ secret: operators.totpSecret, lastStep: operators.totpLastStep })
    .from(operators).where(eq(operators.id, operatorId));
  const step = row && await matchTotp(row.secret, code, deps.clock.now().getTime(), row.lastStep ?? undefined);
  if (step === undefined || !await claimTotpStep(tx, operatorId, step)) throw stepUpInvalid();
}
