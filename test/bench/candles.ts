// Candle history latency: GET /api/trade/appSymbol/kline over HTTP for random symbols and
// periods (300 candles each), on a database the engine has back-filled. `initMs` is the first
// start's market part on a fresh PGlite directory: back-fill of every symbol and period, loading
// the state and publishing it (what an instance does before it listens). Printed, never asserted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/lib/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { buildApp } from '../../server/app.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import { MarketEngine, seededSimulator, simulatorSource } from '../../server/domain/core/market/engine.ts';
import { symbolSpecs } from '../../server/domain/core/market/symbols.ts';
import { systemClock } from '../../server/lib/time.ts';
import { candlePeriods } from '../../src/api/contract/market.ts';
import { paths } from '../../src/api/contract/paths.ts';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export async function candleQueryLatency(databaseUrl?: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-candles-'));
  const database = await openDatabase(databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, 'pgdata') });
  const config = { ...loadConfig({ DATA_DIR: dataDir }), webRoot: path.join(dataDir, 'no-web') };
  const { app, marketBus } = await buildApp({ config, database, keys: createKeys(), logger: false });
  const engine = new MarketEngine({
    db: database.db, clock: systemClock, bus: marketBus, source: simulatorSource(seededSimulator('bench')), seed: 'bench',
    tickIntervalMs: 1000, tickRetentionMs: 3_600_000,
  });
  const initStarted = performance.now();
  await engine.init();
  await engine.publishSnapshot();
  const initMs = performance.now() - initStarted;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api`;
  const rounds = Number(process.env.BENCH_CANDLE_QUERIES ?? 300);
  const samples: number[] = [];
  for (let i = 0; i < rounds + 20; i += 1) {
    const symbol = symbolSpecs[i % symbolSpecs.length].symbol;
    const period = candlePeriods[(i * 7) % candlePeriods.length];
    const started = performance.now();
    const response = await fetch(`${base}${paths.kline}?symbol=${symbol}&period=${period}&limit=300`);
    const body = await response.json() as { code: number; result: { candles: unknown[] } };
    const elapsed = performance.now() - started;
    if (body.code !== 200 || body.result.candles.length === 0) throw new Error(`kline failed: ${JSON.stringify(body).slice(0, 200)}`);
    if (i >= 20) samples.push(elapsed);
  }
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  samples.sort((a, b) => a - b);
  return { rounds, initMs, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}
