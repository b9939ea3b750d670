// Builds the PWA and starts the real server (embedded PGlite, fresh data directory, demo seed)
// on a free port for the end-to-end journeys. Nothing is mocked: the browser talks to this server.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, waitForServer } from '../support/serverProcess.ts';

declare module 'vitest' {
  export interface ProvidedContext { baseUrl: string; dataDir: string }
}


export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, '../..');
  // E2E_OUT_DIR builds into (and serves from) a directory of its own, so two people running the
  // journeys in one checkout do not overwrite each other's build in dist/.
  const outDir = path.resolve(root, process.env.E2E_OUT_DIR ?? 'dist');
  if (!process.env.E2E_SKIP_BUILD) {
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], {
      cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' },
    });
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-e2e-'));
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', PUBLIC_ORIGIN: `http://localhost:${port}`, DATA_DIR: dataDir, WEB_ROOT: outDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForServer(baseUrl, child, () => output);
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
