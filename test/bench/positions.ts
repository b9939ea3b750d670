// Contract positions opened per second through the whole product path (issue 10, "measured, not
// asserted"): encrypted POST /api/trade/appTradePositions/create over real HTTP, session look-up,
// the settings, calendar and last-tick reads, and the one transaction that inserts the position,
// retains its tick and moves margin and fee through the ledger. 8 clients on PostgreSQL, each
// cycling through users of its own (the per-user open limit and the funds row lock are per user),
// printed beside pgbench's TPS measured on the same server in the same run (after one open per
// user, which also opens the user's margin account, outside the measure). A tick of BTCUSDT is
// recorded every 2 s (the server refuses a price older than 15 s). Run alone with
// `npx tsx test/bench/positions.ts`.
import { constants, privateDecrypt, publicEncrypt, randomBytes, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScratchDatabase, dropScratchDatabase } from '../support/scratchDatabase.ts';
import { loadConfig } from '../../server/lib/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { seed } from '../../server/seed.ts';
import { buildApp } from '../../server/app.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import { createSession } from '../../server/domain/kernel/sessions.ts';
import { openAccounts, systemShard } from '../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../server/domain/kernel/ledger/transfers.ts';
import { verifyLedger } from '../../server/domain/kernel/ledger/verify.ts';
import { insertTicks } from '../../server/domain/core/market/store.ts';
import { systemClock } from '../../server/lib/time.ts';
import { users } from '../../server/db/schema.ts';
import { encryptBody, importServerKey } from '../../src/api/crypto.ts';
import { requestTimeField } from '../../src/api/contract/paths.ts';
import { tradePaths } from '../../src/api/contract/trading.ts';
import { pgbenchTps } from './ledger.ts';
import { figure, figureValue } from './figures.ts';
import { cpuMeter } from './processCpu.ts';

