import type { Kysely } from 'kysely';
import { createIndexOnline, dropIndexOnline } from '../online-index.ts';

/**
 * Issue 36 #6: an audit row about one customer's data names that customer, so the customer can
 * read the rows about its own records (the tombstones of its deleted orders) without the admin's
 * whole log. Null for rows about no one customer (a global rule, a sign-in). The index serves the
 * customer's page: its rows of one action, newest first. Built online: `audit_log` takes writes
 * during a deploy; a nullable column with no default is a catalogue change on PostgreSQL.
 */
export const transactional = false;

const INDEX = { name: 'audit_log_customer', table: 'audit_log', columns: ['customer_id', 'action', 'at', 'id'] };

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('customer_id', 'integer').execute();
  await createIndexOnline(db, INDEX);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropIndexOnline(db, INDEX.name);
  await db.schema.alterTable('audit_log').dropColumn('customer_id').execute();
}
