import { defineConfig } from 'vitest/config';

/**
 * `npm run test:failover`: the failover drill (failover/*.test.ts, issue 38 item 8) — a PostgreSQL
 * primary and a synchronous standby of its own, a database address behind haproxy, two server
 * processes behind another. Apart from the server suite (vitest.config.ts includes src/ and test/
 * only) and from the cluster suite: it runs PostgreSQL's binaries as the postgres user.
 */
export default defineConfig({
  test: {
    include: ['failover/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
