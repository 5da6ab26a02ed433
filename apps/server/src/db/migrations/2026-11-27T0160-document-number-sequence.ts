import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.ts';

/**
 * Document numbers (storage orders, shipments, address and import batches, Meituan uploads) end
 * in a serial drawn from the database, so that several instances on one PostgreSQL never draw the
 * same one (issue 27): a sequence there; on SQLite, served by one instance, a counter row updated
 * in the writer's transaction.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`create sequence document_number_seq`.execute(db);
    return;
  }
  await db.schema
    .createTable('document_counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('document_counters').values({ name: 'document', value: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`drop sequence document_number_seq`.execute(db);
  else await db.schema.dropTable('document_counters').execute();
}
