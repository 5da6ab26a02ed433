import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Several instances on one database are PostgreSQL's (the embedded SQLite is one process):
    // `*.pg.test.ts` run in the PostgreSQL run only, rather than showing as skipped on SQLite.
    // `*.sqlite.test.ts` are the embedded runner's own (one process), in the SQLite run only.
    exclude: process.env.TEST_DATABASE_URL ? ['test/**/*.sqlite.test.ts'] : ['test/**/*.pg.test.ts'],
    // Each file gets its own freshly migrated database; files run in parallel workers.
    pool: 'forks',
    // Two workers on both engines. On PostgreSQL a file's worker waits on the database much of the
    // time; on SQLite Vitest's default (cores − 1) left one of CI's two cores idle for the pass's
    // 13 minutes (issue 37: "the SQLite pass with as many workers as pays"). More than the cores
    // only adds contention.
    maxWorkers: 2,
    // The PostgreSQL run's seeded template database (nothing on SQLite).
    globalSetup: ['test/pg-template.global.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
