// A second app instance for the two-instance job test (jobs.test.ts), as a process of its own: its
// own pool on the database named by argv[2], its own modules (so nothing in the test's process can
// refuse for it) and the real runJob, with a registry whose every job waits for the test. It reads
// commands on stdin, one JSON a line, and answers on stdout, one JSON a line:
//   { "run": [job, ...], "nowMs": n } → { "started": job } when a job's work begins, then
//                                        { "job": job, "outcome": run | { "refused": code } }
//   { "open": true }                   → lets every waiting work finish
// The test kills it with SIGKILL to see what a crash leaves behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { buildApp } from '../../../server/app.ts';
import { loadConfig } from '../../../server/lib/config.ts';
import { openDatabase } from '../../../server/db/client.ts';
import { jobNames } from '../../../src/api/contract/products.ts';
import { runJob } from '../../../server/domain/kernel/jobs.ts';
import type { jobWork } from '../../../server/jobs.ts';
import type { JobWork } from '../../../server/domain/kernel/jobs.ts';
import { AppError } from '../../../server/lib/errors.ts';
import { createKeys } from '../../../server/plugins/encryption.ts';

const say = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

let nowMs = 0;
let open!: () => void;
const gate = new Promise<void>((resolve) => { open = resolve; });
const works = Object.fromEntries(jobNames.map((name) => {
  const work: JobWork = async () => {
    say({ started: name });
    await gate;
    return { ran: name, by: 'second' };
  };
  return [name, work];
})) as typeof jobWork;

const database = await openDatabase({ databaseUrl: process.argv[2] });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-job-instance-'));
const config = { ...loadConfig({}), dataDir, webRoot: path.join(dataDir, 'no-web') };
const built = await buildApp({ config, database, keys: createKeys(), clock: { now: () => new Date(nowMs) }, logger: false });
await built.app.ready();
say({ ready: true });

for await (const line of readline.createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as { run?: string[]; nowMs?: number; open?: boolean };
  if (command.open) open();
  if (command.nowMs !== undefined) nowMs = command.nowMs;
  for (const job of command.run ?? []) {
    void runJob(built.services, job, undefined, works).then(
      (run) => say({ job, outcome: run }),
      (error: unknown) => say({ job, outcome: { refused: error instanceof AppError ? error.errorCode : String(error) } }));
  }
}
await built.app.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
