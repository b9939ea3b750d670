// Several server processes on one machine (issue 20, WORKERS > 1): one process cannot write a tick
// to thousands of sockets faster than about 11 µs a socket, most of it the kernel's, so the last of
// 5 000 sockets waits some 55 ms for every tick. The supervising process migrates and seeds the
// database and makes the keys once, then forks the workers (node:cluster: they share the listening
// port, and the supervisor hands each new connection to the next worker in turn). Each worker is a
// whole instance (server/instance.ts) on the same PostgreSQL and Redis, as the scale-out tests
// run two: one of them holds the engine lock and ticks, every one fans the market out to its own
// sockets. A worker that dies is replaced; SIGINT or SIGTERM stops them all.
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './lib/config.ts';

/** Workers at most: more than the machine has cores only adds switching. */
export const workersMax = 64;

/** Why this configuration cannot run `config.workers` workers, or undefined when it can. */
export function workersRefusal(config: Pick<Config, 'workers' | 'databaseUrl' | 'redisUrl'>): string | undefined {
  if (!Number.isInteger(config.workers) || config.workers < 1 || config.workers > workersMax) {
    return `WORKERS must be a whole number from 1 to ${workersMax}`;
  }
  if (config.workers === 1) return undefined;
  if (!config.databaseUrl) return 'WORKERS above 1 needs DATABASE_URL: the embedded database serves one process';
  if (!config.redisUrl) return 'WORKERS above 1 needs REDIS_URL: the workers share the market and the rate limits through it';
  return undefined;
}

/** A worker that dies within this long of its start is not restarted at once (a crash loop). */
const restartBackoffMs = 5_000;

/** Forks `count` workers and keeps them running until SIGINT or SIGTERM; resolves when all have stopped. */
export function superviseWorkers(count: number, log: (line: string) => void): Promise<void> {
  let stopping = false;
  const startedMs = new Map<Worker, number>();
  const fork = () => {
    const worker = cluster.fork();
    startedMs.set(worker, Date.now());
  };
  return new Promise((resolve) => {
    cluster.on('exit', (worker, code, signal) => {
      const lived = Date.now() - (startedMs.get(worker) ?? 0);
      startedMs.delete(worker);
      if (stopping) {
        if (startedMs.size === 0) resolve();
        return;
      }
      log(`worker ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}); starting another`);
      setTimeout(fork, lived < restartBackoffMs ? restartBackoffMs : 0);
    });
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      log(`${signal}: stopping ${startedMs.size} workers`);
      if (startedMs.size === 0) resolve();
      for (const worker of startedMs.keys()) worker.process.kill('SIGTERM');
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    for (let index = 0; index < count; index += 1) fork();
  });
}

/** Whether this process prints the start-up banner: the only process, or the first worker. */
export const printsBanner = () => !cluster.isWorker || cluster.worker?.id === 1;
