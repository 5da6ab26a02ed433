import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { createIndexOnline, dropIndexOnline } from '../online-index.ts';

/**
 * The order list's sorts by print count and channel read every order of the scope and sorted
 * them (0.5 s for a customer's page at 200,000 orders, 0.7–1.5 s at 1M: bench/orders-probe.ts),
 * and so did a customer's sort by waybill. Each index below gives one sort its order, so a page
 * reads its rows and stops. Sorts by a column with ties break them by creation time, then id
 * (orders.repository SORT_ORDER), so the indexes on customer and status or channel already
 * serve a customer's sort by status or channel; only the ones below were missing.
 * Every index is written by every insert: four, not the eight an id tie-break would need.
 *
 * Built online (issue 30 #7, db/online-index.ts): on PostgreSQL `CREATE INDEX CONCURRENTLY`,
 * outside the other migrations' transaction, so a million-order table keeps taking imports and
 * scans while they build; a repeat after an interrupted build ends with valid indexes.
 *
 * SQLite keeps its planner statistics per index (sqlite_stat1): on a database analysed before,
 * the new indexes without statistics looked cheaper than they are, and a customer's sort by
 * channel read 100,000 rows through the waybill index (0.3 s instead of 0.1 ms). So where
 * statistics exist the table is analysed again; PostgreSQL's statistics are per column and
 * need nothing.
 */
export const ORDER_SORT_INDEXES: [string, string[]][] = [
  ['orders_customer_print_created', ['customer_id', 'print_count', 'created_at']],
  ['orders_print_created', ['print_count', 'created_at']],
  ['orders_channel_created', ['channel_code', 'created_at']],
  ['orders_customer_waybill', ['customer_id', 'waybill_no']],
];

export const transactional = false;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of ORDER_SORT_INDEXES) await createIndexOnline(db, { name, table: 'orders', columns });
  if (dialectOf(db) === 'sqlite') {
    const analysed = await sql`select 1 from sqlite_master where name = 'sqlite_stat1'`.execute(db);
    if (analysed.rows.length) await sql`analyze orders`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of ORDER_SORT_INDEXES) await dropIndexOnline(db, name);
}
