import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * A download's builder beats while it builds (issue 38, async orphans): a `running` row whose
 * beat is older than a bound has lost its builder (the instance was killed or redeployed) and is
 * answered as failed. Null: a row of a builder from before this column, which never beats and is
 * left to the sweep.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('export_downloads').addColumn('heartbeat_at', types(db).time).execute();
}
