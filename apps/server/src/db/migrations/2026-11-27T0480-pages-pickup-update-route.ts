import { type Kysely, sql } from 'kysely';

/**
 * The pickup update page (issue 28 #16, spec §2 "subscribeTake: … update"): a hidden route every
 * role that may book a pickup holds, as `subscribe/take/piece/update` needs `subscribeTake.create`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('role_permissions')
    .columns(['role', 'route_name'])
    .expression(
      db
        .selectFrom('role_permissions')
        .select(['role', sql<string>`'subscribeTake.update'`.as('route_name')])
        .where('route_name', '=', 'subscribeTake.create'),
    )
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are frozen once landed.');
}
