import type { Kysely } from 'kysely';

/**
 * Order reviews parse on the job queue (issue 27): the upload writes the review `queued` and a
 * worker instance parses it, so where the parse stands lives on the row for any instance to read.
 * `parse_error` is a message key (with `parse_error_params`, JSON), translated when read. Reviews
 * made before were parsed in their request: `done` (the default), at 100 %.
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
}
