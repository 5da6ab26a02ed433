/**
 * What a benchmark's `--pg` run compares (issue 27: what the PostgreSQL queue and the shared file
 * store cost against the embedded default), one after another in one process, each on a database
 * and data folder of its own:
 *   a. the embedded default: SQLite, the in-process job runner, files in the local folder;
 *   b. PostgreSQL with pg-boss, files still in the local folder;
 *   c. PostgreSQL with pg-boss and files in PostgreSQL (FILE_STORE's default there: what several
 *      instances run).
 * The queue follows the database (lib/jobs.ts), so b / a is what PostgreSQL and its queue cost
 * together, and c / b what the shared store adds.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../src/config.ts';
import { benchDatabase } from './load.ts';

export interface Backend {
  key: 'embedded' | 'pgQueue' | 'pgQueueStore';
  label: string;
  postgres: boolean;
  fileStore: Config['fileStore'];
}

export const EMBEDDED: Backend = {
  key: 'embedded',
  label: 'a. SQLite, embedded job runner, local file store',
  postgres: false,
  fileStore: 'local',
};
export const PG_QUEUE: Backend = {
  key: 'pgQueue',
  label: 'b. PostgreSQL, pg-boss, local file store',
  postgres: true,
  fileStore: 'local',
};
export const PG_QUEUE_STORE: Backend = {
  key: 'pgQueueStore',
  label: 'c. PostgreSQL, pg-boss, PostgreSQL file store',
  postgres: true,
  fileStore: 'database',
};
export const ALL_BACKENDS = [EMBEDDED, PG_QUEUE, PG_QUEUE_STORE];

/**
 * The PostgreSQL server a run creates its databases on: BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL, else the local one the tests use.
 */
export function pgServerUrl(): string {
  return (
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
  );
}

/**
 * A fresh database and data folder (inside `dir`) for one backend: the configuration it runs
 * with (DATABASE_URL, DATA_DIR, FILE_STORE, no web) and `close`, which drops and removes both.
 */
export async function openBackend(
  backend: Backend,
  dir: string,
): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(dir, `${backend.key}-`));
  const database = await benchDatabase(
    backend.postgres ? pgServerUrl() : undefined,
    path.join(dataDir, 'bench.sqlite'),
  );
  return {
    env: {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      WEB_DIST: path.join(dataDir, 'no-web'),
      FILE_STORE: backend.fileStore,
    },
    async close() {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One measure of every backend against the embedded default: b / a (PostgreSQL and its queue),
 * c / a (queue and shared store), and c / b (the shared store alone). Backends not run are left
 * out.
 */
export function ratioLine(what: string, values: Partial<Record<Backend['key'], number>>): string {
  const { embedded: a, pgQueue: b, pgQueueStore: c } = values;
  const ratio = (x: number | undefined, y: number | undefined) => (x && y ? `${(x / y).toFixed(2)}×` : null);
  const parts = [
    ratio(b, a) && `PostgreSQL + pg-boss (b / a) ${ratio(b, a)}`,
    ratio(c, a) && `PostgreSQL + pg-boss + PostgreSQL store (c / a) ${ratio(c, a)}`,
    ratio(c, b) && `the shared store alone (c / b) ${ratio(c, b)}`,
  ].filter(Boolean);
  return `  ${what}: ${parts.join('; ')}`;
}
