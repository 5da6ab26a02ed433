import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Order reviews parse on the job queue (issue 27): the upload writes the review `queued` and a
 * worker instance parses it, so where the parse stands lives on the row for any instance to read.
 * `parse_error` is a message key (with `parse_error_params`, JSON), translated when read. Reviews
 * made before were parsed in their request: `done` (the default), at 100 %.
 *
 * `export_declaration_runs`: a declarations workbook's commit, a job on the queue. The checked
 * rows wait in the file store (`rows_key`); the run's state is read by any instance, its
 * failure a message key.
 *
 * `export_declarations.permit_email_error_id`: the permit's e-mail is sent by a job; its failure
 * is stored as the key `declMailFailed` with this id, translated when read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('order_reviews')
    .addColumn('parse_state', 'varchar(16)', (c) => c.notNull().defaultTo('done'))
    .execute();
  await db.schema
    .alterTable('order_reviews')
    .addColumn('parse_progress', 'integer', (c) => c.notNull().defaultTo(100))
    .execute();
  await db.schema.alterTable('order_reviews').addColumn('parse_error', 'varchar(64)').execute();
  await db.schema.alterTable('order_reviews').addColumn('parse_error_params', 'text').execute();

  const t = types(db);
  await db.schema
    .createTable('export_declaration_runs')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('customer_id', 'integer')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('rows_key', 'varchar(200)')
    .addColumn('error', 'varchar(64)')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.alterTable('export_declarations').addColumn('permit_email_error_id', 'varchar(64)').execute();
}
