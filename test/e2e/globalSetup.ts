// Builds the PWA and starts the real server (embedded PGlite, fresh data directory, demo seed)
// on a free port for the end-to-end journeys. Nothing is mocked: the browser talks to this server.
import { spawn, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { apiPrefix } from '../../src/api/contract/paths.ts';
import { externalLoginPaths } from '../../src/api/contract/security.ts';
import { ensureChromium } from '../support/chromium.ts';
import { startOidcProvider } from '../support/oidcProvider.ts';
import { freePort, waitForServer } from '../support/serverProcess.ts';

/** One account of the local OpenID provider: the id typed into its login form, and its e-mail claim. */
export interface E2eOidcAccount { id: string; email: string }

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    /** The server's PUBLIC_ORIGIN (http://localhost:<port>): where the OpenID callback sends the browser. */
    publicOrigin: string;
    /** The local OpenID provider the server is configured with (OIDC_PROVIDERS=local). */
    oidcIssuer: string;
    oidcName: string;
    /** Accounts whose e-mails nobody uses (each a first login creates an account with that verified address). */
    oidcAccounts: E2eOidcAccount[];
    /** An account whose verified e-mail claim is the seeded demo user's (demo@bourse.local). */
    oidcDemoClaim: E2eOidcAccount;
  }
}

/** The name of the local provider's button ("Continue with Local ID"). */
const oidcName = 'Local ID';


/** What the build reads, as one string: every input file's path, size and modification time. */
function buildInputsStamp(root: string): string {
  const parts: string[] = [];
  const visit = (entry: string) => {
    const full = path.join(root, entry);
    if (!fs.existsSync(full)) return;
    const stat = fs.statSync(full);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(full).sort()) visit(path.join(entry, name));
    } else {
      parts.push(`${entry} ${stat.size} ${stat.mtimeMs}`);
    }
  };
  for (const entry of ['src', 'public', 'sw', 'index.html', 'admin.html', 'pc.html', 'vite.config.ts', 'vite.admin.config.ts',
    'lingui.config.ts', 'package-lock.json', 'tsconfig.json']) visit(entry);
  return crypto.createHash('sha256').update(parts.join('\n')).digest('hex');
}

export default async function setup(project: TestProject) {
  ensureChromium();
  const root = path.resolve(import.meta.dirname, '../..');
  // E2E_OUT_DIR builds into (and serves from) a directory of its own, so two people running the
  // journeys in one checkout do not overwrite each other's build in dist/.
  const outDir = path.resolve(root, process.env.E2E_OUT_DIR ?? 'dist');
  // A build whose inputs have not changed since is used as it is (issue 20): its stamp names them.
  const stampFile = path.join(outDir, '.e2e-build-stamp');
  const stamp = buildInputsStamp(root);
  const current = fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp;
  if (!process.env.E2E_SKIP_BUILD && !current) {
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], {
      // Compressed siblings at a fast level: the journeys check they are served, not how small they are.
      cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production', PRECOMPRESS_FAST: '1' },
    });
    fs.writeFileSync(stampFile, stamp);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-e2e-'));
  const port = await freePort();
  const publicOrigin = `http://localhost:${port}`;
  // A real OpenID provider (oidc-provider) on a loopback port, with its own login form. Its accounts
  // live in a Map in this process, which the test workers cannot reach: they are created here, once,
  // and handed to the tests by id through project.provide (a few with e-mails nobody uses, and one
  // claiming the demo user's address, for the rule that a claim never opens an existing account).
  const oidc = await startOidcProvider(`${publicOrigin}${apiPrefix}${externalLoginPaths.oidcCallback}`);
  const oidcAccounts: E2eOidcAccount[] = [1, 2, 3, 4, 5].map((n) => ({ id: `e2e-oidc-${n}`, email: `e2e-oidc-${n}@example.test` }));
  const oidcDemoClaim: E2eOidcAccount = { id: 'e2e-oidc-demo', email: 'demo@bourse.local' };
  for (const account of [...oidcAccounts, oidcDemoClaim]) oidc.accounts.set(account.id, { email: account.email, emailVerified: true });
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', PUBLIC_ORIGIN: publicOrigin, DATA_DIR: dataDir, WEB_ROOT: outDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', PASSWORD_HASH_COST: 'test', DAILY_JOBS: '0',
      OIDC_PROVIDERS: 'local', OIDC_LOCAL_ISSUER: oidc.issuer, OIDC_LOCAL_CLIENT_ID: oidc.clientId,
      OIDC_LOCAL_CLIENT_SECRET: oidc.clientSecret, OIDC_LOCAL_NAME: oidcName,
      // Every journey registers its accounts from 127.0.0.1: one address for the whole suite.
      CODE_SENDS_PER_IP_PER_HOUR: '1000', CODE_CHECKS_PER_IP_PER_HOUR: '1000', LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '300',
      REALTIME_CONNECTIONS_PER_ADDRESS_MAX: '500' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(baseUrl, child, () => output);
  } catch (error) {
    await oidc.close();
    throw error;
  }
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('publicOrigin', publicOrigin);
  project.provide('oidcIssuer', oidc.issuer);
  project.provide('oidcName', oidcName);
  project.provide('oidcAccounts', oidcAccounts);
  project.provide('oidcDemoClaim', oidcDemoClaim);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await oidc.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
