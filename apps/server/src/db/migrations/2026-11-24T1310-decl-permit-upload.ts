import type { Kysely } from 'kysely';

/**
 * Export permits (issue 15): only operators upload the permit PDF a customs broker returns, so
 * its upload is a permission of its own (a hidden element route); the declaration page itself
 * was granted to every role by the core migration.
 */
const ROUTE = 'order.exportDeclarations.uploadPermit';

export async function up(db: Kysely<any>): Promise<void> {
  await db.insertInto('role_permissions').values({ role: 'operator', route_name: ROUTE }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('role_permissions').where('route_name', '=', ROUTE).execute();
}
