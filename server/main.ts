// Start-up: configuration, database (migrated), seed, keys, one server instance (the app, and the
// market engine while this instance holds the engine lock); graceful shutdown on signals. With
// WORKERS above 1 this process prepares the database and keys, then supervises that many such
// instances on one port (server/cluster.ts).
import cluster from 'node:cluster';
import path from 'node:path';
import fs from 'node:fs';
import { loadConfig } from './lib/config.ts';
import { openDatabase } from './db/client.ts';
import { seed } from './seed.ts';
import { demoOperator } from './domain/kernel/operators.ts';
import { startInstance } from './instance.ts';
import { loadOrCreateKeys } from './plugins/encryption.ts';
import { createPriceSource } from './domain/core/market/sources.ts';
import { testPasswordCost } from './domain/kernel/passwords.ts';
import { printsBanner, superviseWorkers, workersRefusal } from './cluster.ts';

const config = loadConfig();
if (testPasswordCost && config.databaseUrl) {
  throw new Error('PASSWORD_HASH_COST=test is for the test suite on the embedded database: it is refused with DATABASE_URL');
}
const refusal = workersRefusal(config);
if (refusal) throw new Error(refusal);
fs.mkdirSync(config.dataDir, { recursive: true });
if (config.workers > 1 && cluster.isPrimary) {
  // Migrations, the seed and the key files once, before any worker starts: the workers find them done.
  const database = await openDatabase({ databaseUrl: config.databaseUrl });
  await seed(database.db, { demo: config.seedDemo });
  await database.close();
  loadOrCreateKeys(config.dataDir);
  console.log(`Starting ${config.workers} server processes on port ${config.port}`);
  await superviseWorkers(config.workers, (line) => console.log(line));
  process.exit(0);
}
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pgdata') });
const demo = await seed(database.db, { demo: config.seedDemo });
// Chosen once at start (MARKET_FEED); the engine re-initialises it whenever this instance leads.
const priceSource = await createPriceSource(config.market.feed);
const instance = await startInstance({
  config, database, keys: loadOrCreateKeys(config.dataDir), priceSource: () => priceSource,
});
const { app } = instance;

if (testPasswordCost) app.log.warn('PASSWORD_HASH_COST=test: passwords are hashed at a test-only cost; never use it for real accounts.');
if (database.kind === 'pglite') {
  app.log.warn(`Embedded PGlite database in ${path.join(config.dataDir, 'pgdata')}: for evaluation and `
    + 'single-user installs only. It runs one transaction at a time and may lose recent commits on power '
    + 'loss; set DATABASE_URL to a PostgreSQL server for real funds.');
}
if (!instance.leadership.leading) {
  if (config.redisUrl) app.log.info('another instance holds the engine lock: following its market updates over Redis');
  else app.log.warn('another instance holds the engine lock and REDIS_URL is unset: this instance will get no market updates');
}
await app.listen({ port: config.port, host: config.host });
const shownHost = config.host === '0.0.0.0' ? 'localhost' : config.host;
if (printsBanner()) {
  console.log(`\n  Bourse is running at http://${shownHost}:${config.port}/`);
  if (demo) {
    console.log(`  Demo login: ${demo.email} / ${demo.password}`);
    console.log(`  Demo back office operator: ${demoOperator.email} / ${demoOperator.password}, TOTP secret ${demoOperator.totpSecret}`
      + ' (SEED_DEMO=0 disables it)');
  }
  console.log(`  Dev outbox (verification codes): ${path.join(config.dataDir, 'outbox')}\n`);
} else {
  app.log.info(`worker ${process.pid} serving port ${config.port}`);
}

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await instance.close();
    await database.close();
    process.exit(0);
  } catch (error) {
    app.log.error(error, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
