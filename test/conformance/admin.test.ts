// Conformance: the back office through a spec-only client. The demo operator (README, Operators)
// logs in with a TOTP code computed here (RFC 6238 on node:crypto), runs the ledger check, reads
// the audit trail, and logs out; a code is good once; user and operator tokens stay apart; and the
// operator CLI refuses to touch the embedded database while this server holds it.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCode, startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient, tokenOf } from './specClient.ts';
import { AdminClient, base32Decode, totp, demoOperator } from './adminClient.ts';
import { describeAnswer, expectSuccess } from './expectAnswer.ts';

/** The demo operator every SEED_DEMO install has (README). */

let server: RunningServer;
let client: SpecClient;
let admin: AdminClient;


beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
  admin = new AdminClient(client);
});

afterAll(async () => {
  await server?.stop();
});

describe('TOTP of this client', () => {
  it('matches RFC 6238\'s SHA-1 test vectors', () => {
    const key = Buffer.from('12345678901234567890', 'ascii');
    expect(totp(key, 59_000, 8)).toBe('94287082');
    expect(totp(key, 1_111_111_109_000, 8)).toBe('07081804');
    expect(totp(key, 2_000_000_000_000, 8)).toBe('69279037');
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').toString('ascii')).toBe('12345678901234567890');
  });
});

describe('back office (/api/admin)', () => {
  it('logs the demo operator in with password and code, checks the ledger, reads the audit trail, logs out', async () => {
    const key = base32Decode(demoOperator.totpSecret);
    const code = totp(key, await client.serverTime());
    const login = await admin.login(demoOperator.email, demoOperator.password, code);
    const token = tokenOf(login);
    expect(token, describeAnswer(login)).toEqual(expect.any(String));

    // The same code again is refused like a wrong password (a code is good once).
    const replayed = await admin.login(demoOperator.email, demoOperator.password, code);
    expect(replayed.status).toBe(400);
    expect(errorOf(replayed)).toBe('credentials_invalid');

    expect(expectSuccess(await admin.me(token!))).toMatchObject({ email: demoOperator.email, role: 'admin' });
    const check = expectSuccess(await admin.ledgerCheck(token!));
    expect(check).toMatchObject({ chainValid: true, balancesValid: true, conserved: true, problems: [] });
    for (const asset of check.assets) expect(asset).toMatchObject({ sum: '0', pendingSum: '0' });
    expect(check.headsDigest).toMatch(/^[0-9a-f]{64}$/);

    const audit = expectSuccess(await admin.audit(token!, { action: 'ledger.check', pageSize: 10 }));
    expect(audit.total).toBeGreaterThanOrEqual(1);
    expect(audit.records[0]).toMatchObject({ action: 'ledger.check', operatorEmail: demoOperator.email, targetType: 'ledger' });

    expect(isSuccess(await admin.logout(token!))).toBe(true);
    const after = await admin.me(token!);
    expect(after.status).toBe(401);
    expect(errorOf(after)).toBe('unauthorized');
  });

  it('refuses a wrong code and an unknown operator alike, and keeps user and operator tokens apart', async () => {
    const wrong = await admin.login(demoOperator.email, demoOperator.password, '000000');
    const unknown = await admin.login('nobody@bourse.local', demoOperator.password, '123456');
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(400);
      expect(errorOf(answer)).toBe('credentials_invalid');
    }
    expect(wrong.envelope?.message).toBe(unknown.envelope?.message);

    const email = `conf-admin-${crypto.randomBytes(5).toString('hex')}@example.test`;
    expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
    const registered = await client.register({
      accountType: 'email', account: email, password: 'Admin2026conf', code: await readCode(server.dataDir, email, 'email'),
    });
    const userToken = tokenOf(registered)!;
    for (const answer of [await admin.me(userToken), await admin.ledgerCheck(userToken), await admin.audit(userToken)]) {
      expect(answer.status).toBe(401);
      expect(errorOf(answer)).toBe('unauthorized');
    }
  });

  it('the operator CLI refuses to touch the embedded database while the server holds it', async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'add', 'late@example.test', '--role', 'admin', '--json'], {
      cwd: root, env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += String(chunk); });
    child.stderr.on('data', (chunk) => { stderr += String(chunk); });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('is in use by another process');
  }, 60_000);
});
