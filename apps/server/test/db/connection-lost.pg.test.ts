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

/** Waits (bounded) until PostgreSQL has ended the backend `pid`. */
async function gone(admin: pg.Client, pid: number) {
  for (let i = 0; i < 500; i++) {
    if (!(await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`backend ${pid} still there`);
}

it('survives PostgreSQL ending a connection in the middle of a transaction (issue 38 row 0)', async () => {
  // pg-pool takes its idle listener off a lent-out client: without one of ours, the 'error' event
  // of a connection ended mid-transaction is thrown on the event loop (the process exits; here the
  // test's worker would record an uncaught exception).
  const uncaught: unknown[] = [];
  const onUncaught = (e: unknown) => uncaught.push(e);
  process.on('uncaughtException', onUncaught);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  let pid = 0;
  await sql`create table if not exists lost_writes (v text)`.execute(db);
  try {
    const transaction = db.transaction().execute(async (trx) => {
      await sql`insert into lost_writes values ('x')`.execute(trx);
      pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
      expect((await admin.query('select pg_terminate_backend($1) as ok', [pid])).rows[0].ok).toBe(true);
      await gone(admin, pid);
      await sql`select 1`.execute(trx);
    });
    await expect(transaction).rejects.toThrow();
    expect(uncaught).toEqual([]);
    // Nothing of it was kept, and the same pool serves the next query on a new connection.
    const after = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
    expect(after).not.toBe(pid);
    expect((await sql`select v from lost_writes`.execute(db)).rows).toEqual([]);
  } finally {
    process.off('uncaughtException', onUncaught);
    await admin.end();
  }
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
