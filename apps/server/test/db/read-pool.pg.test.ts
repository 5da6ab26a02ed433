import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testConfig } from '../../src/config.ts';
import { createDatabase, type Database, readOffLoop } from '../../src/db/database.ts';
import { emptyDatabase } from '../harness.ts';

/**
 * Issue 29: on PostgreSQL the heaviest reads (readOffLoop: order-list pages and counts) have
 * connections of their own, so a write never queues behind them: a warehouse scan waited 1.1 s
 * at p99 behind fifty users' list pages when both shared one pool. The reads here hold every
 * connection they may use (pg_sleep); the write must finish while they still run. With no read
 * pool (DATABASE_READ_POOL_SIZE=0) the same write waits for them, which shows the test can fail.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-read-pool-'));
let url = '';
let drop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  const empty = await emptyDatabase(dir);
  url = empty.url;
  drop = empty.drop;
  const db = createDatabase(testConfig({ DATABASE_URL: url, DATA_DIR: dir }).database);
  await sql`create table scans (id serial primary key, code text not null)`.execute(db);
  await db.destroy();
});
afterAll(async () => {
  await drop?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

const open = (pool: string, reads: string): Database =>
  createDatabase(
    testConfig({ DATABASE_URL: url, DATA_DIR: dir, DATABASE_POOL_SIZE: pool, DATABASE_READ_POOL_SIZE: reads }).database,
  );

/** Which finished first: the write, or every one of `n` slow reads started before it. */
async function raceWriteWithReads(db: Database, n: number): Promise<string[]> {
  const finished: string[] = [];
  const slow = sql<{ slept: string }>`select pg_sleep(1.5)::text as slept`.compile(db);
  const reads = Array.from({ length: n }, (_, i) => readOffLoop(db, slow).then(() => finished.push(`read ${i}`)));
  // The reads hold their connections before the write asks for one.
  await new Promise((r) => setTimeout(r, 300));
  const write = sql`insert into scans (code) values ('JD0001')`.execute(db).then(() => finished.push('write'));
  await Promise.all([...reads, write]);
  return finished;
}

it('a write does not wait for a connection behind the slow reads', async () => {
  const db = open('2', '2');
  try {
    const order = await raceWriteWithReads(db, 4);
    expect(order[0]).toBe('write');
    expect(order).toHaveLength(5);
  } finally {
    await db.destroy();
  }
});

it('without a read pool the same write waits behind them', async () => {
  const db = open('2', '0');
  try {
    const order = await raceWriteWithReads(db, 2);
    // It got a connection only when a read gave one back (the other read may end a moment
    // after the write: the two started their sleeps as their connections came).
    expect(order.indexOf('write')).toBeGreaterThan(0);
  } finally {
    await db.destroy();
  }
});

it('destroy() ends the read pool too: no connection of it is left', async () => {
  const db = open('2', '2');
  // As a server does (its migrations run first): Kysely ends its pool only once it has used it.
  await sql`select 1 as one`.execute(db);
  await readOffLoop(db, sql`select 2 as two`.compile(db));
  const name = new URL(url).pathname.slice(1);
  await db.destroy();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // A backend leaves pg_stat_activity a moment after its client hung up.
    const left = async () =>
      (
        await admin.query(
          'select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        )
      ).rows[0].n;
    await expect.poll(left, { timeout: 5000 }).toBe(0);
  } finally {
    await admin.end();
  }
});
