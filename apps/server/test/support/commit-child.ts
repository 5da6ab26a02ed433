import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { createDatabase } from '../../src/db/database.ts';

/**
 * A server process of its own that confirms one batch and stops after the commit's first
 * written chunk, until it is killed: what `kill -9` during a commit leaves behind, for real
 * (finding-09-waybill-reservation.test.ts). Arguments: database URL, data folder, batch id,
 * access token. It prints `staged` once the chunk is written.
 */
const [databaseUrl, dataDir, batchIdText, token] = process.argv.slice(2) as [string, string, string, string];
const batchId = Number(batchIdText);
const config = testConfig({
  DATABASE_URL: databaseUrl,
  DATA_DIR: dataDir,
  WEB_DIST: path.join(dataDir, 'no-web'),
  // The test's lease: its commit job is taken over soon after the kill.
  JOB_LEASE_SECONDS: '10',
  JOB_POLL_SECONDS: '0.5',
});
const db = createDatabase(config.database);
const app = await buildApp({
  config,
  db,
  afterStagedChunk: async (id) => {
    if (id !== batchId) return;
    process.stdout.write('staged\n');
    await new Promise(() => {}); // until the kill
  },
});
await app.ready();
await app.jobs.start();
const r = await app.inject({
  method: 'POST',
  url: '/api/order/batch/confirm',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  payload: JSON.stringify({ id: batchId, confirmations: [] }),
});
process.stdout.write(`confirm ${r.statusCode}\n`);
// The process lives until the test kills it, as a server does: the job runner's poll timers are
// unref'd, so without this the child could exit before its queue took the commit.
setInterval(() => {}, 60_000);
