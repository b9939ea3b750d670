// Starts the reference server as a child process for the conformance suite: embedded PGlite in a
// fresh data directory, the demo seed, no web build (an empty web root), on a free local port. It
// can be restarted on the same data directory, and reads verification codes from its dev outbox.
// Like the client, this file knows the server only from the outside: no import from src/ or server/.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForServer } from '../support/serverProcess.ts';

const root = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  readonly baseUrl: string;
  readonly dataDir: string;
  /** Stops the process and starts a new one on the same data directory and port. */
  restart(): Promise<void>;
  /** Stops the process and removes the data directory and web root. */
  stop(): Promise<void>;
}


function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts a server process on `dataDir` and stops it once it answers: the conformance project's
 * global setup does this once, and every file's server starts from a copy of the migrated and
 * seeded database it leaves (issue 20: a fresh PGlite migrates for ~18 s; a copy takes a moment).
 */
export async function prepareTemplate(dataDir: string): Promise<void> {
  const running = await startServer(dataDir);
  await running.halt();
}

/** Where the migrated template database lives, when the project's global setup made one. */
const templateDir = process.env.CONFORMANCE_TEMPLATE_DIR;

export async function startServer(templateTarget?: string): Promise<RunningServer & { halt(): Promise<void> }> {
  const dataDir = templateTarget ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-conformance-'));
  if (!templateTarget && templateDir && fs.existsSync(path.join(templateDir, 'pgdata'))) {
    fs.cpSync(path.join(templateDir, 'pgdata'), path.join(dataDir, 'pgdata'), { recursive: true });
  }
  const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-conformance-web-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const launch = async () => {
    let output = '';
    const started = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: {
        ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir,
        LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', SMTP_URL: '', WEB_ROOT: webRoot, PASSWORD_HASH_COST: 'test',
        // The journeys run the daily jobs themselves (the admin call), at the moment they choose.
        DAILY_JOBS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    started.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child = started;
    try {
      await waitForServer(baseUrl, started, () => output);
    } catch (error) {
      await stopChild(started);
      throw error;
    }
  };

  try {
    await launch();
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(webRoot, { recursive: true, force: true });
    throw error;
  }
  return {
    baseUrl,
    dataDir,
    async halt() {
      if (child) await stopChild(child);
      fs.rmSync(webRoot, { recursive: true, force: true });
    },
    async restart() {
      if (child) await stopChild(child);
      await launch();
    },
    async stop() {
      if (child) await stopChild(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(webRoot, { recursive: true, force: true });
    },
  };
}

interface OutboxMessage { to: string; channel: 'email' | 'sms'; text: string; code: string }
const takenMessages = new Set<string>();

/**
 * The newest code the server wrote to `DATA_DIR/outbox/<time>-<channel>.json` for `to` (an e-mail
 * address, or "+<country code><number>" for SMS) that this suite has not read before.
 */
export async function readCode(dataDir: string, to: string, channel: 'email' | 'sms'): Promise<string> {
  const dir = path.join(dataDir, 'outbox');
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const names = fs.existsSync(dir)
      ? fs.readdirSync(dir).filter((name) => name.endsWith(`-${channel}.json`) && !name.startsWith('.')).sort().reverse()
      : [];
    for (const name of names) {
      const file = path.join(dir, name);
      if (takenMessages.has(file)) continue;
      const message = JSON.parse(fs.readFileSync(file, 'utf8')) as OutboxMessage;
      if (message.to !== to || message.channel !== channel) continue;
      takenMessages.add(file);
      return message.code;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no unread ${channel} code for ${to} in ${dir}`);
}
