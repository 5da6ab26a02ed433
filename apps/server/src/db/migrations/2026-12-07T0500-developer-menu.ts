import type { Kysely } from 'kysely';

/**
 * Issue 39 item 5: the Developers menu's section (`developer`) for customers and agents, who
 * already hold its two pages (developer.apiKeys, developer.webhooks); a page shows in the menu
 * only under a section the role holds. The admin holds every route.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('role_permissions')
    .values(['customer', 'agent'].map((role) => ({ role, route_name: 'developer' })))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('role_permissions').where('route_name', '=', 'developer').execute();
}
