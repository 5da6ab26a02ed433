import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Download progress in the database (issue 27): the console polls `export/progress` through the
 * load balancer, and the instance that answers is often not the one building the workbook.
 * Rows are short-lived (ten minutes after their last change), keyed by the user and the random
 * id the console gave the download.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('export_progress')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('progress_id', 'text', (c) => c.notNull())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer')
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('export_progress_pk', ['user_id', 'progress_id'])
    .execute();
  await db.schema.createIndex('export_progress_updated').on('export_progress').column('updated_at').execute();
}
