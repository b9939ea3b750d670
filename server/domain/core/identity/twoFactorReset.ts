// Support's way back in for a user who lost both the authenticator and the recovery codes (ASVS
// 5.0 V6.4.4): an admin, having checked who asks outside the app, removes the binding with a
// reason and a fresh code of their own authenticator (operators.ts takeOperatorCode). One
// transaction spends that code, removes the binding and the recovery codes, ends every session of
// the user and writes the audit record with the state before and after; then the user is told at
// their e-mail or phone, with the reason. The user logs in with the password alone and may bind again.
import { and, count, eq, isNull } from 'drizzle-orm';
import type { AdminGoogleAuthReset, AdminResetGoogleAuthBody } from '../../../../src/api/contract/identity.ts';
import { sessions, userRecoveryCodes, users, userTotp } from '../../../db/schema.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import { recordAudit } from '../../kernel/audit.ts';
import type { CodeDeps } from '../../kernel/codes.ts';
import { stepUpAttemptsKey, takeOperatorCode } from '../../kernel/operators.ts';
import { accountNotices, sendAccountNotice } from './accountNotice.ts';

export async function resetGoogleAuth(deps: CodeDeps, operatorId: bigint, userId: bigint,
  body: AdminResetGoogleAuthBody): Promise<AdminGoogleAuthReset> {
  const reason = body.reason.trim();
  if (reason.length < 10) throw badRequest('invalid_request', 'Write the reason in at least 10 characters.');
  const now = deps.clock.now();
  const result = await deps.db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
    if (!user) throw notFound('account_not_found', 'This user does not exist.');
    await takeOperatorCode(deps, tx, operatorId, body.operatorCode);
    const [{ left }] = await tx.select({ left: count() }).from(userRecoveryCodes)
      .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
    const [binding] = await tx.delete(userTotp).where(eq(userTotp.userId, userId)).returning({ boundAt: userTotp.boundAt });
    if (!binding) throw badRequest('google_not_bound', 'Google Authenticator is not bound to this account.');
    await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
    const ended = await tx.update(sessions).set({ revokedAt: now })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt))).returning({ id: sessions.id });
    await recordAudit(tx, {
      operatorId, action: 'user.google_auth_reset', targetType: 'user', targetId: userId, userId,
      before: { googleBound: true, boundAt: binding.boundAt, recoveryCodesLeft: left },
      after: { googleBound: false, sessionsEnded: ended.length }, reason,
    }, deps.clock);
    return { sessionsEnded: ended.length };
  });
  await deps.limiter.release(stepUpAttemptsKey(operatorId));
  await sendAccountNotice(deps, deps.db, userId, accountNotices.googleReset(now, reason));
  return result;
}
