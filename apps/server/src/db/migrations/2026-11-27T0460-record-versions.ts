import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.ts';

/** The records an edit form changes (issue 28 #3); each carries the version the form was loaded from. */
export const VERSIONED_TABLES = ['orders', 'items', 'export_nominations', 'rate_cards', 'customers', 'users'] as const;

/**
 * A `version` on every record an edit form changes, bumped by the database on every UPDATE of
 * the row, whoever writes it. An edit form's save is `WHERE id = ? AND version = ?` (the
 * repositories), so two saves from one version cannot both win; the trigger is what makes any
 * other write (a status change, a flag, an import, a job, code not yet written) make that form
 * stale too, without each of those writers having to remember it.
 *
 * A statement that sets the version itself is left alone (`NEW.version = OLD.version` only when
 * it did not). Adding a column with a constant default rewrites nothing on PostgreSQL 11+, and an
 * instance still on the previous code keeps working: it never names the column and the trigger
 * bumps it for it (expand/contract).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  for (const table of VERSIONED_TABLES)
    await db.schema
      .alterTable(table)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  if (pg)
    await sql`CREATE OR REPLACE FUNCTION bump_record_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.version = OLD.version THEN NEW.version := OLD.version + 1; END IF;
        RETURN NEW;
      END $$`.execute(db);
  for (const table of VERSIONED_TABLES) {
    const name = sql.raw(`${table}_bump_version`);
    const t = sql.table(table);
    if (pg)
      await sql`CREATE TRIGGER ${name} BEFORE UPDATE ON ${t} FOR EACH ROW EXECUTE FUNCTION bump_record_version()`.execute(
        db,
      );
    // SQLite cannot change NEW in a BEFORE trigger: the row is bumped after, once (the trigger's own
    // UPDATE sets the version, so it does not fire itself again even with recursive triggers on).
    else
      await sql`CREATE TRIGGER ${name} AFTER UPDATE ON ${t} FOR EACH ROW WHEN NEW.version = OLD.version
        BEGIN UPDATE ${t} SET version = OLD.version + 1 WHERE rowid = NEW.rowid; END`.execute(db);
  }
}
