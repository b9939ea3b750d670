// The operator CLI, spawned as an operator runs it: it creates an operator who can log in, its
// --json answer is exactly {email, password, totpSecret}, it refuses (exit 1, a plain message,
// nothing created) while a server holds the embedded database, and works on PostgreSQL any time.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/lib/config.ts';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { pgliteLockFile } from '../../server/db/pgliteLock.ts';
import { auditLog, operators } from '../../server/db/schema.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import { totpCode } from '../../server/domain/kernel/totp.ts';
import { adminPaths } from '../../src/api/contract/admin.ts';
import { apiPrefix, paths, requestTimeField } from '../../src/api/contract/paths.ts';
import { encryptBody, importServerKey } from '../../src/api/crypto.ts';
import { migratedPgliteDir, openTestDatabase, TestClock } from './helpers.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Run { code: number | null; stdout: string; stderr: string }

function runCli(args: string[], env: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'server', 'cli.ts'), ...args], {
    cwd: projectRoot, env: { ...process.env, DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += String(chunk); });
  child.stderr.on('data', (chunk) => { stderr += String(chunk); });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Logs in through the real protocol on an app built over `database`, answers the operator's role. */
async function loginOn(database: Database, dataDir: string, creds: { email: string; password: string; totpSecret: string }) {
  const clock = new TestClock(new Date());
  const { app } = await buildApp({
    config: { ...loadConfig({}), dataDir, webRoot: path.join(dataDir, 'no-web') }, database, keys: createKeys(), clock, logger: false,
  });
  try {
    const key = await importServerKey(JSON.parse((await app.inject({ url: `${apiPrefix}${paths.publicKey}` })).body).result);
    const body = await encryptBody({
      account: creds.email, password: creds.password, totpCode: await totpCode(creds.totpSecret, clock.now().getTime()),
      [requestTimeField]: clock.now().getTime(),
    }, key);
    const login = JSON.parse((await app.inject({
      method: 'POST', url: `${apiPrefix}${adminPaths.login}`, payload: body, headers: { 'content-type': 'application/json' },
    })).body);
    expect(login.success, JSON.stringify(login)).toBe(true);
    const me = JSON.parse((await app.inject({ url: `${apiPrefix}${adminPaths.me}`, headers: { 'x-access-token': login.result.token } })).body);
    return me.result as { email: string; role: string };
  } finally {
    await app.close();
  }
}

const tempDirs: string[] = [];
afterAll(() => { for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true }); });
const newDataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-cli-'));
  tempDirs.push(dir);
  return dir;
};

