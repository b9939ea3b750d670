// The architecture of the import graph (.dependency-cruiser.cjs): no cycle anywhere, and imports
// run one way — on the server lib/db → shared domain infrastructure → identity → wallet, trading,
// market → routes; on the client lib → components → features → app, no feature into another.
// dependency-cruiser reads the real sources through the project's tsconfig; a failure lists every
// violating import with the rule it breaks, so the fix is where the list points.
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

  it('server: has no cycle, and no import runs up a floor (lib/db, infrastructure, identity, money domains, routes)', () => {
    expect(violationsOf('server')).toEqual([]);
  });

  it('client: has no cycle, no feature imports another, and lib → components → features → app', () => {
    expect(violationsOf('client')).toEqual([]);
  });
});
