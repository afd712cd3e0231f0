import os from 'node:os';
import { defineConfig } from 'vitest/config';

// One Vitest run, several projects: pure code, web components, server code without a database,
// and the database-backed service tests once per PostgreSQL engine (embedded and external).
const serverDbTests = ['apps/server/src/**/*.db.test.ts', 'apps/server/test/**/*.db.test.ts'];
// Tests of a deployment only an external PostgreSQL serves (several processes, e.g. the scale-out test): run by the
// external project alone, so they are neither skipped nor run twice.
const serverExternalOnlyTests = ['apps/server/test/**/*.external.test.ts'];
// The hostile-input corpus tests readers and the document sandbox, not SQL: it runs on the embedded engine only.
const serverEmbeddedOnlyTests = ['apps/server/test/hostile/**/*.db.test.ts'];

export default defineConfig({
  test: {
    // Two test files at a time at least: most service tests wait on child processes, servers and timers rather than
    // use a core, and Vitest's default (one worker fewer than cores) runs them one by one on a 2-core machine
    // (CI: 19 -> 10 minutes for the same tests).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        test: { name: 'core', include: ['packages/core/src/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          // jsdom tests share the machine with the server projects in one run: a busy machine makes them slow, not
          // failed (a 5 s default once timed out 'logs out' under the full run).
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server-unit',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          exclude: [...serverDbTests, ...serverExternalOnlyTests, '**/node_modules/**'],
          environment: 'node',
          // Some of these start the built CLI or an embedded PostgreSQL: generous limits, so a busy machine makes
          // them slow, not failed.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'server-embedded',
          include: serverDbTests,
          environment: 'node',
          globalSetup: ['apps/server/test/global-setup.ts'],
          env: { INVOICEBOX_TEST_ENGINE: 'embedded' },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-external',
          include: [...serverDbTests, ...serverExternalOnlyTests],
          exclude: [...serverEmbeddedOnlyTests, '**/node_modules/**'],
          environment: 'node',
          globalSetup: ['apps/server/test/global-setup.ts'],
          env: { INVOICEBOX_TEST_ENGINE: 'external' },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
