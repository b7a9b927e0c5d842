import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // TEST_DATABASE=postgres: one throwaway PostgreSQL cluster for the run (a database per test app).
    globalSetup: ['test/helpers/postgres/globalSetup.ts'],
    // Tests start real HTTP servers and child processes; 2 cores on CI.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
