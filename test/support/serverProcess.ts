// What every suite that runs the server as a child process needs: a free port to give it, and a
// wait until it answers (or a clear failure with its output when it exits or never answers); and
// the product itself started that way, as `npm start` starts it.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/**
 * The V8 flags `npm start` gives the server (package.json): a young generation of 64 MB, where the
 * default 16 MB spent a fifth of the ledger's CPU in scavenges (issue 20). Benchmarks that start
 * the product as a process pass them too.
 */
export const serverNodeFlags = ['--max-semi-space-size=64'];

export const freePort = () => new Promise<number>((resolve, reject) => {
  const server = net.createServer();
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as net.AddressInfo;
    server.close(() => resolve(port));
  });
  server.on('error', reject);
});

/**
 * Polls GET /api/public/getServerTime every 50 ms, so a start is noticed at once (the suites start
 * about twenty servers), for at most `limitMs`: a first start migrates a fresh PGlite, which took
 * over two minutes on a 2-core machine busy with other work.
 */
export async function waitForServer(baseUrl: string, child: ChildProcess, log: () => string, limitMs = 300_000) {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early (code ${child.exitCode}):\n${log()}`);
    try {
      const response = await fetch(`${baseUrl}/api/public/getServerTime`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`server did not start within ${limitMs / 1000} s:\n${log()}`);
}

/** The product as a child process: where it answers, the process, what it printed, and a stop. */
export interface ServerProcess {
  baseUrl: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM, then waits for the exit (nothing when it has exited already). */
  stop: () => Promise<void>;
}

/**
 * server/main.ts as `npm start` runs it (serverNodeFlags, NODE_ENV=production) on a free port of
 * 127.0.0.1, with `env` over this process's environment; resolves once it answers, and stops it
 * when it does not.
 */
export async function startServerProcess(env: NodeJS.ProcessEnv, limitMs?: number): Promise<ServerProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [...serverNodeFlags, '--import', 'tsx', 'server/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(baseUrl, child, () => output, limitMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, port, child, output: () => output, stop };
}
