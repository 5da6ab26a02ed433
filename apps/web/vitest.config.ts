import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

// The console's unit tests: Node with the few browser globals lib/ reads (test/setup.ts).
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: { include: ['test/**/*.test.ts', 'src/**/*.test.ts'], setupFiles: ['test/setup.ts'], environment: 'node' },
  }),
);
