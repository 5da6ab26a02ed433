import type { Kysely } from 'kysely';
import { types } from '../dialect.ts';

/**
 * Administration (issue 17): the audit log, the must-change-password flag of accounts made
 * with a one-time password, the customer's contact, and the System menu's routes for operators
 * (admin-none sees every route without rows).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('audit_log')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('at', t.time, (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
  await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'at']).execute();

  await db.schema
    .alterTable('users')
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  for (const col of ['contact_name', 'contact_phone', 'contact_email']) {
    await db.schema
      .alterTable('customers')
      .addColumn(col, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }

  await db
    .insertInto('role_permissions')
    .values(
      ['system', 'system.customers', 'system.users', 'system.audit'].map((route_name) => ({
        role: 'operator',
        route_name,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .deleteFrom('role_permissions')
    .where('route_name', 'in', ['system', 'system.customers', 'system.users', 'system.audit'])
    .execute();
  await db.schema.dropTable('audit_log').execute();
}
