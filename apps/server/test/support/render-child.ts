import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { createDatabase } from '../../src/db/database.ts';
import { asTenant } from '../../src/lib/fair-turns.ts';
import { renderFile } from '../../src/lib/workbook-job.ts';
import { TEST_RENDERS } from './test-renders.ts';

/**
 * A server process of its own on the embedded default (SQLite, in-process runner) that asks for
 * two heavy renders of one customer, held at a gate that never opens: one runs, one waits. It
 * prints `rendering` once its first render runs and lives until it is killed
 * (jobs-process-bound.test.ts). Arguments: SQLite file, data folder, gate file.
 */
const [databaseUrl, dataDir, gate] = process.argv.slice(2) as [string, string, string];
const config = testConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, WEB_DIST: path.join(dataDir, 'no-web') });
const db = createDatabase(config.database);
const app = await buildApp({ config, db });
await app.ready();
await app.jobs.start();
const GATE = { kind: TEST_RENDERS.gate };
for (const text of ['one', 'two'])
  void asTenant('c1', () => renderFile({ ...GATE, arg: { gate, text } }, { ext: 'pdf', total: 6000 })).catch(() => {});
for (;;) {
  const running = await db.selectFrom('export_renders').select('id').where('state', '=', 'running').execute();
  if (running.length) break;
  await new Promise((r) => setTimeout(r, 50));
}
process.stdout.write('rendering\n');
setInterval(() => {}, 60_000);
