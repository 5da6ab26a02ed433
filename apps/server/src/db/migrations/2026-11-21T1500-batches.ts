import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Batch import: the persisted preview (counts, first errors, confirmations asked,
 * duplicates) and a heartbeat, so a batch whose server died mid-import is
 * reported failed rather than running forever.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema.alterTable('batches').addColumn('preview', 'text').execute();
  await db.schema.alterTable('batches').addColumn('heartbeat_at', t.time).execute();
  await db.schema.createIndex('batches_status').on('batches').column('status').execute();
}

export async function down(): Promise<void> {
  throw new Error('Frozen migration.');
}
