import type { Kysely } from 'kysely';

/**
 * Issue 26, finding 1: receiving and weighing are the warehouse's moves. A customer's or agent's
 * storage entry becomes a pre-alert: it receives nothing and its weight is the declared one,
 * kept apart from the weight the warehouse measured (`orders.gross_weight_g`, what charges use).
 * `storage_orders.pre_alert` marks such entries; `orders.declared_weight_g` keeps the latest
 * declared weight (null: none declared). Operators may re-weigh a received order
 * (`storageOrder.reweigh`; admin-none holds every route).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('declared_weight_g', 'integer').execute();
  await db.schema
    .alterTable('storage_orders')
    .addColumn('pre_alert', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.insertInto('role_permissions').values({ role: 'operator', route_name: 'storageOrder.reweigh' }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('role_permissions').where('route_name', '=', 'storageOrder.reweigh').execute();
  await db.schema.alterTable('storage_orders').dropColumn('pre_alert').execute();
  await db.schema.alterTable('orders').dropColumn('declared_weight_g').execute();
}
