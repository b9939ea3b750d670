// Operators: login with password and TOTP (every refusal alike, a code good once, throttled),
// short sessions, roles, the separation of operator and user tokens, the audit trail and the
// ledger check, through the real protocol on every database.
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminPaths } from '../../src/api/contract/admin.ts';
import { kycAdminPaths } from '../../src/api/contract/identity.ts';
import { paths } from '../../src/api/contract/paths.ts';
import { auditLog, operatorSessions, operators } from '../../server/db/schema.ts';
import { demoOperator, operatorSessionAbsoluteMs, operatorSessionIdleMs } from '../../server/domain/kernel/operators.ts';
import { seed } from '../../server/seed.ts';
import { postTransfers } from '../../server/domain/kernel/ledger/transfers.ts';
import { systemAccountId, userAccountId } from '../../server/domain/kernel/ledger/accounts.ts';
import { createOperator, currentTotp, operatorLogin, type TestOperator } from './adminHelpers.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from './helpers.ts';

const stepMs = 30_000;

forEachDatabase((server) => {
  const login = async (op: TestOperator, changes: Partial<{ account: string; password: string; totpCode: string }> = {}, ip?: string) =>
    server.post(adminPaths.login, {
      account: op.email, password: op.password, totpCode: await currentTotp(server, op), ...changes,
    }, ip ? { ip } : {});
  const me = (token: string) => server.get(adminPaths.me, {}, { token });
  /** A fresh 30-second step, so the operator's current code has not been used. */
  const nextStep = () => server.clock.advance(stepMs);
  const wrongCode = async (op: TestOperator) => {
    const code = await currentTotp(server, op);
    return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  };
  const auditOf = (operatorId: bigint) =>
    server.db.select().from(auditLog).where(eq(auditLog.operatorId, operatorId)).orderBy(auditLog.id);
  const operatorRow = async (email: string) => (await server.db.select().from(operators).where(eq(operators.email, email)))[0];

  describe('operator login', () => {
    it('logs in with password and TOTP code, stores only the token hash, and audits the login', async () => {
      const op = await createOperator(server, 'admin');
      const reply = expectOk(await login(op));
      const token = reply.body.result.token as string;
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      const row = await operatorRow(op.email);
      const [session] = await server.db.select().from(operatorSessions).where(eq(operatorSessions.operatorId, row.id));
      expect(session.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
      expect(session.expiresAt.getTime() - session.createdAt.getTime()).toBe(operatorSessionAbsoluteMs);
      expect(expectOk(await me(token)).body.result).toEqual({ id: row.id.toString(), email: op.email, role: 'admin' });
      const audit = await auditOf(row.id);
      expect(audit.map((entry) => entry.action)).toEqual(['operator.login']);
      expect(audit[0].after).toMatchObject({ sessionId: session.id.toString() });
    });

    it('takes the e-mail in any case', async () => {
      const op = await createOperator(server, 'finance');
      nextStep();
      expectOk(await login(op, { account: op.email.toUpperCase() }));
    });

    it('refuses a wrong password, a wrong code, an unknown account and a disabled operator alike', async () => {
      const op = await createOperator(server, 'admin');
      nextStep();
      const refusals = [
        await login(op, { password: `${op.password}x` }),
        await login(op, { totpCode: await wrongCode(op) }),
        await login(op, { account: `nobody-${op.email}` }),
      ];
      await server.db.update(operators).set({ disabled: true }).where(eq(operators.email, op.email));
      refusals.push(await login(op));
      for (const reply of refusals) expectRefused(reply, 400, 'credentials_invalid');
      expect(new Set(refusals.map((reply) => reply.body.message)).size).toBe(1);
      // Nothing was opened or audited for any of them.
      const row = await operatorRow(op.email);
      expect(await server.db.select().from(operatorSessions).where(eq(operatorSessions.operatorId, row.id))).toHaveLength(0);
      expect(await auditOf(row.id)).toHaveLength(0);
    });

    it('accepts a code once: the same code again within its window is refused, the next step\'s is not', async () => {
      const op = await createOperator(server, 'admin');
      nextStep();
      const code = await currentTotp(server, op);
      expectOk(await login(op, { totpCode: code }));
      server.clock.advance(5_000);
      expectRefused(await login(op, { totpCode: code }), 400, 'credentials_invalid');
      nextStep();
      expectOk(await login(op));
    });

    it('lets one of two logins sent at once with the same code through', async () => {
      const op = await createOperator(server, 'admin');
      nextStep();
      const code = await currentTotp(server, op);
      const replies = await Promise.all([login(op, { totpCode: code }), login(op, { totpCode: code }), login(op, { totpCode: code })]);
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1);
      for (const reply of replies.filter((each) => each.status !== 200)) expectRefused(reply, 400, 'credentials_invalid');
      const row = await operatorRow(op.email);
      expect(await server.db.select().from(operatorSessions).where(eq(operatorSessions.operatorId, row.id))).toHaveLength(1);
    });

    it('accepts the previous step\'s code (clock drift) but not one two steps old', async () => {
      const op = await createOperator(server, 'admin');
      nextStep();
      const code = await currentTotp(server, op);
      server.clock.advance(stepMs);
      expectOk(await login(op, { totpCode: code }));
      const old = await currentTotp(server, op);
      server.clock.advance(3 * stepMs);
      expectRefused(await login(op, { totpCode: old }), 400, 'credentials_invalid');
    });

    it('throttles guesses per account and address, without checking the password while locked', async () => {
      const op = await createOperator(server, 'admin');
      nextStep();
      const ip = server.freshIp();
      for (let attempt = 0; attempt < server.limits.passwordAttemptsFree; attempt += 1) {
        expectRefused(await login(op, { password: 'Wrong1password' }, ip), 400, 'credentials_invalid');
      }
      // Locked now: even the right password and code are refused, from this address.
      const locked = await login(op, {}, ip);
      expectRefused(locked, 429, 'too_many_attempts');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      // Another address is not locked out by it.
      expectOk(await login(op, {}, server.freshIp()));
      // The lockout ends.
      server.clock.advance(server.limits.passwordLockoutBaseMs + stepMs);
      expectOk(await login(op, {}, ip));
    });

    it('refuses a body that is not the contract (no code, a code of letters)', async () => {
      const op = await createOperator(server, 'admin');
      expectRefused(await server.post(adminPaths.login, { account: op.email, password: op.password }), 400, 'invalid_request');
      expectRefused(await login(op, { totpCode: 'abcdef' }), 400, 'invalid_request');
    });
  });

  describe('demo operator (SEED_DEMO)', () => {
    it('is seeded with its documented login, and disabled when a later start has no demo', async () => {
      await seed(server.db, { demo: true });
      await seed(server.db, { demo: true });
      const demo = { ...demoOperator, role: 'admin' as const };
      nextStep();
      const token = expectOk(await login(demo)).body.result.token as string;
      expect(expectOk(await me(token)).body.result).toMatchObject({ email: 'operator@bourse.local', role: 'admin' });
      await seed(server.db, { demo: false });
      expectRefused(await me(token), 401, 'unauthorized');
      nextStep();
      expectRefused(await login(demo), 400, 'credentials_invalid');
    });
  });

  describe('operator sessions', () => {
    it('ends after 30 minutes idle, and not a moment before', async () => {
      const op = await createOperator(server, 'finance');
      const token = await operatorLogin(server, op);
      server.clock.advance(operatorSessionIdleMs);
      expectOk(await me(token));
      server.clock.advance(operatorSessionIdleMs + 1);
      expectRefused(await me(token), 401, 'unauthorized');
    });

    it('ends at 12 hours however busy', async () => {
      const op = await createOperator(server, 'admin');
      const token = await operatorLogin(server, op);
      for (let elapsed = 0; elapsed + 20 * 60_000 < operatorSessionAbsoluteMs; elapsed += 20 * 60_000) {
        server.clock.advance(20 * 60_000);
        expectOk(await me(token));
      }
      server.clock.advance(20 * 60_000);
      expectRefused(await me(token), 401, 'unauthorized');
    });

    it('logs out: the token opens nothing after, and the logout is audited', async () => {
      const op = await createOperator(server, 'admin');
      const token = await operatorLogin(server, op);
      expectOk(await server.post(adminPaths.logout, {}, { token }));
      expectRefused(await me(token), 401, 'unauthorized');
      const row = await operatorRow(op.email);
      expect((await auditOf(row.id)).map((entry) => entry.action)).toEqual(['operator.login', 'operator.logout']);
    });

    it('a disabled operator\'s open session stops working', async () => {
      const op = await createOperator(server, 'admin');
      const token = await operatorLogin(server, op);
      await server.db.update(operators).set({ disabled: true }).where(eq(operators.email, op.email));
      expectRefused(await me(token), 401, 'unauthorized');
    });

    it('keeps operator and user tokens apart', async () => {
      const op = await createOperator(server, 'admin');
      const operatorToken = await operatorLogin(server, op);
      const user = await server.registerByEmail();
      expectRefused(await me(user.token), 401, 'unauthorized');
      expectRefused(await server.get(adminPaths.audit, {}, { token: user.token }), 401, 'unauthorized');
      expectRefused(await server.get(adminPaths.ledgerCheck, {}, { token: user.token }), 401, 'unauthorized');
      expectRefused(await server.get(paths.myUserInfo, {}, { token: operatorToken }), 401, 'unauthorized');
      expectRefused(await me(''), 401, 'unauthorized');
    });

    it('asks who is calling before it reads the body: a malformed call without an operator session is 401, not 400', async () => {
      const op = await createOperator(server, 'admin');
      const operatorToken = await operatorLogin(server, op);
      const user = await server.registerByEmail();
      const reject = kycAdminPaths.reject.replace(':id', 'not-a-number');
      const malformed = { reason: 42, extra: true };
      expectRefused(await server.post(reject, malformed), 401, 'unauthorized');
      expectRefused(await server.post(reject, malformed, { token: user.token }), 401, 'unauthorized');
      expectRefused(await server.get(adminPaths.audit, { pageNo: 'x' }), 401, 'unauthorized');
      expectRefused(await server.post(reject, malformed, { token: operatorToken }), 400, 'invalid_request');
    });
  });

  describe('roles and the audit trail', () => {
    it('lets admins read the audit trail and refuses finance (403 forbidden)', async () => {
      const finance = await createOperator(server, 'finance');
      const financeToken = await operatorLogin(server, finance);
      expectRefused(await server.get(adminPaths.audit, {}, { token: financeToken }), 403, 'forbidden');
      const admin = await createOperator(server, 'admin');
      const adminToken = await operatorLogin(server, admin);
      const page = expectOk(await server.get(adminPaths.audit, { pageSize: '100' }, { token: adminToken })).body.result;
      expect(page.total).toBeGreaterThanOrEqual(2);
      expect(page.records[0]).toMatchObject({ action: 'operator.login', operatorEmail: admin.email });
    });

    it('pages and filters by operator, user and action', async () => {
      const admin = await createOperator(server, 'admin');
      const token = await operatorLogin(server, admin);
      const adminId = (await operatorRow(admin.email)).id;
      for (let run = 0; run < 3; run += 1) expectOk(await server.get(adminPaths.ledgerCheck, {}, { token }));
      const byOperator = (query: Record<string, string>) =>
        server.get(adminPaths.audit, { operatorId: adminId.toString(), ...query }, { token });
      const all = expectOk(await byOperator({})).body.result;
      expect(all.total).toBe(4);
      expect(all.records.map((record: { action: string }) => record.action))
        .toEqual(['ledger.check', 'ledger.check', 'ledger.check', 'operator.login']);
      const page2 = expectOk(await byOperator({ action: 'ledger.check', pageSize: '2', pageNo: '2' })).body.result;
      expect(page2).toMatchObject({ total: 3, size: 2, current: 2, pages: 2 });
      expect(page2.records).toHaveLength(1);
      const user = await server.registerByEmail();
      const userId = (await server.userByEmail(user.email!)).id;
      await server.db.insert(auditLog).values({
        operatorId: adminId, action: 'user.note', targetType: 'user', targetId: userId.toString(), userId, reason: 'test',
        createdAt: server.clock.now(),
      });
      const byUser = expectOk(await server.get(adminPaths.audit, { userId: userId.toString() }, { token })).body.result;
      expect(byUser.records.map((record: { action: string }) => record.action)).toEqual(['user.note']);
      expectRefused(await server.get(adminPaths.audit, { userId: 'abc' }, { token }), 400, 'invalid_request');
    });

    it('the audit trail cannot be changed or deleted', async () => {
      const admin = await createOperator(server, 'admin');
      await operatorLogin(server, admin);
      const adminId = (await operatorRow(admin.email)).id;
      await expect(server.db.update(auditLog).set({ reason: 'edited' }).where(eq(auditLog.operatorId, adminId))).rejects.toThrow();
      await expect(server.db.delete(auditLog).where(eq(auditLog.operatorId, adminId))).rejects.toThrow();
      await expect(server.db.execute(sql`truncate audit_log`)).rejects.toThrow();
    });
  });

  describe('ledger check', () => {
    it('reports valid chains and zero sums to admin and finance, and audits each run', async () => {
      await moveSomeMoney(server);
      for (const role of ['admin', 'finance'] as const) {
        const op = await createOperator(server, role);
        const token = await operatorLogin(server, op);
        const check = expectOk(await server.get(adminPaths.ledgerCheck, {}, { token })).body.result;
        expect(check).toMatchObject({ chainValid: true, balancesValid: true, conserved: true, problems: [] });
        expect(check.transfers).toBeGreaterThanOrEqual(1);
        expect(check.assets.find((asset: { currency: string }) => asset.currency === 'USDT')).toMatchObject({ sum: '0', pendingSum: '0' });
        const audit = await auditOf((await operatorRow(op.email)).id);
        expect(audit.at(-1)).toMatchObject({ action: 'ledger.check', targetType: 'ledger' });
        expect(audit.at(-1)!.after).toMatchObject({ chainValid: true, conserved: true, transfers: check.transfers });
      }
    });

    it('finds a balance edited behind the ledger\'s back', async () => {
      await moveSomeMoney(server);
      const op = await createOperator(server, 'finance');
      const token = await operatorLogin(server, op);
      await server.db.execute(sql`update ledger_accounts set credits_posted = credits_posted + 1
        where id = (select max(id) from ledger_accounts where owner_user_id is not null)`);
      const check = expectOk(await server.get(adminPaths.ledgerCheck, {}, { token })).body.result;
      expect(check.balancesValid).toBe(false);
      expect(check.problems.length).toBeGreaterThan(0);
      await server.db.execute(sql`update ledger_accounts set credits_posted = credits_posted - 1
        where id = (select max(id) from ledger_accounts where owner_user_id is not null)`);
    });
  });
});

/** A deposit to a new user: real transfers for the check to recompute. */
async function moveSomeMoney(server: TestServer) {
  const user = await server.registerByEmail();
  const userId = (await server.userByEmail(user.email!)).id;
  const credit = await userAccountId(server.db, userId, 'USDT', 'spot');
  const debit = await systemAccountId(server.db, 'USDT', 'deposit_clearing', user.email!);
  const posted = await postTransfers(server.db, [{
    id: server.unique('op-test-deposit-'), debitAccountId: debit, creditAccountId: credit, amountAtomic: 12_500_000n,
    kind: 'deposit', reference: server.unique('test:'),
  }], server.clock);
  expect(posted.ok).toBe(true);
}
