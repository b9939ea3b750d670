// `npm run bench`: prints the figures of DESIGN §8 that exist so far. Measured, never asserted.
// Each figure is also a line `figure <name> <value> <unit>` (figures.ts); `BENCH_ONLY=a,b` runs only
// the parts named (home, lighthouse, start, replay, login, ledger, withdrawals, second_contracts,
// payouts, positions, candles, triggers, realtime, push, chat, ieo, rewards).
//  1. Brotli size of the JS the home screen needs (entry, its static imports, the home page and
//     the default catalog), from the Vite build manifest. Budget: ≤ 120 kB.
//  2. The same files as transferred by the running product, and Lighthouse's mobile preset on the
//     home page, median of five (test/bench/lighthouse.ts). Budget: performance ≥ 95, TBT ≤ 200 ms,
//     LCP ≤ 2.5 s.
//  3. First start on a fresh DATA_DIR until the first answer (test/bench/firstStart.ts), and the
//     replay store's rows and bytes after 10 000 encrypted POSTs (test/bench/replayStore.ts).
//  4. Password-login latency p50/p99 through the real protocol (encrypted body over HTTP), on
//     embedded PGlite and, when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, on PostgreSQL.
//  5. Ledger transfers per second on PostgreSQL with 8 connections, single and 100 per batch,
//     beside pgbench TPS in the same run (test/bench/ledger.ts). Budget: ≥ 1.0× pgbench.
//     Then withdrawal requests per second through
//     the encrypted HTTP path, argon2id withdrawal password included (test/bench/withdrawals.ts).
//  Last, market ticks to 1 000 and 5 000 WebSocket clients (test/bench/realtime.ts): p50/p99
//     tick-to-client latency, server CPU and RSS. Budget: p99 ≤ 50 ms at 5 000 clients.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { createScratchDatabase, dropScratchDatabase } from '../support/scratchDatabase.ts';
import { loadConfig } from '../../server/lib/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { buildApp } from '../../server/app.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import { hashPassword } from '../../server/domain/kernel/passwords.ts';
import { users } from '../../server/db/schema.ts';
import { encryptBody, importServerKey } from '../../src/api/crypto.ts';
import { paths, requestTimeField } from '../../src/api/contract/paths.ts';
import { realtimeBench } from './realtime.ts';
import { candleQueryLatency } from './candles.ts';
import { benchWebRoot, homeScreenFiles } from './homeScreen.ts';
import { webBench } from './lighthouse.ts';
import { printReplayStore, replayStoreFootprint } from './replayStore.ts';
import { firstStart, printFirstStart } from './firstStart.ts';
import { ledgerBench } from './ledger.ts';
import { withdrawalBench } from './withdrawals.ts';
import { figure } from './figures.ts';

const root = path.resolve(import.meta.dirname, '../..');

