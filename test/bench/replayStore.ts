// The replay store's footprint: after N encrypted POSTs (half with `_ts`, half without, as a
// spec-only client sends them) through the real protocol, how many rows and bytes it holds, and
// what a prune leaves once the `_ts` rows' 10 minutes have passed. Printed, never asserted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../server/lib/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { buildApp } from '../../server/app.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import { encryptBody, importServerKey } from '../../src/api/crypto.ts';
import { apiPrefix, paths, requestTimeField } from '../../src/api/contract/paths.ts';

export async function replayStoreFootprint(requests = Number(process.env.BENCH_REPLAY_REQUESTS ?? 10_000)) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-replay-'));
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
  const config = { ...loadConfig({ DATA_DIR: dataDir }), webRoot: path.join(dataDir, 'no-web') };
  config.limits = { ...config.limits, encryptedBodiesPerIpPerMinute: Number.MAX_SAFE_INTEGER };
  let nowMs = Date.now();
  const keys = createKeys();
  const { app, services } = await buildApp({ config, database, keys, logger: false, clock: { now: () => new Date(nowMs) } });
  const serverKey = await importServerKey(keys.publicKeyPem);
  const started = performance.now();
  for (let i = 0; i < requests; i += 1) {
    // Logout without a session: the body is opened (and its key stored) before the 401.
    const body = await encryptBody(i % 2 === 0 ? { [requestTimeField]: nowMs } : {}, serverKey);
    const response = await app.inject({ method: 'POST', url: `${apiPrefix}${paths.logout}`, payload: body, headers: { 'content-type': 'application/json' } });
    if (response.statusCode !== 401) throw new Error(`expected 401, got ${response.statusCode}: ${response.body}`);
  }
  const elapsedMs = performance.now() - started;
  const size = async () => {
    const result = await database.db.execute(sql`select count(*)::int as rows,
      pg_total_relation_size('request_replay_keys')::int as bytes from request_replay_keys`) as unknown as { rows: Array<{ rows: number; bytes: number }> };
    const [row] = result.rows;
    return row;
  };
  const full = await size();
  nowMs += 2 * config.limits.requestFreshnessMs + 1;
  await services.replayStore.prune();
  const pruned = await size();
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { requests, elapsedMs, full, pruned };
}

export function printReplayStore(result: Awaited<ReturnType<typeof replayStoreFootprint>>) {
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  console.log(`replay store on PGlite after ${result.requests} encrypted POSTs (half with _ts): ${result.full.rows} rows, `
    + `${kib(result.full.bytes)} with its indexes; after the _ts rows expire and a prune: ${result.pruned.rows} rows `
    + `(${(result.elapsedMs / result.requests).toFixed(2)} ms per request, decryption included)`);
}

if (process.argv[1]?.endsWith('replayStore.ts')) printReplayStore(await replayStoreFootprint());
