// `npm test`: the four Vitest projects in two lanes side by side, one Vitest process each (one lane
// with TEST_LANES=1; see `lanes` below), then one summary of them all.
//
// Why lanes and not more workers in one Vitest: the end-to-end journeys share one server (its demo
// account, the operator's authenticator steps, the trading settings a journey changes) and must run
// one file at a time, and Vitest runs a project with one worker in a group of its own, after the
// others. Two processes let them run beside the files that each bring their own database (server
// on PGlite and on PostgreSQL, web in jsdom), one file at a time in each lane: two at once on two
// cores. The conformance files (a server process each) go to whichever lane balances the two: the
// server lane, since the server files share one process (vitest.config.ts) and the web files
// leave antd's styles out of jsdom (the run ends with each lane's time).
//
// With arguments (`npm test -- test/server/login.test.ts`) it is plain `vitest run <arguments>`.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { formatSummary, type RunSummary } from '../summaryReporter.ts';
import { ensureChromium } from './chromium.ts';
import { pushTestCaBundle } from './pushService.ts';

const root = path.resolve(import.meta.dirname, '../..');
const vitestBin = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
/**
 * The tests' push service (test/support/pushService.ts) serves a certificate of a test-only CA,
 * which Node trusts only when NODE_EXTRA_CA_CERTS names it at process start: every Vitest process
 * gets it here, and the servers the e2e and conformance setups start inherit it.
 */
const pushTestCa = pushTestCaBundle(process.env.NODE_EXTRA_CA_CERTS);

interface Lane { name: string; projects: string[] }

// Measured on this 2-core machine, quiet, with TEST_DATABASE_URL set: two lanes took 1 883 s (the
// browser lane 1 592 s), one lane over 2 200 s. Each file runs two to three times slower beside the
// other lane, yet the two lanes still finish first. TEST_LANES=1 runs everything in one process.
const lanes: Lane[] = process.env.TEST_LANES === '1'
  ? [{ name: 'all', projects: ['server', 'web', 'e2e', 'conformance'] }]
  : [{ name: 'server', projects: ['server', 'web', 'conformance'] }, { name: 'browser', projects: ['e2e'] }];

const children = new Set<ChildProcess>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(130);
  });
}

function vitest(args: string[], env: NodeJS.ProcessEnv, onLine?: (line: string) => void): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitestBin, 'run', ...args], {
      cwd: root, env: { ...env, NODE_EXTRA_CA_CERTS: pushTestCa }, stdio: onLine ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    children.add(child);
    if (onLine) {
      readline.createInterface({ input: child.stdout! }).on('line', onLine);
      readline.createInterface({ input: child.stderr! }).on('line', onLine);
    }
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function runLanes(): Promise<number> {
  // Before anything runs: a machine without Chromium stops here with one line, not after the
  // other lane's quarter of an hour.
  try {
    ensureChromium();
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-suite-'));
  const width = Math.max(...lanes.map((lane) => lane.name.length));
  const startedMs = Date.now();
  // The load before the run: beside other work the same suite takes about three times as long.
  const loadAtStart = os.loadavg()[0].toFixed(1);
  const results = await Promise.all(lanes.map(async (lane) => {
    const summaryFile = path.join(dir, `${lane.name}.json`);
    const prefix = `[${lane.name.padEnd(width)}] `;
    const laneStartMs = Date.now();
    const code = await vitest(lane.projects.flatMap((project) => ['--project', project]),
      { ...process.env, BOURSE_SUMMARY_FILE: summaryFile },
      (line) => process.stdout.write(`${prefix}${line}\n`));
    const summary = fs.existsSync(summaryFile) ? JSON.parse(fs.readFileSync(summaryFile, 'utf8')) as RunSummary : undefined;
    return { lane, code, summary, ms: Date.now() - laneStartMs };
  }));
  fs.rmSync(dir, { recursive: true, force: true });

  const total: RunSummary = { passed: 0, failed: 0, skipped: 0, projects: {}, files: [] };
  for (const { code, summary } of results) {
    // A lane that failed outside any test (its global setup, say) counts as one failure, so the
    // closing line never reads clean over a failed run.
    if (code !== 0 && (summary?.failed ?? 0) === 0) total.failed += 1;
    if (!summary) continue;
    total.passed += summary.passed;
    total.failed += summary.failed;
    total.skipped += summary.skipped;
    Object.assign(total.projects, summary.projects);
    total.files.push(...summary.files);
  }
  const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
  const laneLines = results.map(({ lane, code, summary, ms }) =>
    `  ${lane.name} (${lane.projects.join(', ')}): ${seconds(ms)}${code === 0 ? '' : `, exit code ${code}${summary ? '' : ', no results'}`}`);
  process.stdout.write(`\nLanes (${seconds(Date.now() - startedMs)} in all; ${os.cpus().length} CPUs, load average ${loadAtStart} `
    + `at the start, ${os.loadavg()[0].toFixed(1)} at the end):\n${laneLines.join('\n')}\n`);
  process.stdout.write(formatSummary(total));
  return results.every(({ code, summary }) => code === 0 && summary) ? 0 : 1;
}

const args = process.argv.slice(2);
process.exitCode = args.length > 0 ? await vitest(args, process.env) : await runLanes();
