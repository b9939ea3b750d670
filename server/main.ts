// Start-up: configuration, database (migrated), keys, seed, the app; graceful shutdown on signals.
import { Redis } from 'ioredis';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { seed } from './db/seed.ts';
import { buildApp } from './app.ts';
import { loadOrCreateKeys } from './plugins/encryption.ts';
import { MarketEngine, simulatorSource } from './domain/market/engine.ts';
import { systemClock } from './lib/time.ts';
import path from 'node:path';
import fs from 'node:fs';

const config = loadConfig();
fs.mkdirSync(config.dataDir, { recursive: true });
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pgdata') });
const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }) : undefined;
const { app, marketBus } = await buildApp({ config, database, keys: loadOrCreateKeys(config.dataDir), redis });
const engine = new MarketEngine({
  db: database.db, clock: systemClock, bus: marketBus, source: simulatorSource(config.market.seed), seed: config.market.seed,
  tickIntervalMs: config.market.tickIntervalMs, tickRetentionMs: config.market.tickRetentionMs,
  onError: (error) => app.log.error({ err: error }, 'market engine tick failed'),
});

if (database.kind === 'pglite') {
  app.log.warn(`Embedded PGlite database in ${path.join(config.dataDir, 'pgdata')}: for evaluation and `
    + 'single-user installs only. It runs one transaction at a time and may lose recent commits on power '
    + 'loss; set DATABASE_URL to a PostgreSQL server for real funds.');
}
const demo = await seed(database.db, { demo: config.seedDemo });
const engineStartedMs = Date.now();
await engine.init();
app.log.info(`market engine ready in ${Date.now() - engineStartedMs} ms`);
engine.start();
await app.listen({ port: config.port, host: config.host });
const shownHost = config.host === '0.0.0.0' ? 'localhost' : config.host;
console.log(`\n  Bourse is running at http://${shownHost}:${config.port}/`);
if (demo) console.log(`  Demo login: ${demo.email} / ${demo.password}`);
console.log(`  Dev outbox (verification codes): ${path.join(config.dataDir, 'outbox')}\n`);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await engine.stop();
    await app.close();
    await redis?.quit();
    await database.close();
    process.exit(0);
  } catch (error) {
    app.log.error(error, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
