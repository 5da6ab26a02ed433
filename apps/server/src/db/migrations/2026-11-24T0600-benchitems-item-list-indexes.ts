import type { Kysely } from 'kysely';

/**
 * Indexes for the item list (bench:items, issue 12). With 100,000 items (40,000 of one
 * customer) every filter but dates and every sort but creation time and JAN read the
 * customer's whole slice of the table: a count with a status, brand, category or name filter
 * took 50–90 ms, a page sorted by update time, name or status 60–80 ms, and an operator's
 * first page sorted the whole table (14 ms). Each index below lets one of them read only
 * index entries, in order, and stop after the page:
 * - status filter (count and page, newest first); sort by status reads it too;
 * - an operator's or agent's list across customers, newest first;
 * - sort by update time (a customer's, and across customers: an operator's 'approved, last
 *   changed first' sorted 70,000 rows, 740 ms); sort by name, and the name filter's count (the three names are in
 *   the index, so the LIKE reads index entries instead of 40,000 rows);
 * - brand and category filters (count and page, newest first).
 */
const INDEXES: [string, string[]][] = [
  ['items_customer_status_created', ['customer_id', 'status', 'created_at']],
  ['items_created', ['created_at']],
  ['items_customer_updated', ['customer_id', 'updated_at']],
  ['items_updated', ['updated_at']],
  ['items_customer_names', ['customer_id', 'name_zh', 'name_en', 'name_ja']],
  ['items_customer_brand_created', ['customer_id', 'brand_id', 'created_at']],
  ['items_customer_category_created', ['customer_id', 'category_id', 'created_at']],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of INDEXES) await db.schema.createIndex(name).on('items').columns(columns).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
}