function homeScreenJs() {
  if (!process.env.BENCH_SKIP_BUILD) {
    execFileSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', benchWebRoot, '--emptyOutDir'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  }
  const { js: files } = homeScreenFiles();
  let rawBytes = 0;
  let brotliBytes = 0;
  for (const file of files) {
    const source = fs.readFileSync(path.join(benchWebRoot, file));
    rawBytes += source.length;
    brotliBytes += brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { files, rawBytes, brotliBytes };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function loginLatency(kind: 'pglite' | 'postgres', databaseUrl?: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-'));
  let dropDatabase: (() => Promise<void>) | undefined;
  let url = databaseUrl;
  if (kind === 'postgres' && databaseUrl) {
    const name = `bourse_bench_${process.pid}`;
    url = await createScratchDatabase(databaseUrl, name);
    dropDatabase = () => dropScratchDatabase(databaseUrl, name);
  }
  const database = await openDatabase(kind === 'postgres' ? { databaseUrl: url } : { pgliteDir: path.join(dataDir, 'pgdata') });
  const config = { ...loadConfig({ DATA_DIR: dataDir }), webRoot: path.join(dataDir, 'no-web') };
  config.limits = { ...config.limits, loginAttemptsPerIpPerMinute: 1_000_000 };
  const keys = createKeys();
  const { app } = await buildApp({ config, database, keys, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api`;
  await database.db.insert(users).values({ email: 'bench@example.com', passwordHash: await hashPassword('Bench2026pass'), inviteCode: 'BENCH001' });
  const serverKey = await importServerKey(keys.publicKeyPem);

  const rounds = Number(process.env.BENCH_LOGINS ?? 200);
  const samples: number[] = [];
  for (let i = 0; i < rounds + 10; i += 1) {
    const body = await encryptBody({ account: 'bench@example.com', password: 'Bench2026pass', [requestTimeField]: Date.now() }, serverKey);
    const started = performance.now();
    const response = await fetch(`${base}${paths.login}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const envelope = await response.json() as { code: number };
    const elapsed = performance.now() - started;
    if (envelope.code !== 200) throw new Error(`login failed: ${JSON.stringify(envelope)}`);
    if (i >= 10) samples.push(elapsed);
  }
  await app.close();
  await database.close();
  await dropDatabase?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
  samples.sort((a, b) => a - b);
  return { rounds, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/**
 * The parts, in the order they run. BENCH_ONLY takes a comma-separated list of their names
 * (`BENCH_ONLY=ledger,positions`); unset, every part runs. The web parts build the app first.
 */
const only = new Set((process.env.BENCH_ONLY ?? '').split(',').map((name) => name.trim()).filter(Boolean));
const wanted = (name: string) => only.size === 0 || only.has(name);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

let homeFiles: string[] | undefined;
const homeJs = () => {
  if (homeFiles) return homeFiles;
  const js = homeScreenJs();
  console.log(`home screen JS: ${js.files.length} files, ${(js.rawBytes / 1024).toFixed(1)} kB raw, `
    + `${(js.brotliBytes / 1024).toFixed(1)} kB brotli (budget 120 kB)`);
  figure('home.js.brotli', js.brotliBytes / 1024, 'kB');
  homeFiles = js.files;
  return homeFiles;
};

const parts: [string, () => Promise<unknown> | unknown][] = [
  ['home', () => homeJs()],
  ['lighthouse', () => webBench(homeJs())],
  ['start', async () => printFirstStart(await firstStart())],
  ['replay', async () => printReplayStore(await replayStoreFootprint())],
  ['login', async () => {
    const pglite = await loginLatency('pglite');
    console.log(`login latency on PGlite: p50 ${pglite.p50.toFixed(1)} ms, p99 ${pglite.p99.toFixed(1)} ms (${pglite.rounds} logins, sequential, argon2id included)`);
    figure('login.pglite.p99', pglite.p99, 'ms');
    if (postgresUrl) {
      const postgres = await loginLatency('postgres', postgresUrl);
      console.log(`login latency on PostgreSQL: p50 ${postgres.p50.toFixed(1)} ms, p99 ${postgres.p99.toFixed(1)} ms (${postgres.rounds} logins, sequential, argon2id included)`);
      figure('login.postgres.p99', postgres.p99, 'ms');
    } else {
      console.log('login latency on PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    }
  }],
  ['ledger', () => ledgerBench()],
  ['withdrawals', () => withdrawalBench()],
  // 10 000 second contracts expiring in one second (issue 10).
  ['second_contracts', async () => (await import('./secondContracts.ts')).secondContractBench()],
  // 100 000 accounts credited from one system account by a payout job (issue 20).
  ['payouts', async () => (await import('./payouts.ts')).payoutBench()],
  // One day of product accrual for 100 000 orders: receipts, payout job, payout (issue 22).
  ['products', async () => (await import('./products.ts')).productBench()],
  // Contract opens over encrypted HTTP, beside pgbench and the ledger's raw rate (issue 10).
  ['positions', async () => (await import('./positions.ts')).positionBench()],
  ['candles', async () => {
    const candles = await candleQueryLatency();
    console.log(`candle history on PGlite: p50 ${candles.p50.toFixed(1)} ms, p99 ${candles.p99.toFixed(1)} ms `
      + `(${candles.rounds} queries of 300 candles over HTTP; first-start back-fill took ${(candles.initMs / 1000).toFixed(1)} s)`);
    figure('candles.p99', candles.p99, 'ms');
  }],
  ['triggers', async () => (await import('./triggers.ts')).triggerBench()],
  ['realtime', () => realtimeBench()],
  // 10 000 Web Push subscriptions handed one notice (issue 21).
  ['push', async () => (await import('./push.ts')).pushBench()],
  // The support chat's round trip with 1 000 open conversations (issue 21).
  ['chat', async () => (await import('./chat.ts')).chatBench()],
  // The IEO lottery over 100 000 applications (issue 23).
  ['ieo', async () => (await import('./ieo.ts')).ieoBench()],
  ['rewards', async () => (await import('./rewards.ts')).rewardsBench()],
];
// Older spellings of BENCH_ONLY keep working: "web" is the home JS and Lighthouse.
if (only.has('web')) only.add('home').add('lighthouse');
const unknown = [...only].filter((name) => name !== 'web' && !parts.some(([part]) => part === name));
if (unknown.length > 0) throw new Error(`BENCH_ONLY: no part named ${unknown.join(', ')} (parts: ${parts.map(([name]) => name).join(', ')})`);
for (const [name, run] of parts) if (wanted(name)) await run();
