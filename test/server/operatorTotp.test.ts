// An operator rotates their own authenticator secret (POST /api/admin/me/totp, then /confirm):
// the new secret only takes effect with a code of it and one of the current secret; afterwards the
// old secret no longer logs in and the new one does, the operator's other sessions are over, and
// the audit trail has it. Wrong, reused or other operators' tickets and codes are refused without
// a change, and attempts are limited — on every database.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { adminPaths } from '../../src/api/contract/admin.ts';
import { operatorSecurityPaths } from '../../src/api/contract/security.ts';
import { auditLog, operators } from '../../server/db/schema.ts';
import { totpRotationTicketMs } from '../../server/domain/kernel/operators.ts';
import { totpCode } from '../../server/domain/kernel/totp.ts';
import { createOperator, currentTotp, operatorLogin, type TestOperator } from './adminHelpers.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from './helpers.ts';

const stepMs = 30_000;

forEachDatabase((server: TestServer) => {
  const code = (secret: string) => totpCode(secret, server.clock.now().getTime());
  const wrong = (value: string) => String((Number(value) + 1) % 1_000_000).padStart(6, '0');
  const start = async (token: string) => expectOk(await server.post(operatorSecurityPaths.totpStart, {}, { token })).body.result as {
    secret: string; otpauthUri: string; ticket: string; expiresAt: number;
  };
  const confirm = (token: string, body: Record<string, unknown>) => server.post(operatorSecurityPaths.totpConfirm, body, { token });
  const rowOf = async (op: TestOperator) => (await server.db.select().from(operators).where(eq(operators.email, op.email)))[0];
  const me = (token: string) => server.get(adminPaths.me, {}, { token });
  const login = async (op: TestOperator, secret: string) =>
    server.post(adminPaths.login, { account: op.email, password: op.password, totpCode: await code(secret) });

  it('hands out a new secret with its otpauth URI and a sealed ticket, storing nothing', async () => {
    const op = await createOperator(server, 'finance');
    const token = await operatorLogin(server, op);
    const before = await rowOf(op);
    const started = await start(token);
    expect(started.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(started.secret).not.toBe(op.totpSecret);
    expect(started.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(started.otpauthUri).toContain(`secret=${started.secret}`);
    expect(started.ticket).not.toContain(started.secret);
    expect(started.expiresAt).toBe(server.clock.now().getTime() + totpRotationTicketMs);
    expect(await rowOf(op)).toEqual(before);
  });

  it('swaps the secret with both codes: the old one no longer logs in, other sessions end, audited', async () => {
    const op = await createOperator(server, 'admin');
    const token = await operatorLogin(server, op);
    server.clock.advance(stepMs);
    const other = await operatorLogin(server, op);
    server.clock.advance(stepMs);
    const started = await start(token);
    const reply = expectOk(await confirm(token, { ticket: started.ticket, code: await code(started.secret), currentCode: await currentTotp(server, op) }));
    expect(reply.body.result).toEqual({ sessionsEnded: 1 });
    const row = await rowOf(op);
    expect(row.totpSecret).toBe(started.secret);
    expectOk(await me(token));
    expectRefused(await me(other), 401, 'unauthorized');

    server.clock.advance(stepMs);
    expectRefused(await login(op, op.totpSecret), 400, 'credentials_invalid');
    server.clock.advance(stepMs);
    expectOk(await login(op, started.secret));

    const audit = await server.db.select().from(auditLog).where(eq(auditLog.operatorId, row.id)).orderBy(auditLog.id);
    const rotated = audit.filter((entry) => entry.action === 'operator.totp_rotate');
    expect(rotated).toHaveLength(1);
    expect(rotated[0].after).toMatchObject({ sessionsEnded: 1 });
    expect(JSON.stringify(audit.map((entry) => [entry.before, entry.after, entry.reason]))).not.toContain(started.secret);
  });

  it('refuses a wrong new code, a wrong or already used current code, changing nothing', async () => {
    const op = await createOperator(server, 'admin');
    const token = await operatorLogin(server, op);
    const loginCode = await currentTotp(server, op);
    const started = await start(token);
    const newCode = await code(started.secret);
    const before = await rowOf(op);
    expectRefused(await confirm(token, { ticket: started.ticket, code: wrong(newCode), currentCode: loginCode }), 400, 'operator_totp_code_invalid');
    // The code the login used is spent: it cannot vouch for the rotation.
    expectRefused(await confirm(token, { ticket: started.ticket, code: newCode, currentCode: loginCode }), 400, 'operator_totp_current_invalid');
    server.clock.advance(stepMs);
    const current = await currentTotp(server, op);
    expectRefused(await confirm(token, { ticket: started.ticket, code: await code(started.secret), currentCode: wrong(current) }),
      400, 'operator_totp_current_invalid');
    // A code of the new secret does not pass for the current one.
    expectRefused(await confirm(token, { ticket: started.ticket, code: await code(started.secret), currentCode: await code(started.secret) }),
      400, 'operator_totp_current_invalid');
    expect(await rowOf(op)).toEqual(before);
    expectRefused(await confirm(token, { ticket: started.ticket, code: 'abcdef', currentCode: current }), 400, 'invalid_request');
    expectRefused(await confirm(token, { code: newCode, currentCode: current }), 400, 'invalid_request');
  });

  it('refuses a forged, expired, another operator\'s or an already used ticket', async () => {
    const op = await createOperator(server, 'admin');
    const token = await operatorLogin(server, op);
    const otherOp = await createOperator(server, 'finance');
    const otherToken = await operatorLogin(server, otherOp);
    const mine = await start(token);
    const theirs = await start(otherToken);
    server.clock.advance(stepMs);
    const attempt = async (ticket: string, secret: string) =>
      confirm(token, { ticket, code: await code(secret), currentCode: await currentTotp(server, op) });
    const forged = `${mine.ticket.slice(0, -4)}${mine.ticket.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    expectRefused(await attempt(forged, mine.secret), 400, 'operator_totp_ticket_invalid');
    expectRefused(await attempt(theirs.ticket, theirs.secret), 400, 'operator_totp_ticket_invalid');
    expect((await rowOf(otherOp)).totpSecret).toBe(otherOp.totpSecret);

    server.clock.advance(totpRotationTicketMs);
    // The session idles out over the ticket's 10 minutes only if unused: keep it alive meanwhile.
    const fresh = await operatorLogin(server, op);
    const expired = await confirm(fresh, { ticket: mine.ticket, code: await code(mine.secret), currentCode: await currentTotp(server, op) });
    expectRefused(expired, 400, 'operator_totp_ticket_invalid');

    server.clock.advance(stepMs);
    const again = await start(fresh);
    expectOk(await confirm(fresh, { ticket: again.ticket, code: await code(again.secret), currentCode: await currentTotp(server, op) }));
    server.clock.advance(stepMs);
    // The same ticket again: the secret it was made for is no longer the current one.
    const reused = await confirm(fresh, { ticket: again.ticket, code: await code(again.secret), currentCode: await code(again.secret) });
    expectRefused(reused, 400, 'operator_totp_ticket_invalid');
  });

  it('limits wrong attempts per operator', async () => {
    const op = await createOperator(server, 'admin');
    const token = await operatorLogin(server, op);
    const started = await start(token);
    const newCode = await code(started.secret);
    const refusals = [];
    for (let index = 0; index < server.limits.passwordAttemptsFree + 1; index += 1) {
      refusals.push((await confirm(token, { ticket: started.ticket, code: wrong(newCode), currentCode: '000000' })).body.result.error);
    }
    expect(refusals.slice(0, -1).every((error) => error === 'operator_totp_code_invalid')).toBe(true);
    expect(refusals.at(-1)).toBe('rate_limited');
    server.clock.advance(stepMs);
    // Even the right codes wait out the window now.
    const blocked = await confirm(token, { ticket: started.ticket, code: await code(started.secret), currentCode: await currentTotp(server, op) });
    expectRefused(blocked, 429, 'rate_limited');
    expect((await rowOf(op)).totpSecret).toBe(op.totpSecret);
  });

  it('needs an operator session', async () => {
    const user = await server.registerByEmail();
    expectRefused(await server.post(operatorSecurityPaths.totpStart, {}), 401, 'unauthorized');
    expectRefused(await server.post(operatorSecurityPaths.totpStart, {}, { token: user.token }), 401, 'unauthorized');
    expectRefused(await confirm(user.token, { ticket: 'x'.repeat(40), code: '123456', currentCode: '123456' }), 401, 'unauthorized');
  });
}, { databases: 'embedded' });
