import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.ts';
import { createDatabase, type Database } from '../../src/db/database.ts';
import {
  createReadRouting,
  createWritePositions,
  lsnValue,
  markWriteCommitting,
  notedWritePosition,
  noteWritePosition,
  replayPosition,
  replicaServes,
  WRITE_COMMITTING,
  writePosition,
} from '../../src/db/read-replica.ts';
import { emptyDatabase } from '../harness.ts';

/**
 * Issue 38 item 4, `DATABASE_READ_URL`'s read-your-own-writes, as a rule (db/read-replica.ts; the
 * wiring, over a real standby, is failover/read-replica.test.ts). Here the "replica" is a second
 * pool on the same database, and how far it has replayed is the adapter's boundary, held back by
 * the test to stand for a lagging standby. What is real: the positions are PostgreSQL's own
 * (`pg_current_wal_lsn()` after a real commit), compared as PostgreSQL orders them, and the real
 * `pg_last_wal_replay_lsn()` of a server that is not a replica.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-read-replica-'));
let drop: (() => Promise<void>) | undefined;
let primary: Database;
let replica: Database;
beforeAll(async () => {
  const empty = await emptyDatabase(dir);
  drop = empty.drop;
  const config = testConfig({ DATABASE_URL: empty.url, DATA_DIR: dir }).database;
  primary = createDatabase(config);
  replica = createDatabase(config);
  await sql`create table notes (id serial primary key, body text not null)`.execute(primary);
  // As migration 2026-12-07T1700 makes it, without the users it refers to.
  await sql`create table write_positions (user_id integer primary key, wal_lsn text not null)`.execute(primary);
});
afterAll(async () => {
  await primary?.destroy();
  await replica?.destroy();
  await drop?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A position as PostgreSQL prints it. */
const lsnText = (v: bigint) => `${(v >> 32n).toString(16)}/${(v & 0xffffffffn).toString(16)}`.toUpperCase();
const write = (body: string) => sql`insert into notes (body) values (${body})`.execute(primary);

describe('read-your-own-writes over a replica', () => {
  it('a user who wrote reads the primary until the replica has replayed past that write; others read the replica', async () => {
    const before = await writePosition(primary);
    // The replica, stopped where the WAL stood before the write.
    let replayed: string | null = before;
    const positions = createWritePositions();
    const routing = createReadRouting({ primary, replica, positions, replayed: async () => replayed });
    const writer = 1;
    const other = 2;
    expect(await routing.reader(writer)).toBe(replica);

    await write('mine');
    await routing.wrote(writer);
    expect(await routing.reader(writer)).toBe(primary);
    expect(await routing.reader(other)).toBe(replica);

    // Noted past the commit (the WAL moved), and the writer is held to it: replayed one byte short
    // of it is still the primary.
    const noted = positions.of(writer)!;
    expect(lsnValue(noted)).toBeGreaterThan(lsnValue(before));
    replayed = lsnText(lsnValue(noted) - 1n);
    expect(await routing.reader(writer)).toBe(primary);

    // The replica caught up: the writer reads it again, and the write is there.
    replayed = noted;
    const db = await routing.reader(writer);
    expect(db).toBe(replica);
    const seen = await sql<{ body: string }>`select body from notes`.execute(db);
    expect(seen.rows.map((r) => r.body)).toContain('mine');
  });

  it('an address that is not a replica in recovery never serves a user who wrote (the primary is always right)', async () => {
    // The real question asked of a server that is not a standby: it answers null.
    expect(await replayPosition(replica)).toBeNull();
    const routing = createReadRouting({ primary, replica });
    await write('again');
    await routing.wrote(7);
    expect(await routing.reader(7)).toBe(primary);
    expect(await routing.reader(8)).toBe(replica);
  });

  it('a replica that does not answer sends the writer to the primary', async () => {
    const routing = createReadRouting({
      primary,
      replica,
      replayed: () => Promise.reject(new Error('connection refused')),
    });
    await routing.wrote(3);
    expect(await routing.reader(3)).toBe(primary);
  });

  it("a job's mark, made in its transaction, is replaced by a position past its commit, even by a note that started before the commit", async () => {
    await noteWritePosition(primary, 41);
    let noting: Promise<string> | undefined;
    let beforeCommit = '';
    await primary.transaction().execute(async (trx) => {
      await sql`insert into notes (body) values ('the job')`.execute(trx);
      await markWriteCommitting(trx, 41);
      // Another instance notes the user's position meanwhile: it waits for the row's lock.
      noting = noteWritePosition(primary, 41);
      for (let waiting = false; !waiting;) {
        const r = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where wait_event_type = 'Lock' and query like '%insert into write_positions%'`.execute(replica);
        waiting = r.rows[0]!.n > 0;
      }
      beforeCommit = await writePosition(trx);
    });
    // Taken once the lock was released, so past the commit record, which is past `beforeCommit`
    // (a position taken when the statement began, or the mark's moment, would not be).
    const noted = await noting!;
    expect(noted).not.toBe(WRITE_COMMITTING);
    expect(lsnValue(noted)).toBeGreaterThan(lsnValue(beforeCommit));
    expect(await notedWritePosition(primary, 41)).toBe(noted);
    // The mark alone never lets a replica serve, however far it has replayed.
    await primary.transaction().execute((trx) => markWriteCommitting(trx, 42));
    expect(await notedWritePosition(primary, 42)).toBe(WRITE_COMMITTING);
    expect(replicaServes(WRITE_COMMITTING, 'FFFFFFFF/FFFFFFFE')).toBe(false);
  });

  it('positions are ordered as PostgreSQL orders them, not as strings; a late, lower note keeps the higher', () => {
    // As strings 'A/0' > '10/0' and '9/FFFFFFFF' > '10/0': both wrong.
    expect(replicaServes('A/0', '10/0')).toBe(true);
    expect(replicaServes('10/0', 'A/0')).toBe(false);
    expect(replicaServes('10/0', '9/FFFFFFFF')).toBe(false);
    expect(replicaServes('0/16B3748', '0/16B3748')).toBe(true);
    expect(replicaServes(null, null)).toBe(true);
    expect(replicaServes('0/1', null)).toBe(false);
    const p = createWritePositions();
    p.note(1, '10/0');
    p.note(1, 'A/0');
    expect(p.of(1)).toBe('10/0');
    expect(() => lsnValue('16B3748')).toThrow();
  });
});
