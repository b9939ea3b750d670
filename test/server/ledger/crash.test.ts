// Crash: a process posting a burst of transfers is killed with SIGKILL mid-burst. After a restart
// on the same database every transfer it saw acknowledged is there, every asset sums to zero, the
// chains verify and the ledger takes new transfers. On PostgreSQL, and on PGlite's directory.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { openDatabase, type Database } from '../../../server/db/client.ts';
import { ledgerTransfers } from '../../../server/db/schema.ts';
import { verifyLedger } from '../../../server/domain/kernel/ledger/verify.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';
import { openAccounts } from '../../../server/domain/kernel/ledger/accounts.ts';
import { databaseKinds, type DatabaseKind } from '../helpers.ts';
import { expectConserved } from './ledgerHelpers.ts';

/** Batches acknowledged before the kill: enough that the burst is well under way. */
const acknowledgedBeforeKill = 120;

interface Target { env: Record<string, string>; open(): Promise<Database>; drop(): Promise<void> }

async function target(kind: DatabaseKind): Promise<Target> {
  if (kind === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-ledger-crash-'));
    return {
      env: { PGLITE_DIR: dir }, open: () => openDatabase({ pgliteDir: dir }),
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `bourse_crash_${process.pid}_${Date.now()}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try { await client.query(statement); } finally { await client.end(); }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() }, open: () => openDatabase({ databaseUrl: url.toString() }),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** Runs the child until it has acknowledged `count` batches, kills it with SIGKILL, returns every id it acknowledged. */
async function burstAndKill(env: Record<string, string>, count: number): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'crashChild.ts')], {
    env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk) => { errors += String(chunk); });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  const acknowledged: string[] = [];
  let batches = 0;
  let ready = false;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line === 'ready') { ready = true; continue; }
    if (!ready) continue;
    acknowledged.push(...JSON.parse(line) as string[]);
    batches += 1;
    if (batches === count) child.kill('SIGKILL');
  }
  // Lines already in the pipe when the kill landed were read above: they were acknowledged too.
  expect(await exited, `the child died of the kill, not by itself:\n${errors}`).toBe('SIGKILL');
  return acknowledged;
}

describe('a process killed during a burst of transfers', () => {
  const targets: Target[] = [];
  afterAll(async () => { for (const each of targets) await each.drop(); });

  for (const kind of databaseKinds) {
    it(`on ${kind}: after a restart every acknowledged transfer is there, assets sum to zero, and the chains verify`, async () => {
      const crashTarget = await target(kind);
      targets.push(crashTarget);
      const acknowledged = await burstAndKill(crashTarget.env, acknowledgedBeforeKill);
      expect(acknowledged.length).toBeGreaterThanOrEqual(acknowledgedBeforeKill);

      const database = await crashTarget.open();
      try {
        const stored = await database.db.select({ id: ledgerTransfers.id }).from(ledgerTransfers).where(inArray(ledgerTransfers.id, acknowledged));
        expect(stored.length).toBe(acknowledged.length);
        await expectConserved(database.db);
        const check = await verifyLedger(database.db);
        expect(check).toMatchObject({ chainValid: true, balancesValid: true, conserved: true, problems: [] });
        expect(check.transfers).toBeGreaterThanOrEqual(acknowledged.length);
        // And it takes new money after the restart.
        const [clearing, house] = await openAccounts(database.db, [
          { ledger: 'real', asset: 'USDT', kind: 'deposit_clearing', shard: 0 }, { ledger: 'real', asset: 'USDT', kind: 'house', shard: 0 },
        ]);
        expect(await postTransfers(database.db, [{ id: 'after-restart', debitAccountId: clearing, creditAccountId: house, amountAtomic: 1n, kind: 'correction', reference: 'restart' }]))
          .toMatchObject({ ok: true, replayed: false });
        expect(await verifyLedger(database.db)).toMatchObject({ chainValid: true, conserved: true });
      } finally {
        await database.close();
      }
    }, 180_000);
  }
});
