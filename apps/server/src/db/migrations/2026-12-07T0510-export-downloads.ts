import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Downloads asked for without waiting (issue 38 item 6): the instance that took the call builds
 * the file, puts it in the shared store and records here where it is, or why it failed; the
 * console fetches it with `export/file` from whichever instance answers. One row per download,
 * its user's only; removed when fetched, swept when left.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('export_downloads')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('filename', 'text')
    .addColumn('content_type', 'text')
    .addColumn('file_key', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('export_downloads_pk', ['user_id', 'id'])
    .execute();
  await db.schema.createIndex('export_downloads_updated').on('export_downloads').column('updated_at').execute();
}
