// Prints plain closing lines after Vitest's own summary, so any CI log reader can count the tests
// and see where the time goes (issue 20): the time of each project's files (summed: files of one
// project may overlap), the slowest files, and "N passed, N failed, N skipped".
// When `npm test` runs the projects in lanes side by side (test/support/suite.ts), each lane's
// Vitest writes these figures to BOURSE_SUMMARY_FILE instead, and the runner prints one summary
// of all the lanes.
import fs from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/** What one Vitest run counted: the runner of the lanes adds these up. */
export interface RunSummary {
  passed: number;
  failed: number;
  skipped: number;
  projects: Record<string, { files: number; ms: number }>;
  files: { name: string; ms: number }[];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The closing lines: time per project, the slowest files, and the counts. */
export function formatSummary(summary: RunSummary): string {
  const lines = Object.entries(summary.projects).map(([name, { files: count, ms }]) => `  ${name}: ${count} files, ${seconds(ms)}`);
  const slowest = [...summary.files].sort((a, b) => b.ms - a.ms).slice(0, 8).map(({ name, ms }) => `  ${seconds(ms)}  ${name}`);
  return `\nTime per project:\n${lines.join('\n')}\nSlowest files:\n${slowest.join('\n')}\n`
    + `\n${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped\n`;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const summary: RunSummary = { passed: 0, failed: 0, skipped: 0, projects: {}, files: [] };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') summary.passed += 1;
        else if (state === 'failed') summary.failed += 1;
        else summary.skipped += 1;
      }
      // A file that failed to load has no tests: count it as a failure, or a run could read clean.
      if (module.state() === 'failed' && module.children.size === 0) summary.failed += 1;
      const diagnostic = module.diagnostic();
      // The file's whole cost: its environment, imports, setup hooks and tests.
      const ms = diagnostic.environmentSetupDuration + diagnostic.prepareDuration + diagnostic.collectDuration
        + diagnostic.setupDuration + diagnostic.duration;
      const project = module.project.name || 'default';
      const entry = summary.projects[project] ?? { files: 0, ms: 0 };
      summary.projects[project] = { files: entry.files + 1, ms: entry.ms + ms };
      summary.files.push({ name: module.moduleId.replace(`${process.cwd()}/`, ''), ms });
    }
    const file = process.env.BOURSE_SUMMARY_FILE;
    if (file) fs.writeFileSync(file, JSON.stringify(summary));
    else process.stdout.write(formatSummary(summary));
  }
}
