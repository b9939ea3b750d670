// Withdrawal requests per second through the whole product path (issue 9, "measured, not
// asserted"): encrypted POST /api/finance/appWithdrawal/apply over real HTTP, session look-up,
// every check, the withdrawal password's argon2id verification, and the transaction that records
// the request and reserves amount + fee with a pending ledger transfer. 8 clients, each its own
// funded user (so requests do not queue on one account's row lock), on PostgreSQL. Argon2id
// (~19 MiB, tens of ms of a core per request) is the expected ceiling, so the figure is printed
// beside the ledger's own rate. Run alone with `npx tsx test/bench/withdrawals.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../server/lib/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { seed } from '../../server/seed.ts';
import { buildApp } from '../../server/app.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import { hashPassword } from '../../server/domain/kernel/passwords.ts';
import { createSession } from '../../server/domain/kernel/sessions.ts';
import { systemAccountId, userAccountId } from '../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../server/domain/kernel/ledger/transfers.ts';
import { verifyLedger } from '../../server/domain/kernel/ledger/verify.ts';
import { systemClock } from '../../server/lib/time.ts';
import { users, withdrawalDestinations, withdrawPasswords } from '../../server/db/schema.ts';
import { encryptBody, importServerKey } from '../../src/api/crypto.ts';
import { requestTimeField } from '../../src/api/contract/paths.ts';
import { withdrawalPaths } from '../../src/api/contract/withdrawals.ts';

const clients = 8;
const durationMs = Number(process.env.BENCH_WITHDRAWAL_SECONDS ?? 10) * 1000;
const password = 'Bench2026payout';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function admin(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function withdrawalBench() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    console.log('withdrawals over HTTP: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    return;
  }
  const name = `bourse_bench_withdrawals_${process.pid}`;
  await admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-withdrawals-'));
  const database = await openDatabase({ databaseUrl: url.toString() });
  try {
    await seed(database.db, { demo: false });
    const config = { ...loadConfig({ DATA_DIR: dataDir }), webRoot: path.join(dataDir, 'no-web') };
    config.limits = { ...config.limits, encryptedBodiesPerIpPerMinute: 1_000_000 };
    const keys = createKeys();
    const { app } = await buildApp({ config, database, keys, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api`;
    const serverKey = await importServerKey(keys.publicKeyPem);
    const passwordHash = await hashPassword(password);
    // The login password differs from the withdrawal password, as the server requires.
    const loginPasswordHash = await hashPassword(`${password}-login`);
    const db = database.db;
    const workers = [];
    for (let index = 0; index < clients; index += 1) {
      const [user] = await db.insert(users).values({
        email: `bench-withdraw-${index}@example.com`, passwordHash: loginPasswordHash, inviteCode: `BW${String(index).padStart(6, '0')}`,
      }).returning({ id: users.id });
      await db.insert(withdrawPasswords).values({ userId: user.id, passwordHash, updatedAt: new Date() });
      const [destination] = await db.insert(withdrawalDestinations).values({
        userId: user.id, type: 'chain', currency: 'USDT', network: 'TRC20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        updatedAt: new Date(),
      }).returning({ id: withdrawalDestinations.id });
      const funded = await postTransfers(db, [{
        id: `bench-fund-${index}`, kind: 'deposit', reference: `bench-fund-${index}`, amountAtomic: 10n ** 15n,
        debitAccountId: await systemAccountId(db, 'USDT', 'deposit_clearing', `user:${user.id}`),
        creditAccountId: await userAccountId(db, user.id, 'USDT', 'spot'),
      }]);
      if (!funded.ok) throw new Error(`funding refused: ${funded.refusal}`);
      const token = await createSession(db, systemClock, config.limits, user.id);
      workers.push({ token, destinationId: destination.id.toString() });
    }
    const samples: number[] = [];
    const deadline = performance.now() + durationMs;
    const started = performance.now();
    await Promise.all(workers.map(async (worker) => {
      while (performance.now() < deadline) {
        const body = await encryptBody({
          currency: 'USDT', amount: '10', withdrawalInfoId: worker.destinationId, withdrawPassword: password,
          [requestTimeField]: Date.now(),
        }, serverKey);
        const sent = performance.now();
        const response = await fetch(`${base}${withdrawalPaths.apply}`, {
          method: 'POST', headers: { 'content-type': 'application/json', 'x-access-token': worker.token }, body,
        });
        const envelope = await response.json() as { code: number };
        if (envelope.code === 429) break; // the per-user hourly limit: this client is done
        if (envelope.code !== 200) throw new Error(`withdrawal failed: ${JSON.stringify(envelope)}`);
        samples.push(performance.now() - sent);
      }
    }));
    const elapsedMs = performance.now() - started;
    await app.close();
    const check = await verifyLedger(db);
    samples.sort((a, b) => a - b);
    console.log(`withdrawals over HTTP on PostgreSQL: ${(samples.length / (elapsedMs / 1000)).toFixed(1)}/s with ${clients} clients `
      + `(${samples.length} requests; p50 ${percentile(samples, 50).toFixed(1)} ms, p99 ${percentile(samples, 99).toFixed(1)} ms; `
      + `encrypted body, argon2id withdrawal password and the pending transfer included; ledger check ${check.chainValid && check.conserved ? 'passes' : 'FAILS'})`);
  } finally {
    await database.close();
    await admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await withdrawalBench();
