import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { createIndexOnline, dropIndexOnline } from '../online-index.ts';

/** What the storage-order list filters on and sorts by besides time and customer. */
const STORAGE_FILTERED = ['method', 'origin', 'line_count', 'received_count', 'refused_count'];

/**
 * The batch, interception and storage-order lists at 200,000 rows (bench/lists.ts, issue 29): sorted by
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
 * - Storage orders: the two creation-time indexes replaced by ones ending in `id` and carrying
 *   what the list filters on and sorts by, so an agent's page sorted by a count (two customers'
 *   ranges, which no index merges) sorts index entries, not rows: 50-70 ms before.
 * - The audit log's target search: a trigram index on PostgreSQL (auditTargetTrigrams below).
 * Interceptions and batches are written a few at a time, by people: the extra index entries cost
 * their inserts nothing a user sees. A storage order's counts change with each scan into it:
 * its two index entries are rewritten in the scan's transaction.
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

  await createIndexOnline(db, {
    name: 'storage_orders_created_cover',
    table: 'storage_orders',
    columns: ['created_at', 'id'],
    include: ['customer_id', ...STORAGE_FILTERED],
  });
  await createIndexOnline(db, {
    name: 'storage_orders_customer_created_cover',
    table: 'storage_orders',
    columns: ['customer_id', 'created_at', 'id'],
    include: STORAGE_FILTERED,
  });
  await dropIndexOnline(db, 'storage_orders_created');
  await dropIndexOnline(db, 'storage_orders_customer_created');
  await auditTargetTrigrams(db);
  if (dialectOf(db) === 'sqlite') {
    const analysed = await sql`select 1 from sqlite_master where name = 'sqlite_stat1'`.execute(db);
    if (analysed.rows.length)
      for (const table of ['batches', 'order_interceptions', 'storage_orders'])
        await sql`analyze ${sql.id(table)}`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropIndexOnline(db, 'audit_log_target_trgm');
  await createIndexOnline(db, {
    name: 'storage_orders_customer_created',
    table: 'storage_orders',
    columns: ['customer_id', 'created_at'],
  });
  await createIndexOnline(db, { name: 'storage_orders_created', table: 'storage_orders', columns: ['created_at'] });
  await dropIndexOnline(db, 'storage_orders_customer_created_cover');
  await dropIndexOnline(db, 'storage_orders_created_cover');
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

/**
 * The audit log's target search is a `contains` (ILIKE '%…%'): on PostgreSQL, 165-245 ms at
 * 200,000 rows reading every row. A trigram index serves it. `pg_trgm` ships with PostgreSQL
 * (contrib) and is a trusted extension, so the database's owner may create it; where it is not
 * installed, or may not be created, the search keeps reading every row, as on SQLite (no
 * trigram B-tree there; 60-85 ms at 200,000 rows).
 */
async function auditTargetTrigrams(db: Kysely<any>) {
  if (dialectOf(db) !== 'postgres') return;
  const available = await sql`select 1 from pg_available_extensions where name = 'pg_trgm'`.execute(db);
  if (!available.rows.length) return;
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
  } catch {
    return; // not allowed here: the search works without the index, only slower.
  }
  await createIndexOnline(db, {
    name: 'audit_log_target_trgm',
    table: 'audit_log',
    using: 'gin',
    columns: ['target gin_trgm_ops'],
  });
}
