// WORKERS (issue 20): the product as `npm start` runs it, with two server processes on one port,
// one PostgreSQL database and one Redis. The supervisor prepares the database and keys, forks the
// workers; sockets spread over both all get the market (the follower's through Redis); a worker
// killed with -9 is replaced; SIGTERM stops everything. And the configurations it refuses. Needs
// TEST_DATABASE_URL (skipped without it) and Redis at TEST_REDIS_URL (default redis://127.0.0.1:6379).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workersRefusal } from '../../server/cluster.ts';
import { apiPrefix } from '../../src/api/contract/paths.ts';
import { realtimePath } from '../../src/api/contract/market.ts';
import { startServerProcess, type ServerProcess } from '../support/serverProcess.ts';
import { createPostgresDatabase, eventually, SocketClient } from './realtimeHelpers.ts';

const root = path.resolve(import.meta.dirname, '../..');
const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The process ids of `pid`'s children (Linux). */
const childrenOf = (pid: number): number[] => {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

describe('WORKERS: the configurations it refuses', () => {
  it('takes 1 to 64 workers, and more than one only with PostgreSQL and Redis', () => {
    const both = { databaseUrl: 'postgres://db', redisUrl: 'redis://cache' };
    expect(workersRefusal({ workers: 1, databaseUrl: undefined, redisUrl: undefined })).toBeUndefined();
    expect(workersRefusal({ workers: 4, ...both })).toBeUndefined();
    expect(workersRefusal({ workers: 2, ...both, databaseUrl: undefined })).toMatch(/needs DATABASE_URL/);
    expect(workersRefusal({ workers: 2, ...both, redisUrl: undefined })).toMatch(/needs REDIS_URL/);
    for (const workers of [0, 65, 1.5, Number.NaN]) expect(workersRefusal({ workers, ...both })).toMatch(/whole number from 1 to 64/);
  });

  it('stops at start with that line when WORKERS=2 has no DATABASE_URL', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root, env: { ...process.env, WORKERS: '2', DATABASE_URL: '', REDIS_URL: redisUrl, DATA_DIR: os.tmpdir(), PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(output).toContain('WORKERS above 1 needs DATABASE_URL');
  });
});

describe.skipIf(!adminUrl)('WORKERS=2 on PostgreSQL and Redis', () => {
  let server: ServerProcess | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-cluster-'));
  const sockets: SocketClient[] = [];

  afterAll(async () => {
    for (const socket of sockets) socket.socket.terminate();
    const child = server?.child;
    if (child && child.exitCode === null) {
      for (const pid of childrenOf(child.pid!)) process.kill(pid, 'SIGKILL');
      child.kill('SIGKILL');
    }
    await dropDatabase?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves one market from two processes on one port, replaces a worker that dies, and stops on SIGTERM', async () => {
    const database = await createPostgresDatabase(adminUrl!);
    dropDatabase = database.drop;
    server = await startServerProcess({
      WORKERS: '2', DATABASE_URL: database.url, REDIS_URL: redisUrl, DATA_DIR: dataDir, WEB_ROOT: path.join(dataDir, 'no-web'),
      SEED_DEMO: '0', DAILY_JOBS: '0', LOG_LEVEL: 'warn', MARKET_TICK_MS: '250', PASSWORD_HASH_COST: '',
    });
    const { child, port } = server;
    await eventually(() => childrenOf(child.pid!).length === 2, 'two workers');
    const workers = childrenOf(child.pid!);
    // The keys were made once, by the supervisor, before the workers: both read the same pair.
    expect(fs.readdirSync(path.join(dataDir, 'keys')).length).toBeGreaterThan(0);

    // The supervisor hands new connections to the workers in turn: of eight sockets, each worker
    // holds some, and every socket gets the leader's ticks (the follower's through Redis).
    const url = `ws://127.0.0.1:${port}${apiPrefix}${realtimePath}`;
    for (let index = 0; index < 8; index += 1) {
      const socket = await SocketClient.connect(url);
      sockets.push(socket);
      socket.send({ op: 'subscribe', channels: ['tickers'] });
      await socket.next('snapshot');
    }
    for (const socket of sockets) await socket.next('update');

    // A worker killed outright is replaced, and the new one serves.
    process.kill(workers[1], 'SIGKILL');
    await eventually(() => {
      const now = childrenOf(child.pid!);
      return now.length === 2 && !now.includes(workers[1]);
    }, 'a replacement worker', 30_000);
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}${apiPrefix}/public/getServerTime`).catch(() => undefined))?.ok === true,
      'the port answering');
    const fresh = await Promise.all(Array.from({ length: 4 }, () => SocketClient.connect(url)));
    sockets.push(...fresh);
    for (const socket of fresh) {
      socket.send({ op: 'subscribe', channels: ['tickers'] });
      await socket.next('snapshot');
      await socket.next('update');
    }

    // SIGTERM to the supervisor stops the workers and then itself, cleanly.
    const running = childrenOf(child.pid!);
    await server.stop();
    expect(child.exitCode).toBe(0);
    for (const pid of running) expect(fs.existsSync(`/proc/${pid}`)).toBe(false);
  });
});
