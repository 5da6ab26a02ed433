import { type Kysely, sql } from 'kysely';
import { dialectOf } from './dialect.ts';

/**
 * An index on a large table, built without blocking its writers (issue 30, item 7; the rule is
 * docs/decisions/2026-11-27-expand-contract-migrations.md). On PostgreSQL `CREATE INDEX
 * CONCURRENTLY` lets inserts and updates go on while it builds, so instances of the old release
 * keep taking orders during a deploy; it cannot run in a transaction, so the migration that calls
 * this exports `transactional = false` and runs alone (migrate.ts). A concurrent build that was
 * interrupted (a killed deploy) leaves an INVALID index behind that `if not exists` would keep:
 * it is dropped and built again, so a repeated migration ends with a valid index.
 * On SQLite (one process, one writer) it is a plain `create index if not exists`.
 */
export interface OnlineIndex {
  name: string;
  table: string;
  /** Column names or expressions, in order, as SQL (e.g. `customer_id`, `created_at desc`). */
  columns: string[];
  /** A partial index's condition, as SQL. */
  where?: string;
  /** PostgreSQL's index method (`gin`); B-tree when absent. SQLite has only B-trees. */
  using?: 'gin';
  /**
   * Columns carried for reading, not ordering: PostgreSQL's `include (…)` keeps them out of the
   * inner pages; SQLite has no INCLUDE, so there they follow the key columns (same lookups).
   */
  include?: string[];
}

export async function createIndexOnline(db: Kysely<any>, index: OnlineIndex): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const include = index.include ?? [];
  const columns = postgres ? index.columns : [...index.columns, ...include];
  const body = sql.raw(
    `${quote(index.name)} on ${quote(index.table)}${postgres && index.using ? ` using ${index.using}` : ''} (${columns.join(', ')})` +
      (postgres && include.length ? ` include (${include.join(', ')})` : '') +
      (index.where ? ` where ${index.where}` : ''),
  );
  if (!postgres) {
    await sql`create index if not exists ${body}`.execute(db);
    return;
  }
  const found = await sql<{ valid: boolean }>`
    select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
    where c.relname = ${index.name} and pg_table_is_visible(c.oid)`.execute(db);
  if (found.rows[0]?.valid === true) return;
  if (found.rows[0]) await sql`drop index concurrently if exists ${sql.id(index.name)}`.execute(db);
  await sql`create index concurrently if not exists ${body}`.execute(db);
}

export async function dropIndexOnline(db: Kysely<any>, name: string): Promise<void> {
  if (dialectOf(db) !== 'postgres') await sql`drop index if exists ${sql.id(name)}`.execute(db);
  else await sql`drop index concurrently if exists ${sql.id(name)}`.execute(db);
}

/** Names are ours (a migration's constants), quoted so a reserved word cannot break the DDL. */
function quote(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain SQL name: ${name}`);
  return `"${name}"`;
}
