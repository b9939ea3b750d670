import { defineConfig, mergeConfig } from 'vitest/config';
import base from '/work/main/vitest.config.ts';
const projects = (base.test!.projects as any[]).map((p) => ({ ...p, test: { ...p.test, execArgv: ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] } }));
export default defineConfig({ test: { ...base.test, projects } });
