import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Several instances on one database are PostgreSQL's (the embedded SQLite is one process):
    // `*.pg.test.ts` run in the PostgreSQL run only, rather than showing as skipped on SQLite.
    exclude: process.env.TEST_DATABASE_URL ? [] : ['test/**/*.pg.test.ts'],
    // Each file gets its own freshly migrated database; files run in parallel workers.
    pool: 'forks',
    // On PostgreSQL a file's worker waits on the database much of the time, so two workers keep
    // both cores busy where Vitest's default (cores − 1) leaves one on a 2-core CI machine. Tried
    // on a machine at load 11–15: 2,007 of 2,008 passed, the other a 30 s budget since raised.
    // SQLite's run keeps the default: its work is in the worker itself.
    ...(process.env.TEST_DATABASE_URL ? { maxWorkers: 2 } : {}),
    // The PostgreSQL run's seeded template database (nothing on SQLite).
    globalSetup: ['test/pg-template.global.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
