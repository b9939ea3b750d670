// Support removes the Google Authenticator of a user who lost it and the recovery codes
// (POST /api/admin/users/:id/google-auth/reset): an admin only, with a reason and a fresh code of
// their own authenticator. The binding and recovery codes go, every session of the user ends, the
// audit trail holds the state before and after with the reason, and the user is told at their
// address. A wrong or reused operator code, a finance operator, a short reason, an unknown user
// or one without a binding is refused and changes nothing — on every database.
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { kycAdminPaths } from '../../../src/api/contract/identity.ts';
import { paths } from '../../../src/api/contract/paths.ts';
import { twoFactorPaths } from '../../../src/api/contract/security.ts';
import { auditLog } from '../../../server/db/schema.ts';
import { totpCode } from '../../../server/domain/kernel/totp.ts';
import { currentTotp } from '../adminHelpers.ts';
import { expectOk, expectRefused, forEachDatabase, type Account, type TestServer } from '../helpers.ts';
import { reviewer } from './kycHelpers.ts';

const stepMs = 30_000;
const reason = 'Lost phone and recovery codes; identity checked on a video call, ticket 4711.';

forEachDatabase((server: TestServer) => {
  const resetPath = (userId: bigint | string) => kycAdminPaths.resetGoogleAuth.replace(':id', String(userId));
  const reset = (token: string, userId: bigint | string, body: Record<string, unknown>) => server.post(resetPath(userId), body, { token });
  const loggedIn = async (token: string) => (await server.get(paths.myUserInfo, {}, { token })).status === 200;
  const bound = async (token: string) => (expectOk(await server.get(twoFactorPaths.googleAuthState, {}, { token })).body.result as { bound: boolean }).bound;

  /** A user with Google Authenticator bound and a second session; the clock a step on. */
  async function boundUser(): Promise<{ user: Account; userId: bigint; other: string }> {
    const user = await server.registerByEmail();
    const key = expectOk(await server.get(twoFactorPaths.generateGoogleKey, {}, { token: user.token })).body.result as { secret: string };
    expectOk(await server.post(twoFactorPaths.bindGoogleAuth, { secret: key.secret, code: await totpCode(key.secret, server.clock.now().getTime()) },
      { token: user.token }));
    server.clock.advance(stepMs);
    const other = expectOk(await server.post(twoFactorPaths.googleSecretLogin, {
      account: user.account, password: user.password, googleCode: await totpCode(key.secret, server.clock.now().getTime()),
    })).body.result.token as string;
    server.clock.advance(stepMs);
    return { user, userId: (await server.userByEmail(user.email!)).id, other };
  }

  it('removes the binding and recovery codes, ends every session, audits it with the reason and tells the user', async () => {
    const admin = await reviewer(server, 'admin');
    const { user, userId, other } = await boundUser();
    const answer = expectOk(await reset(admin.token, userId, { reason, operatorCode: await currentTotp(server, admin.operator) }));
    expect(answer.body.result).toEqual({ sessionsEnded: 2 });
    expect(await loggedIn(user.token)).toBe(false);
    expect(await loggedIn(other)).toBe(false);
    expect(await server.query(sql`select * from user_totp where user_id = ${userId}`)).toEqual([]);
    expect(await server.query(sql`select * from user_recovery_codes where user_id = ${userId}`)).toEqual([]);

    const [record] = await server.db.select().from(auditLog).where(eq(auditLog.action, 'user.google_auth_reset'))
      .orderBy(sql`${auditLog.id} desc`).limit(1);
    expect(record).toMatchObject({ targetType: 'user', targetId: String(userId), userId, reason, operatorId: BigInt(admin.id) });
    expect(record.before).toMatchObject({ googleBound: true, recoveryCodesLeft: 10 });
    expect(record.after).toEqual({ googleBound: false, sessionsEnded: 2 });

    const notice = server.outbox(user.email!).at(-1)!;
    expect(notice.code).toBe('');
    expect(notice.text).toContain('Support removed Google Authenticator from your Bourse account');
    expect(notice.text).toContain(reason);

    // The password alone logs in again, and the user may bind anew.
    const fresh = expectOk(await server.post(paths.login, { account: user.account, password: user.password })).body.result.token as string;
    expect(await bound(fresh)).toBe(false);
    expectOk(await server.get(twoFactorPaths.generateGoogleKey, {}, { token: fresh }));
  });

  it('refuses a finance operator, a wrong or spent operator code, a short reason and a non-operator; nothing changes', async () => {
    const admin = await reviewer(server, 'admin');
    const finance = await reviewer(server, 'finance');
    const { user, userId, other } = await boundUser();
    const codeNow = await currentTotp(server, admin.operator);
    const wrong = String((Number(codeNow) + 1) % 1_000_000).padStart(6, '0');
    expectRefused(await reset(finance.token, userId, { reason, operatorCode: await currentTotp(server, finance.operator) }), 403, 'forbidden');
    expectRefused(await reset(user.token, userId, { reason, operatorCode: codeNow }), 401, 'unauthorized');
    expectRefused(await reset(admin.token, userId, { reason, operatorCode: wrong }), 400, 'operator_totp_current_invalid');
    expectRefused(await reset(admin.token, userId, { reason: 'lost it', operatorCode: codeNow }), 400, 'invalid_request');
    expectRefused(await reset(admin.token, userId, { reason: '          too short ', operatorCode: codeNow }), 400, 'invalid_request');
    expectRefused(await reset(admin.token, userId, { reason }), 400, 'invalid_request');
    expectRefused(await reset(admin.token, 'abc', { reason, operatorCode: codeNow }), 400, 'invalid_request');
    expect(await bound(user.token)).toBe(true);
    expect(await loggedIn(other)).toBe(true);

    // A code serves one action: after one reset, the same code is refused for the next.
    const second = await boundUser();
    const code = await currentTotp(server, admin.operator);
    expectOk(await reset(admin.token, userId, { reason, operatorCode: code }));
    expectRefused(await reset(admin.token, second.userId, { reason, operatorCode: code }), 400, 'operator_totp_current_invalid');
    expect(await bound(second.user.token)).toBe(true);
    const audits = await server.db.select().from(auditLog).where(eq(auditLog.userId, second.userId));
    expect(audits.filter((entry) => entry.action === 'user.google_auth_reset')).toEqual([]);
  });

  it('answers an unknown user and a user without a binding with their own errors, spending no operator code', async () => {
    const admin = await reviewer(server, 'admin');
    server.clock.advance(stepMs);
    const code = await currentTotp(server, admin.operator);
    expectRefused(await reset(admin.token, '999999999', { reason, operatorCode: code }), 404, 'account_not_found');
    const plain = await server.registerByEmail();
    const plainId = (await server.userByEmail(plain.email!)).id;
    expectRefused(await reset(admin.token, plainId, { reason, operatorCode: code }), 400, 'google_not_bound');
    expect(await loggedIn(plain.token)).toBe(true);
    // Neither refusal spent the code: it still vouches for a real reset.
    const { userId } = await boundUser();
    expectOk(await reset(admin.token, userId, { reason, operatorCode: await currentTotp(server, admin.operator) }));
  });
}, { databases: 'embedded' });
