import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Export nominations get their own pages (issue 13): the table of the core migration gains the
 * time of the last change (the list shows it) and an index for the list's usual read (a
 * customer's nominations, newest first). The edit pages are granted to every role that holds
 * the list; the calls still check the caller's scope (a customer its own, an agent its
 * customers').
 */
const ROUTES = ['exports.update', 'exports.updateReceiveEmail'];
const ROLES = ['customer', 'agent', 'operator'];

export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema.alterTable('export_nominations').addColumn('updated_at', t.time).execute();
  await db.schema
    .createIndex('export_nominations_customer_created')
    .on('export_nominations')
    .columns(['customer_id', 'created_at'])
    .execute();
  await db
    .insertInto('role_permissions')
    .values(ROLES.flatMap((role) => ROUTES.map((route_name) => ({ role, route_name }))))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('role_permissions').where('route_name', 'in', ROUTES).execute();
  await db.schema.dropIndex('export_nominations_customer_created').execute();
  await db.schema.alterTable('export_nominations').dropColumn('updated_at').execute();
}
