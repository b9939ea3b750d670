// The architecture of the import graph (.dependency-cruiser.cjs): no cycle anywhere, not even
// between folders, and imports run one way — on the server ground (db, lib) < kernel < core
// (identity < market < wallet < trading < levels) < programs (none into another) < edge (routes,
// plugins) < composition (server/*.ts); on the client lib < api < components < entities < features
// < app (.dependency-cruiser.client.cjs).
// dependency-cruiser reads the real sources through the project's tsconfig; a failure lists every
// violating import with the rule it breaks, so the fix is where the list points.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One line per violation: the rule, then the import (or the whole cycle) that breaks it. */
function describeViolation(violation: IViolation): string {
  const cycle = violation.cycle?.map((step) => step.name);
  const route = cycle ? [violation.from, ...cycle].join(' → ') : `${violation.from} → ${violation.to}`;
  return `${violation.rule.name}: ${route}`;
}

let result: ICruiseResult;

beforeAll(async () => {
  const options = await extractDepcruiseOptions(path.join(root, '.dependency-cruiser.cjs'));
  const tsConfig = extractTSConfig(path.join(root, 'tsconfig.json'));
  const answer = await cruise(['server', 'src'], { ...options, baseDir: root }, {}, { tsConfig });
  result = answer.output as ICruiseResult;
});

const violationsOf = (prefix: 'server' | 'client') => result.summary.violations
  .filter((violation) => violation.rule.name.startsWith(`${prefix}-`)
    || (violation.rule.name === 'no-circular' && violation.from.startsWith(prefix === 'server' ? 'server/' : 'src/')))
  .map(describeViolation);

describe('the import graph', () => {
  it('reads the whole code base (every module of server/ and src/, resolved)', () => {
    const modules = result.modules.map((module) => module.source);
    expect(modules.filter((source) => source.startsWith('server/domain/core/identity/')).length).toBeGreaterThan(5);
    expect(modules.filter((source) => source.startsWith('src/features/')).length).toBeGreaterThan(20);
    const unresolved = result.modules.flatMap((module) => module.dependencies
      .filter((dependency) => dependency.couldNotResolve && dependency.module.startsWith('.'))
      .map((dependency) => `${module.source} → ${dependency.module}`));
    expect(unresolved).toEqual([]);
  });

  it('server: has no cycle, and no import runs up a floor (ground, kernel, core, programs, edge, composition)', () => {
    expect(violationsOf('server')).toEqual([]);
  });

  it('client: has no cycle, no feature imports another, and its floors run one way', () => {
    expect(violationsOf('client')).toEqual([]);
  });
});

/**
 * Issue 33 point 2 is not finished: these files still read ledger tables with their own SQL (held
 * balances for levels and liabilities, the demo grant's lock, trading's prepared account lookups,
 * competition and reward pool sums, the team's fee scan). The list may only shrink: a new file
 * that names a ledger table fails here and must ask the ledger kernel instead.
 */
const LEDGER_TABLE_READERS_LEFT = [
  'server/domain/core/levels/levels.ts',
  'server/domain/core/trading/demo.ts',
  'server/domain/core/trading/positions.ts',
  'server/domain/core/trading/secondContracts.ts',
  'server/domain/core/trading/secondSettlement.ts',
  'server/domain/core/wallet/liabilities.ts',
  'server/domain/programs/competitions/competitions.ts',
  'server/domain/programs/competitions/jobs.ts',
  'server/domain/programs/rewards/fundings.ts',
  'server/domain/programs/team/jobs.ts',
];

/**
 * The folders of `prefix` that import each other in a ring (strongly connected components of the
 * folder graph). `segments` cuts a feature's or entity's folder to its first path segments
 * (src/features/trade) and any other folder to its tier (src/admin), the units the client's rules
 * draw; without it every directory is a unit (the server's).
 */
function folderCycles(prefix: string, segments?: number): string[][] {
  const folderOf = (source: string) => {
    const folder = path.posix.dirname(source);
    if (segments === undefined) return folder;
    const parts = folder.split('/');
    // A feature or an entity is a unit of its own; every other tier (app, admin, api...) is one unit.
    return parts.slice(0, parts[1] === 'features' || parts[1] === 'entities' ? segments : 2).join('/');
  };
  const edges = new Map<string, Set<string>>();
  for (const module of result.modules) {
    if (!module.source.startsWith(prefix)) continue;
    for (const dependency of module.dependencies) {
      if (!dependency.resolved.startsWith(prefix)) continue;
      const from = folderOf(module.source);
      const to = folderOf(dependency.resolved);
      if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const rings: string[][] = [];
  const visit = (folder: string) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder)!);
    stack.push(folder);
    onStack.add(folder);
    for (const next of edges.get(folder) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(folder, Math.min(low.get(folder)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(folder, Math.min(low.get(folder)!, index.get(next)!));
      }
    }
    if (low.get(folder) === index.get(folder)) {
      const ring: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        ring.push(member);
      } while (member !== folder);
      if (ring.length > 1) rings.push(ring.sort());
    }
  };
  for (const folder of edges.keys()) if (!index.has(folder)) visit(folder);
  return rings;
}

/** Every TypeScript file under `directory` (repository-relative). */
function sourcesUnder(directory: string): string[] {
  return fs.readdirSync(path.join(root, directory), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

describe('the folders', () => {
  it('server/: no two folders import each other, directly or around a ring', () => {
    expect(folderCycles('server/')).toEqual([]);
  });

  it('src/: no two features, entities or tiers import each other around a ring', () => {
    expect(folderCycles('src/', 3)).toEqual([]);
  });

  it('only the ledger kernel names the ledger\'s and the payouts\' tables (one door to money)', () => {
    const tables = /\b(ledgerAccounts|ledgerTransfers|payoutJobs|payoutJobTargets|payoutJobBatches|ledger_accounts|ledger_transfers|payout_jobs|payout_job_targets|payout_job_batches)\b/;
    const outside = sourcesUnder('server')
      .filter((file) => !file.startsWith('server/domain/kernel/ledger/') && !file.startsWith('server/db/'))
      .filter((file) => fs.readFileSync(path.join(root, file), 'utf8').split('\n')
        .some((line) => tables.test(line) && !/^\s*(\/\/|\*)/.test(line)));
    expect(outside.sort()).toEqual(LEDGER_TABLE_READERS_LEFT);
  });
});
