// Realtime fan-out benchmark (DESIGN §8: market ticks to 5 000 WebSocket clients, p99
// tick-to-client ≤ 50 ms). The server runs here, in-process on PostgreSQL when BENCH_DATABASE_URL
// (or TEST_DATABASE_URL) is set and on PGlite otherwise, with the market engine
// driven on an interval; the clients run in a child process (test/bench/realtimeClients.ts), so
// this process's CPU is the server's. Each client holds "tickers" and one "ticker.<SYMBOL>"; a
// latency sample is a frame's arrival time minus the tick time it carries (the engine's clock,
// taken when the tick is made, so storing the ticks is part of it). Measured, never asserted.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/lib/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { createScratchDatabase, dropScratchDatabase } from '../support/scratchDatabase.ts';
import { buildApp } from '../../server/app.ts';
import { localBus, type MarketBus } from '../../server/domain/core/market/bus.ts';
import { MarketEngine, seededSimulator, simulatorSource } from '../../server/domain/core/market/engine.ts';
import { symbolSpecs } from '../../server/domain/core/market/symbols.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import { systemClock } from '../../server/lib/time.ts';
import { apiPrefix } from '../../src/api/contract/paths.ts';
import { realtimePath } from '../../src/api/contract/market.ts';
import type { ClientCommand, ClientReport } from './realtimeClients.ts';
import { processTreeCpuMs } from './processCpu.ts';
import { figure } from './figures.ts';
import { startServerProcess, type ServerProcess } from '../support/serverProcess.ts';

const tickIntervalMs = Number(process.env.BENCH_REALTIME_TICK_MS ?? 200);
const ticksPerRound = Number(process.env.BENCH_REALTIME_TICKS ?? 50);
const clientCounts = (process.env.BENCH_REALTIME_CLIENTS ?? '1000,5000').split(',').map(Number);
/** Server processes of the scale-out round (the product's WORKERS), and its clients. */
const workerCount = Number(process.env.BENCH_REALTIME_WORKERS ?? 2);
const workerClients = Number(process.env.BENCH_REALTIME_WORKER_CLIENTS ?? 5000);
/**
 * Client processes of the scale-out round. One process reads its sockets one after another (about
 * 11 µs of CPU each), so with 5 000 in one process the last read waits some 55 ms behind the
 * others whatever the server does; phones each read their own.
 */
const workerClientProcesses = Number(process.env.BENCH_REALTIME_CLIENT_PROCESSES ?? 2);
/** File descriptors a process needs besides its sockets (PGlite, modules, stdio, the listener). */
const fdSpare = 256;
const connectLimitMs = 120_000;
const drainMs = 1_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

function openFileLimit(): number {
  try {
    const text = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
    return text === 'unlimited' ? Number.POSITIVE_INFINITY : Number(text);
  } catch {
    return Number.NaN;
  }
}

/**
 * A bus that times each publish: with the in-process bus that is the view update and the whole
 * fan-out. The CPU time (user and system) is kept too: on a shared machine the wall time also
 * counts the time other processes held the core, the CPU time only this process's work.
 */
function timedBus(inner: MarketBus, samples: number[], cpuSamples: number[]): MarketBus {
  return {
    async publish(update) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await inner.publish(update);
      samples.push(performance.now() - started);
      const cpu = process.cpuUsage(cpuBefore);
      cpuSamples.push((cpu.user + cpu.system) / 1000);
    },
    subscribe: (listener) => inner.subscribe(listener),
    get connected() { return inner.connected; },
    close: () => inner.close(),
  };
}

class ClientProcess {
  readonly #child: ChildProcess;
  #waiting: ((report: ClientReport) => void) | undefined;

  constructor() {
    this.#child = fork(path.join(import.meta.dirname, 'realtimeClients.ts'), [], {
      execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.#child.on('message', (report: ClientReport) => this.#waiting?.(report));
  }

