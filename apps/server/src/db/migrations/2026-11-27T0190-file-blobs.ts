import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Files' bytes in the database (FILE_STORE=database, the default on PostgreSQL): several
 * instances on one database then read each other's previews, error workbooks and PDFs with no
 * shared folder or bucket. Keyed by the same storage key `files.storage_key` and
 * `batches.parsed_key` hold, so a store is swapped without touching those rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('file_blobs')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('data', t.blob, (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();
}
