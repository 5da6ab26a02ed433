import type { Kysely } from 'kysely';

/**
 * Agents do not add or see ID cards (docs/decisions.md, finding 6 of issue 10): the grant made
 * their menu show a page whose every call is refused. The service refuses them whatever the
 * grants say (id-cards.rules.ts); this only keeps the menu honest.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .deleteFrom('role_permissions')
    .where('role', '=', 'agent')
    .where('route_name', '=', 'order.idCard')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.insertInto('role_permissions').values({ role: 'agent', route_name: 'order.idCard' }).execute();
}
