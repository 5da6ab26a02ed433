import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { testConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createJobQueue } from '../src/lib/jobs.ts';
import { childHolding } from './support/killed-child.ts';

/**
 * Issue 27, the embedded runner: a render job is its process's (its kind was named after that
 * process), so one a crashed process left stayed queued forever. Now the next start fails it.
 * A real child process, killed with SIGKILL; SQLite whatever the run's database (this is the
 * embedded default's runner).
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-bound-'));
const file = path.join(dir, 'test.sqlite');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it(
  'render jobs of a process killed with SIGKILL are failed at the next start, not left queued',
  { timeout: 120_000 },
  async () => {
    const config = testConfig({ DATABASE_URL: file, DATA_DIR: dir, WEB_DIST: path.join(dir, 'no-web') });
    const db = createDatabase(config.database);
    await migrateToLatest(db);
    try {
      const child = await childHolding(
        new URL('./support/render-child.ts', import.meta.url),
        [file, dir, path.join(dir, 'never')],
        'rendering',
      );
      const renders = () =>
        db
          .selectFrom('job_queue')
          .select(['state', 'last_error'])
          // The process's own render kinds (`<kind>@<pid>.<boot>`), not the periodic render sweep.
          .where('kind', 'like', 'render-%@%')
          .orderBy('id')
          .execute();
      // The first runs; the second waits, in the queue or before it (its customer's turn).
      const left = await renders();
      expect(left[0]?.state).toBe('active');
      await child.killHard();

      // The restart: a queue on the same database starts (as the app's does, before any kind is defined).
      const log = { warn: () => {}, error: () => {} };
      const queue = createJobQueue({ config, db, log });
      await queue.start();
      await queue.stop();
      expect(await renders()).toEqual(
        left.map(() => ({ state: 'failed', last_error: 'the process that asked for it ended' })),
      );
    } finally {
      await db.destroy();
    }
  },
);
