import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.ts';
import { createDatabase, type Database } from '../../src/db/database.ts';
import { dialectOf } from '../../src/db/dialect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createIndexOnline } from '../../src/db/online-index.ts';
import { emptyDatabase } from '../harness.ts';

/**
 * Issue 30, item 7: an index on a large table is built without blocking its writers (CREATE
 * INDEX CONCURRENTLY on PostgreSQL), by a migration that runs outside the transaction of the
 * others, on a database that already holds rows — and a repeat after an interrupted build ends
 * with a valid index.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-online-index-'));
let db: Database;
let drop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  const empty = await emptyDatabase(dir);
  drop = empty.drop;
  db = createDatabase(testConfig({ DATABASE_URL: empty.url, DATA_DIR: dir }).database);
});
afterAll(async () => {
  await db.destroy();
  await drop?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

const parcelsIndex = { name: 'parcels_by_owner', table: 'parcels', columns: ['owner', 'weight desc'] };
const ran: string[] = [];
const list: Record<string, Migration> = {
  '0001-parcels': {
    async up(d: Kysely<any>) {
      ran.push('parcels');
      await d.schema
        .createTable('parcels')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('owner', 'integer', (c) => c.notNull())
        .addColumn('weight', 'integer', (c) => c.notNull())
        .execute();
      // Rows already there when the index migration comes, as on a live database.
      await insertParcels(d, 5000);
    },
  },
  '0002-parcels-index': {
    transactional: false,
    async up(d: Kysely<any>) {
      ran.push('index');
      await createIndexOnline(d, parcelsIndex);
    },
  } as Migration & { transactional: boolean },
  '0003-after': {
    async up(d: Kysely<any>) {
      ran.push('after');
      await d.schema.createTable('after_index').addColumn('id', 'integer').execute();
    },
  },
};

async function insertParcels(d: Kysely<any>, n: number) {
  await (
    dialectOf(d) === 'postgres'
      ? sql`insert into parcels (id, owner, weight) select n, n % 7, n % 1000 from generate_series(1, ${sql.lit(n)}) n`
      : sql`with recursive s(n) as (select 1 union all select n + 1 from s where n < ${sql.lit(n)})
          insert into parcels (id, owner, weight) select n, n % 7, n % 1000 from s`
  ).execute(d);
}

async function indexState(): Promise<'valid' | 'invalid' | 'missing'> {
  if (dialectOf(db) === 'postgres') {
    const r = await sql<{ valid: boolean }>`select i.indisvalid as valid from pg_index i
      join pg_class c on c.oid = i.indexrelid where c.relname = ${parcelsIndex.name}`.execute(db);
    return r.rows[0] === undefined ? 'missing' : r.rows[0].valid ? 'valid' : 'invalid';
  }
  const r = await sql<{ n: number }>`select count(*) as n from sqlite_master
    where type = 'index' and name = ${parcelsIndex.name}`.execute(db);
  return Number(r.rows[0]!.n) === 1 ? 'valid' : 'missing';
}

describe('a migration building an index online', () => {
  it('runs between the others, outside their transaction, on a table holding rows, and the index is valid', async () => {
    await migrateToLatest(db, list);
    expect(ran).toEqual(['parcels', 'index', 'after']);
    expect(await indexState()).toBe('valid');
    const count = (await sql<{ n: number }>`select count(*) as n from parcels`.execute(db)).rows[0]!;
    expect(Number(count.n)).toBe(5000);
    const done = (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows;
    expect(done.map((m) => m.name)).toEqual(['0001-parcels', '0002-parcels-index', '0003-after']);
    // Inside a transaction PostgreSQL refuses CONCURRENTLY: the build above ran outside one.
    if (dialectOf(db) === 'postgres') {
      await expect(
        db.transaction().execute((trx) => createIndexOnline(trx, { ...parcelsIndex, name: 'parcels_again' })),
      ).rejects.toThrow(/cannot run inside a transaction block/);
    }
  });

  it('a repeat after an interrupted build (an INVALID index left behind) ends with a valid index', async () => {
    if (dialectOf(db) === 'postgres') {
      // What a killed CREATE INDEX CONCURRENTLY leaves: the index is there, marked invalid.
      await sql`update pg_index set indisvalid = false
        where indexrelid = ${sql.lit(parcelsIndex.name)}::regclass`.execute(db);
      expect(await indexState()).toBe('invalid');
    } else {
      await sql`drop index ${sql.id(parcelsIndex.name)}`.execute(db);
      expect(await indexState()).toBe('missing');
    }
    await createIndexOnline(db, parcelsIndex);
    expect(await indexState()).toBe('valid');
    // And once valid, a repeat leaves it alone.
    await createIndexOnline(db, parcelsIndex);
    expect(await indexState()).toBe('valid');
  });
});

describe('an index with columns carried for reading (include)', () => {
  it('answers a query on its key and carried columns from the index alone, on both databases', async () => {
    const covering = { name: 'parcels_by_owner_cover', table: 'parcels', columns: ['owner'], include: ['weight'] };
    await createIndexOnline(db, covering);
    if (dialectOf(db) === 'postgres') {
      // One key column, one carried: PostgreSQL's INCLUDE, not a second key column.
      const r = await sql<{ keys: number; all: number }>`select i.indnkeyatts as keys, i.indnatts as all
        from pg_index i where i.indexrelid = ${sql.lit(covering.name)}::regclass`.execute(db);
      expect(r.rows[0]).toEqual({ keys: 1, all: 2 });
    } else {
      const cols = await sql<{
        name: string;
      }>`select name from pragma_index_info(${covering.name}) order by seqno`.execute(db);
      expect(cols.rows.map((c) => c.name)).toEqual(['owner', 'weight']);
      const plan = await sql<{ detail: string }>`explain query plan
        select count(*) from parcels where owner = 3 and weight = 5`.execute(db);
      expect(plan.rows.map((p) => p.detail).join(' ')).toContain(`COVERING INDEX ${covering.name}`);
    }
  });
});
