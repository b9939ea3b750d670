// One migrated and seeded database for the whole conformance project: the real server is started
// once on a fresh data directory and stopped, and every file's server starts from a copy of it
// (server.ts). Each file still gets a process and a database of its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareTemplate } from './server.ts';

export default async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-conformance-template-'));
  await prepareTemplate(dir);
  // The test workers are forked after global setup and inherit this process's environment.
  process.env.CONFORMANCE_TEMPLATE_DIR = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
