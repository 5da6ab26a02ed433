import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Batch previews leave the server's memory: `parsed_key` names the stored file of the parsed
 * orders awaiting confirmation, `preview_until` when an unconfirmed preview expires (issue 10
 * finding 5).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema.alterTable('batches').addColumn('parsed_key', 'text').execute();
  await db.schema.alterTable('batches').addColumn('preview_until', t.time).execute();
}

export async function down(): Promise<void> {
  throw new Error('Frozen migration.');
}
