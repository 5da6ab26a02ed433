import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testConfig } from '../../src/config.ts';
import { createDatabase, type Database } from '../../src/db/database.ts';
import { emptyDatabase } from '../harness.ts';

/**
 * An idle pooled connection that PostgreSQL ends (a restart, a failover, an administrator's
 * pg_terminate_backend) must not end the server: pg reports it as an 'error' event on the pool,
 * fatal when nobody listens (a PostgreSQL test run once died of it, 57P01). The next query works.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-connection-lost-'));
let db: Database;
let url = '';
let drop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  const empty = await emptyDatabase(dir);
  url = empty.url;
  drop = empty.drop;
  db = createDatabase(testConfig({ DATABASE_URL: url, DATA_DIR: dir }).database);
});
afterAll(async () => {
  await db.destroy();
  await drop?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('survives PostgreSQL ending its idle connection, and the next query works', async () => {
  const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
  const uncaught: unknown[] = [];
  const onUncaught = (e: unknown) => uncaught.push(e);
  process.on('uncaughtException', onUncaught);
  try {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    expect((await admin.query('select pg_terminate_backend($1) as ok', [pid])).rows[0].ok).toBe(true);
    await admin.end();
    // The idle client hears of it on its socket.
    await new Promise((r) => setTimeout(r, 300));
    expect(uncaught).toEqual([]);
    const after = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
    expect(after).not.toBe(pid);
  } finally {
    process.off('uncaughtException', onUncaught);
  }
});
