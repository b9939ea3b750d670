// Prints plain closing lines after Vitest's own summary, so any CI log reader can count the tests
// and see where the time goes (issue 20): the time of each project's files (summed: files of one
// project may overlap), the slowest files, and "N passed, N failed, N skipped".
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const projects = new Map<string, { files: number; ms: number }>();
    const files: { name: string; ms: number }[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
      const diagnostic = module.diagnostic();
      // The file's whole cost: its environment, imports, setup hooks and tests.
      const ms = diagnostic.environmentSetupDuration + diagnostic.prepareDuration + diagnostic.collectDuration
        + diagnostic.setupDuration + diagnostic.duration;
      const project = module.project.name || 'default';
      const entry = projects.get(project) ?? { files: 0, ms: 0 };
      projects.set(project, { files: entry.files + 1, ms: entry.ms + ms });
      files.push({ name: module.moduleId.replace(`${process.cwd()}/`, ''), ms });
    }
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const lines = [...projects].map(([name, { files: count, ms }]) => `  ${name}: ${count} files, ${seconds(ms)}`);
    const slowest = files.sort((a, b) => b.ms - a.ms).slice(0, 8).map(({ name, ms }) => `  ${seconds(ms)}  ${name}`);
    process.stdout.write(`\nTime per project:\n${lines.join('\n')}\nSlowest files:\n${slowest.join('\n')}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
