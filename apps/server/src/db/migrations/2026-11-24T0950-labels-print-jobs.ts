import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Print jobs (issue 14, `order/printLabelA`): the job's state lives in the database, so any
 * instance answers `order/printLabelAResult` and a restart leaves no job "running" forever.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('print_jobs')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('printer', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('printed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('drawn', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refused', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('file_id', 'integer', (c) => c.references('files.id'))
    .addColumn('error', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('print_jobs_user').on('print_jobs').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('print_jobs').execute();
}
