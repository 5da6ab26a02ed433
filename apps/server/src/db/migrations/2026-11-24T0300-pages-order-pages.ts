import type { Kysely } from 'kysely';

/**
 * The order pages the spec names that had no screen (issue 11 #15): an order's items, batch
 * sender and updates. Every role that may change its orders gets them; the calls still check
 * the caller's scope (a customer its own orders, an agent its customers').
 */
const ROUTES = ['order.items', 'order.batchSender', 'order.updates'];
const ROLES = ['customer', 'agent', 'operator'];

export async function up(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('role_permissions')
    .values(ROLES.flatMap((role) => ROUTES.map((route_name) => ({ role, route_name }))))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('role_permissions').where('route_name', 'in', ROUTES).execute();
}
