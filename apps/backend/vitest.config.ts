import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/suite-log-setup.ts'],
    // Each file gets its own database; PGlite instances are large, so keep parallelism modest.
    maxWorkers: 2,
    testTimeout: 30_000,
    // Request and run lines of every test would bury the test output: warnings and errors only.
    // Tests that read a backend's lines set their own level (test/support/backend-process.ts).
    env: { BATON_LOG_LEVEL: 'warn' },
    hookTimeout: 60_000,
  },
});
