/**
 * The `test` every spec imports (lint forbids `@playwright/test`'s own in specs): Playwright's, plus
 * the recording of the API calls the console requests (./api-coverage.ts, issue 28 item 25).
 */
import { relative } from 'node:path';
import { test as base, type BrowserContext } from '@playwright/test';
import { apiCallPath, writeRecord } from './api-coverage.ts';

export * from '@playwright/test';

interface Recorder {
  files: Set<string>;
  paths: Set<string>;
}

export const test = base.extend<{ _recordApiCalls: void }, { _apiCallRecorder: Recorder }>({
  // Worker-wide: every context of the worker's browser, the `context` fixture's and those specs open
  // themselves with browser.newContext().
  _apiCallRecorder: [
    async ({ browser }, use) => {
      const recorder: Recorder = { files: new Set(), paths: new Set() };
      const listen = (context: BrowserContext) =>
        context.on('request', (request) => {
          const path = apiCallPath(request.url());
          if (path) recorder.paths.add(path);
        });
      browser.on('context', listen);
      await use(recorder);
      browser.off('context', listen);
    },
    { scope: 'worker', auto: true },
  ],
  _recordApiCalls: [
    async ({ _apiCallRecorder: recorder }, use, testInfo) => {
      recorder.files.add(relative(testInfo.project.testDir, testInfo.file));
      await use();
      // After every test, not at the worker's end: a worker stopped by a timeout keeps what it saw.
      const runDir = process.env.E2E_RUN_DIR;
      if (runDir) writeRecord(runDir, testInfo.workerIndex, { files: [...recorder.files], paths: [...recorder.paths] });
    },
    { auto: true },
  ],
});
