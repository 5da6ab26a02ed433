/**
 * End-to-end tests in Debian's Chromium against the real server and the built console.
 * Each worker (E2E_WORKERS, default 2) has its own two servers, each on a fresh SQLite file with
 * the demo seed (servers.ts gives the ports):
 *  - MAIN (8090, 8100, …): every spec;
 *  - SHORT_TTL (MAIN + 1): access tokens live 5 s, for refresh-and-replay and data-heavy specs;
 * and one fake JD OAuth server (8092) that every MAIN authorizes JD apps against (JD_OAUTH_BASE_URL;
 * JD sends the browser back to that MAIN's PUBLIC_URL).
 * Modules add their specs under e2e/<module>/ and import URLs from ./servers.ts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import {
  E2E_JD_APP,
  JD_FAKE_EXPIRES_DAYS,
  JD_PORT,
  MAIN_PORT,
  WORKERS,
  mainPortOf,
  shortTtlPortOf,
} from './servers.ts';

// Workers re-evaluate this file; the run directory must be the one the runner made.
process.env.E2E_RUN_DIR ??= mkdtempSync(join(tmpdir(), 'console-e2e-'));
const runDir = process.env.E2E_RUN_DIR;
const node = '../node_modules/.bin/node';

const server = (port: number, name: string, extra = '') =>
  `${extra} PORT=${port} HOST=127.0.0.1 DATABASE_URL=${join(runDir, `${name}.sqlite`)} DATA_DIR=${join(runDir, name)} ` +
  `DEMO_SEED=true LOG_LEVEL=warn LOGIN_MAX_FAILURES_PER_ADDRESS=1000 ${node} ../apps/server/src/server.ts`;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // Spec files are shared out between the workers; a file's tests run in order in one worker, on
  // that worker's servers. Every spec makes or finds its own data (issue 37).
  fullyParallel: false,
  workers: WORKERS,
  // No retries, on CI either: a retry that passes hides a flaky test (issue 10, finding 19).
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never' }]],
  outputDir: 'test-results',
  // Which spec calls the console never requested (issue 28, item 25); see support/api-coverage.ts.
  globalTeardown: './support/api-coverage.teardown.ts',
  use: {
    baseURL: `http://localhost:${MAIN_PORT}/home/`,
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    locale: 'zh-CN',
    timezoneId: 'Europe/London',
    viewport: { width: 1440, height: 900 },
    // The console turns antd's animations off for users who ask for less motion (motion.spec
    // checks both ways). Specs run so: a click while a dialog zoomed or a calendar slid in could
    // press on one element and release on another, and was lost (three CI failures).
    reducedMotion: 'reduce',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1440, height: 900 },
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: [
    {
      // JD's OAuth server for the JD authorization spec: knows the seeded demo apps and the spec's own.
      command:
        `JD_FAKE_PORT=${JD_PORT} JD_FAKE_EXPIRES_IN=${JD_FAKE_EXPIRES_DAYS * 86400} ` +
        `JD_FAKE_APPS=DEMOJDAPPKEY0001=demo-jd-secret-0001,DEMOJDAPPKEY0002=demo-jd-secret-0002,${E2E_JD_APP.appKey}=${E2E_JD_APP.appSecret} ` +
        `${node} support/fake-jd.ts`,
      url: `http://127.0.0.1:${JD_PORT}/oauth2/to_login`,
      timeout: 30_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    // Slot 0's MAIN builds the console first; the servers start one after another, so every
    // other server finds it built.
    ...Array.from({ length: WORKERS }, (_, slot) => [
      {
        command:
          (slot === 0 ? '(cd .. && npm run build -w apps/web) && ' : '') +
          server(
            mainPortOf(slot),
            `main-${slot}`,
            // The developers spec's webhook receiver listens on loopback over plain http, refused unless allowed.
            `JD_OAUTH_BASE_URL=http://127.0.0.1:${JD_PORT} PUBLIC_URL=http://localhost:${mainPortOf(slot)} WEBHOOK_ALLOWED_HOSTS=127.0.0.1 WEBHOOK_ALLOW_HTTP=true`,
          ),
        url: `http://localhost:${mainPortOf(slot)}/home/`,
        timeout: slot === 0 ? 180_000 : 120_000,
        reuseExistingServer: false,
        stdout: 'ignore' as const,
        stderr: 'pipe' as const,
      },
      {
        command: server(shortTtlPortOf(slot), `short-ttl-${slot}`, 'ACCESS_TOKEN_TTL_SECONDS=5'),
        url: `http://localhost:${shortTtlPortOf(slot)}/home/`,
        timeout: 120_000,
        reuseExistingServer: false,
        stdout: 'ignore' as const,
        stderr: 'pipe' as const,
      },
    ]).flat(),
  ],
});
