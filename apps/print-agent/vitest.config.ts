import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The files share one CUPS scheduler and its output folder: one file at a time keeps
    // queue names and output files from mixing.
    fileParallelism: false,
    // cups-pdf converts each job through Ghostscript: seconds per job on a busy machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
