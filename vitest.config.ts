import { defineConfig } from 'vitest/config';
import { pushTestCaBundle } from './test/support/pushService.ts';

// The tests' push service serves a certificate of a test-only CA (test/support/pushService.ts):
// the forked test processes and the servers they start trust it (npm test's suite.ts sets the
// same; this covers `npx vitest run <files>`).
process.env.NODE_EXTRA_CA_CERTS = pushTestCaBundle(process.env.NODE_EXTRA_CA_CERTS);

// Four projects: the web code in jsdom, the server against real databases, the end-to-end
// journeys in Debian's Chromium against the built app, and the conformance suite: a client written
// from the spec alone talking HTTP to a real server process. `npm test` runs all four.
export default defineConfig({
  test: {
    reporters: ['default', './test/summaryReporter.ts'],
    // Argon2 at a test-only cost in every test process and the servers they start (server/domain/kernel/passwords.ts).
    env: { PASSWORD_HASH_COST: 'test' },
    projects: [
      {
        extends: './vite.config.ts',
        test: { name: 'web', environment: 'jsdom', include: ['test/web/**/*.test.{ts,tsx}'], setupFiles: ['test/web/setup.ts'], testTimeout: 30_000 },
      },
      {
        test: {
          name: 'server', environment: 'node', include: ['test/server/**/*.test.ts'],
          testTimeout: 60_000, hookTimeout: 120_000, pool: 'forks',
          // One process runs the files one after another with its modules loaded once: each file
          // imported the whole server again (2.7 s a file under load), and PGlite's WebAssembly and
          // the RSA keys were made again. Every suite builds its own app, database and clock, closes
          // them in afterAll, and changes no module state it does not restore (no vi.mock here).
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e', environment: 'node', include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/globalSetup.ts'], testTimeout: 120_000, hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'conformance', environment: 'node', include: ['test/conformance/**/*.test.ts'],
          globalSetup: ['test/conformance/globalSetup.ts'],
          testTimeout: 120_000, hookTimeout: 180_000, fileParallelism: false,
        },
      },
    ],
  },
});
