import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Waybill ranges reserved for a batch commit, with their owner (issue 26 finding 9). A commit
 * reserves its numbers in a short transaction of its own before writing (so the segment's row is
 * not locked for the whole commit); the row written in that same transaction names the batch.
 * The commit that lands removes its rows with the batch's `done`; one that fails, or is found
 * interrupted after a `kill -9`, gives its ranges back: the counter is set back when nothing was
 * drawn after the range, else the row stays with `batch_id` null, a returned range that the next
 * allocations of the segment take before the counter moves on.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('waybill_reservations')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('segment_id', 'integer', (c) => c.notNull().references('number_segments.id'))
    .addColumn('first_seq', t.big, (c) => c.notNull())
    .addColumn('last_seq', t.big, (c) => c.notNull())
    // The committing batch; null: returned, free to hand out again.
    .addColumn('batch_id', 'integer', (c) => c.references('batches.id'))
    .execute();
  await db.schema
    .createIndex('waybill_reservations_segment')
    .on('waybill_reservations')
    .columns(['segment_id', 'batch_id', 'first_seq'])
    .execute();
  await db.schema.createIndex('waybill_reservations_batch').on('waybill_reservations').column('batch_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are frozen once landed.');
}
