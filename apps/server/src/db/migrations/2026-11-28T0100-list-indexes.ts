import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { createIndexOnline, dropIndexOnline } from '../online-index.ts';

/**
 * The batch and interception lists at 200,000 rows (bench/lists.ts, issue 29). Both sorted by
 * creation time with no index in that order for an operator (batches) or in `(…, id)` order, and
 * counted by reading every matching row to test its filters: an operator's first page of batches
 * took 170 ms, an interception list sorted by order number 140 ms.
 * - Batches: `(created_at, id)` for the unscoped list; the customer's `(customer_id, created_at)`
 *   and the status's `(status)` replaced by ones ending in creation time and `id`, so a page in a
 *   status is read in order (with the status alone, the planner took it for a status nine batches
 *   in ten have, and sorted them: 85 ms). All three carry the other filtered columns, the batch
 *   number too, so a filtered count and the number's "contains" search read index entries only.
 * - Interceptions: the two creation-time indexes replaced the same way, carrying the customer and
 *   `cancelled_at` (the status filter); order-number indexes, unscoped and per customer, serve the
 *   order-number sort and the number search by order number.
 * Interceptions and batches are written a few at a time, by people: the extra index entries cost
 * their inserts nothing a user sees.
 */
export const transactional = false;

export async function up(db: Kysely<any>): Promise<void> {
  await createIndexOnline(db, {
    name: 'batches_created_cover',
    table: 'batches',
    columns: ['created_at', 'id'],
    include: ['customer_id', 'channel_code', 'status', 'batch_no'],
  });
  await createIndexOnline(db, {
    name: 'batches_customer_created_cover',
    table: 'batches',
    columns: ['customer_id', 'created_at', 'id'],
    include: ['channel_code', 'status', 'batch_no'],
  });
  await createIndexOnline(db, {
    name: 'batches_status_created_cover',
    table: 'batches',
    columns: ['status', 'created_at', 'id'],
    include: ['customer_id', 'channel_code', 'batch_no'],
  });
  await dropIndexOnline(db, 'batches_status');
  await dropIndexOnline(db, 'batches_customer_created');

  await createIndexOnline(db, {
    name: 'order_interceptions_created_cover',
    table: 'order_interceptions',
    columns: ['created_at', 'id'],
    include: ['customer_id', 'cancelled_at'],
  });
  await createIndexOnline(db, {
    name: 'order_interceptions_customer_created_cover',
    table: 'order_interceptions',
    columns: ['customer_id', 'created_at', 'id'],
    include: ['cancelled_at'],
  });
  await createIndexOnline(db, {
    name: 'order_interceptions_order_no',
    table: 'order_interceptions',
    columns: ['order_no', 'id'],
    include: ['customer_id', 'cancelled_at'],
  });
  await createIndexOnline(db, {
    name: 'order_interceptions_customer_order_no',
    table: 'order_interceptions',
    columns: ['customer_id', 'order_no', 'id'],
    include: ['cancelled_at'],
  });
  await dropIndexOnline(db, 'order_interceptions_created');
  await dropIndexOnline(db, 'order_interceptions_customer_created');
  if (dialectOf(db) === 'sqlite') {
    const analysed = await sql`select 1 from sqlite_master where name = 'sqlite_stat1'`.execute(db);
    if (analysed.rows.length) {
      await sql`analyze batches`.execute(db);
      await sql`analyze order_interceptions`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await createIndexOnline(db, {
    name: 'order_interceptions_customer_created',
    table: 'order_interceptions',
    columns: ['customer_id', 'created_at'],
  });
  await createIndexOnline(db, {
    name: 'order_interceptions_created',
    table: 'order_interceptions',
    columns: ['created_at'],
  });
  for (const name of [
    'order_interceptions_customer_order_no',
    'order_interceptions_order_no',
    'order_interceptions_customer_created_cover',
    'order_interceptions_created_cover',
  ])
    await dropIndexOnline(db, name);
  await createIndexOnline(db, {
    name: 'batches_customer_created',
    table: 'batches',
    columns: ['customer_id', 'created_at'],
  });
  await dropIndexOnline(db, 'batches_customer_created_cover');
  await dropIndexOnline(db, 'batches_created_cover');
}