const clients = 8;
const usersPerClient = 40;
const durationMs = Number(process.env.BENCH_POSITION_SECONDS ?? 10) * 1000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export async function positionBench() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    console.log('position opens over HTTP: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return;
  }
  const pgbenchName = 'bench_pgbench_positions';
  const tps = pgbenchTps(await createScratchDatabase(adminUrl, pgbenchName));
  await dropScratchDatabase(adminUrl, pgbenchName);
  const name = `bourse_bench_positions_${process.pid}`;
  const databaseUrl = await createScratchDatabase(adminUrl, name);
  const database = await openDatabase({ databaseUrl });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-positions-'));
  let ticker: NodeJS.Timeout | undefined;
  try {
    const db = database.db;
    await seed(db, { demo: false });
    const config = { ...loadConfig({ DATA_DIR: dataDir }), webRoot: path.join(dataDir, 'no-web') };
    config.limits = { ...config.limits, encryptedBodiesPerIpPerMinute: 10_000_000 };
    const keys = createKeys();
    const { app } = await buildApp({ config, database, keys, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api`;
    const serverKey = await importServerKey(keys.publicKeyPem);

    const tick = () => insertTicks(db, [{ symbol: 'BTCUSDT', priceUnits: 6_000_000n, volumeUnits: 1n, timeMs: Date.now() }], 'bench');
    await tick();
    ticker = setInterval(() => { tick().catch(() => {}); }, 2000);

    const tokens: string[][] = [];
    for (let client = 0; client < clients; client += 1) {
      const created = await db.insert(users).values(Array.from({ length: usersPerClient }, (_, i) => ({
        email: `bench-pos-${client}-${i}@example.com`, passwordHash: 'bench', inviteCode: `BP${String(client * usersPerClient + i).padStart(6, '0')}`,
      }))).returning({ id: users.id });
      const spots = await openAccounts(db, created.map((user) => ({ ledger: 'real' as const, asset: 'USDT', kind: 'spot' as const, ownerUserId: user.id })));
      const [clearing] = await openAccounts(db, [{ ledger: 'real', asset: 'USDT', kind: 'deposit_clearing', shard: systemShard(`bench-pos-${client}`) }]);
      const funded = await postTransfers(db, spots.map((account) => ({
        id: `bench-pos-fund-${account}`, debitAccountId: clearing, creditAccountId: account, amountAtomic: 10n ** 15n, kind: 'deposit', reference: 'bench',
      })));
      if (!funded.ok) throw new Error(`funding refused: ${funded.refusal}`);
      tokens.push(await Promise.all(created.map((user) => createSession(db, systemClock, config.limits, user.id))));
    }

    const samples: number[] = [];
    let counter = 0;
    const open = async (token: string) => {
      counter += 1;
      const body = await encryptBody({
        symbol: 'BTCUSDT', direction: counter % 2 === 0 ? 'long' : 'short', leverage: 10, margin: '10',
        clientOrderId: `bench-${process.pid}-${counter}`, [requestTimeField]: Date.now(),
      }, serverKey);
      const sent = performance.now();
      const response = await fetch(`${base}${tradePaths.createPosition}`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-access-token': token }, body,
      });
      const envelope = await response.json() as { code: number };
      if (envelope.code !== 200) throw new Error(`open failed: ${JSON.stringify(envelope)}`);
      return performance.now() - sent;
    };
    // A user's first open also opens the user's margin account (once in the user's life): each user
    // opens one before the clock starts, so the figure is the opens of users who trade.
    for (const own of tokens) await Promise.all(own.map((token) => open(token)));
    const meter = cpuMeter(databaseUrl);
    const deadline = performance.now() + durationMs;
    const started = performance.now();
    await Promise.all(tokens.map(async (own) => {
      let turn = 0;
      while (performance.now() < deadline) {
        const token = own[turn % own.length];
        turn += 1;
        samples.push(await open(token));
      }
    }));
    const elapsedMs = performance.now() - started;
    const spent = meter();
    clearInterval(ticker);
    ticker = undefined;
    await app.close();
    const check = await verifyLedger(db);
    samples.sort((a, b) => a - b);
    const rate = samples.length / (elapsedMs / 1000);
    figure('positions.open.per_second', rate, 'opens/s');
    figure('positions.open.p99', percentile(samples, 99), 'ms');
    // The raw transfer rate: the ledger's single transfers of this run (BENCH_ONLY without ledger leaves it out).
    const raw = figureValue('ledger.single.per_second');
    if (raw) figure('positions.open.vs_raw', rate / raw, 'ratio');
    // Where the floor is: the CPU one open costs this process (the server and the 8 clients), the
    // database, and the one RSA-OAEP decryption every encrypted body needs (the spec's wire format).
    const processUsPerOpen = (spent.processMs * 1000) / samples.length;
    figure('positions.open.process_cpu', processUsPerOpen, 'µs');
    const databaseUsPerOpen = spent.databaseMs === undefined ? undefined : (spent.databaseMs * 1000) / samples.length;
    if (databaseUsPerOpen !== undefined) figure('positions.open.db_cpu', databaseUsPerOpen, 'µs');
    const rsaUs = rsaDecryptMicros(keys.privateKey, keys.publicKeyPem);
    figure('crypto.rsa_oaep_decrypt', rsaUs, 'µs');
    if (raw && databaseUsPerOpen !== undefined) {
      // The most opens these cores could serve at that CPU per open, as a share of the raw transfer rate.
      figure('positions.open.cpu_ceiling.vs_raw', (os.cpus().length * 1e6) / (processUsPerOpen + databaseUsPerOpen) / raw, 'ratio');
    }
    console.log(`position opens over HTTP on PostgreSQL: ${rate.toFixed(1)}/s with ${clients} clients `
      + `(${samples.length} opens; p50 ${percentile(samples, 50).toFixed(1)} ms, p99 ${percentile(samples, 99).toFixed(1)} ms; `
      + `encrypted body, session, settings and last-tick reads, insert and two ledger transfers in one transaction); `
      + `pgbench ${tps.toFixed(0)} TPS in the same run (TPC-B-like, scale 10, 8 clients), opens ${(rate / tps).toFixed(2)}× pgbench; `
      + `ledger check ${check.chainValid && check.balancesValid && check.conserved ? 'passes' : 'FAILS'}`);
  } finally {
    if (ticker) clearInterval(ticker);
    await database.close();
    await dropScratchDatabase(adminUrl, name);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The median time of one RSA-OAEP (SHA-256) decryption of a 32-byte key, as the server does for every encrypted body. */
function rsaDecryptMicros(privateKey: KeyObject, publicKeyPem: string): number {
  const options = { padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' };
  const wrapped = publicEncrypt({ key: publicKeyPem, ...options }, randomBytes(32));
  const rounds: number[] = [];
  for (let round = 0; round < 5; round += 1) {
    const started = performance.now();
    for (let i = 0; i < 200; i += 1) privateDecrypt({ key: privateKey, ...options }, wrapped);
    rounds.push(((performance.now() - started) * 1000) / 200);
  }
  return rounds.sort((a, b) => a - b)[2];
}

if (import.meta.url === `file://${process.argv[1]}`) await positionBench();
