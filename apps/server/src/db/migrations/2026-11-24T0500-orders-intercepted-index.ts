import { type Kysely, sql } from 'kysely';

/**
 * The order list's "intercepted" filter read every order of the scope to find the few
 * intercepted ones (0.2–0.6 s a page at 1M orders, bench/orders-probe.ts). A partial index holds
 * only intercepted orders: no new order is intercepted, so imports never write to it.
 * The list adds the literal `intercepted = 1` beside its bound filter so both databases may
 * choose it (orders.repository listPage).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('orders_intercepted')
    .on('orders')
    .columns(['customer_id', 'created_at'])
    .where(sql<boolean>`intercepted = 1`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_intercepted').execute();
}
