// One-time verification codes: 6 digits, single use, a limited life and a limited number of
// wrong attempts; sending is rate-limited per target and per caller. Only an HMAC of each code
// is stored. A wrong attempt is counted before the caller's transaction so a rollback cannot
// undo it; the successful use is marked inside it, so a failed registration keeps the code.
// A request that must not reveal whether an account exists still stores a code and passes the
// same limits, but its message is a notice instead of the code: only the mailbox learns more.
import { createHmac, randomInt } from 'node:crypto';
import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { CodePurpose } from '../../../src/api/contract/accounts.ts';
import { verificationCodes } from '../../db/schema.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { Limits } from '../../lib/config.ts';
import type { Clock } from '../../lib/time.ts';
import type { RateLimiter } from '../../lib/rateLimiter.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import type { Channel, MessageSender } from './delivery.ts';

export interface CodeDeps {
  db: Db;
  limits: Limits;
  clock: Clock;
  limiter: RateLimiter;
  sender: MessageSender;
  pepper: Buffer;
}

export interface CodeTarget { channel: Channel; target: string; address: string }

const hourMs = 3_600_000;

const digest = (deps: CodeDeps, target: string, purpose: CodePurpose, code: string) =>
  createHmac('sha256', deps.pepper).update(`${target}|${purpose}|${code}`).digest('hex');

const purposeText: Record<CodePurpose, string> = {
  register: 'to register',
  login: 'to log in',
  reset: 'to reset your password',
  withdrawPassword: 'to set your withdrawal password',
  googleUnbind: 'to unbind Google Authenticator',
  addLogin: 'to add a way to log in to your account',
};

/**
 * Stores a new code for `to` and sends it, or sends `notice` in its place (the code is then known
 * to no one, and only makes this request look and count like any other).
 */
export async function sendCode(deps: CodeDeps, to: CodeTarget, purpose: CodePurpose, callerIp: string, notice?: string) {
  const { limits } = deps;
  const now = deps.clock.now();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await deps.db.transaction(async (tx) => {
    // One sender per target and purpose at a time: the lock makes the resend check and the insert
    // one step, so two simultaneous requests cannot both pass the check and both send.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`code|${to.target}|${purpose}`}, 0))`);
    const [latest] = await tx.select({ createdAt: verificationCodes.createdAt }).from(verificationCodes)
      .where(and(eq(verificationCodes.target, to.target), eq(verificationCodes.purpose, purpose)))
      .orderBy(desc(verificationCodes.createdAt)).limit(1);
    if (latest && now.getTime() - latest.createdAt.getTime() < limits.codeResendIntervalMs) {
      const retryAfterSeconds = Math.ceil((latest.createdAt.getTime() + limits.codeResendIntervalMs - now.getTime()) / 1000);
      throw new AppError(429, 'code_send_too_soon', `Please wait ${retryAfterSeconds} seconds before requesting another code.`,
        { retryAfterSeconds });
    }
    // Counted only when the send goes ahead; a refusal of the limiter rolls the transaction back.
    await deps.limiter.hit(`code-ip:${callerIp}`, limits.codeSendsPerIpPerHour, hourMs);
    await deps.limiter.hit(`code-target:${to.target}`, limits.codeSendsPerTargetPerHour, hourMs);
    // Only the newest code of a target and purpose is valid.
    await tx.update(verificationCodes).set({ usedAt: now })
      .where(and(eq(verificationCodes.target, to.target), eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.usedAt)));
    await tx.insert(verificationCodes).values({
      channel: to.channel, target: to.target, purpose, codeHash: digest(deps, to.target, purpose, code),
      expiresAt: new Date(now.getTime() + limits.codeLifetimeMs), createdAt: now,
    });
  });
  const minutes = Math.round(limits.codeLifetimeMs / 60_000);
  await deps.sender.send(notice === undefined ? {
    to: to.address, channel: to.channel, code,
    text: `Your Bourse code ${purposeText[purpose]} is ${code}. It expires in ${minutes} minutes. Never share it.`,
  } : { to: to.address, channel: to.channel, code: '', text: notice });
  return {
    resendAfterSeconds: Math.ceil(limits.codeResendIntervalMs / 1000),
    expiresInSeconds: Math.ceil(limits.codeLifetimeMs / 1000),
  };
}

export const invalidCode = () => badRequest('code_invalid', 'The verification code is wrong. Please check it or request a new one.');

export interface CodeAttempt { target: string; purpose: CodePurpose; code: string }

/**
 * Checks a code, then runs `work` in one transaction that also marks the code used, so a failure
 * of `work` leaves the code usable. Every check first takes one of the code's attempts with a
 * single conditional UPDATE, outside the transaction: concurrent guesses cannot exceed the limit,
 * no rollback can give an attempt back, and PGlite (one transaction at a time) never waits on
 * itself. `prepare` runs only once the code is right, and outside the transaction: costly work
 * (hashing a password) is neither free to callers without the code nor done under a lock.
 */
export async function transactionWithCode<T, P = undefined>(deps: CodeDeps, attempt: CodeAttempt,
  work: (tx: Tx, prepared: P) => Promise<T>, prepare?: () => Promise<P>): Promise<T> {
  const latestUnused = sql`(select ${verificationCodes.id} from ${verificationCodes}
    where ${verificationCodes.target} = ${attempt.target} and ${verificationCodes.purpose} = ${attempt.purpose}
      and ${verificationCodes.usedAt} is null order by ${verificationCodes.createdAt} desc limit 1)`;
  const [row] = await deps.db.update(verificationCodes).set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(and(sql`${verificationCodes.id} = ${latestUnused}`, lt(verificationCodes.attempts, deps.limits.codeAttemptsMax)))
    .returning();
  if (!row) throw invalidCode();
  if (row.expiresAt.getTime() <= deps.clock.now().getTime()) {
    throw badRequest('code_expired', 'The verification code has expired. Please request a new one.');
  }
  if (row.codeHash !== digest(deps, attempt.target, attempt.purpose, attempt.code)) throw invalidCode();
  const prepared = (prepare ? await prepare() : undefined) as P;
  return deps.db.transaction(async (tx) => {
    const used = await tx.update(verificationCodes).set({ usedAt: deps.clock.now() })
      .where(and(eq(verificationCodes.id, row.id), isNull(verificationCodes.usedAt)))
      .returning({ id: verificationCodes.id });
    if (used.length !== 1) throw invalidCode();
    return work(tx, prepared);
  });
}