describe('npm run operator -- add (embedded PGlite)', () => {
  it('creates an operator who can log in; refuses while a server holds the database; works again after', async () => {
    const dataDir = newDataDir();
    const env = { DATA_DIR: dataDir };
    await migratedPgliteDir(path.join(dataDir, 'pgdata'));
    const first = await runCli(['add', 'First.Operator@Example.com', '--role', 'finance', '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    const creds = JSON.parse(first.stdout);
    expect(Object.keys(creds).sort()).toEqual(['email', 'password', 'totpSecret']);
    expect(creds.email).toBe('first.operator@example.com');
    expect(creds.password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(creds.totpSecret).toMatch(/^[A-Z2-7]{32}$/);

    // A "server" on the directory: the same openDatabase main.ts uses, holding its lock.
    const pgdata = path.join(dataDir, 'pgdata');
    const database = await openDatabase({ pgliteDir: pgdata });
    try {
      expect(fs.readFileSync(pgliteLockFile(pgdata), 'utf8')).toMatch(new RegExp(`^${process.pid} [0-9]+\\n$`));
      const refused = await runCli(['add', 'second@example.com', '--role', 'admin', '--json'], env);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`in use by another process (pid ${process.pid})`);
      expect(refused.stderr).toContain('stop it, add the operator, then start it again');
      expect(refused.stderr).not.toMatch(/\bat .+\.(ts|js):\d+/);
      const [{ n }] = await database.db.select({ n: count() }).from(operators);
      expect(n).toBe(1);
      expect(await loginOn(database, dataDir, creds)).toEqual({ id: expect.any(String), email: creds.email, role: 'finance' });
      const [created] = await database.db.select().from(auditLog).where(eq(auditLog.action, 'operator.create'));
      expect(created.after).toEqual({ email: creds.email, role: 'finance', via: 'cli' });
    } finally {
      await database.close();
    }
    expect(fs.existsSync(pgliteLockFile(pgdata))).toBe(false);
    // The lock of a process that is gone (killed, crashed) is taken over, and so is one whose pid
    // now names another process (here this test's, with a start time it never had): a container
    // restarted on the same volume often gives the server its previous pid.
    fs.writeFileSync(pgliteLockFile(pgdata), '2147483646\n');
    const gone = await runCli(['add', 'gone@example.com', '--role', 'admin', '--json'], env);
    expect(gone.code, gone.stderr).toBe(0);
    fs.writeFileSync(pgliteLockFile(pgdata), `${process.pid} 1\n`);
    const after = await runCli(['add', 'second@example.com', '--role', 'admin'], env);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain('Operator second@example.com (admin) created');
    expect(after.stdout).toMatch(/TOTP secret: [A-Z2-7]{32}\n/);
    const again = await runCli(['add', 'SECOND@example.com', '--role', 'finance', '--json'], env);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr.trim()).toBe('An operator with the e-mail second@example.com exists already.');

    // disable: no login after it, its open sessions end, and it is audited.
    const unknown = await runCli(['disable', 'nobody@example.com'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('No operator has the e-mail nobody@example.com.');
    const disabled = await runCli(['disable', 'First.Operator@example.com'], env);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.stdout.trim()).toBe('Operator first.operator@example.com disabled; 1 open session(s) ended.');
    const reopened = await openDatabase({ pgliteDir: pgdata });
    try {
      const [row] = await reopened.db.select().from(operators).where(eq(operators.email, creds.email));
      expect(row.disabled).toBe(true);
      const [audit] = await reopened.db.select().from(auditLog).where(eq(auditLog.action, 'operator.disable'));
      expect(audit).toMatchObject({ operatorId: row.id, before: { disabled: false }, after: { disabled: true, sessionsEnded: 1, via: 'cli' } });
    } finally {
      await reopened.close();
    }
  }, 240_000);

  it('refuses bad input plainly before opening any database (exit 2)', async () => {
    const dataDir = newDataDir();
    const bad = [['add', 'not-an-email', '--role', 'admin'], ['add', 'a@b.co', '--role', 'root'], ['remove', 'a@b.co', '--colour'],
      ['disable', 'a@b.co', '--role', 'admin']];
    // Side by side: each is a process start and nothing more, and none touches the directory.
    const runs = await Promise.all(bad.map((args) => runCli(args, { DATA_DIR: dataDir })));
    for (const [index, run] of runs.entries()) {
      expect(run.code, bad[index].join(' ')).toBe(2);
      expect(run.stderr).toContain('Usage: npm run operator -- add EMAIL');
    }
    expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
  }, 60_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('npm run operator -- add (PostgreSQL)', () => {
  it('creates an operator while a server has the database open', async () => {
    const opened = await openTestDatabase('postgres');
    try {
      const databaseUrl = await postgresUrlOf(opened.database);
      const run = await runCli(['add', 'pg@example.com', '--role', 'admin', '--json'], { DATABASE_URL: databaseUrl, DATA_DIR: newDataDir() });
      expect(run.code, run.stderr).toBe(0);
      const creds = JSON.parse(run.stdout);
      expect(await loginOn(opened.database, newDataDir(), creds)).toMatchObject({ email: 'pg@example.com', role: 'admin' });
    } finally {
      await opened.database.close();
      await opened.drop();
    }
  }, 120_000);
});

async function postgresUrlOf(database: Database): Promise<string> {
  const result = await database.db.execute(sql`select current_database() as name`);
  const name = (result as unknown as { rows: { name: string }[] }).rows[0].name;
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}
