import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { createIndexOnline, dropIndexOnline } from '../online-index.ts';

/**
 * The order list's slowest pages left at 1M orders (bench/orders-probe.ts, issue 29) filtered by a
 * recipient's name: `orders_recipient_name` (the name alone) found the name's orders, then read
 * each one's row to test the other filters and sorted all of them to cut a page — 85–100 ms for an
 * operator's or an agent's page when a name matches an eighth of the table (the bench's eight
 * names). Replaced, like 2026-11-27T0930's sort indexes, by one with the same leading column, then
 * creation time and `id` (the list's default order, so that page is read off the index in order),
 * then every column the list filters on or sorts by (on PostgreSQL as INCLUDE columns): a page by
 * name is 0.2 ms, sorted by order number 10 ms (a sort of index entries, no row read). Replacing,
 * not adding: an insert writes as many indexes as before, and a look-up by name still leads with
 * the name.
 */
const CARRIED = [
  'customer_id',
  'status',
  'channel_code',
  'print_flag',
  'intercepted',
  'released',
  'batch_id',
  'print_count',
  'order_no',
  'waybill_no',
];

export const transactional = false;

export async function up(db: Kysely<any>): Promise<void> {
  await createIndexOnline(db, {
    name: 'orders_recipient_name_created_cover',
    table: 'orders',
    columns: ['recipient_name', 'created_at', 'id'],
    include: CARRIED,
  });
  await dropIndexOnline(db, 'orders_recipient_name');
  if (dialectOf(db) === 'sqlite') {
    const analysed = await sql`select 1 from sqlite_master where name = 'sqlite_stat1'`.execute(db);
    if (analysed.rows.length) await sql`analyze orders`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await createIndexOnline(db, { name: 'orders_recipient_name', table: 'orders', columns: ['recipient_name'] });
  await dropIndexOnline(db, 'orders_recipient_name_created_cover');
}
