import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: real server processes behind haproxy on PostgreSQL (cluster/*.test.ts).
 * Apart from the server suite (vitest.config.ts includes src/ and test/ only): these start
 * processes on fixed loopback ports, so one file at a time.
 */
export default defineConfig({
  test: {
    include: ['cluster/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
