import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Renders of workbooks and PDFs on the job queue (issue 27): the instance that answers a download
 * enqueues the render and waits on this row; a worker instance renders, puts the file in the
 * shared store and records here where it is (or that it failed). Rows live for one download.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('export_renders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('input_key', 'text', (c) => c.notNull())
    .addColumn('file_key', 'text')
    .addColumn('rendered_by', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('export_renders_updated').on('export_renders').column('updated_at').execute();
}
