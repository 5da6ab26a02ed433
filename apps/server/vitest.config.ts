import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Several instances on one database are PostgreSQL's (the embedded SQLite is one process):
    // `*.pg.test.ts` run in the PostgreSQL run only, rather than showing as skipped on SQLite.
    exclude: process.env.TEST_DATABASE_URL ? [] : ['test/**/*.pg.test.ts'],
    // Each file gets its own freshly migrated database; files run in parallel workers.
    pool: 'forks',
    // The PostgreSQL run's seeded template database (nothing on SQLite).
    globalSetup: ['test/pg-template.global.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
