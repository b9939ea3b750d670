// First start on a fresh DATA_DIR, as an operator gets it: `server/main.ts` (PGlite created and
// migrated, demo seeded, market history back-filled and published) until the first request is
// answered — and that first answer of the market list has data. Printed, never asserted.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForServer } from '../support/serverProcess.ts';

// BENCH_ROOT points at another checkout (say, an older commit) to measure it the same way.
const root = process.env.BENCH_ROOT ?? path.resolve(import.meta.dirname, '../..');

export async function firstStart() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-start-'));
  const port = await freePort();
  let output = '';
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_ROOT: path.join(dataDir, 'no-web'), DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(baseUrl, child, () => output, 600_000);
    const answeredMs = performance.now() - started;
    const list = await (await fetch(`${baseUrl}/api/public/getTicketList`)).json() as { code: number; result: unknown[] };
    const engineMs = Number(/market engine ready in (\d+) ms/.exec(output)?.[1] ?? NaN);
    return { answeredMs, engineMs, firstListCode: list.code, firstListLength: Array.isArray(list.result) ? list.result.length : 0 };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printFirstStart(result: Awaited<ReturnType<typeof firstStart>>) {
  console.log(`first start on a fresh DATA_DIR (PGlite): first answer after ${(result.answeredMs / 1000).toFixed(1)} s `
    + `(market engine ready in ${(result.engineMs / 1000).toFixed(1)} s of it); the first market list answered `
    + `code ${result.firstListCode} with ${result.firstListLength} symbols`);
}

if (process.argv[1]?.endsWith('firstStart.ts')) printFirstStart(await firstStart());
