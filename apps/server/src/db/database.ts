import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { DB } from './schema.ts';
import { NodeSqliteDialect } from './sqlite-dialect.ts';

export type Database = Kysely<DB>;

// PostgreSQL answers int8 (counts, sums) as strings and timestamptz as Date by
// default; SQLite gives numbers and ISO text. Make both engines look the same.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1184, (v) => new Date(v).toISOString());

export function createDatabase(db: Config['database']): Database {
  if (db.dialect === 'postgres') {
    return new Kysely<DB>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: db.url, max: 10 }) }),
    });
  }
  if (db.file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(db.file)), { recursive: true });
  return new Kysely<DB>({ dialect: new NodeSqliteDialect(db.file) });
}
