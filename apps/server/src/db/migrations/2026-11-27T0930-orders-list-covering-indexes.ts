import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { createIndexOnline, dropIndexOnline } from '../online-index.ts';

/**
 * The order list's slowest pages at 1M orders (bench/orders-probe.ts, issue 29) combined a
 * sort index with a filter it does not hold: status + print flag for an operator, customer +
 * status + recipient name, status + channel. The index gave the order, but every entry cost a
 * lookup of its whole row (about 850 bytes, in creation-time order, so scattered) just to test
 * one more column, and a filter matching few rows read the scope's rows to the end, twice (the
 * page and its count): 0.4–1.6 s. With the filtered columns in the index SQLite tests them on
 * the index entry and reads a row only when it matches (its deferred seek), and on PostgreSQL
 * the count and the page's ids become index-only scans: the same pages take 20–45 ms.
 *
 * So each index a list sort reads is replaced by one with the same leading columns, then `id`
 * (the list's last tie-break, so the whole ORDER BY is the index's order: orders.list.repository
 * SORT_ORDER), then every column a list filter tests equality on (on PostgreSQL as INCLUDE
 * columns). Replacing, not adding: the number of indexes an insert writes stays the same, only
 * the entries grow. `batch_id` is there because a staged batch hides its orders from every list
 * (domain/order-writer.ts visibleOrders); `print_count` because a sort by it over a status or
 * channel filter reads the status or channel index and sorts its matches (it costs a print no
 * index write: a print sets `print_flag`, already in every one). Dropping the old ones at once
 * is safe for an instance of the previous release: each new index has the old one's columns as
 * its prefix.
 *
 * Built online like 2026-11-27T0915 (db/online-index.ts), and SQLite's statistics refreshed
 * where they exist, for the same reason as there.
 */
/** Read by the list's filters and its print-count sort: carried in every index below. */
const FILTERED = [
  'customer_id',
  'status',
  'channel_code',
  'print_flag',
  'intercepted',
  'released',
  'recipient_name',
  'batch_id',
  'print_count',
];
/**
 * [replaced index, its columns, the new index], in the order they are built. SQLite weighs two
 * indexes of equal cost by taking the newer one, and an agent's page (customer_id IN several,
 * newest first) costs the same on the customer + creation time index as on the customer + print
 * count one, which cannot give that order: built last, the creation time indexes win (0.3 ms
 * for that page at 1M orders; 0.2–0.5 s when the print count ones were built after them).
 */
export const ORDER_LIST_COVERING: [string, string[], string][] = [
  [
    'orders_customer_print_created',
    ['customer_id', 'print_count', 'created_at'],
    'orders_customer_print_created_cover',
  ],
  ['orders_print_created', ['print_count', 'created_at'], 'orders_print_created_cover'],
  [
    'orders_customer_channel_created',
    ['customer_id', 'channel_code', 'created_at'],
    'orders_customer_channel_created_cover',
  ],
  ['orders_channel_created', ['channel_code', 'created_at'], 'orders_channel_created_cover'],
  ['orders_customer_status_created', ['customer_id', 'status', 'created_at'], 'orders_customer_status_created_cover'],
  ['orders_status_created', ['status', 'created_at'], 'orders_status_created_cover'],
  ['orders_created', ['created_at'], 'orders_created_cover'],
  ['orders_customer_created', ['customer_id', 'created_at'], 'orders_customer_created_cover'],
];

export const transactional = false;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [old, columns, name] of ORDER_LIST_COVERING) {
    await createIndexOnline(db, {
      name,
      table: 'orders',
      columns: [...columns, 'id'],
      include: FILTERED.filter((c) => !columns.includes(c)),
    });
    await dropIndexOnline(db, old);
  }
  if (dialectOf(db) === 'sqlite') {
    const analysed = await sql`select 1 from sqlite_master where name = 'sqlite_stat1'`.execute(db);
    if (analysed.rows.length) await sql`analyze orders`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [old, columns, name] of ORDER_LIST_COVERING) {
    await createIndexOnline(db, { name: old, table: 'orders', columns });
    await dropIndexOnline(db, name);
  }
}
