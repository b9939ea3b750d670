// Web Push fan-out (issue 21): 10 000 subscriptions of the notices category, one notice handed to
// the local https push service (test/support/pushService.ts) through the app's push queue: each
// push encrypted (aes128gcm) and VAPID-signed by web-push, 32 in flight. The service decrypts and
// checks one push in a hundred and counts the rest. Figure: push.fanout_10k, the milliseconds from
// the call until every push was answered. Measured, never asserted (budget ≤ 30 000 ms).
//
// Node trusts the service's test CA only when NODE_EXTRA_CA_CERTS names it at start, so the part
// runs in a child process started with it and reports its figure back.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../server/lib/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { buildApp } from '../../server/app.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import { pushSubscriptions, users } from '../../server/db/schema.ts';
import { TestPushService, pushTestCaBundle } from '../support/pushService.ts';
import { figure } from './figures.ts';

const resultPrefix = 'push-bench-result ';

async function measure(count: number) {
  process.env.PUSH_ALLOW_PRIVATE_ENDPOINTS = '1';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-push-'));
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
  const config = { ...loadConfig({ DATA_DIR: dataDir }), webRoot: path.join(dataDir, 'no-web') };
  const { app, services } = await buildApp({ config, database, keys: createKeys(), logger: false });
  const service = await TestPushService.start({ checkEvery: 100, expectedKey: services.push!.publicKey });
  const subscriptions = service.subscriptions(count);
  const now = new Date();
  for (let i = 0; i < count; i += 1000) {
    const ids = await database.db.insert(users).values(Array.from({ length: Math.min(1000, count - i) }, (_, j) => ({
      email: `push-bench-${i + j}@example.com`, passwordHash: 'not-a-login', inviteCode: `PB${String(i + j).padStart(6, '0')}`,
    }))).returning({ id: users.id });
    await database.db.insert(pushSubscriptions).values(ids.map(({ id }, j) => ({
      userId: id, endpoint: subscriptions[i + j].endpoint, p256dh: subscriptions[i + j].keys.p256dh, auth: subscriptions[i + j].keys.auth,
      categories: ['notices'], createdAt: now,
    })));
  }
  const started = performance.now();
  const outcome = await services.push!.toCategory('notices', {
    title: 'Scheduled maintenance', body: 'Trading pauses on Sunday from 02:00 to 02:30 UTC.', route: '/notice', category: 'notices',
  });
  const elapsedMs = performance.now() - started;
  if (outcome.sent !== count || service.errors.length > 0 || service.received.length !== Math.floor(count / 100)) {
    throw new Error(`push fan-out: ${JSON.stringify(outcome)}, ${service.received.length} checked, errors ${service.errors.slice(0, 3).join('; ')}`);
  }
  await app.close();
  await service.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { count, elapsedMs, checked: service.received.length };
}

export async function pushBench(count = Number(process.env.BENCH_PUSH_SUBSCRIPTIONS ?? 10_000)) {
  const self = fileURLToPath(import.meta.url);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', self], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: pushTestCaBundle(process.env.NODE_EXTRA_CA_CERTS), BENCH_PUSH_CHILD: String(count) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => { text += chunk.toString(); });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`push bench exited with ${code}: ${text}`))));
  });
  const line = output.split('\n').find((entry) => entry.startsWith(resultPrefix));
  if (!line) throw new Error(`push bench gave no result: ${output}`);
  const result = JSON.parse(line.slice(resultPrefix.length)) as Awaited<ReturnType<typeof measure>>;
  console.log(`push fan-out: ${result.count} subscriptions handed to the local push service in ${(result.elapsedMs / 1000).toFixed(2)} s `
    + `(${Math.round(result.count / (result.elapsedMs / 1000))} pushes/s, 32 in flight, encrypted and VAPID-signed each; `
    + `${result.checked} decrypted and checked by the service)`);
  figure('push.fanout_10k', result.elapsedMs, 'ms');
}

if (process.env.BENCH_PUSH_CHILD) {
  const result = await measure(Number(process.env.BENCH_PUSH_CHILD));
  process.stdout.write(`${resultPrefix}${JSON.stringify(result)}\n`);
  process.exit(0);
}