  ask(command: ClientCommand, limitMs: number): Promise<ClientReport> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the client process did not answer ${command.type} within ${limitMs} ms`)), limitMs);
      this.#waiting = (report) => {
        clearTimeout(timer);
        this.#waiting = undefined;
        resolve(report);
      };
      this.#child.send(command);
    });
  }

  send(command: ClientCommand) {
    this.#child.send(command);
  }

  async stop() {
    await this.ask({ type: 'close' }, 30_000).catch(() => this.#child.kill());
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The server under test: the app on PostgreSQL (a scratch database) or PGlite, its realtime hub,
 * and an engine ticked on demand. On PGlite the engine's tick inserts run on this process's core,
 * in WebAssembly, between the tick's time and its publish; on PostgreSQL they are a round trip.
 */
async function startBenchServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-realtime-'));
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const scratchName = `bourse_bench_realtime_${process.pid}`;
  const database = await openDatabase(adminUrl
    ? { databaseUrl: await createScratchDatabase(adminUrl, scratchName) }
    : { pgliteDir: path.join(dataDir, 'pgdata') });
  const databaseName = adminUrl ? 'PostgreSQL' : 'PGlite';
  const config = { ...loadConfig({ DATA_DIR: dataDir }), webRoot: path.join(dataDir, 'no-web') };
  const publishMs: number[] = [];
  const publishCpuMs: number[] = [];
  const bus = timedBus(localBus(), publishMs, publishCpuMs);
  // Every bench client comes from 127.0.0.1: lift the per-address socket cap and reply budget.
  const { app, realtime } = await buildApp({
    config, database, keys: createKeys(), logger: false, marketBus: bus,
    realtime: { connectionsPerAddressMax: Infinity, addressReplyBytesBurstMax: Infinity },
  });
  const engine = new MarketEngine({
    db: database.db, clock: systemClock, bus, source: simulatorSource(seededSimulator('bench')), seed: 'bench',
    tickIntervalMs, tickRetentionMs: 3_600_000,
  });
  const initStartedMs = Date.now();
  await engine.init();
  console.log(`realtime: market engine ready on ${databaseName} in ${Date.now() - initStartedMs} ms (${symbolSpecs.length} symbols); `
    + `ticks every ${tickIntervalMs} ms, ${ticksPerRound} ticks per round`);
  await app.listen({ port: 0, host: '127.0.0.1', backlog: 4096 });
  const url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}${apiPrefix}${realtimePath}`;
  const tickMs: number[] = [];
  let ticking = false;
  return {
    url, realtime, publishMs, publishCpuMs, tickMs, databaseName,
    get ticking() { return ticking; },
    /** One engine tick at the wall clock, skipped while the previous one runs (as the engine's timer does). */
    async tick() {
      if (ticking) return;
      ticking = true;
      const started = performance.now();
      try {
        await engine.tickOnce(Date.now());
      } finally {
        tickMs.push(performance.now() - started);
        ticking = false;
      }
    },
    async close() {
      await app.close();
      await database.close();
      if (adminUrl) await dropScratchDatabase(adminUrl, scratchName);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type BenchServer = Awaited<ReturnType<typeof startBenchServer>>;

/** Connects `count` clients, warms up, publishes a round of ticks on the interval and prints the figures. */
async function measureRound(server: BenchServer, clients: ClientProcess, count: number) {
  const symbols = symbolSpecs.filter((spec) => spec.class === 'crypto').map((spec) => spec.symbol);
  const ready = await clients.ask({ type: 'connect', url: server.url, count, symbols, concurrency: 64, limitMs: connectLimitMs },
    connectLimitMs + 10_000);
  if (ready.type !== 'ready') throw new Error(`unexpected answer ${ready.type}`);
  if (ready.failed > 0) console.log(`realtime, ${count} clients: ${ready.failed} failed to connect (${ready.firstError ?? 'time limit'})`);
  for (let i = 0; i < 5; i += 1) {
    await server.tick();
    await sleep(tickIntervalMs);
  }
  await clients.ask({ type: 'report' }, 30_000);
  clients.send({ type: 'reset' });
  server.publishMs.length = 0;
  server.publishCpuMs.length = 0;
  server.tickMs.length = 0;
  const skippedBefore = server.realtime.stats.updatesSkipped;
  const cpuBefore = process.cpuUsage();
  const startedMs = performance.now();
  for (let published = 0; published < ticksPerRound; published += 1) {
    await sleep(tickIntervalMs);
    void server.tick();
  }
  while (server.ticking) await sleep(10);
  const cpu = process.cpuUsage(cpuBefore);
  const cpuPercent = ((cpu.user + cpu.system) / 1000 / (performance.now() - startedMs)) * 100;
  await sleep(drainMs);
  const report = await clients.ask({ type: 'report' }, 30_000);
  if (report.type !== 'report') throw new Error(`unexpected answer ${report.type}`);

  const rssMb = process.memoryUsage().rss / 2 ** 20;
  const fanOut = [...server.publishMs].sort((a, b) => a - b);
  const fanOutCpu = [...server.publishCpuMs].sort((a, b) => a - b);
  const engineOnly = server.tickMs.map((total, index) => total - (server.publishMs[index] ?? 0)).sort((a, b) => a - b);
  const ms = (value: number | undefined) => `${(value ?? Number.NaN).toFixed(1)} ms`;
  if (report.p99Ms !== undefined) figure(`realtime.${count}.p99`, report.p99Ms, 'ms');
  if (fanOutCpu.length > 0) figure(`realtime.${count}.fanout_cpu_p50`, percentile(fanOutCpu, 50), 'ms');
  console.log(`realtime, ${ready.connected} clients × 2 channels, ${fanOut.length} ticks: tick-to-client `
    + `p50 ${ms(report.p50Ms)}, p99 ${ms(report.p99Ms)}, max ${ms(report.maxMs)} over ${report.updates} updates (budget p99 ≤ 50 ms)`);
  console.log(`  server CPU ${cpuPercent.toFixed(0)} % of one core, RSS ${rssMb.toFixed(0)} MB (${server.databaseName === 'PGlite' ? 'PGlite included' : 'PostgreSQL apart'}); `
    + `per tick: engine (simulate, store ticks) p50 ${ms(percentile(engineOnly, 50))}, fan-out to every socket `
    + `p50 ${ms(percentile(fanOut, 50))}, p99 ${ms(percentile(fanOut, 99))} (CPU p50 ${ms(percentile(fanOutCpu, 50))})`);
  console.log(`  client process CPU ${report.cpuPercent.toFixed(0)} % of one core; seq gaps ${report.gaps}, updates skipped `
    + `for backpressure ${server.realtime.stats.updatesSkipped - skippedBefore}, sockets closed ${report.closed}`);
}

/**
 * The scale-out round: the product itself (server/main.ts) with WORKERS processes on one port, on
 * a scratch PostgreSQL database and this machine's Redis, its own engine ticking every
 * `tickIntervalMs`, and `count` clients each from a loopback address of its own (so the product's
 * per-address limits stay as they ship). The latency is measured as in the rounds above: a frame's
 * arrival minus the tick time it carries.
 */
async function measureWorkers(workers: number, count: number) {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (!adminUrl) {
    console.log(`realtime over ${workers} processes: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)`);
    return;
  }
  const scratchName = `bourse_bench_workers_${process.pid}`;
  const databaseUrl = await createScratchDatabase(adminUrl, scratchName);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-workers-'));
  const clients = Array.from({ length: workerClientProcesses }, () => new ClientProcess());
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess({
      WORKERS: String(workers), DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, DATA_DIR: dataDir, WEB_ROOT: path.join(dataDir, 'no-web'),
      SEED_DEMO: '0', DAILY_JOBS: '0', LOG_LEVEL: 'warn', MARKET_TICK_MS: String(tickIntervalMs), REALTIME_CONNECTIONS_MAX: String(count + 1000),
    });
    const { pid } = server.child;
    const symbols = symbolSpecs.filter((spec) => spec.class === 'crypto').map((spec) => spec.symbol);
    const url = `ws://127.0.0.1:${server.port}${apiPrefix}${realtimePath}`;
    const share = Math.ceil(count / clients.length);
    let connected = 0;
    for (const [index, process_] of clients.entries()) {
      const own = Math.min(share, count - index * share);
      const ready = await process_.ask({
        type: 'connect', url, count: own, symbols, concurrency: 64, limitMs: connectLimitMs, ownAddresses: true, addressOffset: index * share,
      }, connectLimitMs + 10_000);
      if (ready.type !== 'ready') throw new Error(`unexpected answer ${ready.type}`);
      if (ready.failed > 0) console.log(`realtime over ${workers} processes: ${ready.failed} clients failed to connect (${ready.firstError ?? 'time limit'})`);
      connected += ready.connected;
    }
    await sleep(5 * tickIntervalMs);
    for (const process_ of clients) process_.send({ type: 'reset' });
    const cpuBefore = processTreeCpuMs(pid!);
    const startedMs = performance.now();
    await sleep(ticksPerRound * tickIntervalMs);
    const serverCpuPercent = ((processTreeCpuMs(pid!) - cpuBefore) / (performance.now() - startedMs)) * 100;
    const reports: Extract<ClientReport, { type: 'report' }>[] = [];
    for (const process_ of clients) {
      const report = await process_.ask({ type: 'report', withSamples: true }, 60_000);
      if (report.type !== 'report') throw new Error(`unexpected answer ${report.type}`);
      reports.push(report);
    }
    const samples = reports.flatMap((report) => report.samples ?? []).sort((a, b) => a - b);
    const [p50, p99, max] = [percentile(samples, 50), percentile(samples, 99), samples.at(-1)];
    figure(`realtime.${count}.workers${workers}.p99`, p99, 'ms');
    const ms = (value: number | undefined) => `${(value ?? Number.NaN).toFixed(1)} ms`;
    console.log(`realtime over ${workers} server processes (WORKERS=${workers}, the product on PostgreSQL and Redis, its engine ticking every `
      + `${tickIntervalMs} ms), ${connected} clients from addresses of their own in ${clients.length} client processes × 2 channels: `
      + `tick-to-client p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(max)} over ${samples.length} updates (budget p99 ≤ 50 ms)`);
    console.log(`  server processes' CPU ${serverCpuPercent.toFixed(0)} % of one core in all, client processes `
      + `${reports.map((report) => `${report.cpuPercent.toFixed(0)} %`).join(' and ')}; seq gaps ${reports.reduce((sum, report) => sum + report.gaps, 0)}, `
      + `sockets closed ${reports.reduce((sum, report) => sum + report.closed, 0)}`);
  } finally {
    await Promise.all(clients.map((process_) => process_.stop()));
    await server?.stop();
    await dropScratchDatabase(adminUrl, scratchName);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function realtimeBench() {
  const fdLimit = openFileLimit();
  const server = await startBenchServer();
  try {
    for (const count of clientCounts) {
      if (!(fdLimit >= count + fdSpare)) {
        console.log(`realtime, ${count} clients: skipped: the open-file limit is ${fdLimit}, and the server and the client `
          + `process each need about ${count + fdSpare}. Raise it in the shell first (ulimit -n ${count * 2 + fdSpare}) and run again.`);
        continue;
      }
      const clients = new ClientProcess();
      try {
        await measureRound(server, clients, count);
      } finally {
        await clients.stop();
      }
      // Let the server see the closes before the next round.
      for (let waitedMs = 0; server.realtime.stats.connections > 0 && waitedMs < 10_000; waitedMs += 50) await sleep(50);
    }
  } finally {
    await server.close();
  }
  if (workerCount >= 1 && fdLimit >= workerClients + fdSpare) await measureWorkers(workerCount, workerClients);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await realtimeBench();
