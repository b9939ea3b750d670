// What every suite that runs the server as a child process needs: a free port to give it, and a
// wait until it answers (or a clear failure with its output when it exits or never answers).
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

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
